"""How many play a game is declared once, in its GameDef (`players`), from its rules (each game's
rules tests quote the sentence it comes from): `pnp sim` refuses a table the game does not have,
the companion's home page says the range, and the setup page's words about it are checked against
it."""

from __future__ import annotations

import pytest

from pnp.content.game import load_game
from pnp.content.problems import ContentError
from pnp.gamedef import game, games
from pnp.paths import CONTENT
from tests.conftest import invoke, overlay


@pytest.mark.parametrize(("players", "message"), [("5", "from 2 to 4, got 5"), ("1", "from 2 to 4, got 1")])
def test_sim_refuses_a_table_the_game_does_not_have(players, message):
    result = invoke("sim", "magic-spell", "--players", players, "--games", "1")
    assert result.exit_code == 2 and "--players" in result.stderr and message in result.stderr


def test_sim_plays_the_most_the_game_declares():
    result = invoke("sim", "magic-spell", "--players", "4", "--games", "1", "--json")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("gid", [gid for gid, g in games().items() if g.simulation])
def test_every_players_a_simulation_offers_is_a_table_the_game_has(gid):
    from pnp.sim.cli import sim

    fewest, most = game(gid).players
    [option] = [p for p in sim.get_command(None, gid).params if p.name == "players"]
    kind = option.type
    offered = [int(c) for c in kind.choices] if hasattr(kind, "choices") else [kind.low, kind.high]
    assert all(fewest <= n <= most for n in offered), offered


def test_the_home_page_says_how_many_play_each_game(client):
    page = client.get("/").get_data(as_text=True)
    # each game's range beside its name; the first game's shown under the list before a choice
    assert 'data-players="2–4 players">Magic Spell<' in page
    assert 'data-players="1–8 players">Merchants of Magick<' in page
    assert 'data-players="2–4 players">Spells and Potions<' in page
    assert '<span class="note" id="game-players">2–4 players</span>' in page


def test_the_setup_pages_player_count_disagreeing_with_the_declaration_is_a_located_problem(tmp_path):
    text = (CONTENT / "magic-spell" / "game.yaml").read_text(encoding="utf-8")
    assert "players: 3-4 students" in text
    root = overlay(tmp_path, "magic-spell", {"game.yaml": text.replace("3-4 students", "3-5 students")})
    with pytest.raises(ContentError) as raised:
        load_game(game("magic-spell"), [CONTENT, root])
    [problem] = raised.value.problems
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("players:"))
    assert f"game.yaml:{line}:10: players: expected 2 to 4 players, as the game's GameDef declares" in str(problem)


def test_words_without_a_number_say_nothing_to_check(tmp_path):
    text = (CONTENT / "magic-spell" / "game.yaml").read_text(encoding="utf-8")
    root = overlay(
        tmp_path, "magic-spell", {"game.yaml": text.replace("3-4 students (2 with", "three or four students (two with")}
    )
    assert load_game(game("magic-spell"), [CONTENT, root])["game"].players.startswith("three or four")


def test_merchants_rules_no_longer_say_the_count(tmp_path):
    """The most merchants at a table is the GameDef's; a rules.yaml that still says it is told where."""
    text = (CONTENT / "merchants-of-magick" / "rules.yaml").read_text(encoding="utf-8") + "players: [1, 8]\n"
    root = overlay(tmp_path, "merchants-of-magick", {"rules.yaml": text})
    with pytest.raises(ContentError) as raised:
        load_game(game("merchants-of-magick"), [CONTENT, root])
    [problem] = raised.value.problems
    assert f"rules.yaml:{len(text.splitlines())}:1: players:" in str(problem), str(problem)
