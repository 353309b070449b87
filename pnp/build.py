"""Build a game: load and check its content, lay out its set, write its PDF.

`check` proves that `write` will succeed: every face's values fit their regions, every sheet
draws (onto a canvas that is thrown away), and every component fits the paper.

A game kept outside the bundled folders (the tests' example game, tests/example_game/) goes
through the same calls: `open_game` with its content folder among the layers and its templates
folder in `template_folders`, then `check` and `write`.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pnp.components.card import check_face
from pnp.components.kinds import Board, Component, Deck, Sheet, SheetError
from pnp.components.makers import SetInputs
from pnp.components.set_list import assemble, set_problems
from pnp.components.templates import Templates, load_templates
from pnp.content.game import load_game
from pnp.content.loader import Content
from pnp.content.problems import ContentError, Problem
from pnp.document import Writer, label_room, page_label, plan_pages, write_pdf
from pnp.gamedef import GameDef, games
from pnp.imposition import LayoutError, Options
from pnp.paths import TEMPLATES
from pnp.render import fonts
from pnp.units import mm


@dataclass(frozen=True)
class Game:
    definition: GameDef
    content: Content
    templates: Templates
    only: tuple[str, ...] = ()  # component ids to print; empty: all
    sheets: int | None = None  # how many of its player sheets (GameDef.player_sheets); None: the game's default

    @cached_property
    def whole_set(self) -> tuple[Component, ...]:
        """The game's whole set, made once: checking, listing and writing all ask for it."""
        inputs = SetInputs(self.content, self.templates, self.sheets)
        return tuple(assemble(self.definition.id, self.definition.load("printed"), inputs))

    def every_component(self) -> list[Component]:
        return list(self.whole_set)

    def components(self) -> list[Component]:
        """The components to print: all, or those `only` names."""
        return [c for c in self.every_component() if not self.only or c.id in self.only]

    @cached_property
    def face_problems(self) -> tuple[Problem, ...]:
        """What does not fit on the faces of its decks and boards: a face is drawn alike on every
        paper and in every way of printing backs, so `check` fits each face once per game, however
        many print runs (`pnp check` without --paper or --backs lays out all eight) it is checked for."""
        problems = []
        where = self.content.locate("game", "title")[0]
        for component in self.components():
            if isinstance(component, Deck):
                faces = set(component.faces) | set(component.all_backs())
                for face in sorted(faces, key=lambda f: f.label):
                    template = self.templates.get(face.template)
                    if template is None:
                        problems.append(Problem(where, "", f"{face.label}: no template {face.template}"))
                    else:
                        problems += check_face(face, template, where)
            elif isinstance(component, Board):
                for face in component.faces:
                    problems += check_face(face, self.templates[component.template], where)
        return tuple(problems)


def open_game(
    definition: GameDef,
    layers: list[Path],
    only: tuple[str, ...] = (),
    sheets: int | None = None,
    template_folders: tuple[Path, ...] = (),
) -> Game:
    """Content and templates, validated; ContentError lists every problem found. `template_folders`:
    folders read beside the bundled templates, as `layers` are content folders, for a game kept
    outside the bundled folders (its own templates in <folder>/<game-id>/: the tests' example game)."""
    if sheets is not None and not definition.player_sheets:
        raise ValueError(f"{definition.id} has no player sheets to print {sheets} of")
    problems: list[Problem] = []
    templates = Templates({}, {})
    try:
        templates = load_templates(TEMPLATES, definition.id, template_folders)
    except ContentError as err:
        problems += err.problems
    try:
        content = load_game(definition, layers)
    except ContentError as err:
        raise ContentError(problems + err.problems) from None
    if problems:
        raise ContentError(problems)
    # the set template names templates, makers and content fields: checked once all are loaded
    problems = set_problems(definition.id, definition.load("printed"), SetInputs(content, templates, sheets))
    if problems:
        raise ContentError(problems)
    return Game(definition, content, templates, only, sheets)


def check(game: Game, options: Options) -> None:
    """Everything `write` needs, without writing: ContentError with every problem."""
    problems = list(game.face_problems)
    components = game.components()
    for component in components:
        if isinstance(component, Sheet):
            problems += _check_sheet(game, component, options)
    problems += _label_problems(game, options)
    for component in components:
        try:
            plan_pages([component], game.templates, options)
        except LayoutError as err:
            mark, field = game.templates.locate(component.template, "size")
            problems.append(
                Problem(mark, field, f"{component.title}: {err}; try a smaller --bleed or the other --paper")
            )
    if problems:
        raise ContentError(problems)


def _label_problems(game: Game, options: Options) -> list[Problem]:
    """Every page's label (game title, component titles, side, page number) on the one line of its
    band; one too long is a problem at the longest title in it, the game's or a component's."""
    try:
        pages = plan_pages(game.components(), game.templates, options)
    except LayoutError:
        return []  # check reports the component that does not fit
    page_template = game.templates["page"]
    room = label_room(page_template, options)
    title = game.content["game"].title
    titles = {c.title: c.title_field for c in game.whole_set if c.title_field} | {title: "game.title"}
    widest: dict[str, tuple[float, str]] = {}  # by the title to blame: its widest label
    for number, page in enumerate(pages, 1):
        label = page_label(title, page, number, len(pages))
        width = fonts.string_width(label, "regular", page_template.info_size)
        if width > room:
            longest = max((t for t in titles if t in label), key=len)
            widest[longest] = max(widest.get(longest, (0.0, "")), (width, label))
    problems = []
    for longest, (width, label) in widest.items():
        mark, field = game.content.locate(*titles[longest].split("."))
        message = f"too long for the page label {label!r} (expected at most {mm(room):.0f} mm, got {mm(width):.0f} mm)"
        problems.append(Problem(mark, field, message))
    return problems


def _check_sheet(game: Game, sheet: Sheet, options: Options) -> list[Problem]:
    """Draw every page of a sheet onto a canvas that is thrown away, in the build's page plan (a
    sheet may list it); what it cannot draw is a problem."""
    pages = plan_pages([sheet], game.templates, options)
    try:
        every = plan_pages(game.components(), game.templates, options)
    except LayoutError:
        return []  # check reports the component that does not fit; the sheet cannot be drawn without it
    writer = Writer(fonts.new_canvas(io.BytesIO()), game.templates, options, set(), every)
    problems = []
    for page in pages:
        try:
            page.draw(writer)
        except SheetError as err:
            kind = err.kind or sheet.source
            if err.field is not None and kind:
                path = (int(part) if part.isdigit() else part for part in err.field.split("."))  # list indexes
                mark, field = game.content.locate(kind, *path)
            else:
                mark, field = game.templates.locate(sheet.template)
            problems.append(Problem(mark, field, f"{sheet.title}: {err}"))
    return sorted(set(problems))


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
    game = open_game(games()[game_id], layers)
    check(game, options)
    return write(game, options, path)
