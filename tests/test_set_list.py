"""A game's set template (templates/<game-id>/<game-id>-set.yaml) is data: a mistake in it is a
located problem, exit status 2 and nothing written, and changing it changes the set."""

from __future__ import annotations

import os
import shutil

import pytest

from pnp.build import open_game
from pnp.gamedef import game
from pnp.paths import CONTENT, TEMPLATES
from tests.conftest import invoke

GAME = "magic-spell"


@pytest.fixture
def set_file(tmp_path, monkeypatch):
    """A copy of the templates the build reads, run from tmp_path; returns the game's set file."""
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    monkeypatch.setattr("pnp.build.TEMPLATES", templates)
    monkeypatch.chdir(tmp_path)
    return templates / GAME / f"{GAME}-set.yaml"


def edited(path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path.read_text(encoding="utf-8")


def where(text: str, needle: str) -> str:
    """line:col of the one occurrence of `needle`."""
    [line] = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return f"{line}:{text.splitlines()[line - 1].index(needle) + 1}"


@pytest.mark.parametrize(
    ("old", "new", "at", "message"),
    [
        ("template: ms-tile\n", "template: ms-tyle\n", "ms-tyle", "expected a card template of this game"),
        ("faces: spells\n", "faces: spels\n", "spels", "did you mean 'spells'?"),
        ("    template: ms-spirit\n", "", "type: deck  # a long", "template: missing (expected a value"),
        ("emblem: spell}", "emblem: spell, title: words.tile_back}", "words.tile_back", "a dotted content field"),
        ("emblem: spell}", "emblem: spel}", "spel}", "did you mean :spell:?"),
    ],
    ids=["unknown template", "unknown face maker", "missing field", "unknown content field", "unknown icon"],
)
def test_a_mistake_in_the_set_template_is_located_and_nothing_is_written(set_file, tmp_path, old, new, at, message):
    text = edited(set_file, old, new)
    out = tmp_path / "out"
    for command in (("check", GAME), ("build", GAME, "--out", str(out))):
        result = invoke(*command)
        assert result.exit_code == 2, result.output
        problem = f"{os.path.relpath(set_file)}:{where(text, at)}:"
        assert any(line.startswith(problem) and message in line for line in result.stderr.splitlines()), result.stderr
    assert not list(out.glob("*.pdf"))


def test_the_set_template_orders_the_set_and_says_which_decks_have_backs(set_file):
    text = set_file.read_text(encoding="utf-8")
    tiles = text.index("  - type: deck\n    id: tiles")
    spirit = text.index("  - type: deck  # a long")
    moved = text[:tiles].replace("components:\n", "components:\n" + text[tiles:spirit]) + text[spirit:]
    set_file.write_text(moved.replace("    back: {template: ms-tile-back, emblem: spell}\n", ""), encoding="utf-8")
    components = open_game(game(GAME), [CONTENT]).components()
    assert [c.id for c in components] == ["setup", "tiles", "spells", "references", "spirit"]
    assert not components[1].has_backs


BOARD_GAME = "spellcycles"  # a set with a board: its casting field


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("    face: field\n", "    face: feld\n", "expected a board maker of this game (field)"),
        ("    template: sc-field\n", "    template: sc-card\n", "expected a board template of this game (sc-field)"),
    ],
    ids=["unknown board maker", "a card template for a board"],
)
def test_a_board_entry_is_checked_like_a_deck(set_file, old, new, message):
    board_set = set_file.parent.parent / BOARD_GAME / f"{BOARD_GAME}-set.yaml"
    text = edited(board_set, old, new)
    result = invoke("check", BOARD_GAME)
    assert result.exit_code == 2, result.output
    problem = f"{os.path.relpath(board_set)}:{where(text, new.split(': ')[1].strip())}:"
    assert any(line.startswith(problem) and message in line for line in result.stderr.splitlines()), result.stderr


def test_a_board_entry_makes_a_board_of_its_makers_face():
    from pnp.components.kinds import Board

    (field,) = [c for c in open_game(game(BOARD_GAME), [CONTENT]).components() if isinstance(c, Board)]
    assert (field.id, field.template, field.faces[0].template) == ("field", "sc-field", "sc-field")
