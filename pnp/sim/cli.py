"""`pnp sim GAME`: play a game's rules many times with simple players and report the figures.

A game offers a simulation by naming its `Simulation` in its GameDef (`simulation`); this module
builds the command from it: the game's own options (--players, --tiles), and every game's --games,
--seed, --json and --content.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import click

from pnp.cli_options import CONTENT_OPTION, chosen_games, layers, reports_problems
from pnp.cli_types import WholeNumber
from pnp.gamedef import GameDef, games


@dataclass(frozen=True)
class Run:
    """Games being played, and how their results become the figures."""

    played: Iterator[Any]  # each game's result as it finishes, so the command can show progress
    figures: Callable[[list], Any]  # the results -> the figures (an object with as_dict())


@dataclass(frozen=True)
class Simulation:
    """What `pnp sim GAME` needs from a game: a game's sim_command module hands one over."""

    help: str  # the command's help: what the figures say
    options: tuple[click.Option, ...]  # the game's own options
    games: int  # how many games by default
    run: Callable[..., Run]  # (content, games, seed, **the game's options)
    summary: Callable[[Any], str]  # the figures as printed without --json
    # (content, state, seat, rng, memory) -> the state once the simulation's player has played
    # that seat's part now on a table's state: `--levels sim,...` pits it against computer players
    table_turn: Callable[..., dict] | None = None


def players_option(game: GameDef, default: int, help: str) -> click.Option:
    """The --players a simulation takes: a table the game's rules seat (GameDef.players)."""
    return click.Option(["--players"], type=WholeNumber(*game.players), default=default, show_default=True, help=help)


class _Simulations(click.Group):
    """One subcommand per game that declares a simulation, built when asked for."""

    def list_commands(self, ctx) -> list[str]:
        return [game.id for game in games().values() if game.simulation]

    def get_command(self, ctx, name: str) -> click.Command | None:
        game = games().get(name)
        if game is None or not game.simulation:
            return None
        return _command(game.id, game.load("simulation"))


def _command(game_id: str, simulation: Simulation) -> click.Command:
    @click.command(name=game_id, help=simulation.help)
    @click.option("--games", type=WholeNumber(1), default=simulation.games, show_default=True, help="Games to play.")
    @click.option(
        "--seed", type=WholeNumber(), default=1, show_default=True, help="The same seed plays the same games."
    )
    @click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON instead of a summary.")
    @click.option(
        "--levels",
        metavar="LEVEL,LEVEL,...",
        help="Seat computer players instead of the simulation's, one a seat, at these levels (easy, strong, "
        "or sim for the simulation's own player; e.g. strong,sim; --players is then their count), and report "
        "how often each level wins. Only in a game a computer plays (one whose every piece the server sees).",
    )
    @CONTENT_OPTION
    @reports_problems
    def simulate(games, seed, as_json, levels, extra, **options) -> None:
        from pnp.content.game import load_game

        [game] = chosen_games((game_id,), extra)
        content = load_game(game, layers(extra))
        if levels is not None:
            run, summary = _computers(game, content, levels, games, seed)
        else:
            run, summary = simulation.run(content, games, seed, **options), simulation.summary
        if sys.stderr.isatty():  # progress for a person watching; nothing in a log or a pipe
            with click.progressbar(run.played, length=games, label="Playing", file=sys.stderr) as bar:
                results = list(bar)
        else:
            results = list(run.played)
        found = run.figures(results)
        click.echo(json.dumps(found.as_dict()) if as_json else summary(found))

    simulate.params[:0] = simulation.options  # the game's own options first, as --help lists them
    return simulate


def _computers(game: GameDef, content, levels: str, games: int, seed: int) -> tuple[Run, Callable]:
    """The run of `--levels`: computer players at those levels (pnp.sim.levels)."""
    from pnp.sim import levels as computers

    seated = tuple(level.strip() for level in levels.split(","))
    why = computers.refused(game, content, seated)
    if why:
        raise click.BadParameter(why, param_hint="--levels")
    played = computers.play_levels(game, content, seated, games, seed)
    return Run(played, lambda results: computers.figures(seated, results, seed)), computers.summary


@click.group(cls=_Simulations)
def sim() -> None:
    """Play a game's rules many times with simple players, to try a set before printing it."""
