"""One module per game: the kinds of content it reads, its own content checks, and its set.

A game module provides ID, TITLE, KINDS (content kinds), check(content) -> problems and
components(content, templates) -> the decks and sheets of its print-and-play set.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

GAME_IDS = ("magic-spell", "spellcycles", "magecraft", "merchants-of-magick", "spells-and-potions")


def _module_name(game_id: str) -> str:
    return f"pnp.games.{game_id.replace('-', '_')}"


def game_module(game_id: str) -> ModuleType:
    return import_module(_module_name(game_id))


def available() -> list[str]:
    """Games that have a module yet; found without importing them (a no-change rebuild stays light)."""
    return [g for g in GAME_IDS if find_spec(_module_name(g)) is not None]
