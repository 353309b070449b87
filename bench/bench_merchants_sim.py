"""Benchmark: `pnp sim merchants-of-magick`'s 2,000 solo games against a bare dice loop.

The simulation side plays GAMES solo games through the rules engine with the greedy merchant, as
the command does (content loaded once, outside the timing, reported apart). The floor draws the
same dice the same way (one random.Random per game seeded "seed:i", four dice a round for the
rounds of a game) and does the least a player must: add up the two best results of each round.
Both run in this process, REPEATS times, alternating; the median is reported. The whole command
(`pnp sim merchants-of-magick --games 2000`, a fresh process) is timed once too.
Not a test: prints the figures and PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_merchants_sim.py
"""

from __future__ import annotations

import random
import sys

from measure import loaded_book, sim_against_floor, sim_arguments

GAMES = 2000
REPEATS = 3
TARGET_S = 10.0


def floor(games: int, rounds: int, faces: list[int], seed: int = 1) -> int:
    total = 0
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        for _ in range(rounds):
            rolled = sorted(rng.randint(1, f) for f in faces)
            total += rolled[-1] + rolled[-2]
    return total


def main() -> int:
    args = sim_arguments(__doc__, GAMES, REPEATS)
    book, load_s = loaded_book("merchants-of-magick", "pnp.games.merchants_of_magick.rulebook:book_of")
    from pnp.games.merchants_of_magick.sim import figures, play_games

    faces = [f for _, f in book.sheet.dice]
    return sim_against_floor(
        "merchants-of-magick",
        args,
        load_s,
        heading=f"{args.games} solo games, seed 1",
        simulate=lambda _workers: figures(book, list(play_games(book, 1, args.games, seed=1)), 1, 1),
        floor=("floor: dice + two best a round", lambda: floor(args.games, book.rules.rounds, faces)),
        figures_line=lambda found: (
            f"median {found.median:g} ({found.rating}), quartiles {found.quartiles[0]:g}-{found.quartiles[1]:g}"
        ),
        target=("2,000 solo games", TARGET_S),
        pooled=False,  # the command plays solo games in one process
    )


if __name__ == "__main__":
    sys.exit(main())
