"""Legal moves as data: what a caller may do now, with the choices still open in each move.

An offer is plain JSON, the same for a phone, a computer player and a test:

    {"type": "cast", "for": "p2", "payload": {"spellbook": 0}, "pick": [Pick, ...], "label": "..."}

`payload` is the body as far as it is settled, `for` the seat (or "host") the move is made for, and
`pick` the choices left, each a Pick:

    {"field": "payment", "one_of": [Option, ...]}          choose one option's value
    {"field": "delta", "range": [low, high]}               a whole number from low to high
    {"field": "gems", "some_of": [{"value": v, "count": n}, ...], "size": [low, high]}
                                                           a list of low to high of the values, each
                                                           at most its count times, in any order

and an Option `{"value": v, "label": "...", "pick": [Pick, ...]}` may open choices of its own once
chosen (which squares a piece may go to, once the piece is chosen), and carry what a phone draws
it with (the squares a way of casting a spell covers), which completing it ignores. A field is a dotted path into
the body: "choices.attack.0.player" sets body["choices"]["attack"][0]["player"].

The promise every game keeps, and the property tests hold it to: every completion of an offer (a
value for each pick, and for each chosen option its own picks) is a move the server accepts now.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any


def one_of(field: str, options: list, labels: dict | None = None) -> dict:
    """A pick of one of `options`: plain values, or options made with `option()`."""
    made = [o if isinstance(o, dict) and "value" in o else option(o, (labels or {}).get(_key(o))) for o in options]
    return {"field": field, "one_of": made}


def option(value: Any, label: str | None = None, pick: list[dict] | None = None) -> dict:
    """One option of a `one_of` pick; `pick`: the choices it opens once chosen."""
    made: dict = {"value": value}
    if label is not None:
        made["label"] = label
    if pick:
        made["pick"] = pick
    return made


def whole_number(field: str, low: int, high: int) -> dict:
    return {"field": field, "range": [low, high]}


def some_of(field: str, counts: dict | list[tuple[Any, int]], low: int, high: int | None = None) -> dict:
    """A pick of `low` to `high` (default: `low`) items, each value at most its count times."""
    pairs = counts.items() if isinstance(counts, dict) else counts
    return {
        "field": field,
        "some_of": [{"value": v, "count": n} for v, n in pairs if n > 0],
        "size": [low, low if high is None else high],
    }


def offer(payload: dict | None = None, pick: list[dict] | None = None, label: str | None = None) -> dict:
    """One offer of a move (its type and seat are added by the flow)."""
    made: dict = {"payload": payload or {}}
    if pick:
        made["pick"] = pick
    if label is not None:
        made["label"] = label
    return made


def open_choices(found: dict) -> bool:
    return bool(found.get("pick"))


# --- completing an offer ------------------------------------------------------------------


def sample(found: dict, rng: random.Random) -> dict:
    """A random completion of an offer: the body to send."""
    body = copy.deepcopy(found.get("payload", {}))
    _fill(body, found.get("pick", []), rng)
    return body


def first(found: dict) -> dict:
    """The first completion of an offer (the first option of each pick, the low end of each range)."""
    body = copy.deepcopy(found.get("payload", {}))
    _fill(body, found.get("pick", []), None)
    return body


def _fill(body: dict, picks: list[dict], rng: random.Random | None) -> None:
    for pick in picks:
        if "one_of" in pick:
            options = pick["one_of"]
            chosen = rng.choice(options) if rng else options[0]
            place(body, pick["field"], copy.deepcopy(chosen["value"]))
            _fill(body, chosen.get("pick", []), rng)
        elif "range" in pick:
            low, high = pick["range"]
            place(body, pick["field"], rng.randint(low, high) if rng else low)
        else:
            low, high = pick["size"]
            pool = [item["value"] for item in pick["some_of"] for _ in range(item["count"])]
            size = min(rng.randint(low, high) if rng else low, len(pool))
            place(body, pick["field"], copy.deepcopy(rng.sample(pool, size) if rng else pool[:size]))


def completions(found: dict, most: int = 10_000) -> Iterator[dict]:
    """Every completion of an offer, up to `most` (a range or a choice of several yields each)."""
    count = 0
    for body in _every(copy.deepcopy(found.get("payload", {})), list(found.get("pick", []))):
        yield body
        count += 1
        if count >= most:
            return


def _every(body: dict, picks: list[dict]) -> Iterator[dict]:
    if not picks:
        yield body
        return
    pick, rest = picks[0], picks[1:]
    if "one_of" in pick:
        for chosen in pick["one_of"]:
            made = copy.deepcopy(body)
            place(made, pick["field"], copy.deepcopy(chosen["value"]))
            yield from _every(made, list(chosen.get("pick", [])) + rest)
    elif "range" in pick:
        low, high = pick["range"]
        for n in range(low, high + 1):
            made = copy.deepcopy(body)
            place(made, pick["field"], n)
            yield from _every(made, rest)
    else:
        low, high = pick["size"]
        for chosen in _multisets([(item["value"], item["count"]) for item in pick["some_of"]], low, high):
            made = copy.deepcopy(body)
            place(made, pick["field"], chosen)
            yield from _every(made, rest)


def _multisets(items: list[tuple[Any, int]], low: int, high: int) -> Iterator[list]:
    """Each multiset of `low` to `high` items (a value at most its count times), as a list."""

    def grow(i: int, taken: list) -> Iterator[list]:
        if i == len(items):
            if low <= len(taken) <= high:
                yield list(taken)
            return
        value, count = items[i]
        for n in range(0, min(count, high - len(taken)) + 1):
            yield from grow(i + 1, taken + [copy.deepcopy(value) for _ in range(n)])

    yield from grow(0, [])


def place(body: dict, path: str, value: Any) -> None:
    """Set the dotted `path` of `body` to `value`, making the objects and lists on the way."""
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    here: Any = body
    for key, after in zip(keys, keys[1:], strict=False):
        blank = [] if isinstance(after, int) else {}
        if isinstance(key, int):
            while len(here) <= key:
                here.append({} if not isinstance(after, int) else [])
            if here[key] is None:
                here[key] = blank
        elif here.get(key) is None:
            here[key] = blank
        here = here[key]
    last = keys[-1]
    if isinstance(last, int):
        while len(here) <= last:
            here.append(None)
    here[last] = value


def _key(value: Any) -> Any:
    return value if isinstance(value, str | int | float | bool) or value is None else repr(value)
