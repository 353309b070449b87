"""`pnp export cards` (a PNG per card and back, at print size with bleed), the Tabletop
Simulator saved object `pnp export tts` writes beside its sheets, and `pnp export page` (a PNG of
one page of a game's PDF, as the README's pictures are made). Every artefact is read back."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdfium2 as pdfium
import pytest
from click.shell_completion import BashComplete
from PIL import Image, ImageStat

from pnp.cli import main
from pnp.components.kinds import Deck
from pnp.components.templates import load_templates
from pnp.document import plan_pages
from pnp.imposition import PAPERS, Options
from pnp.paths import ROOT, TEMPLATES
from pnp.raster import pixel_size
from pnp.units import INCH, MM
from tests.conftest import bundled, invoke

GAME = "spells-and-potions"
EIGHTH_INCH = 3.175  # mm: the bleed print-on-demand shops ask for


def ok(result):
    assert result.exit_code == 0, (result.exit_code, result.output, result.stderr)
    return result


def decks(game_id: str) -> list[Deck]:
    return [c for c in bundled(game_id).components() if isinstance(c, Deck)]


def written(result) -> list[Path]:
    return [Path(line.removeprefix("wrote ")) for line in result.output.splitlines()]


@pytest.fixture(scope="module")
def cards(tmp_path_factory) -> Path:
    """The game's cards at 300 dpi with 1/8 in bleed; the folder holding them."""
    out = tmp_path_factory.mktemp("cards")
    result = ok(invoke("export", "cards", GAME, "--out", str(out), "--bleed", str(EIGHTH_INCH)))
    assert sorted(written(result)) == sorted(out.rglob("*.png"))
    return out


# --- pnp export cards ---------------------------------------------------------------------------


def test_a_poker_card_at_300_dpi_with_an_eighth_inch_bleed_is_825_by_1125_px():
    poker = load_templates(TEMPLATES)["poker-card"].size
    assert pixel_size(poker.width, poker.height, EIGHTH_INCH * MM, 300) == (825, 1125)
    # a poker card is 2.5 x 3.5 in and the bleed 1/4 in across both sides: whole pixels at any dpi
    for dpi in (600, 1200):
        assert pixel_size(poker.width, poker.height, EIGHTH_INCH * MM, dpi) == (2.75 * dpi, 3.75 * dpi)
        assert pixel_size(poker.width, poker.height, 0.0, dpi) == (2.5 * dpi, 3.5 * dpi)


@pytest.mark.slow
def test_one_png_per_card_and_one_back_per_deck_each_at_the_computed_size(cards):
    for deck in decks(GAME):
        folder = cards / GAME / deck.id
        pngs = sorted(folder.glob("*.png"))
        assert len(pngs) == len(deck.faces) + 1, deck.id
        assert (folder / "back.png").exists()
        size = load_templates(TEMPLATES)[deck.template].size
        for path in pngs:
            with Image.open(path) as image:
                assert image.size == pixel_size(size.width, size.height, EIGHTH_INCH * MM, 300) == (825, 1125)
                assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


@pytest.mark.slow
def test_names_are_unique_and_say_deck_and_card(cards):
    for deck in decks(GAME):
        names = sorted(p.name for p in (cards / GAME / deck.id).glob("*.png"))
        assert names[-1] == "back.png"
        for number, (name, face) in enumerate(zip(names, deck.faces, strict=False), 1):
            prefix, _, rest = name.partition("-")
            assert int(prefix) == number, name
            words = [w for w in face.label.lower().replace("'", "").split() if w.isalnum()]
            assert rest.removesuffix(".png").split("-") == words, (name, face.label)
    # repeated cards (the reference deck is one card four times) still get a file each
    reference = sorted(p.name for p in (cards / GAME / "reference").glob("0*.png"))
    assert len(set(reference)) == len(reference) == 4


def test_a_card_image_is_drawn_and_matches_the_built_pdf(cards, built_pdf):
    card = Image.open(cards / GAME / "elements" / "001-fire-1.png")
    back = Image.open(cards / GAME / "elements" / "back.png")
    assert len(card.getcolors(1 << 24)) > 100  # art, not a blank fill
    pdf = built_pdf()
    at = next(page for page in range(len(pdf)) if pdf.placements(page))  # after the setup page
    first = pdf.placements(at)[0]  # the first card of the first deck: Fire 1
    assert first.turns == 0
    page = pdfium.PdfDocument(str(pdf.path))[at]
    scale = 300 / INCH
    rendered = page.render(scale=scale).to_pil().convert("RGB")
    page_h = pdf.size(at)[1]
    from_pdf = rendered.crop(
        tuple(round(v * scale) for v in (first.x, page_h - first.y - first.h, first.x + first.w, page_h - first.y))
    )
    bleed = round(EIGHTH_INCH / 25.4 * 300)
    exported = card.crop((bleed, bleed, card.width - bleed, card.height - bleed))
    assert abs(exported.width - from_pdf.width) <= 1 and abs(exported.height - from_pdf.height) <= 1

    def thumbnail(image: Image.Image) -> bytes:
        """Mean colours of a 6 x 8 grid over the card's middle (away from the edges' half pixels)."""
        w, h = image.size
        middle = image.crop((w // 8, h // 8, w - w // 8, h - h // 8)).resize((6, 8), Image.Resampling.BOX)
        return middle.tobytes()

    def distance(a, b) -> float:
        return max(abs(x - y) for x, y in zip(thumbnail(a), thumbnail(b), strict=True))

    trimmed_back = back.crop((bleed, bleed, back.width - bleed, back.height - bleed)).resize(from_pdf.size)
    assert distance(exported, from_pdf) < 8
    assert distance(trimmed_back, from_pdf) > 40  # the comparison tells a different face apart
    # the bleed carries the card's background colour out past the trim
    edge = ImageStat.Stat(card.crop((0, 0, card.width, bleed // 2))).mean
    inside = ImageStat.Stat(exported.crop((0, 0, exported.width, 2))).mean
    assert max(abs(a - b) for a, b in zip(edge, inside, strict=True)) < 8


@pytest.mark.slow
def test_only_and_dpi_and_bleed_shape_the_export(tmp_path):
    result = ok(
        invoke("export", "cards", GAME, "--out", str(tmp_path), "--only", "reference", "--dpi", "150", "--bleed", "0")
    )
    pngs = sorted(tmp_path.rglob("*.png"))
    assert pngs == sorted(written(result)) and {p.parent.name for p in pngs} == {"reference"}
    [deck] = [d for d in decks(GAME) if d.id == "reference"]
    size = load_templates(TEMPLATES)[deck.template].size
    for path in pngs:
        with Image.open(path) as image:
            assert image.size == pixel_size(size.width, size.height, 0.0, 150)


def test_sheets_are_not_cards(tmp_path):
    result = ok(invoke("export", "cards", GAME, "--out", str(tmp_path), "--only", "score-pads"))
    assert result.output == f"skipped {GAME}: score-pads has no cards\n"
    assert not list(tmp_path.rglob("*.png"))


def test_cards_help_names_every_option():
    text = ok(invoke("export", "cards", "--help")).output
    for option in ("--dpi", "--bleed", "--out", "--only", "--content"):
        assert option in text, option
    assert "825 x 1125 px" in text


def test_only_completes_to_the_games_components():
    complete = BashComplete(main, {}, "pnp", "_PNP_COMPLETE").get_completions
    ids = [c.id for c in bundled(GAME).every_component()]
    assert [item.value for item in complete(["export", "cards", GAME, "--only"], "")] == ids


# --- pnp export tts: the saved object -----------------------------------------------------------


@pytest.fixture(scope="module")
def tts(tmp_path_factory) -> tuple[Path, dict]:
    """magic-spell, whose tiles are square and fill two sheets: the folder and its saved object."""
    out = tmp_path_factory.mktemp("tts")
    ok(invoke("export", "tts", "magic-spell", "--out", str(out)))
    return out, json.loads((out / "magic-spell.json").read_text())


def local(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(unquote(parsed.path))


@pytest.mark.slow
def test_the_saved_object_holds_a_custom_deck_per_component(tts):
    out, saved = tts
    states = saved["ObjectStates"]
    game_decks = decks("magic-spell")
    assert [s["Name"] for s in states] == ["DeckCustom"] * len(game_decks)
    assert [s["Nickname"] for s in states] == [d.title for d in game_decks]
    all_ids = [card_id for s in states for card_id in s["DeckIDs"]]
    assert len(all_ids) == len(set(all_ids))
    for state, deck in zip(states, game_decks, strict=True):
        cards = state["ContainedObjects"]
        assert len(cards) == len(state["DeckIDs"]) == len(deck.faces)
        assert [c["Name"] for c in cards] == ["Card"] * len(cards)
        assert [c["CardID"] for c in cards] == state["DeckIDs"]
        assert [c["Nickname"] for c in cards] == [f.label for f in deck.faces]
        for card in cards:
            sheet_id, cell = divmod(card["CardID"], 100)
            custom = state["CustomDeck"][str(sheet_id)]
            assert card["CustomDeck"] == {str(sheet_id): custom}
            assert cell < custom["NumWidth"] * custom["NumHeight"] - 1  # clear of the hidden-card cell


@pytest.mark.slow
def test_each_custom_deck_grid_matches_its_sheet_and_the_back_exists(tts):
    out, saved = tts
    for state in saved["ObjectStates"]:
        for custom in state["CustomDeck"].values():
            assert custom["BackIsHidden"] is True and custom["UniqueBack"] is False
            sheet, back = local(custom["FaceURL"]), local(custom["BackURL"])
            assert sheet.parent == back.parent == out.resolve()
            with Image.open(back) as image:
                card_size = image.size
                back_pixels = image.tobytes()
            with Image.open(sheet) as image:
                assert image.size == (custom["NumWidth"] * card_size[0], custom["NumHeight"] * card_size[1])
                w, h = card_size
                hidden = image.crop((image.width - w, image.height - h, image.width, image.height))
                assert hidden.tobytes() == back_pixels  # TTS shows the last cell for a hidden card


@pytest.mark.slow
def test_tiles_are_square_cards_and_cards_rounded_rectangles(tts):
    _, saved = tts
    templates = load_templates(TEMPLATES)
    for state, deck in zip(saved["ObjectStates"], decks("magic-spell"), strict=True):
        size = templates[deck.template].size
        types = {custom["Type"] for custom in state["CustomDeck"].values()}
        assert types == ({6} if size.width == size.height else {0}), deck.id  # TTS: 6 Square, 0 Rectangle (Rounded)
    tiles = next(s for s in saved["ObjectStates"] if s["Nickname"].startswith("Ingredient tiles"))
    assert len(tiles["CustomDeck"]) == 2  # 133 tiles: more than one sheet's 69


@pytest.mark.slow
def test_url_base_names_the_images_by_their_file_names_under_it(tmp_path, tts):
    _, local_saved = tts
    ok(invoke("export", "tts", "magic-spell", "--out", str(tmp_path), "--url-base", "https://example.com/decks"))
    shared = json.loads((tmp_path / "magic-spell.json").read_text())
    for mine, theirs in zip(local_saved["ObjectStates"], shared["ObjectStates"], strict=True):
        assert mine["DeckIDs"] == theirs["DeckIDs"]
        for key, custom in theirs["CustomDeck"].items():
            for field in ("FaceURL", "BackURL"):
                name = local(mine["CustomDeck"][key][field]).name
                assert custom[field] == f"https://example.com/decks/{name}"
                assert (tmp_path / name).exists()


@pytest.mark.parametrize("bad", ["example.com/decks", "ftp://example.com/", "https://", "https://x.org/a?b=1"])
def test_a_url_base_tabletop_simulator_cannot_fetch_is_refused_before_anything_is_written(tmp_path, bad):
    result = invoke("export", "tts", "magic-spell", "--out", str(tmp_path), "--url-base", bad)
    assert result.exit_code == 2
    assert "--url-base" in result.output and "expected an http:// or https:// address" in result.output
    assert not any(tmp_path.iterdir())


# --- pnp export page ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "paper", "number", "dpi", "size"),
    [(GAME, "a4", 8, 110, (909, 1286)), ("magic-spell", "letter", 2, 72, (612, 792))],
)
def test_a_page_is_a_png_of_the_paper_at_that_dpi_and_shows_that_page(tmp_path, built, game, paper, number, dpi, size):
    path = tmp_path / "pictures" / "page.png"  # a folder made for it
    args = ("export", "page", game, "--page", str(number), "--dpi", str(dpi), "--paper", paper, "-o", str(path))
    result = ok(invoke(*args))
    pages = len(pdfium.PdfDocument(built(game=game, paper=paper)))
    assert result.output == f"wrote {path} (page {number} of {pages}, {size[0]} x {size[1]} px)\n"
    # the paper at that dpi: A4 is 210 x 297 mm, Letter 8.5 x 11 in
    assert size == (round(PAPERS[paper].width / INCH * dpi), round(PAPERS[paper].height / INCH * dpi))
    with Image.open(path) as image:
        assert (image.format, image.mode, image.size) == ("PNG", "RGB", size)
        picture = image.tobytes()
    page = pdfium.PdfDocument(built(game=game, paper=paper))[number - 1]
    from_pdf = page.render(scale=dpi / INCH).to_pil().convert("RGB").crop((0, 0, *size))
    assert picture == from_pdf.tobytes()  # that page of the PDF `pnp build` writes, pixel for pixel
    assert list(tmp_path.rglob("*")) == [path.parent, path]  # no temporary PDF or PNG left beside it


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--page", "99"),
            "expected a page from 1 to {pages} (spells-and-potions on A4 has {pages} ",
        ),
        (("--page", "0"), "expected a whole number of 1 or more, got 0"),
        (("--page", "2", "--dpi", "10"), "expected a whole number from 36 to 600, got 10"),
    ],
    ids=["past the last page", "page 0", "dpi too low"],
)
def test_a_page_number_or_dpi_out_of_range_is_a_usage_error_and_nothing_is_written(tmp_path, args, message):
    path = tmp_path / "page.png"
    result = invoke("export", "page", GAME, *args, "-o", str(path))
    assert result.exit_code == 2
    opened = bundled(GAME)
    message = message.format(pages=len(plan_pages(opened.components(), opened.templates, Options())))
    option = next(a for a in reversed(args) if a.startswith("--"))
    assert option in result.stderr and message in result.stderr, result.stderr
    assert "export page [OPTIONS] GAME" in result.stderr  # usage, no traceback
    assert not list(tmp_path.iterdir())


def test_a_picture_is_a_png_file(tmp_path):
    result = invoke("export", "page", GAME, "--page", "1", "-o", str(tmp_path / "page.jpg"))
    assert result.exit_code == 2
    assert "--out" in result.stderr and "expected a file name ending in .png" in result.stderr
    assert not list(tmp_path.iterdir())


def readme_images() -> list[tuple[str, str]]:
    """(target, alt text) of every image the README shows, as Markdown or as HTML."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    markdown = [(target, alt) for alt, target in re.findall(r"!\[([^\]]*)\]\(([^)\s]+)", text)]
    html = []
    for tag in re.findall(r"<img\b[^>]*>", text):
        attributes = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        html.append((attributes.get("src", ""), attributes.get("alt", "")))
    return markdown + html


def test_every_image_the_readme_shows_is_in_the_repository_with_alt_text():
    images = readme_images()
    assert {Path(target).name for target, _ in images} >= {
        "spells-and-potions-element-cards.png",
        "magic-spell-spell-cards.png",
    }  # a sheet of each game that is ready
    for target, alt in images:
        assert not re.match(r"\w+://", target), f"{target}: the README's pictures are files in the repository"
        path = ROOT / target
        assert path.is_file(), f"README shows {target}, which is not in the repository"
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 600, target
        assert len(alt.split()) >= 5, f"{target}: alt text should say what the picture shows"
        if shutil.which("git") and (ROOT / ".git").exists():  # a checkout: the picture is not ignored
            ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", target], check=False)
            assert ignored.returncode == 1, f"{target} is ignored by .gitignore: it would never be committed"
