"""A game's content as every side uses it: loaded from its layers, rule numbers filled into its
words, and checked by the game's own rules. Pure: no drawing, so the companion uses it too."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnp.content.loader import Content, load
from pnp.content.placeholders import fill_model
from pnp.content.problems import ContentError, Problem
from pnp.games import GameDef


def load_game(game: GameDef, layers: list[Path]) -> Content:
    """The game's validated content; ContentError lists every problem found."""
    content = load(game.id, game.load("kinds"), layers)
    numbers = game.load("numbers")(content)
    problems: list[Problem] = []
    models = {}
    for kind, model in content.models.items():
        models[kind], found = fill_model(model, numbers, lambda *path, kind=kind: content.locate(kind, *path))
        problems += found
    content = replace(content, models=models)
    problems += game.load("check")(content)
    if problems:
        raise ContentError(problems)
    return content
