"""`pnp sim spellcycles`: the simulation's options and its summary (pnp.sim.cli builds the command)."""

from __future__ import annotations

from dataclasses import replace

import click

from pnp.cli_types import WholeNumber
from pnp.games.spellcycles import GAME
from pnp.games.spellcycles.rulebook import book_of
from pnp.games.spellcycles.rules import Variants
from pnp.games.spellcycles.sim import Figures, figures, play_games, table_turn
from pnp.sim.cli import Run, Simulation, players_option
from pnp.sim.spread import first_seat_text, spread_text


def run(content, games: int, seed: int, players: int, line: int | None, swift_time: bool, spells: str) -> Run:
    book = book_of(content)
    if spells == "rules":  # the rules' example spells alone: what the rules give, before ours add to it
        book = replace(book, spells=tuple(s for s in book.spells if s.rules))
    lengths = sorted(set(book.lines.values()))
    if line is not None and line not in lengths:
        raise click.BadParameter(
            f"{line} is not a line the rules deal; the set's are {', '.join(map(str, lengths))}", param_hint="'--line'"
        )
    if line is not None and line > len(book.spells):
        raise click.BadParameter(f"a line of {line} needs {line} spell cards; the deck has {len(book.spells)}")
    played = play_games(book, players, games, seed, line, variants=Variants(swift_time=swift_time))
    return Run(played, lambda results: figures(book, results, players, seed, line))


def summary(found: Figures) -> str:
    by_cast = sorted(found.spells.items(), key=lambda kv: kv[1]["cast"])
    lines = [
        f"{found.games} games, {found.players} players, a line of {found.line} spells, seed {found.seed}",
        f"prestige per player: {spread_text(found.prestige)}",
        f"game length: {spread_text(found.turns, ' turns')} ({found.turns['median'] / found.players:g} rounds)",
        first_seat_text(found.first_player_wins, found.players),
        f"games in which nothing is cast: {found.nothing_cast:.1%}",
        f"games stopped unfinished (crescents sent back again and again): {round(found.unfinished * found.games)}"
        f" of {found.games}",
        "spells, least cast first: cast in the games that deal them; castable but not cast, of the turns castable",
        *(
            f"  {name}: {s['cast']:.1%} of {s['dealt']}; passed {s['passed']:.1%}"
            if s["dealt"]
            else f"  {name}: never dealt"
            for name, s in by_cast
        ),
    ]
    return "\n".join(lines)


LOW, HIGH = GAME.players
SIMULATION = Simulation(
    help="Spellcycles: how often each spell is cast when in the line (and castable but not cast), "
    "prestige per player, game length in turns, the first player's win rate, and games in which "
    "nothing is cast.",
    options=(
        players_option(GAME, 4, f"Wizards at the table ({LOW} to {HIGH}); as many moon crescents."),
        click.Option(
            ["--swift-time"],
            is_flag=True,
            help="Play our Swift Time variant: Reverse Time and Killing Time at our retuned costs "
            "(2 and 3 essence), not the rules' 6.",
        ),
        click.Option(
            ["--spells"],
            type=click.Choice(["all", "rules"]),
            default="all",
            help="The spell deck: all (the rules' examples and ours) or rules (the rules' ten examples alone).",
        ),
        click.Option(
            ["--line"],
            type=WholeNumber(),
            default=None,
            help="Spells in the spell line: a short, normal or long game (4, 8 or 12 in the set); "
            "default the normal line.",
        ),
    ),
    games=2000,
    run=run,
    summary=summary,
    table_turn=table_turn,
)
