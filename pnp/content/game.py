"""A game's content as every side uses it: loaded from its layers, rule numbers filled into its
words, and checked by the game's own rules. Pure: no drawing, so the companion uses it too."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import partial
from pathlib import Path

from pnp.content.loader import Content, MissingKind, load_partly, run_checks
from pnp.content.placeholders import fill_model
from pnp.content.problems import ContentError, Problem, expected_got
from pnp.gamedef import GameDef


def load_game(game: GameDef, layers: list[Path]) -> Content:
    """The game's validated content; ContentError lists every problem found. The game's checks
    run on whatever validated, so that every mistake is reported at once, across files."""
    content, problems = load_partly(game.id, game.load("kinds"), layers)
    try:
        numbers = game.load("numbers")(content)
    except MissingKind:  # the rules' numbers did not validate: texts cannot be filled nor checked
        raise ContentError(problems) from None
    models = {}
    for kind, model in content.models.items():
        models[kind], found = fill_model(model, numbers, lambda *path, kind=kind: content.locate(kind, *path))
        problems += found
    content = replace(content, models=models)
    problems += game.load("check")(content)
    problems += run_checks(content, partial(_players_said, game))
    if problems:
        raise ContentError(problems)
    return content


def _players_said(game: GameDef, content: Content) -> list[Problem]:
    """The setup page prints game.yaml's `players` in words ("3-4 students (2 with Low
    Enrollment)"); the numbers in them must span the range the GameDef declares, the one place the
    player counts live. Words without a number (a translation that spells them out) say nothing to check."""
    said = [int(number) for number in re.findall(r"\d+", content["game"].players)]
    fewest, most = game.players
    if not said or (min(said), max(said)) == (fewest, most):
        return []
    wanted = f"{fewest} to {most} players, as the game's GameDef declares"
    return [content.problem("game", "players", message=expected_got(wanted, content["game"].players))]
