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
import statistics
import sys
import time

from measure import sim_arguments, timed_sim_command

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

    t0 = time.perf_counter()
    from pnp.content.game import load_game
    from pnp.gamedef import game
    from pnp.games.merchants_of_magick.rulebook import book_of
    from pnp.games.merchants_of_magick.sim import figures, play_games
    from pnp.paths import CONTENT

    book = book_of(load_game(game("merchants-of-magick"), [CONTENT]))
    load_s = time.perf_counter() - t0
    faces = [f for _, f in book.sheet.dice]

    sim_times, floor_times = [], []
    for _ in range(args.repeats):
        t = time.perf_counter()
        found = figures(book, list(play_games(book, 1, args.games, seed=1)), 1, 1)
        sim_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        floor(args.games, book.rules.rounds, faces)
        floor_times.append(time.perf_counter() - t)
    command_s, status = timed_sim_command("merchants-of-magick", args.games)

    sim, flo = statistics.median(sim_times), statistics.median(floor_times)
    ok = sim <= TARGET_S and status == 0 and command_s <= TARGET_S
    print(f"{args.games} solo games, seed 1; content loaded in {load_s:.2f} s (not timed below)")
    print(f"runs: {args.repeats} each, alternating, in-process, median")
    print()
    print(f"{'simulation':32}{sim:8.2f} s   ({' '.join(f'{x:.2f}' for x in sim_times)})")
    print(f"{'floor: dice + two best a round':32}{flo:8.2f} s   ({' '.join(f'{x:.2f}' for x in floor_times)})")
    print(f"{'ratio simulation/floor':32}{sim / flo:8.1f}")
    print(f"{'per game':32}{sim / args.games * 1000:8.2f} ms")
    print(f"{'whole command (one process)':32}{command_s:8.2f} s   exit {status}")
    print(
        f"{'figures':32}median {found.median:g} ({found.rating}), "
        f"quartiles {found.quartiles[0]:g}-{found.quartiles[1]:g}"
    )
    print()
    print(f"{'2,000 solo games':22}{max(sim, command_s):6.2f} s   target <= {TARGET_S} s   {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
