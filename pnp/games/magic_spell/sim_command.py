"""`pnp sim magic-spell`: the simulation's options and its summary (pnp.sim.cli builds the command)."""

from __future__ import annotations

import click

from pnp.cli_types import WholeNumber
from pnp.games.magic_spell import GAME
from pnp.games.magic_spell.sim import TURN_CAP, Figures, figures, play_games
from pnp.sim.cli import Run, Simulation, players_option


def run(content, games: int, seed: int, players: int, tiles: int | None) -> Run:
    tiles = tiles or content["magic-spell-set"].letter_tiles
    return Run(play_games(content, players, games, seed, tiles), lambda results: figures(results, players, tiles, seed))


def summary(found: Figures) -> str:
    return (
        f"{found.games} games, {found.players} players, {found.tiles} tiles, seed {found.seed}\n"
        f"finished within {TURN_CAP} rounds: {found.finished:.1%}\n"
        f"locked spell-turns: {found.locked:.1%}\n"
        f"mean rounds (finished games): {found.mean_rounds:.1f}"
    )


SIMULATION = Simulation(
    help="Magic Spell: how many games finish, how many spell-turns are locked (a letter a homework "
    "spell needs is all with other students), and how many rounds a game takes.",
    options=(
        # the game's declared range: a larger table is not the game
        players_option(GAME, 4, "Students at the table; the fewest is the rules' Low Enrollment variant."),
        click.Option(
            ["--tiles"],
            type=WholeNumber(26, 400),
            default=None,
            help="Letter tiles in the pool, mixed from the deck's words [default: the set's letter_tiles].",
        ),
    ),
    games=1000,
    run=run,
    summary=summary,
)
