"""A safe repeatable move per game, for the tests that play many moves at once at one table
(concurrency, kill -9, cut streams, the soak): how to open and begin a table of each of the five
games over HTTP, and a move any seat may send at any time, in any order, that the rules accept
or refuse (409, 403) but never break on. The games with secrets are played in the mode that has
them (Magecraft on the phones: each Refresh draws a hand from a bag, seen only by its wizard).

Each move is (who, type, payload): "host" or a player id, and what it sends.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from tests.support.http import HttpTable, call

Move = tuple[str, str, dict]


@dataclass(frozen=True)
class SafePlay:
    game: str
    options: dict
    names: tuple[str, ...]
    begin: Callable[[HttpTable], None]  # from the joins to where the safe move applies
    move: Callable[[random.Random, list[str]], Move]  # a move for a table whose players are these ids


def _started(table: HttpTable) -> None:
    table.ok("host", "start")


def _spirit(rng: random.Random, players: list[str]) -> Move:
    """Magic Spell: a spell's effect gains or loses a student a spirit (below none is refused)."""
    return rng.choice(players), "spirit", {"delta": rng.choice((1, 1, -1))}


def _scores(rng: random.Random, players: list[str]) -> Move:
    """Merchants of Magick: a paper sheet's score box, filled in again."""
    return rng.choice(players), "scores", {"fulfilled": rng.randint(0, 9), "potions": rng.randint(0, 9)}


def _trick(rng: random.Random, players: list[str]) -> Move:
    """Spells and Potions: a trick won by a team (refused once the duel's are all in), or the duel
    ended by the host (refused until they are)."""
    if rng.random() < 0.15:
        return "host", "end_duel", {}
    return rng.choice([*players, "host"]), "trick", {"team": rng.randint(0, 1)}


def _cast_once(table: HttpTable) -> None:
    """Spellcycles with real pieces: start, then the first wizard renews and casts the active
    spell, which deals them certificates face down: a hand only they may see. A spell asking a
    choice gets one; a line whose spell needs certificates already held (Implode) is left uncast."""
    table.ok("host", "start")
    state = table.state()
    wizard, position = state["turn"]["player"], state["crescents"][0]
    table.ok("host", "essence", wizard=wizard, change=10)
    table.ok(wizard, "renew")
    other = next(p for p in table.tokens if p != wizard)
    for asked in ({}, {"paid": 1}, {"choices": [{"player": other}]}):
        if table.act(wizard, "cast", position=position, **asked)[0] == 200:
            return


def _essence(rng: random.Random, players: list[str]) -> Move:
    """Spellcycles with real pieces: an essence change made by hand, by anyone at the table."""
    who = rng.choice([*players, "host"])
    return who, "essence", {"wizard": rng.choice(players), "change": rng.choice((1, 1, -1))}


def _openings_discarded(table: HttpTable) -> None:
    """Magecraft on the phones: start, then each wizard discards what the seat table says from
    the opening hand it drew."""
    table.ok("host", "start")
    for player in table.tokens:
        state = table.state(player)
        due = next(seat["to_discard"] for seat in state["players"] if seat["id"] == player)
        hand = [colour for colour, n in state["hand"].items() for _ in range(n)]
        if due:  # a seat that discards none has nothing to send (the last one's discard settles them all)
            table.ok(player, "opening_discard", gems=hand[:due])


def _refresh(rng: random.Random, players: list[str]) -> Move:
    """Magecraft on the phones: Refresh, which draws a new hand from the bag; only the wizard whose
    turn it is may (anyone else is refused), and the turn passes."""
    return rng.choice(players), "refresh", {}


SAFE_PLAYS = {
    play.game: play
    for play in (
        SafePlay("magic-spell", {}, ("Ada", "Brin", "Cy"), _started, _spirit),
        SafePlay("merchants-of-magick", {}, ("Ada", "Brin", "Cy"), _started, _scores),  # every sheet on paper
        SafePlay("spells-and-potions", {"wizards": 4}, ("Ada", "Brin", "Cy", "Dov"), _started, _trick),
        SafePlay("spellcycles", {"mode": "pieces"}, ("Ada", "Brin", "Cy"), _cast_once, _essence),
        SafePlay("magecraft", {"mode": "phones"}, ("Ada", "Brin", "Cy"), _openings_discarded, _refresh),
    )
}
GAMES = list(SAFE_PLAYS)


def begun(port: int, game: str) -> HttpTable:
    """A table of `game` on the server at `port`, joined and begun: ready for its safe move."""
    play = SAFE_PLAYS[game]
    table = HttpTable(port, game, play.options, play.names)
    play.begin(table)
    return table


def send(table: HttpTable, move: Move) -> tuple[int, dict]:
    who, type_, payload = move
    token = table.host if who == "host" else table.tokens[who]
    return call(table.port, "POST", f"/api/tables/{table.code}/actions", {"type": type_, **payload}, token)
