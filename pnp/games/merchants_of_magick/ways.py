"""The two ways the cards come to a Merchants of Magick table (the option `cards`), each a module:
what the rounds and the sheets ask of the way a table plays (its claims, its orders moving on)."""

from __future__ import annotations

from types import ModuleType

from pnp.games.merchants_of_magick import cards_dealt, cards_printed

WAYS: dict[str, ModuleType] = {"dealt": cards_dealt, "printed": cards_printed}


def of(state: dict) -> ModuleType:
    """The module of the way this table plays."""
    return WAYS[state["way"]]
