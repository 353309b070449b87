"""`pnp sim`: play a game's rules many times with simple players and report the figures."""

from __future__ import annotations

import json
import sys

import click

from pnp.cli_options import CONTENT_OPTION, chosen_games, layers, reports_problems


@click.group()
def sim() -> None:
    """Play a game's rules many times with simple players, to try a set before printing it."""


@sim.command(name="magic-spell")
@click.option(
    "--players",
    type=click.IntRange(2, 8),
    default=4,
    show_default=True,
    help="Students at the table (the rules: 3-4, 2 in Low Enrollment).",
)
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed plays the same games.")
@click.option(
    "--tiles",
    type=click.IntRange(26, 400),
    default=None,
    help="Letter tiles in the pool, mixed from the deck's words [default: the set's letter_tiles].",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON instead of a summary.")
@CONTENT_OPTION
@reports_problems
def magic_spell(players, games, seed, tiles, as_json, extra) -> None:
    """Magic Spell: how many games finish, how many spell-turns are locked (a letter a homework
    spell needs is all with other students), and how many rounds a game takes."""
    from pnp.content.game import load_game
    from pnp.games.magic_spell.sim import TURN_CAP, figures, play_games

    [game] = chosen_games(("magic-spell",), extra)
    content = load_game(game, layers(extra))
    tiles = tiles or content["magic-spell-set"].letter_tiles
    played = play_games(content, players, games, seed, tiles)
    with click.progressbar(played, length=games, label="Playing", file=sys.stderr) as bar:
        results = list(bar)
    found = figures(results, players, tiles, seed)
    if as_json:
        click.echo(json.dumps(found.as_dict()))
        return
    click.echo(
        f"{found.games} games, {players} players, {tiles} tiles, seed {seed}\n"
        f"finished within {TURN_CAP} rounds: {found.finished:.1%}\n"
        f"locked spell-turns: {found.locked:.1%}\n"
        f"mean rounds (finished games): {found.mean_rounds:.1f}"
    )


@sim.command(name="merchants-of-magick")
@click.option(
    "--players",
    type=click.Choice(["1", "4"]),
    default="1",
    show_default=True,
    help="1 plays the solo variant (the order line, Apprentice masteries); 4 rotates orders and flips masteries.",
)
@click.option("--games", type=click.IntRange(min=1), default=2000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed plays the same games.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON instead of a summary.")
@CONTENT_OPTION
@reports_problems
def merchants_of_magick(players, games, seed, as_json, extra) -> None:
    """Merchants of Magick: scores (median, quartiles, the solo rating), how often each row, order
    card and adventurer is completed, and when each mastery is reached."""
    from pnp.content.game import load_game
    from pnp.games.merchants_of_magick.rulebook import book_of
    from pnp.games.merchants_of_magick.sim import figures, play_games

    [game] = chosen_games(("merchants-of-magick",), extra)
    book = book_of(load_game(game, layers(extra)))
    players = int(players)
    played = play_games(book, players, games, seed)
    if sys.stderr.isatty():
        with click.progressbar(played, length=games, label="Playing", file=sys.stderr) as bar:
            results = list(bar)
    else:
        results = list(played)
    found = figures(book, results, players, seed)
    if as_json:
        click.echo(json.dumps(found.as_dict()))
        return
    rating = f" ({found.rating})" if found.rating else ""
    lines = [
        f"{found.games} games, {players} player{'s' if players > 1 else ''}, seed {seed}",
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
    click.echo("\n".join(lines))
