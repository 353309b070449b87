"""The Magic Spell simulation: seeded, a locked spell told from a reachable one, games that end by
the table's own rules (the tracker's moves), and `pnp sim magic-spell` (its JSON, its refusals)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pnp.content.game import load_game
from pnp.gamedef import games
from pnp.games.magic_spell.sim import (
    TURN_CAP,
    Game,
    Homework,
    Semester,
    Student,
    Table,
    figures,
    is_locked,
    play_games,
)
from pnp.games.magic_spell.tracker import TRACKER
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
    game = Game(content, Semester.of(content, 2, 100), random.Random(0))
    me = Student("s1", Counter("XY"), [Homework("glean", Counter("LEAN"))])
    you = Student("s2", Counter("G"), [Homework("zenith")])
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
        me.homework.append(Homework("gravid", Counter("G")))
    assert not is_locked(me.homework[0], me, game.table.laboratory)


def test_a_locked_spell_turn_is_counted(content):
    game, me, you = position(content)
    result = game.play()
    assert result.spell_turns >= 1 and result.locked_spell_turns >= 1


def test_the_simulation_plays_by_the_tables_rules(content, monkeypatch):
    """Every number the simulation counts is the tracker's: its moves, replayed on the table's
    rules, give its final state; the semester ends as the table ends it."""
    made = []
    move = Game.move

    def recorded(game, student, action):
        move(game, student, action)
        made.append((student.id, action))

    monkeypatch.setattr(Game, "move", recorded)
    game = Game(content, Semester.of(content, 3, content["magic-spell-set"].letter_tiles), random.Random(4))
    state = game.state
    assert game.play().finished
    for actor, action in made:
        state = TRACKER.apply(content, state, actor, action)
    assert state == game.state and state["phase"] == "over"
    caller = state["students"][state["grading"]["called_by"]]
    assert sum(entry["credits"] for entry in caller["spellbook"]) >= state["courseload"]
    assert {type(action).__name__ for _, action in made} >= {"Weave", "CompleteSpell", "EndTurn", "Rest"}


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


def test_what_a_student_wants_follows_every_change():
    """Student keeps what its homework wants, needs and leaves spare between changes: after each
    change it is what a fresh student with the same tiles and spells works out."""
    me = Student("s1", Counter("AELX"), [Homework("glean", Counter("L")), Homework("axe")])

    def afresh() -> Student:
        spells = [Homework(spell.word, Counter(spell.woven)) for spell in me.homework]
        return Student("s1", Counter(me.cabinet), spells)

    glean, axe = me.homework
    changes = [
        lambda: me.take("A"),
        lambda: me.weave(axe, "A"),
        lambda: me.receive("G"),
        lambda: me.take_off(glean, "L"),
        lambda: me.draw("zenith"),
        lambda: me.drop(glean),
    ]
    for change in changes:
        before = (me.wanted(), me.needs(), me.spare())
        change()
        fresh = afresh()
        assert (me.wanted(), me.needs(), me.spare()) == (fresh.wanted(), fresh.needs(), fresh.spare())
        assert (me.wanted(), me.needs(), me.spare()) != before


def test_games_of_one_run_share_their_start_without_changing_it(content):
    """A run works out the semester's start once; a game played after others is the game played alone."""
    semester = Semester.of(content, 4, content["magic-spell-set"].letter_tiles)
    start = json.dumps(semester.state, sort_keys=True)
    alone = Game(content, Semester.of(content, 4, content["magic-spell-set"].letter_tiles), random.Random("1:3")).play()
    for i in range(3):
        Game(content, semester, random.Random(f"1:{i}")).play()
    assert Game(content, semester, random.Random("1:3")).play() == alone
    assert json.dumps(semester.state, sort_keys=True) == start
