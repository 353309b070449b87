"""`pnp sim GAME --levels strong,easy`: games played by computer players (pnp.rules.computer) at the
levels named, one a seat, through the table's own rules on the phones, so balance figures can come
from stronger play than the simulation's players. Seeded as every simulation is (pnp.sim.pool):
game `i` of seed `s` draws everything from random.Random(f"{s}:{i}"): which seat each level takes,
the deal and every computer's choice. A game still going after LONGEST moves is stopped and
counted unfinished.

Beside the computer levels, `sim` seats the game's simulation player (its sim.py's, through
its Simulation's `table_turn`): it plays its seat's part on the engine as in `pnp sim GAME`, so
the strong level can be measured against the player the balance figures come from.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any

from pnp.gamedef import GameDef
from pnp.rules.chance import SecureChance
from pnp.rules.computer import EASY, LEVELS, choose, levels, moves_for
from pnp.rules.flow import OVER, Caller, Rules
from pnp.rules.offers import first
from pnp.rules.table import HOST, parse_action
from pnp.sim.pool import play_seeded

LONGEST = 3000  # moves, every seat's
SIM = "sim"  # the simulation's own player, beside the computer levels


@dataclass(frozen=True)
class LevelFigures:
    games: int
    seed: int
    levels: tuple[str, ...]  # one a seat
    level_wins: dict[str, float]  # share of games a seat of each level wins (a shared win counts)
    unfinished: float  # share of games stopped at LONGEST moves
    moves: float  # median moves a game, every seat's

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def refused(game: GameDef, content: Any, seated: tuple[str, ...]) -> str | None:
    """Why `pnp sim` cannot seat these levels in this game, or None when it can."""
    unknown = [level for level in seated if level not in (*LEVELS, SIM)]
    if unknown:
        return f"expected levels among {', '.join((*LEVELS, SIM))}, got {', '.join(unknown)}"
    low, high = game.players
    if not low <= len(seated) <= high:
        given = f"{len(seated)} level was" if len(seated) == 1 else f"{len(seated)} levels were"
        return f"{game.title} seats {low} to {high} players; {given} given"
    rules = game.load("tracker") if game.tracker else None
    options = _phones(rules) if rules is not None else None
    if options is None:
        return f"{game.title} is played with pieces the server never sees: it has no computer players"
    offered = levels(rules, rules.setup(content, rules.Options(**options)))
    if game.simulation and game.load("simulation").table_turn is not None:
        offered = {**offered, SIM: "the simulation's player"}
    missing = [level for level in dict.fromkeys(seated) if level not in offered]
    return f"{game.title} has no {' or '.join(missing)} computer players" if missing else None


def _phones(rules: Rules) -> dict | None:
    """The options of a table played in a way that seats computers (the first such way)."""
    if not rules.ways:
        return {} if rules.computers else None
    way = next((name for name, way in rules.ways.items() if way.computers), None)
    return None if way is None else {rules.way_option: way}


def play_levels(game: GameDef, content: Any, seated: tuple[str, ...], games: int, seed: int):
    """Each game's result as it finishes: (the levels of its winners, moves made)."""
    return play_seeded(_play_one, (game, content, seated), games, seed)


def _play_one(game: GameDef, content: Any, seated: tuple[str, ...], rng: random.Random) -> tuple[frozenset[str], int]:
    """One game: the levels of its winners, and the moves it took."""
    rules = game.load("tracker")
    chance = SecureChance(rng)
    turn = rng.randrange(len(seated))  # which seat each level takes: the game's deal
    level_of = {f"p{n + 1}": seated[(n + turn) % len(seated)] for n in range(len(seated))}
    state = started(rules, content, level_of, chance)
    table_turn = game.load("simulation").table_turn if SIM in seated else None
    memory: dict = {}  # what the simulation's players keep from turn to turn
    for moves in range(LONGEST):
        if state["phase"] == OVER:
            return frozenset(level_of[pid] for pid in winners(rules, state)), moves
        state = _next(rules, content, state, level_of, chance, table_turn, memory)
        if state is None:
            break  # no one has a move: a game stuck
    return frozenset(), LONGEST  # stopped: unfinished


def started(rules: Rules, content: Any, level_of: dict[str, str], chance) -> dict:
    """A table played on the phones begun with a seat for each of `level_of`'s, each seated as
    the companion seats a computer (Merchants: a digital sheet)."""
    state = rules.setup(content, rules.Options(**_phones(rules)))
    for pid, level in level_of.items():
        state = rules.join(state, pid, f"Seat {pid[1:]}", computer=level if level in LEVELS else EASY)
    # a companion's table needs a person to start; a simulation's has none, and starts all the same
    state = {**state, "computers": {}}
    [start] = [o for o in rules.offers(content, state, Caller(None, True), chance) if o["type"] == "start"]
    return made(rules, content, state, HOST, ("start", first(start)), chance)


def winners(rules: Rules, state: dict) -> set[str]:
    """The seats that won, as the results say: rows in seat order marked "winner", or (a game
    that places its players) rows best first, each naming its "player"."""
    rows = rules.results(state)
    if rows and "player" in rows[0]:
        return {row["player"] for row in rows if row["place"] == 1}
    return {pid for pid, row in zip(state["players"], rows, strict=True) if row["winner"]}


def _next(rules: Rules, content: Any, state: dict, level_of: dict, chance, table_turn, memory: dict) -> dict | None:
    """The state after the first seat with a move makes it (None: no seat has one)."""
    for pid in state["players"]:
        if level_of[pid] == SIM:
            if moves_for(rules, content, state, pid, chance.trial()):
                after = table_turn(content, state, pid, chance.rng, memory)
                if after is not state:  # (the same state: it had nothing to do)
                    return after
            continue
        found = choose(rules, content, state, pid, level_of[pid], chance)
        if found is not None:
            return made(rules, content, state, pid, found, chance)
    found = hosting(rules, content, state, chance)
    return None if found is None else made(rules, content, state, HOST, found, chance)


def hosting(rules: Rules, content: Any, state: dict, chance) -> tuple[str, dict] | None:
    """The host's part once every seat has done its own, as a person hosting takes it: the first
    move offered the host (Merchants: the roll, the next phase), no correction; None: none."""
    in_effect = rules.in_effect(state)
    offered = rules.offers(content, state, Caller(None, True), chance.trial())
    found = next((o for o in offered if o["for"] == HOST and in_effect[o["type"]].correction is None), None)
    return None if found is None else (found["type"], first(found))


def made(rules: Rules, content: Any, state: dict, actor: str, move: tuple[str, dict], chance) -> dict:
    """The state after `actor` makes `move`, drawn from `chance` as the server draws it."""
    action = rules.draw(content, state, actor, parse_action(rules, *move), chance)
    return rules.apply(content, state, actor, action)


def figures(seated: tuple[str, ...], results: list[tuple[frozenset[str], int]], seed: int) -> LevelFigures:
    games = len(results)
    level_wins = {level: sum(level in won for won, _ in results) / games for level in dict.fromkeys(seated)}
    unfinished = sum(moves >= LONGEST for _, moves in results) / games
    return LevelFigures(games, seed, seated, level_wins, unfinished, statistics.median(m for _, m in results))


def summary(found: LevelFigures) -> str:
    lines = [
        f"{found.games} games, computer players {', '.join(found.levels)} (a seat each, dealt at random), "
        f"seed {found.seed}",
        "games won by a seat of each level: "
        + ", ".join(f"{level} {share:.1%}" for level, share in found.level_wins.items()),
        f"moves a game (median, every seat's): {found.moves:.0f}; unfinished: {found.unfinished:.1%}",
    ]
    return "\n".join(lines)
