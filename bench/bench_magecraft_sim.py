"""Benchmark: `pnp sim magecraft`'s 2,000 two-player games against a bare loop.

The simulation side plays 2,000 games (--games) through the rules engine with the greedy wizards, as
the command does (content loaded once, outside the timing, reported apart), in one process and in
the command's two worker processes. The floor does the least a game must, with the same draws the
same way (one random.Random per game seeded "seed:i"): deal the characters and the Academy's random
sets, then turn after turn empty the hand and draw a new one from a bag of gem counts (the Discard
Area reshuffled into it when it runs out) and strike one of the rival's HP gems into the score,
until an HP Area is empty: no spell is looked at. All run in this process, 3 times (--repeats),
alternating; the median is reported, and the ratio of the one-process simulation to the floor. The
whole command (`pnp sim magecraft --games 2000`, a fresh process) is timed in each round too.
Not a test: prints the figures and PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_magecraft_sim.py
"""

from __future__ import annotations

import sys

from measure import SimBench, game_rngs

PLAYERS = 2


def floor(games: int, players: int, characters: int, others: int, random_sets: int) -> int:
    turns = 0
    for rng in game_rngs(games):
        rng.sample(range(characters), players)
        rng.sample(range(others), random_sets)
        bags = [[3, 3, 3, 3, 0] for _ in range(players)]
        discards = [[0] * 5 for _ in range(players)]
        hands = [[0] * 5 for _ in range(players)]
        hps = [[3, 3, 3, 3, 0] for _ in range(players)]
        player = 0
        while all(sum(hp) for hp in hps):
            bag, discard, hand = bags[player], discards[player], hands[player]
            for c in range(5):
                discard[c] += hand[c]
                hand[c] = 0
            for _ in range(4):
                total = sum(bag)
                if not total:
                    bag, discard = discard, bag
                    bags[player], discards[player] = bag, discard
                    total = sum(bag)
                r = rng.randrange(total)
                for c in range(5):
                    if r < bag[c]:
                        bag[c] -= 1
                        hand[c] += 1
                        break
                    r -= bag[c]
            rival = hps[(player + 1) % players]
            rival[max(range(5), key=rival.__getitem__)] -= 1
            player = (player + 1) % players
            turns += 1
    return turns


def main() -> int:
    bench = SimBench(__doc__, "magecraft", "pnp.games.magecraft")
    book = bench.book
    others = len(book.spells) - len(book.starting) - len(book.academy_basic)

    return bench.against_floor(
        PLAYERS,
        heading=f"{bench.games} games, {PLAYERS} wizards",
        floor=(
            "floor: draws + a strike a turn",
            lambda: floor(bench.games, PLAYERS, len(book.characters), others, book.random_sets),
        ),
        figures_line=lambda found: (
            f"{found.turns['median']:g} turns, first player wins {found.first_player_wins:.1%}, "
            f"ended by score {found.ends['score']:.1%}"
        ),
        target="2,000 two-player games",
    )


if __name__ == "__main__":
    sys.exit(main())
