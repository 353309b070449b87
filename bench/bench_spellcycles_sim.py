"""Benchmark: `pnp sim spellcycles`'s 2,000 four-player games on a normal line against a bare loop.

The simulation side plays GAMES games through the rules engine with the greedy wizards, as the
command does (content loaded once, outside the timing, reported apart), in one process and in the
command's two worker processes. The floor does the least a game must, with the same draws the
same way (one random.Random per game seeded "seed:i"): shuffle the spell deck and the certificates,
deal each wizard its large pieces, and for every turn a game of these crescents and this line
lasts (players x line length, as no spell moved a crescent), roll the knucklebone and put the piece
on a random empty space of a plain list board; no pattern is looked for. All run in this process,
REPEATS times, alternating; the median is reported, and the ratio of the one-process simulation to
the floor. The whole command (`pnp sim spellcycles --games 2000`, a fresh process) is timed once too.
Not a test: prints the figures and PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_spellcycles_sim.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from measure import sim_arguments, timed_sim_command

GAMES = 2000
PLAYERS = 4
REPEATS = 3
TARGET_S = 10.0


def floor(games: int, players: int, spells: int, line: int, start: int, seed: int = 1) -> int:
    placed = 0
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        order = list(range(spells))
        rng.shuffle(order)
        pile = list(range(52))
        rng.shuffle(pile)
        large = [5] * 6
        hands = [[] for _ in range(players)]
        for hand in hands:
            for _ in range(start):
                colour = rng.randrange(6)
                large[colour] -= 1
                hand.append(colour)
        board = [None] * 64
        for turn in range(players * line):
            hand = hands[turn % players]
            if any(large):
                while True:
                    colour = rng.randint(1, 6) - 1
                    if large[colour]:
                        break
                large[colour] -= 1
                hand.append(colour)
            empties = [s for s, piece in enumerate(board) if piece is None]
            if hand and empties:
                board[empties[rng.randrange(len(empties))]] = hand.pop()
                placed += 1
    return placed


def main() -> int:
    args = sim_arguments(__doc__, GAMES, REPEATS)

    t0 = time.perf_counter()
    from pnp.content.game import load_game
    from pnp.games import game
    from pnp.games.spellcycles.rulebook import book_of
    from pnp.games.spellcycles.sim import WORKERS, figures, play_games
    from pnp.paths import CONTENT

    book = book_of(load_game(game("spellcycles"), [CONTENT]))
    load_s = time.perf_counter() - t0
    line = book.lines["normal"]

    one_times, two_times, floor_times = [], [], []
    for _ in range(args.repeats):
        t = time.perf_counter()
        found = figures(book, list(play_games(book, PLAYERS, args.games, seed=1, workers=1)), PLAYERS, 1)
        one_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        figures(book, list(play_games(book, PLAYERS, args.games, seed=1, workers=WORKERS)), PLAYERS, 1)
        two_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        floor(args.games, PLAYERS, len(book.spells), line, book.start_large)
        floor_times.append(time.perf_counter() - t)
    command_s, status = timed_sim_command("spellcycles", args.games)

    one, two, flo = (statistics.median(x) for x in (one_times, two_times, floor_times))
    ok = two <= TARGET_S and status == 0 and command_s <= TARGET_S

    def times(xs: list[float]) -> str:
        return " ".join(f"{x:.2f}" for x in xs)

    print(f"{args.games} games, {PLAYERS} players, a line of {line}, seed 1")
    print(f"content loaded in {load_s:.2f} s (not timed below)")
    print(f"runs: {args.repeats} each, alternating, in-process, median")
    print()
    print(f"{'simulation, one process':34}{one:8.2f} s   ({times(one_times)})")
    print(f"{f'simulation, {WORKERS} worker processes':34}{two:8.2f} s   ({times(two_times)})")
    print(f"{'floor: draws + placing, no match':34}{flo:8.2f} s   ({times(floor_times)})")
    print(f"{'ratio one process/floor':34}{one / flo:8.1f}")
    print(f"{'per game, one process':34}{one / args.games * 1000:8.2f} ms")
    print(f"{'whole command (a fresh process)':34}{command_s:8.2f} s   exit {status}")
    print(
        f"{'figures':34}prestige median {found.prestige['median']:g}, "
        f"{found.turns['median']:g} turns, first player wins {found.first_player_wins:.1%}"
    )
    print()
    verdict = "PASS" if ok else "FAIL"
    print(f"{'2,000 four-player games':24}{max(two, command_s):6.2f} s   target <= {TARGET_S} s   {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
