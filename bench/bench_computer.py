"""Benchmark: how long a computer player takes to choose its move (issue 36: "a move within 1 s for
the easy level"), against the floor of what the server does for any phone on the same state: the
seat's offers (pnp.rules.flow: offers), which every view of a table computes.

For each game played on the phones (Magecraft, Spellcycles), GAMES two-player games are played to
their end by computers at LEVEL (the first seat's moves chosen so too, as if a computer sat there);
at every state where a seat has a move, the seat's choice (pnp.rules.computer.choose) and its
offers are timed on that state, alternating which goes first. Reported: the median and the slowest
choice, the median offers, and the ratio of the medians. Not a test: prints the figures and
PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_computer.py [--games 20] [--level easy]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from pnp.content.game import load_game
from pnp.gamedef import games
from pnp.paths import CONTENT
from pnp.rules.chance import SecureChance
from pnp.rules.computer import LEVELS, choose
from pnp.rules.flow import OVER, Caller
from pnp.rules.offers import first
from pnp.rules.table import HOST, parse_action

TARGETS = {"easy": 1.0}  # seconds, the slowest move
GAMES_PLAYED = ("magecraft", "spellcycles")
LONGEST = 3000  # moves: a game still going is stopped (none has come near)


def begun(rules, content, chance, players: int) -> dict:
    state = rules.setup(content, rules.Options(mode="phones"))
    for n in range(1, players + 1):  # a person in the first seat (a table of computers only never starts)
        state = rules.join(state, f"p{n}", f"Wizard {n}", None if n == 1 else "easy")
    [offered] = [o for o in rules.offers(content, state, Caller(None, True), chance) if o["type"] == "start"]
    start = rules.draw(content, state, HOST, parse_action(rules, "start", first(offered), sent=True), chance)
    return rules.apply(content, state, HOST, start)


def timed_game(game_id: str, level: str, seed: int) -> tuple[list[float], list[float]]:
    """(each choice's seconds, each floor's seconds) over one game."""
    game = games()[game_id]
    rules, content = game.load("tracker"), load_game(game, [CONTENT])
    chance = SecureChance(random.Random(seed))
    state = begun(rules, content, chance, 2)
    choices, floors = [], []
    for step in range(LONGEST):
        if state["phase"] == OVER:
            break
        for seat in state["players"]:

            def floor(seat=seat, state=state):
                rules.offers(content, state, Caller(seat), chance.trial())

            if step % 2:  # alternating which goes first
                floors.append(seconds(floor))
            start = time.perf_counter()
            made = choose(rules, content, state, seat, level, chance)
            choices.append(time.perf_counter() - start)
            if not step % 2:
                floors.append(seconds(floor))
            if made is not None:
                action = rules.draw(content, state, seat, parse_action(rules, made[0], made[1], sent=True), chance)
                state = rules.apply(content, state, seat, action)
                break
    return choices, floors


def seconds(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--level", choices=sorted(LEVELS), default="easy")
    args = parser.parse_args()
    failed = False
    print(f"computer players at level {args.level}: {args.games} two-player games per game, seeds 0..{args.games - 1}")
    print(f"{'game':<12} {'moves':>7} {'median ms':>10} {'slowest ms':>11} {'offers ms':>10} {'ratio':>6}")
    for game_id in GAMES_PLAYED:
        choices, floors = [], []
        for seed in range(args.games):
            made, floor = timed_game(game_id, args.level, seed)
            choices += made
            floors += floor
        median, slowest, offers = statistics.median(choices), max(choices), statistics.median(floors)
        ok = slowest <= TARGETS[args.level]
        failed |= not ok
        print(
            f"{game_id:<12} {len(choices):>7} {median * 1000:>10.2f} {slowest * 1000:>11.1f} "
            f"{offers * 1000:>10.2f} {median / offers:>6.2f}  "
            f"{'PASS' if ok else 'FAIL'}: slowest <= {TARGETS[args.level]:.0f} s"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
