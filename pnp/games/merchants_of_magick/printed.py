"""Merchants of Magick's print-and-play set: the setup page, shoppe sheets, order, adventurer and
mastery cards, potion tokens and the references. Every word and number comes from the content."""

from __future__ import annotations

from pnp.components.kinds import Component
from pnp.components.setup_sheet import setup_sheet
from pnp.content.loader import Content


def components(content: Content, templates: dict) -> list[Component]:
    rest: list[Component] = []
    return [setup_sheet(content["setup"], rest, templates), *rest]
