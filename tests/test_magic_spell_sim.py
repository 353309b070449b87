"""The Magic Spell simulation: seeded, a locked spell told from a reachable one, games that end,
and `pnp sim magic-spell` (its JSON, its refusals)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pnp.content.game import load_game
from pnp.gamedef import games
from pnp.games.magic_spell.sim import TURN_CAP, Game, Homework, Student, Table, figures, is_locked, play_games
from pnp.paths import CONTENT
from tests.conftest import invoke


@pytest.fixture(scope="module")
def content():
    return load_game(games()["magic-spell"], [CONTENT])


def test_the_same_seed_gives_the_same_figures(content):
    first = figures(list(play_games(content, 4, 3, seed=7)), 4, 100, 7)
    again = figures(list(play_games(content, 4, 3, seed=7)), 4, 100, 7)
    other = figures(list(play_games(content, 4, 3, seed=8)), 4, 100, 8)
    assert first == again
    assert first.as_dict() != {**other.as_dict(), "seed": 7}


def position(content) -> tuple[Game, Student, Student]:
    """Two students; the only G in the game is in the second one's cabinet."""
    game = Game(content, 2, 100, random.Random(0))
    me = Student(5, Counter("XY"), [Homework("glean", 2, Counter("LEAN"))])
    you = Student(5, Counter("G"), [Homework("zenith", 2)])
    game.table = Table(Counter("ABCZENITH"), Counter(), [], [me, you])
    return game, me, you


def test_a_spell_whose_letter_is_all_with_other_students_is_locked(content):
    game, me, you = position(content)
    [glean] = me.homework
    assert is_locked(glean, me, game.table.laboratory)
    assert game.any_locked(me) and game.all_locked(me)
    assert not game.any_locked(you)


@pytest.mark.parametrize("where", ["laboratory", "cabinet", "other spell"])
def test_a_copy_the_student_can_reach_unlocks_it(content, where):
    game, me, you = position(content)
    you.cabinet = Counter()
    if where == "laboratory":
        game.table.laboratory["G"] += 1
    elif where == "cabinet":
        me.cabinet["G"] += 1
    else:
        me.homework.append(Homework("gravid", 2, Counter("G")))
    assert not is_locked(me.homework[0], me, game.table.laboratory)


def test_a_locked_spell_turn_is_counted(content):
    game, me, you = position(content)
    result = game.play()
    assert result.spell_turns >= 1 and result.locked_spell_turns >= 1


def test_games_at_four_end_within_the_cap(content):
    results = list(play_games(content, 4, 5, seed=3))
    assert all(r.finished and r.rounds < TURN_CAP for r in results)


def test_the_command_prints_the_figures_as_json():
    result = invoke("sim", "magic-spell", "--players", "3", "--games", "2", "--seed", "5", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["players"] == 3 and found["games"] == 2 and found["seed"] == 5
    assert 0 <= found["locked"] <= 1 and 0 <= found["finished"] <= 1 and found["mean_rounds"] > 0


def test_the_summary_names_each_figure():
    result = invoke("sim", "magic-spell", "--games", "1", "--tiles", "120")
    assert result.exit_code == 0, result.output
    for words in ("1 games, 4 players, 120 tiles", "finished within", "locked spell-turns", "mean rounds"):
        assert words in result.stdout


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--players", "1", "expected a whole number from 2 to 4, got 1"),
        ("--games", "0", "expected a whole number of 1 or more, got 0"),
    ],
)
def test_bad_options_exit_2_and_say_why(option, value, message):
    result = invoke("sim", "magic-spell", option, value)
    assert result.exit_code == 2
    assert option in result.stderr and message in result.stderr
