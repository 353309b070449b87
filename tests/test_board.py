"""A board printed in pieces goes together at the size its template says.

Read back from the PDF as someone assembling it would work: each piece is cut where its crop marks
say, and laid on its neighbour so that the + marks on both sides of their seam meet. The pieces so
placed must make the declared board to 0.2 mm, overlap by the declared glue strip, leave no gap,
show the board's art under every cut piece, stay clear of the printer's margin, and agree with the
board drawn underneath (every piece's form lands the board at the same place once assembled).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from itertools import product
from pathlib import Path

import numpy
import pypdfium2
import pytest

from pnp.build import check
from pnp.components.board import ASSEMBLY_NOTE, MARK_WIDTH
from pnp.components.card import Face, Value
from pnp.components.kinds import Board
from pnp.components.setup_sheet import setup_sheet
from pnp.components.templates import Templates, load_templates
from pnp.content.problems import ContentError
from pnp.document import write_pdf
from pnp.imposition import Options
from pnp.paths import TEMPLATES
from tests.conftest import bundled
from tests.support.pdfcards import MM, PAGE, read, turn

BOARDS = Path(__file__).parent / "boards"  # a board for the tests only; no game ships it
TOLERANCE = 0.2 * MM
SCALE = 2  # pixels a point, rendering a page to look for ink in its margin
PIECE = re.compile(r"piece ([A-Z])(\d+) of (\d+)")


@cache
def templates() -> dict:
    shared = load_templates(TEMPLATES, "magic-spell")  # a game's load holds the shared page and setup
    return Templates({"page": shared["page"], "setup": shared["setup"], **load_templates(BOARDS)}, {})


# what content would give each board's regions
VALUES = {
    "test-board": (Value("title", "Casting field"),),
    "test-character-board": (
        Value("icon", "spirit"),
        Value("name", "Orrin of the Lantern Tower"),
        Value("spirit_label", "Spirit"),
        Value("spirit", "0-15 start 5"),
        Value("satchel_label", "Satchel"),
    ),
}
BOARDS_MADE = ["test-board", "test-board-large", "test-character-board"]


def board(template: str) -> Board:
    face = Face(template, VALUES.get(template, VALUES["test-board"]), "test board")
    return Board("field", "Casting field", template, (face,))


@pytest.fixture(scope="module")
def board_pdf(tmp_path_factory):
    folder = tmp_path_factory.mktemp("boards")

    def make(paper: str, backs: str = "none", template: str = "test-board"):
        path = folder / f"{template}-{paper}-{backs}.pdf"
        if not path.exists():
            listed = [board(template)]
            components = [setup_sheet(bundled("magic-spell").content["setup"], listed, templates()), *listed]
            write_pdf(path, "Board test", components, templates(), Options(paper, backs))
        return read(path)

    return make


def plus_marks(pdf, page: int) -> list[tuple[float, float, bool]]:
    """(x, y, whole) for each + mark: where its two strokes cross, and whether both run on past the
    crossing (a whole +) or one stops there (a half +, on the piece cut along that seam)."""
    strokes = [s for s in pdf.strokes(page) if abs(s.width - MARK_WIDTH) < 1e-3]
    across = [s for s in strokes if s.horizontal]
    marks = []
    for v in (s for s in strokes if s.vertical):
        for h in across:
            x, y = v.x0, h.y0
            if inside((x, y), (min(h.x0, h.x1), min(v.y0, v.y1), max(h.x0, h.x1), max(v.y0, v.y1))):
                ends = [abs(e - x) for e in (h.x0, h.x1)] + [abs(e - y) for e in (v.y0, v.y1)]
                marks.append((x, y, min(ends) > 1e-3))
    return marks


def inside(point, rect, slack: float = 1e-3) -> bool:
    x, y = point
    return rect[0] - slack <= x <= rect[2] + slack and rect[1] - slack <= y <= rect[3] + slack


def seam(marks, along_x: bool, whole: bool) -> list[tuple[float, float]]:
    """The marks of one kind lying on a seam that runs along the page's x (or y) axis, in order."""
    chosen = [(x, y) for x, y, w in marks if w == whole]
    groups: dict[float, list] = {}
    for x, y in chosen:
        groups.setdefault(round(y if along_x else x, 2), []).append((x, y))
    found = [sorted(group) for group in groups.values() if len(group) > 1]
    assert len(found) == 1, f"expected one seam of {'whole' if whole else 'half'} marks, got {found}"
    return found[0]


def pieces(pdf, template) -> dict[tuple[int, int], int]:
    """(row, column) of each piece -> its page: the pages placing the board once, each piece's
    place read from its label (a board in one piece has no name)."""
    found = {}
    for page in range(len(pdf)):
        placed = pdf.placements(page)
        if len(placed) == 1 and sorted((placed[0].w, placed[0].h)) == pytest.approx(declared(template)):
            match = PIECE.search(pdf.text(page))
            found[(ord(match[1]) - ord("A"), int(match[2]) - 1) if match else (0, 0)] = page
    assert found and len(found) == (int(match[3]) if match else 1)
    return found


def declared(template) -> list[float]:
    return sorted((template.size.width, template.size.height))


def cut(pdf, page: int) -> tuple[float, float, float, float]:
    """Where the piece is cut: the outermost lines its crop marks give."""
    marks = pdf.crop_marks(page)
    xs = [m.x0 for m in marks if m.vertical]
    ys = [m.y0 for m in marks if m.horizontal]
    return min(xs), min(ys), max(xs), max(ys)


def millimetres(size) -> str:
    return " x ".join(f"{v / MM:.2f}" for v in size) + " mm"


def covered(rects) -> bool:
    """Whether the rectangles together fill their bounds: every cell between their edges is in one."""
    xs = sorted({r[0] for r in rects} | {r[2] for r in rects})
    ys = sorted({r[1] for r in rects} | {r[3] for r in rects})
    for (x0, x1), (y0, y1) in product(zip(xs, xs[1:], strict=False), zip(ys, ys[1:], strict=False)):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if x1 - x0 > 1e-3 and y1 - y0 > 1e-3 and not any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in rects):
            return False
    return True


@pytest.mark.parametrize("template", BOARDS_MADE)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_assembles_to_its_size(board_pdf, paper, template):
    assembled(board_pdf(paper, template=template), templates()[template])


def assembled(pdf, template) -> list[float]:
    """Assemble the board's pieces as their + marks say (every check of the module's docstring
    asserted on the way); the assembled size, shorter side first."""
    at = pieces(pdf, template)
    placed = {}  # (row, column) -> (page, offset moving it to where it lies in the assembled board)
    for (row, col), page in sorted(at.items()):
        (board_form,) = pdf.placements(page)
        # the board's x and y axes on the page: the pieces lie turned on portrait paper, or not
        board_x = turn((1, 0, 1, 0), board_form.turns)[:2]
        marks = plus_marks(pdf, page)
        offsets = []
        for neighbour, along in (((row, col - 1), "y"), ((row - 1, col), "x")):
            if neighbour not in placed:
                continue
            other, (dx, dy) = placed[neighbour]
            along_page_x = (abs(board_x[0]) > 0.5) == (along == "x")
            under, over = seam(plus_marks(pdf, other), along_page_x, True), seam(marks, along_page_x, False)
            assert len(under) == len(over) >= 2
            shifts = [(ux - ox, uy - oy) for (ux, uy), (ox, oy) in zip(under, over, strict=True)]
            assert max(abs(a - b) for s in shifts for a, b in zip(s, shifts[0], strict=True)) < TOLERANCE
            offsets.append((shifts[0][0] + dx, shifts[0][1] + dy))
        offset = offsets[0] if offsets else (0.0, 0.0)
        # a piece with two placed neighbours lands at the same place by either seam
        assert all(abs(o[0] - offset[0]) < TOLERANCE and abs(o[1] - offset[1]) < TOLERANCE for o in offsets)
        placed[(row, col)] = (page, offset)

    rects, origins = {}, []
    for key, (page, (dx, dy)) in placed.items():
        x0, y0, x1, y1 = cut(pdf, page)
        rects[key] = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
        (board_form,) = pdf.placements(page)
        art = board_form.art
        assert inside((x0, y0), art) and inside((x1, y1), art), "blank paper inside a cut piece"
        ox, oy = board_form.to_page(0, 0)
        origins.append((ox + dx, oy + dy))

    every = list(rects.values())
    bounds = (min(r[0] for r in every), min(r[1] for r in every), max(r[2] for r in every), max(r[3] for r in every))
    size = sorted((bounds[2] - bounds[0], bounds[3] - bounds[1]))
    assert size == pytest.approx(declared(template), abs=TOLERANCE), (
        f"assembled {millimetres(size)}, declared {millimetres(declared(template))}"
    )
    assert covered(every), "a gap between the assembled pieces"
    for (row, col), rect in rects.items():
        for neighbour in ((row, col + 1), (row + 1, col)):
            if neighbour in rects:
                other = rects[neighbour]
                strip = min(
                    min(rect[2], other[2]) - max(rect[0], other[0]), min(rect[3], other[3]) - max(rect[1], other[1])
                )
                assert abs(strip - template.overlap) <= TOLERANCE, f"glue strip {strip / MM:.2f} mm"
    # the + marks put every piece's share of the board where the board has it
    assert max(abs(o[i] - origins[0][i]) for o in origins for i in (0, 1)) <= TOLERANCE
    return size


@pytest.mark.parametrize("template", BOARDS_MADE)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_pages_keep_clear_of_the_margin(board_pdf, paper, template):
    pdf = board_pdf(paper, template=template)
    margin = PAGE.margin
    at = pieces(pdf, templates()[template])
    for page in at.values():
        width, height = pdf.size(page)
        assert width < height, "every page goes through the printer portrait"
        (board_form,) = pdf.placements(page)
        x0, y0, x1, y1 = board_form.art
        printable = (margin, margin, width - margin, height - margin)
        assert inside((x0, y0), printable) and inside((x1, y1), printable)
        for s in pdf.strokes(page):
            assert inside((s.x0, s.y0), printable) and inside((s.x1, s.y1), printable)
    # and nothing reaches the margin in print: the rendered page is white there (text the board's
    # form clips away is in the file, so only pixels tell)
    document = pypdfium2.PdfDocument(str(pdf.path))
    try:
        for page in at.values():
            pixels = numpy.asarray(document[page].render(scale=SCALE).to_pil().convert("L"))
            edge = int(margin * SCALE) - 1
            ring = numpy.ones(pixels.shape, bool)
            ring[edge:-edge, edge:-edge] = False
            assert pixels[ring].min() == 255, f"ink in the margin of page {page + 1}"
    finally:
        document.close()


@pytest.mark.parametrize(
    "template, paper, count",
    [
        # Letter's free area is too short for the field standing up: it lies across, in two, not four
        ("test-board", "letter", 2),
        ("test-board", "a4", 2),
        ("test-board-large", "a4", 4),
        ("test-character-board", "letter", 1),
    ],
)
def test_board_fewest_pieces_and_setup_row(board_pdf, template, paper, count):
    """The fewest pieces; the setup page lists the board at its assembled size, on the pages its
    pieces take; a board in one piece has no key to assemble it by."""
    pdf = board_pdf(paper, template=template)
    size = templates()[template].size
    at = pieces(pdf, templates()[template])
    assert len(at) == count
    pages = sorted(at.values())
    on = f"{pages[0] + 1}–{pages[-1] + 1}" if count > 1 else f"{pages[0] + 1}"
    assert f"Casting field 1 {size.width / MM:g} × {size.height / MM:g} mm {on}" in pdf.text(0)
    assert (ASSEMBLY_NOTE in pdf.text(pages[0])) == (count > 1)


def test_board_duplex_gets_blank_backs(board_pdf):
    pdf = board_pdf("a4", "duplex-long")
    for page in pieces(pdf, templates()["test-board"]).values():
        assert "Left blank on purpose" in pdf.text(page + 1)


def test_grid_cells_print_at_their_size(board_pdf):
    """The field's grid region: rows x columns cells, each the box's share, side by side (25 mm
    bases need every square whole)."""
    pdf = board_pdf("a4")
    field = templates()["test-board"].regions["field"]
    width, height = field.box[2] / field.columns, field.box[3] / field.rows
    page = min(pieces(pdf, templates()["test-board"]).values())
    cells = [r for r in pdf.plumber.pages[page].rects if (r["width"], r["height"]) == pytest.approx((width, height))]
    xs, ys = sorted({round(r["x0"], 2) for r in cells}), sorted({round(r["top"], 2) for r in cells})
    assert (len(cells), len(xs), len(ys)) == (field.rows * field.columns, field.columns, field.rows)
    assert numpy.diff(xs) == pytest.approx(width, abs=0.01) and numpy.diff(ys) == pytest.approx(height, abs=0.01)


def test_check_reports_board_words_that_do_not_fit():
    """`check` fits a board's values to its regions as it does a card's, naming the board."""
    shipped = bundled("magic-spell")
    face = Face("test-character-board", (Value("name", "Orrin " * 60),), "character board")
    game = replace(shipped, templates=templates())
    game.__dict__["whole_set"] = (Board("hero", "Hero board", "test-character-board", (face,)),)  # the set, made
    with pytest.raises(ContentError) as raised:
        check(game, Options())
    (problem,) = raised.value.problems
    assert "character board: text does not fit" in problem.message


@pytest.mark.parametrize("template", ["test-board", "test-board-large"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_seams_fall_on_the_squares_edges(board_pdf, paper, template):
    """Where a piece is cut on a seam (its left or top edge) lies on one of the lines the template
    allows, so no square of the field is split between two pieces."""
    pdf = board_pdf(paper, template=template)
    board = templates()[template]
    lines = board.seams
    seams = 0
    for (row, col), page in pieces(pdf, board).items():
        (board_form,) = pdf.placements(page)
        left, _, _, top = board_form.upright(cut(pdf, page))  # in the board's frame
        for on, distance in ((col, left), (row, board.size.height - top)):  # from the trim's left and top
            if on:
                steps = (distance - lines.offset) / lines.every
                assert abs(steps - round(steps)) * lines.every <= TOLERANCE, f"a seam {distance / MM:.2f} mm in"
                seams += 1
    assert seams


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_seam_is_labelled(board_pdf, paper):
    """Each glue strip names its seam: the piece it is on and the piece that goes over it."""
    template = templates()["test-board-large"]
    pdf = board_pdf(paper, template="test-board-large")
    at = pieces(pdf, template)
    name = lambda row, col: f"{chr(ord('A') + row)}{col + 1}"
    for (row, col), page in at.items():
        for over in ((row, col + 1), (row + 1, col)):
            if over in at:
                assert f"seam {name(row, col)}–{name(*over)}: {name(*over)} goes over this strip" in pdf.text(page)
