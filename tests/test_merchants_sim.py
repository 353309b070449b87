"""The Merchants of Magick simulation: seeded, `pnp sim merchants-of-magick` and its JSON, the
shipped content meeting its balance targets, `pnp check` refusing an unreachable circle, and a
broken row never completed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.merchants_of_magick.rulebook import book_of
from pnp.games.merchants_of_magick.sim import figures, play_games
from pnp.paths import CONTENT
from tests.conftest import invoke

GAMES = 200
PLATE = "steel: [6, 8, 9]"
IMPOSSIBLE = "steel: [6, 8, 16]"  # no die reaches 16, not even a d12 with three potions


@pytest.fixture(scope="module")
def book():
    return book_of(load_game(game("merchants-of-magick"), [CONTENT]))


@pytest.fixture(scope="module")
def solo(book):
    return figures(book, list(play_games(book, 1, GAMES, seed=1)), 1, 1)


def broken(tmp_path):
    folder = tmp_path / "ov" / "merchants-of-magick"
    folder.mkdir(parents=True)
    text = (CONTENT / "merchants-of-magick" / "sheet.yaml").read_text(encoding="utf-8")
    assert PLATE in text
    (folder / "sheet.yaml").write_text(text.replace(PLATE, IMPOSSIBLE), encoding="utf-8")
    return tmp_path / "ov"


def test_the_same_seed_gives_the_same_figures(book):
    first = figures(book, list(play_games(book, 1, 5, seed=7)), 1, 7)
    again = figures(book, list(play_games(book, 1, 5, seed=7)), 1, 7)
    other = figures(book, list(play_games(book, 1, 5, seed=8)), 1, 8)
    assert first == again
    assert first.as_dict() != {**other.as_dict(), "seed": 7}


def test_the_solo_median_lands_between_the_apprentice_and_master_ratings(solo):
    assert 63 <= solo.median <= 85, solo.median
    assert solo.quartiles[0] < solo.median < solo.quartiles[1]
    assert solo.rating in ("Apprentice", "Craftsman", "Merchant")


def test_every_row_is_completed_in_some_games(solo):
    assert min(solo.rows.values()) >= 0.08, solo.rows


def test_no_order_card_is_near_impossible(solo):
    assert len(solo.orders) == 44
    low = {name: share for name, share in solo.orders.items() if share < 0.03}
    assert not low, low


def test_masteries_and_adventurers_are_reached(solo):
    assert all(m["reached"] > 0.05 and m["median_round"] <= 10 for m in solo.masteries.values()), solo.masteries
    assert all(share > 0.3 for share in solo.adventurers.values()), solo.adventurers


def test_four_players_play_rotate_and_score(book):
    found = figures(book, list(play_games(book, 4, 20, seed=3)), 4, 3)
    assert found.rating is None and 30 < found.median < 120
    assert any(m["reached"] for m in found.masteries.values())


def test_the_command_prints_the_figures_as_json():
    result = invoke("sim", "merchants-of-magick", "--games", "10", "--seed", "5", "--players", "4", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["players"] == 4 and found["games"] == 10 and found["seed"] == 5
    assert set(found) >= {"median", "quartiles", "rating", "rows", "orders", "adventurers", "masteries"}
    assert len(found["rows"]) == 24 and all(0 <= v <= 1 for v in found["rows"].values())


def test_the_summary_names_each_figure():
    result = invoke("sim", "merchants-of-magick", "--games", "5")
    assert result.exit_code == 0, result.output
    for words in ("5 games, 1 player, seed 1", "score: median", "rows completed", "orders claimed", "masteries"):
        assert words in result.stdout


def test_a_players_count_the_sim_does_not_play_exits_2():
    result = invoke("sim", "merchants-of-magick", "--players", "3")
    assert result.exit_code == 2 and "'--players'" in result.stderr


def test_an_impossible_row_is_never_completed(book):
    """A book whose Plate Armor needs three 16s (what `pnp check` refuses, below): no die reaches
    them and the adventurer's two free circles are one short, so it is never completed, nor any
    order for it."""
    i = book.sheet.row("Plate Armor")
    row = book.sheet.rows[i]
    circles = tuple(replace(c, threshold=16) if c.column == "steel" else c for c in row.circles)
    rows = (*book.sheet.rows[:i], replace(row, circles=circles), *book.sheet.rows[i + 1 :])
    ours = replace(book, sheet=replace(book.sheet, rows=rows))
    found = figures(ours, list(play_games(ours, 1, 40, seed=1)), 1, 1)
    assert found.rows["Plate Armor"] == 0
    assert found.orders["Shocking Plate Armor"] == found.orders["Everlasting Plate Armor of the Dwarves"] == 0
    assert found.rows["Helm"] > 0


def test_the_command_refuses_content_check_refuses(tmp_path):
    result = invoke("sim", "merchants-of-magick", "--games", "2", "--content", str(broken(tmp_path)))
    assert result.exit_code == 2 and "Plate Armor's 16 in Steel" in result.stderr


def test_check_names_the_unreachable_circle_and_the_orders_it_blocks(tmp_path):
    result = invoke("check", "merchants-of-magick", "--content", str(broken(tmp_path)))
    assert result.exit_code == 2
    assert (
        "sheet.yaml:35:91: crafting.11.circles.steel.2: Plate Armor's 16 in Steel needs a result of at least 16; "
        "its dice (d8, d10, d12) reach 12 at most, 15 with 3 potions"
    ) in result.stderr
    assert "orders.yaml:40:12: cards.33.item: no sheet can ever fill this order" in result.stderr
