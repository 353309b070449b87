"""Any registered game's table for the tests that play many moves at once at one table
(concurrency, kill -9, cut streams, hostile names), over HTTP to a real server: opened with the
options that show its secrets (a game whose rules hide something plays a way of playing in which
something is hidden), joined by a few phones, begun from the offers, and a move: one the rules
offer now to a caller chosen at random among those offered any (each phone, the host), completed
at random (pnp.rules.offers.sample). Sent while other moves are made, an offer may be stale by the
time it arrives: the rules refuse it (403, 409, 422), and never break on it.

Each move is (who, type, body): "host" or a phone's player id, the actor the log records it as,
and what it sends.
"""

from __future__ import annotations

import random
from functools import cache

from pnp.rules.flow import START
from pnp.rules.offers import sample
from pnp.rules.table import seen_by
from tests.support.http import HttpTable, call
from tests.support.legal import ruled
from tests.support.tracked import TrackedTable, content_of

Move = tuple[str, str, dict]
GAMES = list(ruled())
PHONES = ("Ada", "Brin", "Cy", "Dov", "Eli")  # the phones' names, as many as a table takes
TRIED_MOVES = 40  # moves of the short game that finds out whether a way of playing hides anything
BEGIN_MOVES = 50  # moves a table may take to begin


@cache
def options_for(game: str) -> dict:
    """A table's options: the game's defaults, in the first of its ways of playing (its default
    way first) in which a short random game of offered moves hides something from someone, when
    its rules hide anything (`redact`)."""
    rules = ruled()[game]
    if rules.redact is None or not rules.ways:
        return {}
    default = getattr(rules.Options(), rules.way_option)
    for way in sorted(rules.ways, key=lambda way: way != default):
        options = {rules.way_option: way}
        if hides(game, options):
            return options
    return {}


def hides(game: str, options: dict) -> bool:
    """Whether a short random game of offered moves at a table with `options` and its phones()
    logs an entry its rules show someone otherwise than it is."""
    rules = ruled()[game]
    players = [f"p{n}" for n in range(1, phones(game, options) + 1)]
    table = TrackedTable(rules, content_of(game), players, **options)
    rng = random.Random(game)
    for _ in range(TRIED_MOVES):
        if table.offered_move(rng) is None:
            break
    return any(seen_by(rules, e, viewer) != e for e in table.log for viewer in table.viewers)


def phones(game: str, options: dict) -> int:
    """How many phones sit at a table with `options`: three, or as few or as many as it seats."""
    rules = ruled()[game]
    fewest, most = rules.seats(rules.Options(**options))
    return max(fewest, min(3, most))


def begun(port: int, game: str) -> HttpTable:
    """A table of `game` on the server at `port`, with its options_for(), joined by phones() and begun."""
    options = options_for(game)
    table = HttpTable(port, game, options, PHONES[: phones(game, options)])
    begin(table, random.Random(game))
    return table


def begin(table: HttpTable, rng: random.Random) -> None:
    """The table started from the offers: the host starts it once Start is offered to them; until
    then a move set before the start (a sheet chosen, the masteries set) is made."""
    for _ in range(BEGIN_MOVES):
        start = next((m for m in seen_by_caller(table, "host")["moves"] if m["type"] == START), None)
        move = ("host", START, sample(start, rng)) if start else offered(table, rng)
        assert move is not None, "nothing is offered before the start"
        status, answer = send(table, move)
        assert status == 200, answer
        if start:
            return
    raise AssertionError(f"not begun after {BEGIN_MOVES} moves")


def seen_by_caller(table: HttpTable, who: str) -> dict:
    """The table as `who` ("host" or a phone's player id) sees it now, the moves they are offered among it."""
    status, seen = call(table.port, "GET", f"/api/tables/{table.code}", token=token(table, who))
    assert status == 200, seen
    return seen


def offered(table: HttpTable, rng: random.Random) -> Move | None:
    """A move offered now to a caller chosen at random among those offered any, completed at
    random; None when no one is (the game is over; or, with others moving meanwhile, the turn came
    to a caller once they had been asked). Whose turn it is, when the flow says, is asked next."""
    callers = ["host", *table.tokens]
    rng.shuffle(callers)
    while callers:
        who = callers.pop(0)
        seen = seen_by_caller(table, who)
        if seen["moves"]:
            chosen = rng.choice(seen["moves"])
            return who, chosen["type"], sample(chosen, rng)
        turn = seen["flow"]["turn"]
        if turn in callers:
            callers.remove(turn)
            callers.insert(0, turn)
    return None


def send(table: HttpTable, move: Move) -> tuple[int, dict]:
    who, type_, body = move
    return call(table.port, "POST", f"/api/tables/{table.code}/actions", {"type": type_, **body}, token(table, who))


def token(table: HttpTable, who: str) -> str:
    return table.host if who == "host" else table.tokens[who]
