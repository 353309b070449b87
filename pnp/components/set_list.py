"""A game's printed set, put together from its set template and its makers.

The set template (templates/<game-id>/<game-id>-set.yaml) says which decks, sheets and boards the set has,
in what order, the template each prints with, each deck's back and where every title is read
from in the content. The game's printed module keeps only what is code, its makers: a face maker
turns the content into a deck's faces, a sheet maker says how many pages a sheet has and draws
them, a board maker gives a face for each board of a kind (one field, a board per character).
Every set opens with the setup page that lists the rest.
"""

from __future__ import annotations

from pnp.components.faces import content_field, deck_back
from pnp.components.kinds import Board, Component, Deck, Sheet
from pnp.components.makers import Makers, SetInputs
from pnp.components.setup_sheet import setup_sheet
from pnp.components.templates import (
    BoardTemplate,
    CardTemplate,
    DeckEntry,
    SetTemplate,
    SheetEntry,
    SheetTemplate,
)
from pnp.content.problems import Problem, expected_got


def set_name(game_id: str) -> str:
    """The name of a game's set template."""
    return f"{game_id}-set"


def set_problems(game_id: str, makers: Makers, inputs: SetInputs) -> list[Problem]:
    """Every name in the game's set template that does not resolve: a template, a maker or a
    content field, each reported where it was written."""
    name, templates = set_name(game_id), inputs.templates
    chosen = templates.get(name)
    if not isinstance(chosen, SetTemplate):
        mark, _ = inputs.content.locate("game", "title")
        return [Problem(mark, "", f"no set template (expected templates/{game_id}/{name}.yaml with kind: set)")]
    # a deck and its backs print with card templates, a sheet with a sheet template, a board with a board template
    cards = sorted(n for n, t in templates.items() if type(t) is CardTemplate)
    sheets = sorted(n for n, t in templates.items() if isinstance(t, SheetTemplate))
    boards = sorted(n for n, t in templates.items() if isinstance(t, BoardTemplate))
    problems = []

    def report(path: tuple, expected: str, got: str, choices: list[str]) -> None:
        mark, field_name = templates.locate(name, *path)
        problems.append(Problem(mark, field_name, expected_got(expected, got, choices)))

    def template(got: str, names: list[str], what: str, *path) -> None:
        if got not in names:
            report(path, f"a {what} template of this game ({', '.join(names)})", got, names)

    def maker(got: str, made: dict, what: str, *path) -> None:
        if got not in made:
            report(path, f"a {what} of this game ({', '.join(sorted(made))})", got, sorted(made))

    def words(got: str | None, *path) -> None:
        if got is None:
            return
        try:
            content_field(inputs.content, got)
        except LookupError:
            report(path, "a dotted content field such as game.title", got, [])

    for i, entry in enumerate(chosen.components):
        at = ("components", i)
        words(entry.title, *at, "title")
        if isinstance(entry, DeckEntry):
            template(entry.template, cards, "card", *at, "template")
            maker(entry.faces, makers.faces, "face maker", *at, "faces")
            if entry.back:
                template(entry.back.template, cards, "card", *at, "back", "template")
                words(entry.back.title, *at, "back", "title")
            if entry.backs:
                template(entry.backs.template, cards, "card", *at, "backs", "template")
                maker(entry.backs.faces, makers.faces, "face maker", *at, "backs", "faces")
        elif isinstance(entry, SheetEntry):
            template(entry.template, sheets, "sheet", *at, "template")
            maker(entry.draw, makers.sheets, "sheet maker", *at, "draw")
        else:
            template(entry.template, boards, "board", *at, "template")
            maker(entry.face, makers.boards, "board maker", *at, "face")
    return problems


def assemble(game_id: str, makers: Makers, inputs: SetInputs) -> list[Component]:
    """The set: the setup page, then each component of the set template in its order. The set
    template has passed set_problems."""
    name, content = set_name(game_id), inputs.content
    rest: list[Component] = []
    for i, entry in enumerate(inputs.templates[name].components):
        title = content_field(content, entry.title)
        if isinstance(entry, DeckEntry):
            faces = tuple(makers.faces[entry.faces](inputs, entry.template))
            icons_at, _ = inputs.templates.locate(name, "components", i, "back", "emblem")
            back = deck_back(content, entry.back, icons_at) if entry.back else None
            backs = tuple(makers.faces[entry.backs.faces](inputs, entry.backs.template)) if entry.backs else None
            rest.append(
                Deck(entry.id, title, entry.template, faces, back, backs, entry.title, entry.gang, entry.one_sided)
            )
        elif isinstance(entry, SheetEntry):
            drawing = makers.sheets[entry.draw](inputs)
            rest.append(
                Sheet(
                    entry.id,
                    title,
                    entry.template,
                    drawing.pages,
                    drawing.draw,
                    drawing.source,
                    entry.title,
                    entry.one_sided,
                )
            )
        else:
            faces = tuple(makers.boards[entry.face](inputs, entry.template))
            rest.append(Board(entry.id, title, entry.template, faces, entry.title, entry.one_sided))
    return [setup_sheet(content["setup"], rest, inputs.templates), *rest]
