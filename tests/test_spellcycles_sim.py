"""The Spellcycles simulation: seeded (whichever processes play), `pnp sim spellcycles`'s summary
and JSON, its options refused when out of range, and figures that hold together."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.spellcycles.pattern import shapes_of
from pnp.games.spellcycles.rulebook import book_of
from pnp.games.spellcycles.sim import figures, play_games
from pnp.paths import CONTENT
from tests.conftest import invoke
from tests.support.simulations import assert_seeded

GAMES = 60


@pytest.fixture(scope="module")
def book():
    return book_of(load_game(game("spellcycles"), [CONTENT]))


@pytest.fixture(scope="module")
def four(book):
    return figures(book, list(play_games(book, 4, GAMES, seed=1, workers=1)), 4, 1)


def test_the_same_seed_gives_the_same_figures_in_one_process_or_two(book):
    assert_seeded(book, play_games, figures)


def test_the_figures_hold_together(book, four):
    assert four.games == GAMES and four.players == 4 and four.line == book.lines["normal"] == 8
    assert four.fair_share == 0.25 and 0 <= four.first_player_wins <= 1 and 0 <= four.nothing_cast <= 1
    assert 0 <= four.unfinished <= 0.05
    for spread in (four.prestige, four.turns):
        low, high = spread["quartiles"]
        assert low <= spread["median"] <= high
    assert sum(s["dealt"] for s in four.spells.values()) == GAMES * four.line
    assert set(four.spells) == {s.name for s in book.spells}
    for name, s in four.spells.items():
        assert 0 <= s["cast"] <= 1 and 0 <= s["passed"] <= 1, name
    assert any(s["cast"] > 0 for s in four.spells.values())


def test_four_crescents_on_a_line_of_eight_walk_about_32_turns(four):
    """Each crescent moves from the first spell off the last, 8 moves, one a turn: 32 turns unless
    a spell moves or removes a crescent."""
    assert 24 <= four.turns["median"] <= 40


def test_every_win_is_shared_out_among_the_players(book):
    results = list(play_games(book, 2, 30, seed=2, workers=1))
    assert all(r.winners and set(r.winners) <= {0, 1} for r in results)
    assert all(max(r.scores) == r.scores[r.winners[0]] for r in results)
    found = figures(book, results, 2, 2)
    second = sum(1 / len(r.winners) for r in results if 1 - r.first in r.winners) / len(results)
    assert found.first_player_wins + second == pytest.approx(1)
    # who goes first is drawn (the rules: "Choose a player to go first"), not always the first seat
    assert {r.first for r in results} == {0, 1}


def test_a_short_line_for_two_is_eight_turns(book):
    found = figures(book, list(play_games(book, 2, 40, seed=3, line=4, workers=1)), 2, 3, line=4)
    assert found.line == 4 and found.fair_share == 0.5
    assert found.turns["median"] == 8
    assert sum(s["dealt"] for s in found.spells.values()) == 40 * 4


def test_the_command_prints_the_figures_as_json():
    result = invoke("sim", "spellcycles", "--games", "12", "--seed", "5", "--players", "3", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert (found["players"], found["games"], found["seed"], found["line"]) == (3, 12, 5, 8)
    assert set(found) == {
        "players",
        "games",
        "seed",
        "line",
        "prestige",
        "turns",
        "first_player_wins",
        "fair_share",
        "nothing_cast",
        "unfinished",
        "spells",
    }
    assert set(found["prestige"]) == {"median", "quartiles"} and len(found["turns"]["quartiles"]) == 2
    assert all(set(s) == {"dealt", "cast", "passed"} for s in found["spells"].values())
    again = invoke("sim", "spellcycles", "--games", "12", "--seed", "5", "--players", "3", "--json")
    assert json.loads(again.stdout) == found


def test_the_summary_names_each_figure():
    result = invoke("sim", "spellcycles", "--games", "6", "--line", "4")
    assert result.exit_code == 0, result.output
    for words in (
        "6 games, 4 players, a line of 4 spells, seed 1",
        "prestige per player: median",
        "game length: median",
        "first player wins:",
        "(a fair share is 25.0%)",
        "games in which nothing is cast:",
        "games stopped unfinished",
        "Might: ",
    ):
        assert words in result.stdout, words


def test_a_line_the_rules_do_not_deal_is_refused_with_a_clear_message():
    result = invoke("sim", "spellcycles", "--line", "5")
    assert result.exit_code == 2 and "--line" in result.stderr, result.stderr
    assert "5 is not a line the rules deal; the set's are 4, 8, 12" in result.stderr


def test_a_spell_that_can_never_be_laid_is_never_cast(book):
    """A pattern asking for a stack is never on the field when pieces may not share a space (no
    SpellStackers): that spell's cast share is 0, and it is never even castable; the others are."""
    stacked = shapes_of(((book.colour("yellow"), (book.colour("white"), book.colour("red"))),), book.field)
    ours = replace(book, spells=tuple(replace(s, shapes=stacked) if s.name == "Might" else s for s in book.spells))
    found = figures(ours, list(play_games(ours, 4, 40, seed=1, workers=1)), 4, 1)
    assert found.spells["Might"]["dealt"] > 0
    assert found.spells["Might"]["cast"] == 0 and found.spells["Might"]["passed"] == 0
    assert sum(s["cast"] > 0 for s in found.spells.values()) > len(found.spells) / 2


@pytest.mark.parametrize("swift_time", [False, True])
def test_every_simulated_game_ends_at_five_players(book, swift_time):
    """The rules: "The game ends when there are no Moon Crescents in play." Five wizards, who put
    the end off when behind: no game is stopped unfinished, at the rules' costs or Swift Time's."""
    from pnp.games.spellcycles.rules import Variants

    results = list(play_games(book, 5, 150, seed=1, workers=1, variants=Variants(swift_time=swift_time)))
    assert all(r.finished for r in results)


def test_the_rules_spells_alone_deal_only_the_rules_examples(book):
    """`pnp sim spellcycles --spells rules`: what the rules give before our spells add to it."""
    out = invoke("sim", "spellcycles", "--games", "60", "--players", "3", "--spells", "rules", "--json").stdout
    out = json.loads(out)
    rules = {s.name for s in book.spells if s.rules}
    assert len(rules) == 10 and {name for name, s in out["spells"].items() if s["dealt"]} == rules
