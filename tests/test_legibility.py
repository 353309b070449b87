"""Colour legibility, computed from the template colours: every text region a card, tile or token
of a shipped game fills reads at WCAG AA (contrast at least 4.5:1 against what it is drawn on),
and the four element suits' frames stay apart in greyscale and for the two common red-green
colour-vision deficiencies (simulated with colorspacious; distances in its perceptual CAM02-UCS)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE

from pnp.components.kinds import Deck
from pnp.gamedef import games
from pnp.regions.shape import ShapeRegion
from pnp.regions.text import TextRegion
from tests.conftest import bundled

AA = 4.5


def filled_texts() -> tuple[dict, list[tuple[str, str, str | None]]]:
    """The card templates, and each (template, text region, content fill) some face of a shipped
    game fills: the content fill, the colour the face gives a fill_from_content shape under the
    text (a token's ink), or None."""
    found, templates = set(), {}
    for definition in games().values():
        opened = bundled(definition.id)
        templates.update(opened.templates)  # each game opens its own and the shared ones
        for deck in (c for c in opened.every_component() if isinstance(c, Deck)):
            for face in (*deck.faces, *([deck.back] if deck.back else [])):
                regions = opened.templates[face.template].regions
                found |= {
                    (face.template, v.region, content_fill(face, regions, v.region))
                    for v in face.values
                    if v.text and isinstance(regions.get(v.region), TextRegion)
                }
    return templates, sorted(found)


def content_fill(face, regions, text_name: str) -> str | None:
    """The colour the face gives a fill_from_content shape under the text's centre, if that shape
    is the last filled one drawn there before the text; None: the template alone says (ground)."""
    x, y, w, h = regions[text_name].box
    names = list(regions)
    found = None
    for name in names[: names.index(text_name)]:
        region = regions[name]
        if isinstance(region, ShapeRegion) and holds(region.box, (x + w / 2, y + h / 2)):
            if region.fill_from_content and face.value(name):
                found = face.value(name).text
            elif region.fill:
                found = None  # a fixed fill drawn over it
    return found


def holds(box, point) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


CARDS, TEXTS = filled_texts()


def srgb(hex_value: str) -> np.ndarray:
    return np.array([int(hex_value[i : i + 2], 16) / 255 for i in (1, 3, 5)])


def relative_luminance(hex_value: str) -> float:
    c = srgb(hex_value)
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def contrast(a: str, b: str) -> float:
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def colour(template, name: str) -> str:
    return template.colours.get(name, name)


def ground(template, text_name: str, content: str | None = None) -> str:
    """What a text region is drawn on: the last filled shape drawn before it under its centre, or
    the face's background; `content`, the fill a face gives a shape under it, when there is one."""
    if content is not None:
        return content
    names = list(template.regions)
    x, y, w, h = template.regions[text_name].box
    below = [template.regions[name] for name in names[: names.index(text_name)]]
    fills = [r.fill for r in below if isinstance(r, ShapeRegion) and r.fill and holds(r.box, (x + w / 2, y + h / 2))]
    return colour(template, fills[-1] if fills else template.background)


@pytest.mark.parametrize(
    "template_name, region_name, fill", TEXTS, ids=[f"{t}.{r}" + (f"@{f}" if f else "") for t, r, f in TEXTS]
)
def test_every_text_reads_at_wcag_aa_against_what_it_is_drawn_on(template_name, region_name, fill):
    template = CARDS[template_name]
    ink, paper = colour(template, template.regions[region_name].colour), ground(template, region_name, fill)
    assert contrast(ink, paper) >= AA, f"{ink} on {paper}: {contrast(ink, paper):.2f}:1"


def suit_frames() -> dict[str, str]:
    suits = bundled("spells-and-potions").content["element-suits"].suits
    return {
        suit.id: colour(CARDS[f"sp-element-{suit.id}"], CARDS[f"sp-element-{suit.id}"].background) for suit in suits
    }


SEEING = {
    "full colour": lambda rgb: rgb,
    "deuteranopia": lambda rgb: cspace_convert(
        rgb, {"name": "sRGB1+CVD", "cvd_type": "deuteranomaly", "severity": 100}, "sRGB1"
    ),
    "protanopia": lambda rgb: cspace_convert(
        rgb, {"name": "sRGB1+CVD", "cvd_type": "protanomaly", "severity": 100}, "sRGB1"
    ),
}
APART = 20  # CAM02-UCS distance: 20 is a difference seen at a glance across a table


@pytest.mark.parametrize("seeing", SEEING)
def test_the_four_suit_frames_stay_apart_in_colour_and_for_red_green_colour_blindness(seeing):
    seen = {suit: np.clip(SEEING[seeing](srgb(hex_value)), 0, 1) for suit, hex_value in suit_frames().items()}
    for a, b in itertools.combinations(seen, 2):
        assert deltaE(seen[a], seen[b], input_space="sRGB1") >= APART, f"{a} and {b} look alike ({seeing})"


def test_the_four_suit_frames_stay_apart_in_greyscale():
    lightness = {suit: cspace_convert(srgb(h), "sRGB1", "CAM02-UCS")[0] for suit, h in suit_frames().items()}
    for a, b in itertools.combinations(lightness, 2):
        assert abs(lightness[a] - lightness[b]) >= 12, f"{a} and {b} print as the same grey: {lightness}"


def backs_by_size() -> list[tuple[str, dict[str, str]]]:
    """Per game and card size, each back's colour: decks that could meet face down. Decks that
    print one back template are meant to mix (Spellcycles' blank spell cards join its spell deck)."""
    groups = []
    for definition in games().values():
        opened = bundled(definition.id)
        sizes: dict[tuple, dict[str, str]] = {}
        for deck in (c for c in opened.every_component() if isinstance(c, Deck) and c.back):
            template = opened.templates[deck.back.template]
            sizes.setdefault(tuple(template.size), {})[deck.back.template] = colour(template, template.background)
        groups += [(definition.id, backs) for backs in sizes.values() if len(backs) > 1]
    return groups


@pytest.mark.parametrize("game_id, backs", backs_by_size(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_backs_of_a_games_decks_differ_in_greyscale(game_id, backs):
    lightness = {deck: cspace_convert(srgb(h), "sRGB1", "CAM02-UCS")[0] for deck, h in backs.items()}
    for a, b in itertools.combinations(lightness, 2):
        assert abs(lightness[a] - lightness[b]) >= 12, f"{game_id}: {a} and {b} backs print as one grey: {lightness}"


@pytest.mark.parametrize("side", ["craft", "research"])
def test_the_shoppe_sheets_neighbouring_columns_differ_in_greyscale_and_keep_its_ink_legible(side):
    """Columns alternate a tint and its darker twin (pnp/games/merchants_of_magick/shoppe_sheet.py):
    printed in greyscale, neighbours must still differ, and the ink must read on both."""
    template = bundled("merchants-of-magick").templates["mm-sheet"]
    light, dark = template.colours[side], template.colours[f"{side}_dark"]
    lightness = [cspace_convert(srgb(h), "sRGB1", "CAM02-UCS")[0] for h in (light, dark)]
    assert lightness[0] - lightness[1] >= 5, f"{side} columns print as one grey: {lightness}"
    assert min(contrast(template.colours["ink"], h) for h in (light, dark)) >= 7
