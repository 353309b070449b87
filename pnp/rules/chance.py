"""Where dice and shuffles come from when the server makes them: a cryptographically secure
generator for a table of its own, or an event's secret seed, so that every table of the event
gets the same dice and anyone can recompute them once the seed is revealed.

An event's die for round r is HMAC-SHA256(key = the seed's bytes, message = "r:die:attempt"),
its first 8 bytes read as a big-endian integer n, attempt = 0, 1, ... until n falls below the
largest multiple of the faces under 2**64 (so every face is equally likely), and then
n % faces + 1. The event publishes SHA-256(seed bytes) when it starts and the seed when it ends.

Shuffles and draws take the generator they use (a Chance's `rng`: the secure one at a table,
`random.Random(seed)` in a test, which repeats them exactly). What they give is recorded in the
log entry that made them (`draw` in pnp.rules.table), so a replay never shuffles or draws again.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

SEED_BYTES = 32
SPAN = 2**64
T = TypeVar("T")


def new_seed() -> str:
    """A fresh event seed, as hex."""
    return secrets.token_hex(SEED_BYTES)


def seed_digest(seed: str) -> str:
    """What an event shows before it ends: SHA-256 of the seed's bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def seeded_die(seed: str, round_: int, die: str, faces: int) -> int:
    """The event's result of `die` (with `faces` faces) in round `round_`; see the module's text."""
    key, limit = bytes.fromhex(seed), SPAN - SPAN % faces
    for attempt in itertools.count():
        digest = hmac.new(key, f"{round_}:{die}:{attempt}".encode(), hashlib.sha256).digest()
        n = int.from_bytes(digest[:8], "big")
        if n < limit:
            return n % faces + 1
    raise AssertionError("unreachable")


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """`items` in a new order from `rng`; `items` itself is left as it was."""
    order = list(items)
    rng.shuffle(order)
    return order


def draw_from(bag: Sequence[T], count: int, rng: random.Random) -> tuple[list[T], list[T]]:
    """`count` items taken at random from `bag`, and what stays in it (in the bag's order).

    Taking at random from what is left is drawing from the top of a deck shuffled just then, so a
    game keeps its deck as what is left in it, with no secret order in its state to hide.
    ValueError when the bag holds fewer than `count`."""
    if not 0 <= count <= len(bag):
        raise ValueError(f"cannot draw {count} from a bag of {len(bag)}")
    picked = rng.sample(range(len(bag)), count)
    taken = set(picked)
    return [bag[i] for i in picked], [item for i, item in enumerate(bag) if i not in taken]


class Unrolled(LookupError):
    """The event's organiser has not rolled that round yet."""


TRIAL_SEED = 0  # what a move is tried with when the flow asks whether it is legal: no real draw is spent


@dataclass(frozen=True)
class SecureChance:
    """A table's own chance: every die and shuffle from `rng`, the operating system's secure
    generator (a seeded random.Random in tests, which repeats them exactly)."""

    rng: random.Random = field(default_factory=random.SystemRandom)

    def dice(self, round_: int, dice: Sequence[tuple[str, int]]) -> dict[str, int]:
        return {die: self.rng.randint(1, faces) for die, faces in dice}

    def trial(self) -> SecureChance:
        """The same kind of chance with a generator of its own: trying a move spends nothing of ours."""
        return SecureChance(random.Random(TRIAL_SEED))


@dataclass(frozen=True)
class SeededChance:
    """A table in an event: its dice are the event's, up to the round the organiser has rolled;
    its shuffles (the deal) are still its own."""

    seed: str
    rolled: int  # rounds the organiser has rolled so far
    rng: random.Random = field(default_factory=random.SystemRandom)

    def dice(self, round_: int, dice: Sequence[tuple[str, int]]) -> dict[str, int]:
        if round_ > self.rolled:
            raise Unrolled(round_)
        return {die: seeded_die(self.seed, round_, die, faces) for die, faces in dice}

    def trial(self) -> SeededChance:
        return SeededChance(self.seed, self.rolled, random.Random(TRIAL_SEED))
