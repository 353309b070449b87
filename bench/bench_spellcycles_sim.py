"""Benchmark: `pnp sim spellcycles`'s 2,000 four-player games on a normal line against a bare loop.

The simulation side plays 2,000 games (--games) through the rules engine with the greedy wizards, as
the command does (content loaded once, outside the timing, reported apart), in one process and in
the command's two worker processes. The floor does the least a game must, with the same draws the
same way (one random.Random per game seeded "seed:i"): shuffle the spell deck and the certificates,
deal each wizard its large pieces, and for every turn a game of these crescents and this line lasts
(players x line length, as no spell moved a crescent), roll the knucklebone and put the piece on a
random empty space of a plain list board; no pattern is looked for. All run in this process, 3 times
(--repeats), alternating; the median is reported, and the ratio of the one-process simulation to the
floor. The whole command (`pnp sim spellcycles --games 2000`, a fresh process) is timed in each round too.
Not a test: prints the figures and PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_spellcycles_sim.py
"""

from __future__ import annotations

import sys

from measure import SimBench, game_rngs

PLAYERS = 4


def floor(games: int, players: int, spells: int, line: int, start: int) -> int:
    placed = 0
    for rng in game_rngs(games):
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
    bench = SimBench(__doc__, "spellcycles", "pnp.games.spellcycles")
    book = bench.book
    line = book.lines["normal"]

    return bench.against_floor(
        PLAYERS,
        heading=f"{bench.games} games, {PLAYERS} players, a line of {line}",
        floor=(
            "floor: draws + placing, no match",
            lambda: floor(bench.games, PLAYERS, len(book.spells), line, book.start_large),
        ),
        figures_line=lambda found: (
            f"prestige median {found.prestige['median']:g}, "
            f"{found.turns['median']:g} turns, first player wins {found.first_player_wins:.1%}"
        ),
        target="2,000 four-player games",
    )


if __name__ == "__main__":
    sys.exit(main())
