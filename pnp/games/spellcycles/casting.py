"""What the rules engine (pnp.games.spellcycles.rules) and a spell's effects
(pnp.games.spellcycles.effects) share: the refusal of a move the rules do not allow, and a cast
under way as its effects see it. The engine enacts the effects; they never reach back into it."""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.games.spellcycles.rulebook import Spell


class RuleError(ValueError):
    """A move the rules do not allow now, with the reason in words."""


@dataclass
class Casting:
    """A cast under way, as its effects see it."""

    player: int
    spell: Spell
    shape: int
    origin: int
    paid: int
    pieces: tuple[int, ...]  # the spaces of the spell's reduced pieces
    marked: tuple[int, ...]  # the spaces of its marked cells
    replaced: dict[int, int]  # space -> pieces the reduction put back on it
    rolled: list[int] = field(default_factory=list)
