"""Benchmark: `pnp sim merchants-of-magick`'s 2,000 solo games against a bare dice loop.

The simulation side plays 2,000 solo games (--games) through the rules engine with the greedy
merchant, as the command does (content loaded once, outside the timing, reported apart). The floor
draws the same dice the same way (one random.Random per game seeded "seed:i", four dice a round for
the rounds of a game) and does the least a player must: add up the two best results of each round.
Both run in this process, 3 times (--repeats), alternating; the median is reported. The whole
command (`pnp sim merchants-of-magick --games 2000`, a fresh process) is timed in each round too.
Not a test: prints the figures and PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_merchants_sim.py
"""

from __future__ import annotations

import sys

from measure import SimBench, game_rngs


def floor(games: int, rounds: int, faces: list[int]) -> int:
    total = 0
    for rng in game_rngs(games):
        for _ in range(rounds):
            rolled = sorted(rng.randint(1, f) for f in faces)
            total += rolled[-1] + rolled[-2]
    return total


def main() -> int:
    bench = SimBench(__doc__, "merchants-of-magick", "pnp.games.merchants_of_magick")
    book = bench.book
    faces = [f for _, f in book.sheet.dice]
    return bench.against_floor(
        1,
        heading=f"{bench.games} solo games",
        floor=("floor: dice + two best a round", lambda: floor(bench.games, book.rules.rounds, faces)),
        figures_line=lambda found: (
            f"median {found.median:g} ({found.rating}), quartiles {found.quartiles[0]:g}-{found.quartiles[1]:g}"
        ),
        target="2,000 solo games",
        pooled=False,  # the command plays solo games in one process
    )


if __name__ == "__main__":
    sys.exit(main())
