"""Computer players: a seat the server plays, choosing among the moves the flow offers that seat
(pnp.rules.flow: offers), as its player's phone would show them, so it can make no move a person
in its seat could not, and decides from nothing that seat may not see.

Pure: the table's state, the seat and a random generator in, a move out. Its random choices come
from the generator the server gives it (the table's chance), and the move it makes is logged like
any other, so a game replays exactly without asking the computer again.

Levels (each plays its own seat's moves only, never a correction of a number, which puts a
person's slip right):
- easy: a move of a kind chosen at random among those offered, completed at random;
- strong, where the way of playing gives a Strategy: the move the strategy's simple player would
  make now (its hunch) and a few others offered (one at least of every kind) are each tried in
  WORLDS worlds, each the table with what the seat cannot see dealt anew from what it could be
  (its rivals' hands, a bag, a pile), and played out there by the strategy (the simulation's
  players finishing the turn and playing on); the move whose worlds play out best for the seat
  is made. The worlds and their draws come from the table's chance too, so the same view and
  the same chance give the same move.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnp.rules.chance import SecureChance, Unrolled
from pnp.rules.flow import Caller, Rules
from pnp.rules.offers import completions, sample
from pnp.rules.table import Refused, parse_action

EASY, STRONG = "easy", "strong"
LEVELS = {EASY: "Easy", STRONG: "Strong"}  # by id, the name the phones give it
WORLDS = 8  # the unseen dealt anew this many times for every move weighed (4 beat fewer of the simulation's)
CANDIDATES = 10  # the most moves weighed at once
HUNCHED = 3  # of them, the most that agree with the strategy's hunch (ways to pay it, say)
MOST_COMPLETIONS = 2000  # of an offer's completions, the most looked through for the hunch's


@dataclass(frozen=True)
class Strategy:
    """What the strong level needs of a way of playing: a world `seat` cannot tell from the table
    (`unseen(content, state, seat, rng)`: the state with what it cannot see dealt anew from what
    it could be), how well `seat` stands once a state is played on from (`played_out(content,
    state, seat, rng)`: 1 won, 0 lost, its draws from `rng`), and the move a simple player would
    make now (`hunch(content, state, seat, rng)`: its type and the part of its body that player
    chooses), always weighed, so that search can only add to it."""

    unseen: Callable[[Any, dict, str, random.Random], dict]
    played_out: Callable[[Any, dict, str, random.Random], float]
    hunch: Callable[[Any, dict, str, random.Random], tuple[str, dict]]


class Intent(Exception):  # noqa: N818 (not an error: how a hunch's first move is told)
    """Raised by a game that makes no move (a strategy's hunch runs its simple player on one): the
    first move that player makes, as its type and body on the phones."""

    def __init__(self, type_: str, body: dict):
        super().__init__(type_)
        self.move = (type_, body)


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
    seeds = [rng.getrandbits(64) for _ in range(WORLDS)]
    worlds = [strategy.unseen(content, state, seat, random.Random(seed)) for seed in seeds]
    hunched = strategy.hunch(content, worlds[0], seat, random.Random(seeds[0]))
    moves = _candidates(offered, hunched, rng)
    if len(moves) == 1:
        return moves[0]
    worth = [0.0] * len(moves)
    for seed, world in zip(seeds, worlds, strict=True):
        for i, move in enumerate(moves):  # each move meets the same world and the same draws
            worth[i] += _judged(rules, content, world, seat, move, random.Random(seed), strategy)
    return moves[max(range(len(moves)), key=worth.__getitem__)]  # of equals, the hunch's


def _candidates(offered: list[dict], hunched: tuple[str, dict], rng: random.Random) -> list[tuple[str, dict]]:
    """A few of the moves offered, none twice: first those agreeing with the hunch (HUNCHED at
    most), then one at least of each offer."""
    kind, part = hunched
    agreeing = [
        (kind, body)
        for each in offered
        if each["type"] == kind
        for body in completions(each, MOST_COMPLETIONS)
        if _agrees(body, part)
    ]
    found: dict[str, tuple[str, dict]] = {}
    for move in rng.sample(agreeing, min(HUNCHED, len(agreeing))):
        found.setdefault(_key(move), move)
    hunches = len(found)
    for each in offered:
        for _ in range(3):
            body = sample(each, rng)
            found.setdefault(_key((each["type"], body)), (each["type"], body))
    moves = list(found.values())
    if len(moves) <= CANDIDATES:
        return moves
    kept = moves[:hunches]
    for kind in sorted({each["type"] for each in offered}):
        if not any(m[0] == kind for m in kept):
            kept.append(next(m for m in moves if m[0] == kind))
    rest = [m for m in moves if m not in kept]
    return kept + rng.sample(rest, max(0, CANDIDATES - len(kept)))


def _agrees(body: dict, part: dict) -> bool:
    """Whether `body` makes the choices `part` names (a list of gems agrees in any order)."""

    def same(a, b) -> bool:
        if isinstance(a, list | tuple) and isinstance(b, list | tuple):
            return sorted(map(json.dumps, a)) == sorted(map(json.dumps, b))
        return a == b

    return all(key not in body or same(body[key], value) for key, value in part.items())


def _key(move: tuple[str, dict]) -> str:
    return json.dumps(move, sort_keys=True)


def _judged(
    rules: Rules, content: Any, world: dict, seat: str, move: tuple[str, dict], rng: random.Random, strategy: Strategy
) -> float:
    """How well `seat` stands once `move` is made in `world` and played out."""
    try:
        state = _made(rules, content, world, seat, move, SecureChance(rng))
    except (Refused, ValueError, Unrolled):
        return 0.0  # the world made it impossible: a move that depends on luck the seat has not seen
    return strategy.played_out(content, state, seat, rng)


def _made(rules: Rules, content: Any, state: dict, seat: str, move: tuple[str, dict], chance) -> dict:
    action = rules.draw(content, state, seat, parse_action(rules, move[0], move[1]), chance)
    return rules.apply(content, state, seat, action, trial=True)
