"""`pnp sim merchants-of-magick`: the simulation's options and its summary (pnp.sim.cli builds the command)."""

from __future__ import annotations

import click

from pnp.cli_types import OneOf
from pnp.games.merchants_of_magick.rulebook import book_of
from pnp.games.merchants_of_magick.sim import Figures, figures, play_games, table_turn
from pnp.sim.cli import Run, Simulation


def run(content, games: int, seed: int, players: str) -> Run:
    book, players = book_of(content), int(players)
    return Run(play_games(book, players, games, seed), lambda results: figures(book, results, players, seed))


def summary(found: Figures) -> str:
    rating = f" ({found.rating})" if found.rating else ""
    lines = [
        f"{found.games} games, {found.players} player{'s' if found.players > 1 else ''}, seed {found.seed}",
        f"score: median {found.median:g}{rating}, quartiles {found.quartiles[0]:g}-{found.quartiles[1]:g}",
        "rows completed:",
        *(f"  {name}: {share:.1%}" for name, share in found.rows.items()),
        "orders claimed when in a shoppe (lowest five):",
        *(f"  {name}: {share:.1%}" for name, share in sorted(found.orders.items(), key=lambda kv: kv[1])[:5]),
        "adventurers completed:",
        *(f"  {name}: {share:.1%}" for name, share in found.adventurers.items()),
        "masteries reached (median round):",
        *(
            f"  {name}: {m['reached']:.1%} (round {m['median_round']:g})"
            if m["median_round"] is not None
            else f"  {name}: never reached"
            for name, m in found.masteries.items()
        ),
    ]
    return "\n".join(lines)


SIMULATION = Simulation(
    help="Merchants of Magick: scores (median, quartiles, the solo rating), how often each row, order "
    "card and adventurer is completed, and when each mastery is reached.",
    options=(
        click.Option(
            ["--players"],
            type=OneOf(["1", "4"]),
            default="1",
            show_default=True,
            help="1 plays the solo variant (the order line, Apprentice masteries); "
            "4 moves orders one space clockwise and flips masteries.",
        ),
    ),
    games=2000,
    run=run,
    summary=summary,
    table_turn=table_turn,
)
