"""Spellcycles' printed playing pieces, read back from the built PDF on A4 and Letter, duplex and fold.

The casting field: squares a large pyramid's base stands in, its pieces assembled by their + marks
square to 0.2 mm, its seams on the squares' edges. The flat spell components: each colour's stash
of each size at that size's pyramid base, in the colour's ink (by rendering), with the size's pips,
each backed by itself, back to front. The pyramid nets: every face's base and slant height at the
real pieces' sizes, measured from the drawn cut and fold lines, a full stash of every colour. The
crescents, essence tokens and knucklebone table as the set content counts them.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter

import numpy
import pypdfium2
import pytest
import yaml

from pnp.components.makers import SetInputs
from pnp.games.spellcycles.kinds import SIZES
from pnp.games.spellcycles.nets import FOLD_WIDTH, Net, NetPages, turned
from pnp.paths import CONTENT
from tests.conftest import bundled, invoke, overlay
from tests.support.pdfcards import MM, read
from tests.test_board import assembled, cut, pieces

GAME = "spellcycles"
TOLERANCE = 0.2 * MM
SCALE = 4  # pixels a point, rendering a page to read an ink
# FACTS.md: base x height of the Looney Pyramids, and the slant height a paper net needs
PYRAMIDS = {"small": (14.3, 26.4), "medium": (19.8, 36.3), "large": (25.4, 46.2)}
PIPS = {"small": 1, "medium": 2, "large": 3}
BUILDS = [("a4", "duplex-long"), ("letter", "duplex-long"), ("a4", "fold"), ("letter", "fold")]


@pytest.fixture(scope="module")
def game():
    return bundled(GAME)


def rules(game):
    return game.content["spellcycles-set"]


def inks(game) -> dict[str, tuple[int, int, int]]:
    """Each colour id -> its ink as RGB, from the house template."""
    colours = game.templates["sc-card"].colours
    return {c.id: tuple(int(colours[c.id][i : i + 2], 16) for i in (1, 3, 5)) for c in rules(game).colours}


def label_of(pdf, page: int) -> tuple[list[str], str]:
    """(the components a page's label names, joined by ' + ' where they share it; its side)."""
    # game · components · side · page n of m, wherever the text extraction puts it
    parts = re.search(r"Spellcycles · (.*?) · page \d+ of \d+", pdf.text(page)).group(1).split(" · ")
    return parts[0].split(" + "), " · ".join(parts[1:])


def pages_of(pdf, title: str, side: str | None = None) -> list[int]:
    """The pages whose label names this component (and side: fronts, backs, ...)."""
    found = []
    for page in range(len(pdf)):
        titles, on = label_of(pdf, page)
        if title in titles and on != "blank back" and (side is None or on.startswith(side)):
            found.append(page)
    return found


def token_titles(game) -> list[str]:
    """The flat components' decks' titles, a deck a size."""
    return [c.title for c in game.components() if c.id.startswith("tokens-")]


class Rendered:
    """A page rendered once, its pixels read at points of the page (origin bottom-left)."""

    def __init__(self, pdf, page: int):
        document = pypdfium2.PdfDocument(str(pdf.path))
        try:
            self.pixels = numpy.asarray(document[page].render(scale=SCALE).to_pil().convert("RGB"))
        finally:
            document.close()
        self.height = pdf.size(page)[1]

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        return tuple(int(v) for v in self.pixels[int((self.height - y) * SCALE), int(x * SCALE)])


def colour_of(rgb, game) -> str:
    """The colour id whose ink this pixel is (within a little rounding)."""
    near = [cid for cid, ink in inks(game).items() if max(abs(a - b) for a, b in zip(rgb, ink, strict=True)) <= 12]
    assert len(near) == 1, f"expected a colour's ink, got {rgb}"
    return near[0]


def token_colour(render: Rendered, placement, game) -> str:
    """A token's ink, read just inside its trim, outside its frame and marks."""
    inset = 0.4 * MM
    return colour_of(render.at(placement.x + inset, placement.y + placement.h / 2), game)


# --- the casting field ---


@pytest.mark.parametrize(("paper", "backs"), BUILDS)
def test_the_field_assembles_square_with_squares_a_large_base_fits(built_pdf, game, paper, backs):
    pdf = built_pdf(game=GAME, paper=paper, backs=backs)
    template = game.templates["sc-field"]
    width, height = assembled(pdf, template)  # the pieces laid on each other as their + marks say
    assert abs(width - height) <= TOLERANCE, f"assembled {width / MM:.2f} x {height / MM:.2f} mm"
    field = template.regions["field"]
    side = field.box[2] / field.columns
    assert side >= 26 * MM and field.rows == field.columns == rules(game).field
    at = pieces(pdf, template)
    assert len(at) > 1, "the field is wider than the paper: it prints in pieces"
    for page in at.values():
        # every square, drawn the size the template says and side by side
        cells = [r for r in pdf.plumber.pages[page].rects if (r["width"], r["height"]) == pytest.approx((side, side))]
        xs, ys = sorted({round(r["x0"], 2) for r in cells}), sorted({round(r["top"], 2) for r in cells})
        assert (len(cells), len(xs), len(ys)) == (64, 8, 8)
        assert numpy.diff(xs) == pytest.approx(side, abs=0.01) and numpy.diff(ys) == pytest.approx(side, abs=0.01)
    # every seam on a square's edge: no base stands across one
    seams = 0
    for (row, col), page in at.items():
        (board,) = pdf.placements(page)
        left, _, _, top = board.upright(cut(pdf, page))
        for on, distance in ((col, left), (row, template.size.height - top)):
            if on:
                steps = (distance - field.box[0]) / side  # boxes are read in points
                assert abs(steps - round(steps)) * side <= TOLERANCE, f"a seam {distance / MM:.2f} mm in"
                seams += 1
    assert seams == len(at) - 1
    # and the field cut evenly: no piece a square or more wider (or taller) than another
    cuts = [board.upright(cut(pdf, page)) for page in at.values() for board in pdf.placements(page)]
    for lo, hi in ((0, 2), (1, 3)):
        lengths = [c[hi] - c[lo] for c in cuts]
        assert max(lengths) - min(lengths) < side, f"pieces {', '.join(f'{v / MM:.1f}' for v in lengths)} mm"


def test_the_field_names_its_rows_and_columns_on_every_side(built_pdf):
    pdf = built_pdf(game=GAME, paper="a4", backs="duplex-long")
    page = pages_of(pdf, "Casting field")[0]
    (board,) = pdf.placements(page)
    x0, y0, x1, y1 = board.rect  # the whole field, not the piece's name in the key above it
    text = [c for c in pdf.chars(page) if x0 < c["x0"] < x1 and y0 < c["y0"] < y1]
    # bold: not the glue strip's italic note, drawn over the field
    letters = Counter(c["text"] for c in text if c["text"] in "ABCDEFGH12345678" and "Bold" in c["fontname"])
    # the form holds the whole field: each letter and number twice, one for each side it is read from
    assert letters == {k: 2 for k in "ABCDEFGH12345678"}
    # each side's upright for the player sitting there: numbers below and (half round) above, the
    # rows' letters a quarter turn each way at the sides; the page may lie turned, so relative turns
    coordinates = [c for c in text if "Bold" in c["fontname"] and c["text"] in "ABCDEFGH12345678"]
    numbers = Counter(c["turns"] for c in coordinates if c["text"].isdigit())
    rows = Counter(c["turns"] for c in coordinates if c["text"].isalpha())
    (a, b), (c, d) = sorted(numbers), sorted(rows)
    assert (b - a, d - c, (c - a) % 2) == (2, 2, 1) and set(numbers.values()) | set(rows.values()) == {8}


# --- flat spell components ---


@pytest.mark.parametrize(("paper", "backs"), [*BUILDS, ("a4", "duplex-short")])
def test_flat_components_come_in_every_colour_and_size_backed_by_themselves(built_pdf, game, paper, backs):
    pdf = built_pdf(game=GAME, paper=paper, backs=backs)
    side = "fronts" if backs != "fold" else "fronts and backs"
    sizes = {size: PYRAMIDS[size][0] * MM for size in SIZES}
    found: Counter = Counter()
    pages = sorted({p for title in token_titles(game) for p in pages_of(pdf, title, side)})
    for page in pages:  # the sizes share sheets, with the crescents and essence where they fit
        render = Rendered(pdf, page)
        colours = {}
        for p in pdf.placements(page):
            for size in (s for s, mm in sizes.items() if (p.w, p.h) == pytest.approx((mm, mm), abs=0.01)):
                colours[p] = (size, token_colour(render, p, game))
        if backs == "fold":
            found.update(colours[p] for p in folded(pdf, page, colours))
        else:
            found.update(colours.values())
            back_page = page + 1
            back_render = Rendered(pdf, back_page)
            width = pdf.size(page)[0]
            height = pdf.size(page)[1]
            backs_at = {(round(p.x, 1), round(p.y, 1)): p for p in pdf.placements(back_page)}
            for p, (_, colour) in colours.items():
                # flipped on the long edge the back of a front at x lies at width - x - w; on the
                # short edge, of a front at y at height - y - h (its band moved to the other side)
                at = (width - p.x - p.w, p.y) if backs == "duplex-long" else (p.x, height - p.y - p.h)
                back = backs_at[(round(at[0], 1), round(at[1], 1))]
                assert (back.w, back.h) == pytest.approx((p.w, p.h))
                assert token_colour(back_render, back, game) == colour
    stash = rules(game).stash
    expected = {(size, c.id): getattr(stash, size) for size in SIZES for c in rules(game).colours}
    assert dict(found) == expected


def folded(pdf, page: int, colours: dict) -> list:
    """On a fold page: each token's twin mirrored across the fold line is the same size and
    colour (its back); the fronts, on one side of the line."""
    fold = max((s for s in pdf.strokes(page) if s.vertical or s.horizontal), key=lambda s: s.length)
    axis, at = (0, fold.x0) if fold.vertical else (1, fold.y0)
    rect = lambda p: tuple(round(v, 1) for v in p.rect)
    by_rect = {rect(p): p for p in colours}

    def twin(p):
        r = list(p.rect)
        r[axis], r[axis + 2] = 2 * at - r[axis + 2], 2 * at - r[axis]
        return by_rect[tuple(round(v, 1) for v in r)]

    assert all(colours[twin(p)] == colours[p] for p in colours), "a token's back is not its own colour"
    return [p for p in colours if p.rect[axis + 2] <= at + 0.01]


def test_flat_components_carry_their_pips_letter_and_symbol(built_pdf, game):
    pdf = built_pdf(game=GAME, paper="a4", backs="duplex-long")
    letters = {c.letter for c in rules(game).colours}
    for page in (p for title in token_titles(game) for p in pages_of(pdf, title, "fronts")):
        chars, curves = pdf.chars(page), pdf.plumber.pages[page].curves
        height = pdf.size(page)[1]
        for p in pdf.placements(page):
            (size,) = [s for s in SIZES if abs(p.w - PYRAMIDS[s][0] * MM) < 0.01]
            inside = [c["text"] for c in chars if p.x < c["x0"] < p.x + p.w and p.y < c["y0"] < p.y + p.h]
            assert len(inside) == 1 and inside[0] in letters
            pip = game.templates[f"sc-token-{size}"].regions["pip_1"].box[2]
            on_token = [
                c for c in curves if p.x < c["x0"] and c["x1"] < p.x + p.w and p.y < height - c["bottom"] < p.y + p.h
            ]
            dots = [c for c in on_token if max(abs(c["x1"] - c["x0"] - pip), abs(c["bottom"] - c["top"] - pip)) < 0.05]
            assert len(dots) == PIPS[size], f"{size} token with {len(dots)} pips"


def test_tokens_take_the_marks_that_read_on_their_ink(game):
    """White marks on blue and black; dark marks (and a dark edge) on white and yellow, and on
    vermilion and bluish green, where white falls short of 4.5:1 (test_legibility checks each)."""
    decks = [c for c in game.components() if c.id.startswith("tokens-")]
    assert len(decks) == len(SIZES)
    for deck in decks:
        for face in deck.faces:
            assert face.template.endswith("-dark") == (face.value("letter").text in {"Y", "W", "R", "G"}), face.label


# --- the pyramid nets ---


def net_measures(pdf, page: int) -> list[tuple[list[float], list[float]]]:
    """Each net on the page: its faces' bases and slant heights, from the lines drawn. The apex
    is where the four dashed folds between the faces and the first face's cut edge meet; the
    base corners are their other ends, an edge's length away."""
    segments = [s for s in pdf.strokes(page) if s.width in (FOLD_WIDTH, 0.6)]
    ends: dict[tuple, list] = {}
    for s in segments:
        for a, b in (((s.x0, s.y0), (s.x1, s.y1)), ((s.x1, s.y1), (s.x0, s.y0))):
            ends.setdefault((round(a[0], 2), round(a[1], 2)), []).append(b)
    nets = []
    for apex, others in ends.items():
        if len(others) < 6:
            continue
        lengths = [math.dist(apex, o) for o in others]
        edge = Counter(round(v, 1) for v in lengths).most_common(1)[0][0]
        corners = [o for o, v in zip(others, lengths, strict=True) if abs(v - edge) < 0.05]
        assert len(corners) == 5, f"an apex with {len(corners)} face edges"
        # round the fan in order: by angle from its middle direction (a fan may straddle any axis)
        mx, my = (sum(o[i] - apex[i] for o in corners) for i in (0, 1))
        corners.sort(
            key=lambda o: math.atan2(
                mx * (o[1] - apex[1]) - my * (o[0] - apex[0]), mx * (o[0] - apex[0]) + my * (o[1] - apex[1])
            )
        )
        bases, slants = [], []
        for a, b in zip(corners, corners[1:], strict=False):
            base = math.dist(a, b)
            cross = abs((a[0] - apex[0]) * (b[1] - apex[1]) - (a[1] - apex[1]) * (b[0] - apex[0]))
            bases.append(base / MM)
            slants.append(cross / base / MM)  # the apex's distance from the base
        nets.append((bases, slants))
    return nets


@pytest.mark.parametrize(("paper", "backs"), BUILDS)
def test_nets_fold_up_at_the_real_pyramids_sizes_a_full_stash_of_each(built_pdf, game, paper, backs):
    pdf = built_pdf(game=GAME, paper=paper, backs=backs)
    pages = pages_of(pdf, "Spell components (fold-up pyramids)")
    assert 1 <= len(pages) <= 12, f"{len(pages)} pages of nets"
    found: Counter = Counter()
    for page in pages:
        for bases, slants in net_measures(pdf, page):
            size = min(PYRAMIDS, key=lambda s: abs(PYRAMIDS[s][0] - bases[0]))
            base, slant = PYRAMIDS[size]
            assert bases == pytest.approx([base] * 4, abs=0.1) and slants == pytest.approx([slant] * 4, abs=0.1)
            found[size] += 1
    stash = rules(game).stash
    colours = len(rules(game).colours)
    assert dict(found) == {size: getattr(stash, size) * colours for size in SIZES}
    # the setup page counts the nets' pages
    assert f"Spell components (fold-up pyramids) {len(pages)} " in pdf.text(0)


# --- crescents, essence, the knucklebone table ---


@pytest.mark.parametrize(("paper", "backs"), BUILDS)
def test_crescents_and_essence_as_the_set_counts_them(built_pdf, game, paper, backs):
    """One-sided (put down face up, they need no back), on sheets they share: counted by their size."""
    pdf = built_pdf(game=GAME, paper=paper, backs=backs)
    for title, template, count in (
        ("Moon crescents", "sc-crescent", rules(game).crescents),
        ("Essence", "sc-essence", rules(game).essence_tokens),
    ):
        size = game.templates[template].size
        pages = pages_of(pdf, title)
        placed = [p for page in pages for p in pdf.placements(page)]
        own = [p for p in placed if (p.w, p.h) == pytest.approx((size.width, size.height))]
        assert len(own) == count, f"{title}: {len(own)} on pages {[p + 1 for p in pages]}"
        assert not any("backs" in label_of(pdf, page)[1] and title in label_of(pdf, page)[0] for page in pages)


def test_the_knucklebone_table_gives_each_face_its_colour(built_pdf, game):
    pdf = built_pdf(game=GAME, paper="a4", backs="duplex-long")
    colours = {c.id: c for c in rules(game).colours}
    rows = [f"{colours[cid].letter} · {colours[cid].name}" for _, cid in sorted(rules(game).knucklebone.items())]
    # its own page, or the references' last sheet when it has room there
    (page,) = [p for p in range(len(pdf)) if rows[0] in pdf.text(p)]
    (card,) = [c for c in pdf.placements(page) if rows[0] in pdf.text_in(page, c.rect)]
    text = pdf.text_in(page, card.rect)
    at = [text.find(row) for row in rows]
    assert -1 not in at and at == sorted(at), text
    # each face's row: its number, and its swatch in the colour's ink
    render = Rendered(pdf, page)
    template = game.templates["sc-knucklebone"]
    for face, cid in sorted(rules(game).knucklebone.items()):
        x, y, w, h = template.regions[f"face_{face}"].box
        corners = [card.to_page(x, template.size.height - y - h), card.to_page(x + w, template.size.height - y)]
        (x0, x1), (y0, y1) = (sorted(v) for v in zip(*corners, strict=True))
        assert pdf.text_in(page, (x0, y0, x1, y1)) == str(face)
        x, y, w, h = template.regions[f"swatch_{face}"].box
        px, py = card.to_page(x + w / 2, template.size.height - (y + h / 2))
        assert colour_of(render.at(px, py), game) == cid


def pieces_of(net: Net, placed) -> list[list[tuple[float, float]]]:
    """The net's convex pieces (faces, base, tabs) where the page layout puts them."""
    x, y = placed.at
    return [[(px + x, py + y) for px, py in turned(polygon, placed.angle)] for polygon in net.pieces()]


def apart(p, q) -> float:
    """How far apart two convex polygons are along the axis that parts them most (0 or less: they touch)."""
    best = -math.inf
    for polygon in (p, q):
        for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
            nx, ny = y1 - y0, x0 - x1
            norm = math.hypot(nx, ny)
            a = [(px * nx + py * ny) / norm for px, py in p]
            b = [(px * nx + py * ny) / norm for px, py in q]
            best = max(best, min(b) - max(a), min(a) - max(b))
    return best


def test_nested_nets_never_overlap_and_stay_in_the_room(game):
    """Nets nest in pairs, half round to each other: every two keep apart, each cut on its own lines."""
    nets = NetPages(SetInputs(game.content, game.templates))
    room = nets.room()
    nested = 0
    for page in nets.layout:
        shapes = [pieces_of(nets.net(p.size), p) for p in page]
        for shape in shapes:
            xs, ys = [x for polygon in shape for x, _ in polygon], [y for polygon in shape for _, y in polygon]
            slack = 1e-6
            assert -slack <= min(xs) and max(xs) <= room.w + slack and -slack <= min(ys) and max(ys) <= room.h + slack
        for i, j in itertools.combinations(range(len(shapes)), 2):
            gap = min(apart(p, q) for p in shapes[i] for q in shapes[j])
            assert gap >= 1 * MM, f"two nets {gap / MM:.2f} mm apart"
            nested += page[i].angle != page[j].angle
    assert nested, "no nets nested half round to each other"


def test_a_users_colour_without_an_ink_prints_in_the_cards_ink_with_its_letter(tmp_path):
    """A group plays with purple pyramids instead of black: their set.yaml names a colour the house
    template has no ink for. The build does not fail: the purple tokens print in the card's ink,
    told apart by their letter P, five of each size."""
    bundled_set = yaml.safe_load((CONTENT / GAME / "set.yaml").read_text())
    bundled_set["colours"][5] = {"id": "purple", "name": "Purple", "letter": "P", "symbol": "gem"}
    bundled_set["knucklebone"][6] = "purple"
    spells = [{"name": f"Violet {n}", "pattern": [["red", "purple"]], "effect": "Draw **{amount}** essence.",
               "does": [{"do": "gain-essence", "amount": 2}]} for n in range(12)]  # fmt: skip
    root = overlay(tmp_path / "ov", GAME, {
        "set.yaml": yaml.safe_dump(bundled_set),
        "spells.yaml": yaml.safe_dump({"kind": "spell-cards", "cards": spells}),
        "spells-rules.yaml": yaml.safe_dump({"kind": "spell-cards", "cards": [{**spells[0], "name": "Lilac"}]}),
    })  # fmt: skip
    result = invoke("build", GAME, "--content", str(root), "--only", "tokens-large", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    [path] = (tmp_path / "out").glob("*.pdf")
    pdf = read(path)
    fronts = [p for p in range(len(pdf)) if "fronts" in pdf.text(p) and "spell components" in pdf.text(p)]
    letters = Counter(c["text"] for page in fronts for c in pdf.chars(page) if c["size"] >= 7)
    assert letters["P"] == 5 and letters["R"] == 5, letters
