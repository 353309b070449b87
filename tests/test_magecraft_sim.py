"""The Magecraft simulation: seeded (whichever processes play), `pnp sim magecraft`'s summary and
JSON, figures that hold together, and the balance the spells and characters were tuned to."""

from __future__ import annotations

import json

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.magecraft.rulebook import book_of
from pnp.games.magecraft.sim import figures, play_games
from pnp.paths import CONTENT
from tests.conftest import invoke
from tests.support.simulations import assert_seeded

GAMES = 1000  # two-player games: enough for the balance targets to show (a first-player share of 400 strays ±2.5%)


@pytest.fixture(scope="module")
def book():
    return book_of(load_game(game("magecraft"), [CONTENT]))


@pytest.fixture(scope="module")
def results(book):
    return list(play_games(book, 2, GAMES, seed=1, workers=1))


@pytest.fixture(scope="module")
def duel(book, results):
    return figures(book, results, 2, 1)


def test_the_same_seed_gives_the_same_figures_in_one_process_or_two(book):
    assert_seeded(book, play_games, figures)


def test_the_figures_hold_together(book, results, duel):
    assert duel.games == GAMES and duel.players == 2 and duel.fair_share == 0.5
    assert sum(duel.ends.values()) == pytest.approx(1) and duel.ends["unfinished"] <= 0.01
    finished = [r for r in results if r.winner is not None]
    assert duel.first_player_wins == sum(r.winner == 0 for r in finished) / GAMES
    # every seat's share: the first seat's among them, together every finished game
    assert duel.seat_wins[0] == duel.first_player_wins and len(duel.seat_wins) == 2
    assert duel.seat_wins[1] == sum(r.winner == 1 for r in finished) / GAMES
    assert sum(duel.seat_wins) == pytest.approx(len(finished) / GAMES)
    low, high = duel.turns["quartiles"]
    assert low <= duel.turns["median"] <= high
    # the Academy: the three basic spells in every game, nine more dealt at random
    dealt = sum(s["dealt"] for s in duel.spells.values())
    assert dealt == GAMES * (len(book.academy_basic) + book.random_sets)
    assert all(duel.spells[name]["dealt"] == GAMES for name in book.academy_basic)
    assert set(duel.spells) == {s.name for s in book.spells} - set(book.starting)
    for name, s in duel.spells.items():
        assert s["learners"] <= s["dealt"] * 2 and 0 <= s["wins"] <= 1, name
    # characters: two a game, never the same one twice
    assert sum(c["games"] for c in duel.characters.values()) == 2 * GAMES
    assert all(len(set(r.characters)) == 2 for r in results)
    wins = sum(c["wins"] * c["games"] for c in duel.characters.values())
    assert wins == pytest.approx(len(finished))


def test_the_balance_targets_hold_over_a_few_hundred_duels(duel):
    """Tuned with `pnp sim magecraft`: each seat wins 45-55% of duels (4,000 duels put both within
    2 points of 50%); no spell's learners win outside 35-65% (of 60 learners or more: fewer say
    little); no character wins over 60%."""
    assert all(0.45 <= share <= 0.55 for share in duel.seat_wins), duel.seat_wins
    judged = {name: s for name, s in duel.spells.items() if s["learners"] >= 60}
    assert len(judged) >= 15
    assert all(0.35 <= s["wins"] <= 0.65 for s in judged.values()), {n: round(s["wins"], 3) for n, s in judged.items()}
    assert all(c["wins"] <= 0.6 for c in duel.characters.values()), duel.characters


def test_every_seat_of_a_melee_wins_near_its_fair_share(book):
    """The issue's target: every seat within 3 points of fair at 3 and 4 wizards over 4,000 games
    (held there by seeds 1 and 2); over 600 games, within 5 (a share of 600 strays about 2)."""
    for players in (3, 4):
        found = figures(book, list(play_games(book, players, 600, seed=1)), players, 1)
        assert all(abs(share - 1 / players) <= 0.05 for share in found.seat_wins), (players, found.seat_wins)


def test_a_melee_of_four_plays_out(book):
    found = figures(book, list(play_games(book, 4, 40, seed=3, workers=1)), 4, 3)
    assert found.fair_share == 0.25 and found.ends["unfinished"] == 0
    assert sum(c["games"] for c in found.characters.values()) == 4 * 40  # all four at every table


def test_the_command_prints_the_figures_as_json():
    result = invoke("sim", "magecraft", "--games", "12", "--seed", "5", "--players", "3", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert (found["players"], found["games"], found["seed"]) == (3, 12, 5)
    assert set(found) == {
        "players",
        "games",
        "seed",
        "first_player_wins",
        "seat_wins",
        "fair_share",
        "turns",
        "ends",
        "spells",
        "characters",
    }
    assert set(found["ends"]) == {"hp", "score", "unfinished"}
    assert all(set(s) == {"dealt", "learners", "learned", "wins"} for s in found["spells"].values())
    again = invoke("sim", "magecraft", "--games", "12", "--seed", "5", "--players", "3", "--json")
    assert json.loads(again.stdout) == found


def test_the_summary_names_each_figure():
    result = invoke("sim", "magecraft", "--games", "6")
    assert result.exit_code == 0, result.output
    for words in (
        "6 games, 2 wizards, seed 1",
        "first player wins:",
        "(a fair share is 50.0%)",
        "game length: median",
        "games ended by: hp",
        "Orlen Mossbeard:",
        "Fireball:",
    ):
        assert words in result.stdout, words


def test_the_summary_gives_every_seat_its_share_of_the_wins():
    args = ("sim", "magecraft", "--games", "30", "--seed", "2", "--players", "4")
    found = json.loads(invoke(*args, "--json").stdout)
    line = next(line for line in invoke(*args).stdout.splitlines() if line.startswith("wins by seat"))
    shares = [float(share.rstrip("%")) / 100 for share in line.split(": ")[1].split(", ")]
    assert len(shares) == 4 and shares == pytest.approx(found["seat_wins"], abs=0.0005)
    assert sum(found["seat_wins"]) == pytest.approx(1 - found["ends"]["unfinished"])


def test_the_rules_six_spells_can_be_played_alone(book):
    """The rules: 'Place "Minor Cure", "Absorb" and "Fireball" sets as basic spell cards in every
    game.' With `--spells rules` the Academy holds those three and no spell of ours."""
    args = ("sim", "magecraft", "--games", "20", "--seed", "4", "--players", "3")
    alone = invoke(*args, "--spells", "rules", "--json")
    assert alone.exit_code == 0, alone.output
    found = json.loads(alone.stdout)
    assert set(found["spells"]) == {"Minor Cure", "Absorb", "Fireball"} == set(book.academy_basic)
    assert all(s["dealt"] == 20 for s in found["spells"].values())
    learned = sum(s["learners"] for s in found["spells"].values())
    assert learned > 0  # the wizards still learn: the Academy is not empty
    everything = json.loads(invoke(*args, "--json").stdout)
    assert len(everything["spells"]) == len(book.spells) - len(book.starting) > len(found["spells"])
