"""Each game's first page: the set it lists, with counts and the pages each component is printed
on (fronts and backs), read back from the built PDF's page labels; the printer and mounting lines
for the build."""

from __future__ import annotations

import re

import pytest

from pnp.build import open_game
from pnp.components.kinds import Board, Deck
from pnp.components.setup_sheet import page_ranges
from pnp.content.placeholders import fill
from pnp.gamedef import game, games
from pnp.paths import CONTENT
from tests.conftest import bundled

BUILDS = [
    dict(paper="a4", backs="duplex-long"),
    dict(paper="letter", backs="fold"),
    dict(paper="a4", backs="duplex-short", gutters=True),
]


def plain(text: str) -> str:
    """Rich text as the PDF's text layer reads: no markup, spaces normalised."""
    return " ".join(text.replace("**", "").replace("*", "").split())


def pages_by_label(pdf, game_title: str, titles: list[str]) -> dict[str, list[int]]:
    """Component title -> the page numbers whose label names it (fronts, backs and sheets).
    A label joins the titles sharing a sheet with " + ", which a title may hold too: each is looked for."""
    label = re.compile(rf"{re.escape(game_title)} · (.+?) · (?:[^·]+? · )?page (\d+) of \d+")
    found: dict[str, list[int]] = {}
    for page in range(len(pdf)):
        title, number = label.search(pdf.text(page)).groups()
        for component in titles:
            if f" + {component} + " in f" + {title} + ":
                found.setdefault(component, []).append(int(number))
    return found


@pytest.mark.parametrize("options", BUILDS, ids=lambda o: "-".join(str(v) for v in o.values()))
@pytest.mark.parametrize("game_id", list(games()))
def test_the_first_page_lists_the_set_where_this_pdf_has_it(built_pdf, game_id, options):
    opened = bundled(game_id)
    words = opened.content["setup"]
    title = opened.content["game"].title
    pdf = built_pdf(game=game_id, **options)
    first = pdf.text(0)
    assert f"{title} · {words.name} · page 1 of {len(pdf)}" in first
    where = pages_by_label(pdf, title, [c.title for c in opened.every_component()])
    # duplex: the setup page and its blank back, the first sheet of paper
    assert where[words.name] == ([1, 2] if options["backs"].startswith("duplex") else [1])
    for component in opened.every_component()[1:]:
        count = len(component.faces) if isinstance(component, Deck | Board) else component.pages  # a board a face
        row = re.compile(
            rf"{re.escape(component.title)} {count} .+? {re.escape(page_ranges(where[component.title]))}\b"
        )
        assert row.search(first), (component.title, where[component.title], first)


@pytest.mark.parametrize("options", BUILDS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_the_printer_line_matches_the_backs(built_pdf, options):
    opened = bundled("spells-and-potions")
    words = opened.content["setup"]
    first = built_pdf(**options).text(0)
    if options["backs"] == "fold":
        expected = words.fold
    else:
        edge = options["backs"].removeprefix("duplex-")
        expected = fill(words.duplex, {"edge": words.edges[edge]})[0]
        other = fill(words.duplex, {"edge": words.edges[{"long": "short", "short": "long"}[edge]]})[0]
        assert plain(other) not in first
    assert plain(expected) in first
    cut = words.gutters if options.get("gutters") else words.shared_cuts
    assert plain(cut) in first


def test_magic_spell_names_the_tile_pages_in_its_mounting_line(built_pdf):
    opened = bundled("magic-spell")
    pdf = built_pdf(game="magic-spell")
    tiles = next(c for c in opened.every_component() if c.id == "tiles")
    titles = [c.title for c in opened.every_component()]
    pages = page_ranges(tuple(pages_by_label(pdf, opened.content["game"].title, titles)[tiles.title]))
    line = fill(opened.content["setup"].mount_first["tiles"], {"pages": pages})[0]
    assert plain(line) in pdf.text(0)


def test_a_deck_on_many_pages_is_one_range_on_the_first_page(tmp_path):
    """A user's deck of 240 magic cards prints on 54 pages; the first page says where in one range."""
    from click.testing import CliRunner

    from pnp.cli import main
    from tests.conftest import overlay
    from tests.support.pdfcards import BuiltPdf

    cards = "".join(
        f"  - {{name: Homebrew {i}, type: potion, count: 2, points: 1, effect: A sip., flavour: Ours.}}\n"
        for i in range(120)
    )
    mine = overlay(tmp_path / "mine", "spells-and-potions", {"magic-cards.yaml": "kind: magic-cards\ncards:\n" + cards})
    out = tmp_path / "out"
    args = [
        "build",
        "spells-and-potions",
        "--content",
        str(mine),
        "--only",
        "setup",
        "--only",
        "magic",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    pdf = BuiltPdf(next(out.glob("*.pdf")))
    opened = open_game(game("spells-and-potions"), [CONTENT, mine])
    magic = next(c for c in opened.every_component() if c.id == "magic")
    pages = pages_by_label(pdf, opened.content["game"].title, [magic.title])[magic.title]
    assert len(magic.faces) >= 240 and len(pages) > 40
    assert pages == list(range(pages[0], pages[-1] + 1))
    assert re.search(rf"{re.escape(magic.title)} {len(magic.faces)} .+? {pages[0]}–{pages[-1]}\b", pdf.text(0))


def test_a_setup_template_without_its_column_weights_is_a_problem_naming_them():
    from pnp.components.kinds import SheetError
    from pnp.components.setup_sheet import draw_setup

    opened = bundled("magic-spell")
    template = opened.templates["setup"].model_copy(update={"ratios": {"col_count": 1.0}})
    with pytest.raises(SheetError, match=r"ratios\.col_component, ratios\.col_size, ratios\.col_pages"):
        draw_setup(None, None, template, opened.content["setup"], [], opened.templates, None)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", list(games()))
def test_the_first_page_holds_a_card_outline_at_actual_size(built_pdf, game_id, paper):
    from tests.support.pdfcards import MM

    opened = bundled(game_id)
    first_deck = next(c for c in opened.every_component() if isinstance(c, Deck))
    size = opened.templates[first_deck.template].size
    pdf = built_pdf(game=game_id, paper=paper)
    rects = [(r["width"], r["height"]) for r in pdf.plumber.pages[0].rects]
    outline = sorted((size.width, size.height), reverse=True)  # lying on its long side
    assert any(abs(w - outline[0]) < 0.1 * MM and abs(h - outline[1]) < 0.1 * MM for w, h in rects), rects
    width, height = (f"{v / MM:.1f}".removesuffix(".0") for v in (size.width, size.height))
    words = fill(opened.content["setup"].print_test, {"width": width, "height": height})[0]
    assert plain(words) in pdf.text(0)


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("game_id", list(games()))
def test_a_value_that_breaks_a_bold_span_once_filled_is_a_located_problem(tmp_path, game_id, command):
    """The duplex line bolds "**flipping on the {edge} edge**": an edge word holding a line break
    leaves that ** open on its line once filled. Reported at the duplex line, exit 2, nothing written."""
    from click.testing import CliRunner

    from pnp.cli import main
    from tests.conftest import overlay

    setup = (CONTENT / game_id / "setup.yaml").read_text(encoding="utf-8")
    duplex_line = next(n for n, line in enumerate(setup.splitlines(), 1) if line.startswith("duplex:"))
    assert "{edge}" in setup.splitlines()[duplex_line - 1]
    broken = re.sub(r"(?m)^(  long: )(.+)$", r'\1"\2\\nside"', setup, count=1)
    assert broken != setup
    mine = overlay(tmp_path / "mine", game_id, {"setup.yaml": broken})
    out = tmp_path / "out"
    args = [command, game_id, "--content", str(mine), "--backs", "duplex-long"]
    result = CliRunner().invoke(main, args + (["--out", str(out)] if command == "build" else []))
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    located = rf"setup\.yaml:{duplex_line}:\d+: duplex: .*closed on the line it opens.*once filled"
    assert re.search(located, result.output)
    assert "{edge} with" in result.output and "Traceback" not in result.output
    assert not out.exists() or not any(out.iterdir())
