"""Rich text (pnp/render/richtext.py): parsing, shrink-to-fit on the 0.25 pt grid, line breaking,
and inline icons standing on the text baseline in a real PDF."""
from __future__ import annotations

import io

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from pnp.render import fonts, richtext
from pnp.render.icons import ICON_NAMES
from pnp.render.richtext import ICON_SCALE, STEP, Run, TextError, block_height, fit, parse, word_width

LOREM = " ".join(["alpha beta gamma delta epsilon zeta eta theta"] * 6)  # 48 words


def text_of(word) -> str:
    return "".join(run.text for run in word)


def words_of(fitted) -> list[str]:
    return [text_of(w) for line in fitted.lines for w in line.words]


# --- parsing ------------------------------------------------------------------------------------

def test_parse_plain_words():
    assert parse("Fire is trump", "regular") == (
        ((Run("Fire", "regular"),), (Run("is", "regular"),), (Run("trump", "regular"),)),)


def test_parse_bold_italic_and_icon_runs():
    (para,) = parse("a **bold** and *slanted* :fire: end", "regular")
    assert para == (
        (Run("a", "regular"),),
        (Run("bold", "bold"),),
        (Run("and", "regular"),),
        (Run("slanted", "italic"),),
        (Run("fire", "regular", icon=True),),
        (Run("end", "regular"),),
    )


def test_parse_styles_inside_one_word_stay_one_word():
    (para,) = parse("x**y**z", "regular")
    assert para == ((Run("x", "regular"), Run("y", "bold"), Run("z", "regular")),)


def test_parse_bold_italic_combine_and_add_to_the_base_style():
    (para,) = parse("***both*** **b**", "italic")
    assert [r.style for w in para for r in w] == ["bold-italic", "bold-italic"]


def test_parse_bold_spans_words():
    (para,) = parse("**10 more points** now", "regular")
    assert [(text_of(w), w[0].style) for w in para] == [
        ("10", "bold"), ("more", "bold"), ("points", "bold"), ("now", "regular")]


def test_parse_newlines_make_paragraphs():
    paras = parse("**Heading**\nbody text", "regular")
    assert len(paras) == 2
    assert [text_of(w) for w in paras[0]] == ["Heading"]
    assert [text_of(w) for w in paras[1]] == ["body", "text"]


def test_parse_keeps_a_plain_colon():
    (para,) = parse("Turn the ranking over: the lowest", "regular")
    assert [text_of(w) for w in para] == ["Turn", "the", "ranking", "over:", "the", "lowest"]
    assert not any(r.icon for w in para for r in w)


def test_parse_icon_glued_to_a_word():
    (para,) = parse("x:trump:", "regular")
    assert para == ((Run("x", "regular"), Run("trump", "regular", icon=True)),)


def test_parse_unknown_icon_names_it():
    with pytest.raises(TextError, match=":nosuch:"):
        parse("play :nosuch: now", "regular")


def test_parse_empty_text_is_one_empty_paragraph():
    assert parse("", "regular") == ((),)


# --- fitting ------------------------------------------------------------------------------------

def fits_at(text, width, height, size, leading=1.2):
    """Whether the text fits the box at exactly `size` (min = max = size)."""
    return fit(text, "regular", width, height, size, size, leading) is not None


def test_text_that_fits_keeps_the_template_size():
    fitted = fit("Short words.", "regular", 150, 40, 9, 6, 1.2)
    assert fitted.size == 9
    assert fitted.leading == pytest.approx(9 * 1.2)
    assert len(fitted.lines) == 1


@pytest.mark.parametrize("height", [60, 95, 140, 200, 260])
def test_too_tall_text_shrinks_to_the_largest_fitting_size_on_the_grid(height):
    width, size, min_size = 110, 12, 5
    fitted = fit(LOREM, "regular", width, height, size, min_size, 1.2)
    assert fitted is not None
    s = fitted.size
    assert min_size <= s < size
    steps = (size - s) / STEP
    assert steps == pytest.approx(round(steps)), f"{s} is not on the 0.25 pt grid below {size}"
    # it really fits at s ...
    assert fitted.height <= height + 1e-6
    assert all(line.width <= width + 1e-6 for line in fitted.lines)
    assert words_of(fitted) == LOREM.split()
    # ... and s + 0.25 does not: it is the largest (every larger grid size fails too)
    assert not fits_at(LOREM, width, height, s + STEP)
    larger = [size - i * STEP for i in range(int(round(steps)))]
    assert not any(fits_at(LOREM, width, height, t) for t in larger)


def test_shrinking_is_monotonic_in_the_box_height():
    sizes = [fit(LOREM, "regular", 110, h, 12, 4, 1.2).size for h in range(30, 400, 10)]
    assert sizes == sorted(sizes)
    assert sizes[-1] == 12 and sizes[0] < 12


def test_text_that_does_not_fit_at_min_size_returns_none():
    # a box of 40 x 20 pt cannot take 48 words at 6 pt or more
    assert fit(LOREM, "regular", 40, 20, 9, 6, 1.2) is None


def test_a_word_wider_than_the_box_at_min_size_returns_none():
    assert fit("Incomprehensibilities", "regular", 30, 500, 9, 6, 1.2) is None


@pytest.mark.parametrize("min_size", [6.5, 7.0, 8.0])
def test_never_below_min_size_on_the_grid(min_size):
    for height in range(20, 140, 3):
        fitted = fit(LOREM, "regular", 110, height, 12, min_size, 1.2)
        assert fitted is None or fitted.size >= min_size, (height, fitted.size)


def test_never_below_a_min_size_that_is_off_the_grid():
    """min_size need not be a multiple of 0.25 below size (a template may say 6.6)."""
    text, width, size = "word " * 40, 100, 9
    # Find a box in which the text fits at 6.5 pt but not at 6.75 pt.
    height = next(h for h in range(20, 200) if fits_at(text, width, h, 6.5))
    assert not fits_at(text, width, height, 6.75)
    # With min_size 6.6 the only sizes allowed are 9 .. 6.75 (and 6.6 itself): none fit.
    fitted = fit(text, "regular", width, height, size, 6.6, 1.2)
    assert fitted is None or fitted.size >= 6.6, (
        f"fit(min_size=6.6) returned {fitted.size} pt, below its minimum")


def test_lines_break_within_the_width_greedily():
    width, size = 120, 10
    fitted = fit(LOREM, "regular", width, 1000, size, size, 1.2)
    assert fitted.size == size
    assert len(fitted.lines) > 3
    space = fonts.string_width(" ", "regular", size)
    for line in fitted.lines:
        natural = sum(word_width(w, size) for w in line.words) + space * (len(line.words) - 1)
        assert line.width == pytest.approx(natural)
        assert line.width <= width + 1e-6
    for line, following in zip(fitted.lines, fitted.lines[1:]):
        # greedy: the next line's first word would not have fitted on this line
        assert line.width + space + word_width(following.words[0], size) > width
    assert words_of(fitted) == LOREM.split()
    assert fitted.height == pytest.approx(block_height(fitted.lines, size, size * 1.2))


def test_paragraphs_start_new_lines():
    fitted = fit("one\ntwo", "regular", 200, 100, 10, 10, 1.2)
    assert [[text_of(w) for w in line.words] for line in fitted.lines] == [["one"], ["two"]]
    assert [line.paragraph_start for line in fitted.lines] == [True, True]


def test_fit_reports_unknown_icons():
    with pytest.raises(TextError, match=":nosuch:"):
        fit("a :nosuch: b", "regular", 100, 100, 9, 6, 1.2)


# --- drawing inline icons -----------------------------------------------------------------------

PAGE_H = 60.0


def draw_line(text: str, size: float = 12.0):
    """Set `text` at `size` in a 180 x 40 pt box on a small page; return the pdfplumber page data."""
    fonts.register()
    fitted = fit(text, "regular", 180, 40, size, size, 1.2)
    assert fitted is not None and len(fitted.lines) == 1
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, PAGE_H), invariant=1)
    richtext.draw(canvas, fitted, 10, 10, 180, 40, "left", "top", (0, 0, 0))
    canvas.showPage()
    canvas.save()
    with pdfplumber.open(io.BytesIO(buffer.getvalue())) as pdf:
        page = pdf.pages[0]
        return list(page.chars), list(page.curves) + list(page.rects) + list(page.lines)


def baseline_of(chars) -> float:
    """The text baseline in pdfplumber's top-down coordinates (from the text matrix)."""
    baselines = {round(PAGE_H - c["matrix"][5], 4) for c in chars}
    assert len(baselines) == 1, baselines
    return baselines.pop()


def painted_box(shapes):
    """Union of the shapes' boxes, grown by half the line width of stroked ones (ink on paper)."""
    def grow(o):
        return o["linewidth"] / 2 if o.get("stroke") else 0.0
    return (min(o["x0"] - grow(o) for o in shapes), min(o["top"] - grow(o) for o in shapes),
            max(o["x1"] + grow(o) for o in shapes), max(o["bottom"] + grow(o) for o in shapes))


# Tolerance: 0.15 pt. Coordinates in the content stream are written by reportlab to several
# decimal places and the icon is scaled by ~10, so rounding is below 0.01 pt; 0.15 pt (1/80 of
# the 12 pt font, 0.05 mm) is far below any real misplacement one could make, such as standing
# the icon on the descender line (0.24 x 12 = 2.9 pt) or centring it on the line (several pt).
TOL = 0.15


def test_inline_icon_square_stands_on_the_baseline():
    """The exclaim icon is a disc of radius 0.44 centred in its unit square: from the drawn disc
    we recover the square, whose bottom must be the text's baseline and whose side 0.85 x size."""
    size = 12.0
    chars, shapes = draw_line("Play :exclaim: now", size)
    baseline = baseline_of(chars)
    assert {c["size"] for c in chars} == {size}
    # the disc is the largest curve (the other shapes are the "!" inside it)
    disc = max(shapes, key=lambda o: (o["x1"] - o["x0"]) * (o["bottom"] - o["top"]))
    diameter = disc["bottom"] - disc["top"]
    assert disc["x1"] - disc["x0"] == pytest.approx(diameter, abs=0.01)  # a circle
    square = diameter / 0.88
    centre = (disc["top"] + disc["bottom"]) / 2
    assert square == pytest.approx(ICON_SCALE * size, abs=TOL)
    assert centre + square / 2 == pytest.approx(baseline, abs=TOL), "icon square does not stand on the baseline"
    # everything the icon paints is between the baseline and the top of its square
    x0, top, x1, bottom = painted_box(shapes)
    assert bottom <= baseline + TOL
    assert baseline - top <= size
    # and between the words around it
    play_end = max(c["x1"] for c in chars if c["text"] in "Play")
    now_start = min(c["x0"] for c in chars if c["text"] in "now" and c["x0"] > play_end)
    assert play_end < x0 and x1 < now_start


@pytest.mark.parametrize("name", ICON_NAMES)
def test_every_inline_icon_sits_on_the_baseline_and_is_no_taller_than_the_font(name):
    size = 12.0
    chars, shapes = draw_line(f"Play :{name}: now", size)
    assert shapes, f"icon {name} drew nothing"
    baseline = baseline_of(chars)
    _, top, _, bottom = painted_box(shapes)
    # never below the baseline (no descender), never above the top of its 0.85 x size square
    assert bottom <= baseline + TOL, f"{name} hangs {bottom - baseline:.2f} pt below the baseline"
    assert baseline - top <= ICON_SCALE * size + TOL
    assert bottom - top <= size
    # and it sits on it: its lowest ink is within 12% of its square above the baseline
    # (icons keep a small design margin, 0.04 to 0.14 of the square, inside it)
    assert baseline - bottom <= 0.12 * ICON_SCALE * size, f"{name} floats {baseline - bottom:.2f} pt above the baseline"
