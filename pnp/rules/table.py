"""A game at the table is a log of actions; its state is the fold of that log through the game's
tracker. Pure: no Flask, no database, no clock (each entry carries its own time).

A tracker (one per game, pnp.games.<game>.tracker.TRACKER) is a plain definition:

- `Options`: the pydantic model of a new table's options (a variant, how many players),
- `actions`: action type -> pydantic model of its payload, which validates what a phone sends
  and documents the API,
- `setup(content, options) -> state`, `join(state, player_id, name) -> state`,
- `apply(content, state, actor, action) -> state`, raising `Refused` with a reason a player
  understands ("That costs 5; you have 3") when the rules forbid it now,
- `who`: action type -> `Who` may make it (the host, a seated player, either, the host or the
  event's organiser, or the player whose turn it is), checked by `act` before `apply` sees the
  action; `seated(state)`, the player ids sitting at the table, and `turn(state)`, the player
  whose turn it is, for the roles that need them,
- `view(state, viewer) -> dict`: what that viewer may see (see Viewers below),
- `results(state) -> list[dict]`: one row per player (name first), for the results export;
- optionally `draw(content, state, actor, action, chance) -> action`: what the server's chance
  adds to an action before it is checked and recorded (the dice of a roll, a deal), so a phone
  never chooses it and a replay repeats it; and `layout(content) -> dict`: what a game's pages
  draw with and never changes during play (a sheet's rows), sent once rather than with every event;
  `final`, the action types that cannot be undone, and `final_entry(entry)`, why one entry cannot
  be (a move that drew from a bag, when its type's other moves may be undone), or None; and
  `ranking(row)`, the key that orders results rows from many tables (an event's leaderboard: its
  `layout` names the dice, the rounds and, as `leaderboard`, the words for its columns); and
  `redact(entry, viewer) -> payload`, for a game with secrets (a hand, a bag, a face-down card):
  the entry's payload as that viewer may see it ("Ann drew 2 cards", not which); and, for a game
  that runs events, `round_done(state)`: the last round the table has played to its end (0 before
  the first; None before the game has begun), so an organiser sees how many tables are still
  playing before rolling the next round.

Viewers: each seated player (their player id), the host (HOST) and anyone without a token
(SPECTATOR: a projector, a follower), who sees only what is public. A game without `redact` hides
nothing: every viewer gets the same entries and live messages. A game with it hides in `view`
too, and every view, history entry, export and live message is made for its viewer (`seen_by`).
Results are public: they hold no secret.

Seats without a phone: the host may seat a player by name and make their moves for them. Such a
move is the player's own (its actor is theirs, so the rules and roles treat it as any of theirs)
and records who made it (`by`: HOST); the host sees that seat as its player would. A phone that
asks for such a seat (CLAIM) holds it once the host gives it (ANSWER); replay skips both.

States are JSON-ready dicts, never changed in place: each step returns a new one.

Undo is an action of its own ("undo", naming the seq it takes back): replay skips the entry it
names. A player may take back their own latest standing action; the host, anyone's latest. A
`final` action (a roll, a draw) is never taken back: undoing it would be a reroll or a redraw.
Replay applies the cards and dice recorded in the log, never new ones, so taking back an action
before a draw leaves the draw as it was, and one the draw depends on (a card discarded into the
bag it was drawn from) is refused like any other that later moves depend on.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any, Protocol

from pydantic import BaseModel, Field

from pnp.rules.bodies import strictly

HOST = "host"  # the actor id of the table's host; players' ids are their player ids
EVENT = "event"  # the actor id of the organiser of the event a table plays in (its shared dice)
JOIN = "join"  # payload {"name"}: a player sits down (by the host: a seat without a phone of its own)
UNDO = "undo"  # payload {"seq"}: take back that action
CLAIM = "claim_seat"  # actor: a seat without a phone, which a phone asks to hold
ANSWER = "answer_seat"  # the host's, payload {"seat", "given"}: whether the phone that asked holds that seat now
# the table's own entries, not the game's (replay applies none but a join): no game's action has these names
RESERVED = frozenset({JOIN, UNDO, CLAIM, ANSWER})
SPECTATOR = None  # the viewer without a token: sees only what is public


class Refused(Exception):
    """The rules forbid this action now; the message says why, in a player's words."""


class NotYours(Refused):
    """Not this actor's to make, whenever it is: a host's move, or another player's."""


# Who may make an action: the roles a tracker's `who` gives its action types.
HOST_ONLY = "host"
PLAYER = "player"  # a player seated at the table
HOST_OR_PLAYER = "host or player"
HOST_OR_EVENT = "host or event"  # a table's dice: its host's, or its event's organiser's
TURN = "turn"  # the player whose turn it is; the host may make it for them


@dataclass(frozen=True)
class Who:
    """Who may make an action, and what anyone else is told: words, or words made from the state
    ("It is Ann's turn.")."""

    role: str
    refusal: str | Callable[[dict], str]


@dataclass(frozen=True)
class Entry:
    """One action in a table's log."""

    seq: int  # 1, 2, 3, ... per table, never reused
    actor: str  # HOST or a player id
    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    at: str = ""  # ISO 8601 time it was recorded (UTC), for the history
    by: str | None = None  # who made it for the actor (HOST, for a seat without a phone), if not the actor


class Tracker(Protocol):
    game: str
    Options: type[BaseModel]
    actions: dict[str, type[BaseModel]]
    draw: Callable | None
    layout: Callable | None
    final: frozenset[str]
    final_entry: Callable[[Entry], str | None] | None
    ranking: Callable | None
    who: Mapping[str, Who]
    seated: Callable[[dict], Collection[str]] | None
    turn: Callable[[dict], str | None] | None
    redact: Callable | None
    round_done: Callable[[dict], int | None] | None

    def setup(self, content, options: BaseModel) -> dict: ...

    def join(self, state: dict, player_id: str, name: str) -> dict: ...

    def apply(self, content, state: dict, actor: str, action: BaseModel) -> dict: ...

    def view(self, state: dict, viewer: str | None) -> dict: ...

    def results(self, state: dict) -> list[dict]: ...


class Chance(Protocol):
    """The server's dice and shuffles (pnp.rules.chance)."""

    rng: Random

    def dice(self, round_: int, dice: Sequence[tuple[str, int]]) -> dict[str, int]: ...


@dataclass(frozen=True)
class GameTracker:
    """A Tracker as a plain definition: what a game's tracker module hands over as TRACKER."""

    game: str
    Options: type[BaseModel]
    actions: dict[str, type[BaseModel]]
    setup: Callable[[Any, BaseModel], dict]
    join: Callable[[dict, str, str], dict]
    apply: Callable[[Any, dict, str, BaseModel], dict]
    view: Callable[[dict, str], dict]
    results: Callable[[dict], list[dict]]  # one row per player, for the results CSV
    draw: Callable[[Any, dict, str, BaseModel, Chance], BaseModel] | None = None
    layout: Callable[[Any], dict] | None = None
    final: frozenset[str] = frozenset()  # action types no undo takes back (a roll: undoing it would be a reroll)
    final_entry: Callable[[Entry], str | None] | None = None  # why this entry is never taken back, or None
    ranking: Callable[[dict], tuple] | None = None  # a results row's key, best highest: an event's leaderboard
    who: Mapping[str, Who] = field(default_factory=dict)  # an action not named here: anyone's
    seated: Callable[[dict], Collection[str]] | None = None  # needed by the PLAYER and HOST_OR_PLAYER roles
    turn: Callable[[dict], str | None] | None = None  # whose turn it is (None: no one's now), for TURN
    # a game with secrets: what a viewer may see of an entry's payload (None: the game hides nothing)
    redact: Callable[[Entry, str | None], Mapping[str, Any]] | None = None
    # a game that runs events: the last round the table has finished (None: not begun)
    round_done: Callable[[dict], int | None] | None = None


def option(default: Any, title: str, labels: Mapping[Any, str] | None = None, description: str | None = None) -> Any:
    """A field of a tracker's Options as a player reads it: its title, what it changes, and each
    choice's words (the JSON schema's `labels`, keyed by the value as text), so the page that
    opens a table shows words, never the raw values it sends. A yes/no option takes only true or
    false: "yes", 1 or "no" is refused naming the field, never read as a guess."""
    extra = {"labels": {str(value): words for value, words in labels.items()}} if labels else None
    strict = True if isinstance(default, bool) else None
    return Field(default, title=title, description=description, json_schema_extra=extra, strict=strict)


def per_content(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`build(content)` made once per content object and kept (a few at most): a replay applies
    hundreds of moves, each needing what a game derives from its content."""
    held: dict[int, tuple[Any, Any]] = {}

    def cached(content):
        entry = held.get(id(content))
        if entry is None or entry[0] is not content:  # an id may be reused by new content
            if len(held) > 16:
                held.clear()
            entry = held[id(content)] = (content, build(content))
        return entry[1]

    return cached


def join_wizards(state: dict, player_id: str, name: str, title: str, most: int) -> dict:
    """`join` for a game whose state keeps `players` (in join order) and their `names`, and is
    "joining" until it begins: a second join renames; no one joins once the game has begun, or
    past `most` wizards."""
    if player_id in state["names"]:
        return {**state, "names": {**state["names"], player_id: name}}
    if state["phase"] != "joining":
        raise Refused("The game has begun: no one joins now.")
    if len(state["players"]) == most:
        raise Refused(f"{title} is for at most {most} wizards, and they are all here.")
    return {**state, "players": [*state["players"], player_id], "names": {**state["names"], player_id: name}}


def seen_by(tracker: Tracker, entry: Entry, viewer: str | None) -> Entry:
    """`entry` as `viewer` may see it: as logged, unless the game redacts it for them. Joins and
    undos, and who holds a seat, are public whatever the game."""
    if tracker.redact is None or entry.type in RESERVED:
        return entry
    return replace(entry, payload=tracker.redact(entry, viewer))


def top_scorers(totals: Mapping[str, float]) -> list[str]:
    """Everyone with the highest total, in the totals' order: a tie shares the win."""
    best = max(totals.values(), default=None)
    return [who for who, total in totals.items() if total == best]


def places(keys: list[tuple]) -> list[list[int]]:
    """Indexes of `keys` by place, best (highest key) first; equal keys share a place."""
    ranked: list[list[int]] = []
    for p in sorted(range(len(keys)), key=lambda p: keys[p], reverse=True):
        if ranked and keys[ranked[-1][0]] == keys[p]:
            ranked[-1].append(p)
        else:
            ranked.append([p])
    return ranked


def numbered_places(keys: list[tuple]) -> list[tuple[int, int]]:
    """(place, index) best first, as a tournament numbers them: two sharing 1st, the next is 3rd."""
    numbered, place = [], 1
    for group in places(keys):
        numbered += [(place, p) for p in group]
        place += len(group)
    return numbered


@dataclass(frozen=True)
class Table:
    """What replaying a log gives: the state, and which entries still stand (not undone)."""

    state: dict
    standing: tuple[Entry, ...]  # game actions in order, undone ones left out; joins, undos and seating excluded


def replay(tracker: Tracker, content, options: BaseModel, log: list[Entry]) -> Table:
    """The state after every standing entry of `log`, applied in order.

    An entry the rules refuse on replay is a bug (each was checked when it was appended, and undo
    only takes back the latest one), so Refused propagates."""
    undone = {entry.payload["seq"] for entry in log if entry.type == UNDO}
    return _applied(tracker, content, Table(tracker.setup(content, options), ()), log, undone)


def extend(tracker: Tracker, content, table: Table, entries: list[Entry], since: int | None = None) -> Table | None:
    """`table`, the fold of the log up to seq `since`, with `entries` (the log's next ones)
    applied, leaving out those an undo among them takes back; None when an undo takes back an
    entry the table folded in (at or before `since`; any undo when `since` is not given), which
    changes its past: fold again from further back."""
    undone = {entry.payload["seq"] for entry in entries if entry.type == UNDO}
    if undone and (since is None or min(undone) <= since):
        return None
    return _applied(tracker, content, table, entries, undone)


def _applied(tracker: Tracker, content, table: Table, entries: list[Entry], undone: set[int]) -> Table:
    state, standing = table.state, list(table.standing)
    for entry in entries:
        if entry.type == JOIN:
            state = tracker.join(state, entry.actor, entry.payload["name"])
        elif entry.type not in RESERVED and entry.seq not in undone:
            state = act(tracker, content, state, entry.actor, parse_action(tracker, entry.type, entry.payload))
            standing.append(entry)
    return Table(state, tuple(standing))


def act(tracker: Tracker, content, state: dict, actor: str, action: BaseModel) -> dict:
    """`tracker.apply`, once `actor` may make `action` (NotYours with the tracker's words if not)."""
    type_ = next(name for name, model in tracker.actions.items() if type(action) is model)
    who = tracker.who.get(type_)
    if who is not None and not _may(tracker, state, actor, action, who.role):
        refusal = who.refusal(state) if callable(who.refusal) else who.refusal
        # another's turn passes; what is another's whenever it is stays theirs
        raise Refused(refusal) if who.role == TURN else NotYours(refusal)
    return tracker.apply(content, state, actor, action)


def moved_for(actor: str, action: BaseModel, current: str | None) -> str:
    """Whom an action is for. A player's move is their own (naming anyone else in its `player`
    is NotYours); the host's is for the player it names, else for `current`, whose turn it is."""
    named = getattr(action, "player", "") or ""
    if actor != HOST:
        if named and named != actor:
            raise NotYours("You can only make your own moves.")
        return actor
    return named or current or HOST


def _may(tracker: Tracker, state: dict, actor: str, action: BaseModel, role: str) -> bool:
    if role == TURN:
        current = tracker.turn(state)
        return current is None or moved_for(actor, action, current) == current  # no one's turn: the rules say why
    if role == HOST_ONLY:
        return actor == HOST
    if role == HOST_OR_EVENT:
        return actor in (HOST, EVENT)
    seated = actor in tracker.seated(state)
    return seated if role == PLAYER else seated or actor == HOST


def parse_action(tracker: Tracker, type_: str, payload: Mapping[str, Any], sent: bool = False) -> BaseModel:
    """The payload validated as its action's model: one a phone `sent`, strictly (Malformed if it
    does not fit, see pnp.rules.bodies); one from the log, as it was stored."""
    model = tracker.actions[type_]
    return strictly(model, payload) if sent else model.model_validate(dict(payload))


def undo_target(tracker: Tracker, content, options: BaseModel, log: list[Entry], actor: str) -> Entry:
    """The entry `actor` may take back: their own latest standing action, or, for the host, the
    latest standing action of anyone. Refused when there is none, or when a later action that
    stands would no longer be allowed without it (points it spent, a turn it ended)."""
    table = replay(tracker, content, options, log)
    target = next((e for e in reversed(table.standing) if actor == HOST or e.actor == actor), None)
    if target is None:
        raise Refused("There is nothing of yours to undo.")
    if target.type in tracker.final:
        raise Refused(f"A {target.type.replace('_', ' ')} cannot be taken back.")
    why = tracker.final_entry(target) if tracker.final_entry is not None else None
    if why:
        raise Refused(why)
    try:
        replay(tracker, content, options, [*log, Entry(0, actor, UNDO, {"seq": target.seq})])
    except Refused:
        raise Refused("That can no longer be undone: later moves depend on it.") from None
    return target
