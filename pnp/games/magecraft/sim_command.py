"""`pnp sim magecraft`: the simulation's options and its summary (pnp.sim.cli builds the command)."""

from __future__ import annotations

import random
from dataclasses import replace

import click

from pnp.games.magecraft import GAME
from pnp.games.magecraft.on_phones import kept_game
from pnp.games.magecraft.recorded import game_of, rulebook
from pnp.games.magecraft.rulebook import book_of
from pnp.games.magecraft.rules import OPENING
from pnp.games.magecraft.sim import Figures, Greedy, figures, most_plentiful, play_games
from pnp.sim.cli import Run, Simulation, players_option
from pnp.sim.spread import first_seat_text, spread_text


def run(content, games: int, seed: int, players: int, spells: str) -> Run:
    book = book_of(content)
    if spells == "rules":  # the six spells the rules name alone: what the rules give, before ours
        named = {card.name for card in content["spell-cards"].cards if card.source == "rules"}
        book = replace(book, spells=tuple(s for s in book.spells if s.name in named), random_sets=0)
    played = play_games(book, players, games, seed)
    return Run(played, lambda results: figures(book, results, players, seed))


def summary(found: Figures) -> str:
    by_wins = sorted(found.spells.items(), key=lambda kv: kv[1]["wins"])
    lines = [
        f"{found.games} games, {found.players} wizards, seed {found.seed}",
        first_seat_text(found.first_player_wins, found.players),
        "wins by seat, first to last: " + ", ".join(f"{share:.1%}" for share in found.seat_wins),
        f"game length: {spread_text(found.turns, ' turns')} ({found.turns['median'] / found.players:.1f} rounds)",
        "games ended by: " + ", ".join(f"{how} {share:.1%}" for how, share in found.ends.items()),
        "characters: wins of the games played",
        *(f"  {name}: {c['wins']:.1%} of {c['games']}" for name, c in found.characters.items()),
        "spells, by their learners' wins: learned by the wizards of the games that deal it; learners' wins",
        *(
            f"  {name}: learned {s['learned']:.1%} in {s['dealt']} games; {s['learners']} learners win {s['wins']:.1%}"
            if s["learners"]
            else f"  {name}: never learned ({s['dealt']} games)"
            for name, s in by_wins
        ),
    ]
    return "\n".join(lines)


LOW, HIGH = GAME.players


def table_turn(content, state: dict, seat: str, rng: random.Random, memory: dict) -> dict:
    """The simulation's wizard plays `seat`'s part now on a table's state (pnp.sim.levels: the
    strong computer against this player): its opening discard, or its whole turn, made on the
    rules engine as in a simulated game, and the state after it."""
    game = game_of(rulebook(content), state)
    greedy = memory.setdefault(seat, Greedy(game, rng))
    greedy.game, greedy.rng, p = game, rng, state["players"].index(seat)
    if game.phase == OPENING:
        game.opening_discard(p, most_plentiful(game.wizards[p].hand, game.opening[p]))
    else:
        greedy.turn()
    return kept_game(state, game)


SIMULATION = Simulation(
    help="Magecraft: each seat's win rate, game length in turns, how games end (HP or "
    "score), each spell's learners and their win rate, and each character's win rate.",
    options=(
        players_option(GAME, 2, f"Wizards at the table ({LOW} to {HIGH}); characters are dealt with no two alike."),
        click.Option(
            ["--spells"],
            type=click.Choice(["all", "rules"]),
            default="all",
            help="The spell deck: all (the rules' six spells and ours) or rules (the six alone: "
            "the Academy deals only Minor Cure, Absorb and Fireball).",
        ),
    ),
    games=2000,
    run=run,
    summary=summary,
    table_turn=table_turn,
)
