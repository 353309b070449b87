"""What every game's `pnp sim GAME` command shares, found from the games that declare a simulation
(so a new game's command is checked with nothing added here): a table the game's rules do not seat
and no games at all are refused with a clear message and exit status 2, before anything is played."""

from __future__ import annotations

import pytest

from pnp.cli_types import WholeNumber
from pnp.gamedef import games
from tests.conftest import invoke

SIMULATED = [g for g in games().values() if g.simulation]


def seats_by_range(game) -> bool:
    """Whether the command's --players takes the game's range of players (not a list of variants)."""
    [players] = [o for o in game.load("simulation").options if o.name == "players"]
    return isinstance(players.type, WholeNumber)


@pytest.mark.parametrize("game", [g for g in SIMULATED if seats_by_range(g)], ids=lambda g: g.id)
def test_a_table_the_rules_do_not_seat_is_refused(game):
    fewest, most = game.players
    for players in (fewest - 1, most + 1):
        result = invoke("sim", game.id, "--players", str(players))
        assert result.exit_code == 2 and "--players" in result.stderr, result.stderr
        assert f"expected a whole number from {fewest} to {most}, got {players}" in result.stderr


@pytest.mark.parametrize("game", SIMULATED, ids=lambda g: g.id)
def test_no_games_at_all_is_refused(game):
    result = invoke("sim", game.id, "--games", "0")
    assert result.exit_code == 2 and "--games" in result.stderr
    assert "expected a whole number of 1 or more, got 0" in result.stderr


# --- computer players at chosen levels (issue 36: "pnp sim GAME can pit the levels against each other")


def test_computer_players_at_two_levels_play_seeded_games_and_each_levels_wins_are_reported():
    """The same seed plays the same games; the strong level wins more than the easy one."""
    import json

    once = invoke("sim", "spellcycles", "--levels", "strong,easy", "--games", "8", "--json")
    assert once.exit_code == 0, once.stderr
    found = json.loads(once.stdout)
    assert found["games"] == 8 and found["levels"] == ["strong", "easy"] and found["unfinished"] == 0
    assert found["level_wins"]["strong"] > found["level_wins"]["easy"]
    assert invoke("sim", "spellcycles", "--levels", "strong,easy", "--games", "8", "--json").stdout == once.stdout
    words = invoke("sim", "spellcycles", "--levels", "strong, easy", "--games", "2")
    assert "games won by a seat of each level: strong" in words.stdout


@pytest.mark.parametrize(
    ("game", "levels", "why"),
    [
        (
            "magic-spell",
            "easy,easy",
            "Magic Spell is played with pieces the server never sees: it has no computer players",
        ),
        ("magecraft", "hard,easy", "expected levels among easy, strong, sim, got hard"),
        ("magecraft", "easy", "Magecraft seats 2 to 4 players; 1 level was given"),
    ],
)
def test_levels_a_game_cannot_seat_are_refused_before_anything_is_played(game, levels, why):
    result = invoke("sim", game, "--levels", levels)
    assert result.exit_code == 2 and "--levels" in result.stderr and why in result.stderr, result.stderr


@pytest.mark.parametrize(("game", "played"), [("spellcycles", "6"), ("magecraft", "2"), ("merchants-of-magick", "6")])
def test_the_simulations_own_player_takes_a_seat_against_a_computer_player(game, played):
    """`sim` seats the simulation's player (its table_turn: Magecraft's opening discard and turns,
    Spellcycles' turns, a Merchants round's marks and Ready) beside a computer level: every game is
    played to its end through the table's state (Merchants' host rolling and ending each phase),
    the same seed the same games."""
    import json

    once = invoke("sim", game, "--levels", "easy,sim", "--games", played, "--json")
    assert once.exit_code == 0, once.stderr
    found = json.loads(once.stdout)
    assert found["levels"] == ["easy", "sim"] and found["unfinished"] == 0
    assert found["level_wins"]["easy"] + found["level_wins"]["sim"] >= 1  # a shared win counts for both
    assert invoke("sim", game, "--levels", "easy,sim", "--games", played, "--json").stdout == once.stdout


def test_the_simulations_merchant_scores_where_a_random_one_rarely_does():
    """The simulation's merchant at a table marks a digital sheet as in `pnp sim`: in 10 two-player
    games against the easy level it wins them all (were its marks lost, or made on paper, it
    would score nothing)."""
    import json

    found = json.loads(invoke("sim", "merchants-of-magick", "--levels", "sim,easy", "--games", "10", "--json").stdout)
    assert found["level_wins"] == {"sim": 1.0, "easy": 0.0}
