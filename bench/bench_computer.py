"""Benchmark: how long a computer player takes to choose its move (issue 36: "a move within 1 s for
the easy level and within 3 s for the strongest"), against the floor of what the server does for
any phone on the same state: the seat's offers (pnp.rules.flow: offers), which every view of a
table computes; and how often the strong level beats the easy one.

For each game a computer plays (Magecraft and Spellcycles on the phones, Merchants of Magick with
dealt cards and digital sheets), GAMES two-player games of the strong
level against the easy one are played to their end (seeds 0 to GAMES-1, the strong level in the
first seat in even games, the second in odd ones). At every state where a seat has a move, its
choice (pnp.rules.computer.choose) and its offers are timed on that state, alternating which goes
first (a seat is asked whether it has a move at every step, so most of the easy level's are
answered "none"). Reported per level: the median and the slowest choice, the median offers, and the ratio of
the medians; and the strong level's share of wins. Not a test: prints the figures and PASS/FAIL,
exits 1 when a target is missed.

    python bench/bench_computer.py [--games 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict

from pnp.content.game import load_game
from pnp.gamedef import games
from pnp.paths import CONTENT
from pnp.rules.chance import SecureChance
from pnp.rules.computer import EASY, STRONG, choose
from pnp.rules.flow import OVER, Caller
from pnp.rules.table import HOST
from pnp.sim.levels import hosting, made, started, winners

TARGETS = {EASY: 1.0, STRONG: 3.0}  # seconds, the slowest move
GAMES_PLAYED = ("magecraft", "spellcycles", "merchants-of-magick")
LONGEST = 3000  # moves: a game still going is stopped (none has come near)


def seconds(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def timed_game(game_id: str, seed: int, choices: dict, floors: dict) -> bool:
    """One game of the strong level against the easy one, each choice timed into `choices` and
    each floor into `floors` (by level); whether the strong level won."""
    game = games()[game_id]
    rules, content = game.load("tracker"), load_game(game, [CONTENT])
    chance = SecureChance(random.Random(seed))
    levels = dict(zip(("p1", "p2"), (STRONG, EASY) if seed % 2 == 0 else (EASY, STRONG), strict=True))
    state = started(rules, content, levels, chance)
    for step in range(LONGEST):
        if state["phase"] == OVER:
            break
        for seat, level in levels.items():

            def floor(seat=seat, state=state):
                rules.offers(content, state, Caller(seat), chance.trial())

            if step % 2:  # alternating which goes first
                floors[level].append(seconds(floor))
            start = time.perf_counter()
            chosen = choose(rules, content, state, seat, level, chance)
            choices[level].append(time.perf_counter() - start)
            if not step % 2:
                floors[level].append(seconds(floor))
            if chosen is not None:
                state = made(rules, content, state, seat, chosen, chance)
                break
        else:  # every seat has done its part: the host's (Merchants: the roll, the next phase)
            state = made(rules, content, state, HOST, hosting(rules, content, state, chance), chance)
    strong = next(seat for seat, level in levels.items() if level == STRONG)
    return winners(rules, state) == {strong}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    failed = False
    print(f"strong against easy: {args.games} two-player games per game, seeds 0..{args.games - 1}, seats in turn")
    print(f"{'game':<20} {'level':<7} {'asked':>7} {'median ms':>10} {'slowest ms':>11} {'offers ms':>10} {'ratio':>6}")
    for game_id in GAMES_PLAYED:
        choices, floors = defaultdict(list), defaultdict(list)
        wins = sum(timed_game(game_id, seed, choices, floors) for seed in range(args.games))
        for level in (EASY, STRONG):
            median, slowest = statistics.median(choices[level]), max(choices[level])
            offers = statistics.median(floors[level])
            ok = slowest <= TARGETS[level]
            failed |= not ok
            print(
                f"{game_id:<20} {level:<7} {len(choices[level]):>7} {median * 1000:>10.2f} {slowest * 1000:>11.1f} "
                f"{offers * 1000:>10.2f} {median / offers:>6.2f}  "
                f"{'PASS' if ok else 'FAIL'}: slowest <= {TARGETS[level]:.0f} s"
            )
        print(f"{game_id:<20} the strong level won {wins} of {args.games} ({wins / args.games:.0%})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
