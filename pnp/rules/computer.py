"""Computer players: a seat the server plays, choosing among the moves the flow offers that seat
(pnp.rules.flow: offers), as its player's phone would show them, so it can make no move a person
in its seat could not, and decides from nothing that seat may not see.

Pure: the table's state, the seat and a random generator in, a move out. Its random choices come
from the generator the server gives it (the table's chance), and the move it makes is logged like
any other, so a game replays exactly without asking the computer again.

Levels:
- easy: a move of a kind chosen at random among those offered, completed at random; it plays
  its own seat's moves only, never a correction of a number (those put a person's slip right).
"""

from __future__ import annotations

import random
from typing import Any

from pnp.rules.flow import Caller, Rules
from pnp.rules.offers import sample

LEVELS = {"easy": "Easy"}  # by id, the name the phones give it


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
    offered = moves_for(rules, content, state, seat, chance)
    if not offered:
        return None
    return _easy(offered, chance.rng)


def _easy(offered: list[dict], rng: random.Random) -> tuple[str, dict]:
    # a kind first, so that a move offered in many ways (a gem of each colour) is not chosen
    # over the one that ends a turn every time
    kinds = sorted({found["type"] for found in offered})
    kind = rng.choice(kinds)
    found = rng.choice([f for f in offered if f["type"] == kind])
    return kind, sample(found, rng)
