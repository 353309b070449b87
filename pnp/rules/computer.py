"""Computer players: a seat the server plays, choosing among the moves the flow offers that seat
(pnp.rules.flow: offers), as its player's phone would show them, so it can make no move a person
in its seat could not, and decides from nothing that seat may not see.

Pure: the table's state, the seat and a random generator in, a move out. Its random choices come
from the generator the server gives it (the table's chance), and the move it makes is logged like
any other, so a game replays exactly without asking the computer again.

Levels (each plays its own seat's moves only, never a correction of a number, which puts a
person's slip right):
- easy: a move of a kind chosen at random among those offered, completed at random;
- strong, where the way of playing gives a Strategy: each of a few of the moves offered (one at
  least of every kind) is tried in WORLDS worlds, each the table with what the seat cannot see
  dealt anew from what it could be (its rivals' hands, a bag, a pile), and followed by the seat's
  own next moves at the easy level until its turn passes (AHEAD at most); the move whose worlds
  the strategy judges best for the seat is made. The worlds and their draws come from the table's
  chance too, so the same view and the same chance give the same move.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnp.rules.chance import SecureChance, Unrolled
from pnp.rules.flow import OVER, Caller, Rules
from pnp.rules.offers import sample
from pnp.rules.table import Refused, parse_action

EASY, STRONG = "easy", "strong"
LEVELS = {EASY: "Easy", STRONG: "Strong"}  # by id, the name the phones give it
WORLDS = 4  # the unseen dealt anew this many times for every move weighed
CANDIDATES = 10  # the most moves weighed at once
AHEAD = 10  # the seat's own moves after the one weighed, made at the easy level, before it is judged


@dataclass(frozen=True)
class Strategy:
    """What the strong level needs of a way of playing: a world `seat` cannot tell from the table
    (`unseen(content, state, seat, rng)`: the state with what it cannot see dealt anew from what
    it could be), and how well `seat` stands in a state (`standing(content, state, seat)`: 1 won,
    0 lost)."""

    unseen: Callable[[Any, dict, str, random.Random], dict]
    standing: Callable[[Any, dict, str], float]


def levels(rules: Rules, state: dict) -> dict[str, str]:
    """The levels a computer may play at this table (none where the server cannot see its game)."""
    if rules.no_computers(state):
        return {}
    return {level: name for level, name in LEVELS.items() if level != STRONG or strategy_of(rules, state)}


def strategy_of(rules: Rules, state: dict) -> Strategy | None:
    return rules.ways[state["way"]].strategy if rules.ways else rules.strategy


def moves_for(rules: Rules, content: Any, state: dict, seat: str, chance) -> list[dict]:
    """The offers a computer in `seat` may take now: its seat's own moves, no corrections."""
    in_effect = rules.in_effect(state)
    offered = rules.offers(content, state, Caller(seat), chance)
    return [found for found in offered if found["for"] == seat and in_effect[found["type"]].correction is None]


def choose(rules: Rules, content: Any, state: dict, seat: str, level: str, chance) -> tuple[str, dict] | None:
    """The move (type, body) the computer in `seat` makes now at `level`, or None when it has none.
    `chance`: the table's; its generator makes every random choice, its trial the offers."""
    if level not in LEVELS:
        raise ValueError(f"no computer level {level!r}; the levels are {', '.join(LEVELS)}")
    offered = moves_for(rules, content, state, seat, chance.trial())
    if not offered:
        return None
    strategy = strategy_of(rules, state) if level == STRONG else None
    if strategy is None:
        return _easy(offered, chance.rng)
    return _strong(rules, content, state, seat, offered, chance.rng, strategy)


def _easy(offered: list[dict], rng: random.Random) -> tuple[str, dict]:
    # a kind first, so that a move offered in many ways (a gem of each colour) is not chosen
    # over the one that ends a turn every time
    kinds = sorted({found["type"] for found in offered})
    kind = rng.choice(kinds)
    found = rng.choice([f for f in offered if f["type"] == kind])
    return kind, sample(found, rng)


def _strong(
    rules: Rules, content: Any, state: dict, seat: str, offered: list[dict], rng: random.Random, strategy: Strategy
) -> tuple[str, dict]:
    moves = _candidates(offered, rng)
    if len(moves) == 1:
        return moves[0]
    worth = [0.0] * len(moves)
    for seed in [rng.getrandbits(64) for _ in range(WORLDS)]:
        world = strategy.unseen(content, state, seat, random.Random(seed))
        for i, move in enumerate(moves):  # each move meets the same world and the same draws
            worth[i] += _judged(rules, content, world, seat, move, random.Random(seed), strategy)
    return moves[max(range(len(moves)), key=worth.__getitem__)]


def _candidates(offered: list[dict], rng: random.Random) -> list[tuple[str, dict]]:
    """A few of the moves offered, one at least of each offer, none twice."""
    found: dict[str, tuple[str, dict]] = {}
    for each in offered:
        for _ in range(3):
            body = sample(each, rng)
            found.setdefault(json.dumps([each["type"], body], sort_keys=True), (each["type"], body))
    moves = list(found.values())
    if len(moves) <= CANDIDATES:
        return moves
    firsts = {each["type"] for each in offered}
    kept = [next(m for m in moves if m[0] == kind) for kind in sorted(firsts)]
    rest = [m for m in moves if m not in kept]
    return kept + rng.sample(rest, max(0, CANDIDATES - len(kept)))


def _judged(
    rules: Rules, content: Any, world: dict, seat: str, move: tuple[str, dict], rng: random.Random, strategy: Strategy
) -> float:
    """How well `seat` stands once `move` is made in `world` and its own next moves after it (the
    easy level's, until its turn passes)."""
    chance = SecureChance(rng)
    try:
        state = _made(rules, content, world, seat, move, chance)
        for _ in range(AHEAD):
            if state["phase"] == OVER:
                break
            after = moves_for(rules, content, state, seat, chance.trial())
            if not after:
                break
            state = _made(rules, content, state, seat, _easy(after, rng), chance)
    except (Refused, ValueError, Unrolled):
        return 0.0  # the world made it impossible: a move that depends on luck the seat has not seen
    return strategy.standing(content, state, seat)


def _made(rules: Rules, content: Any, state: dict, seat: str, move: tuple[str, dict], chance) -> dict:
    action = rules.draw(content, state, seat, parse_action(rules, move[0], move[1]), chance)
    return rules.apply(content, state, seat, action, trial=True)
