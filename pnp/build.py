"""Build a game: load and check its content, lay out its set, write its PDF."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from pnp.components.card import check_face
from pnp.components.kinds import Deck
from pnp.content.loader import Content, load
from pnp.content.problems import ContentError, Problem
from pnp.document import plan_pages, write_pdf
from pnp.games import game_module
from pnp.imposition import Options
from pnp.paths import TEMPLATES
from pnp.render.templates import load_templates


@dataclass(frozen=True)
class Game:
    module: ModuleType
    content: Content
    templates: dict

    def components(self):
        return self.module.components(self.content, self.templates)


def open_game(game_id: str, layers: list[Path]) -> Game:
    """Content and templates, validated; ContentError lists every problem found."""
    module = game_module(game_id)
    problems: list[Problem] = []
    templates: dict = {}
    try:
        templates = load_templates(TEMPLATES)
    except ContentError as err:
        problems += err.problems
    try:
        content = load(game_id, module.KINDS, layers)
    except ContentError as err:
        raise ContentError(problems + err.problems) from None
    problems += module.check(content)
    if problems:
        raise ContentError(problems)
    return Game(module, content, templates)


def check(game: Game) -> None:
    """Everything but drawing: the game's own checks ran in open_game; here every face's text is fitted."""
    problems = []
    for component in game.components():
        if isinstance(component, Deck):
            faces = set(component.faces) | ({component.back} if component.back else set())
            for face in sorted(faces, key=lambda f: f.label):
                problems += check_face(face, game.templates[face.template])
    if problems:
        raise ContentError(problems)


def write(game: Game, options: Options, path: Path, progress: Callable[[int, int], None] | None = None) -> int:
    """Write a checked game's PDF to `path`; return its page count."""
    components = game.components()
    total = len(plan_pages(components, game.templates, options))
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress(done, total)

    return write_pdf(path, game.content["game"].title, components, game.templates, options, advance)


def build(game_id: str, layers: list[Path], options: Options, path: Path) -> int:
    """Load, check and write one game: the whole pipeline in one call."""
    game = open_game(game_id, layers)
    check(game)
    return write(game, options, path)
