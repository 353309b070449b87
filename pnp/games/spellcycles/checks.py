"""Spellcycles' own demands on its content (filled in below)."""

from pnp.content.loader import Content
from pnp.content.problems import Problem


def check(content: Content) -> list[Problem]:
    return []
