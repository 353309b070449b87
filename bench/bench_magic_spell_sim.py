"""Benchmark: `pnp sim magic-spell`'s 2,000 four-player games against a bare loop.

The simulation side plays 2,000 games (--games) through the tracker's moves with the simple
students, as the command does (content loaded once, outside the timing, reported apart), in one
process and in the command's two worker processes. The floor does the least a game must, with the
same draws the same way (one random.Random per game seeded "seed:i"): shuffle the deck and the
tile bag, deal each student their ingredients and homework, then turn after turn take a random
laboratory tile and weave it onto a spell that needs it (else put it back); a completed spell's
tiles go back, its credits count and the next word is drawn, until a student's credits reach the
courseload (or the simulation's cap on rounds). No spirit, no trade, no locked spell is looked at.
All run in this process, 3 times (--repeats), alternating; the median is reported, and the ratio
of the one-process simulation to the floor. The whole command (`pnp sim magic-spell --games
2000`, a fresh process) is timed in each round too.
Not a test: prints the figures and PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_magic_spell_sim.py
"""

from __future__ import annotations

import sys
from collections import Counter

from measure import SIM_SEED, SimBench, game_rngs

from pnp.games.magic_spell.sim import TURN_CAP

PLAYERS = 4


def floor(
    games: int,
    players: int,
    words: list[str],
    pool: Counter,
    credits: dict[str, int],
    courseload: int,
    ingredients: int,
    homework: int,
) -> int:
    turns = 0
    for rng in game_rngs(games):
        deck = list(words)
        rng.shuffle(deck)
        bag = list(pool.elements())
        rng.shuffle(bag)
        hands = []
        for _ in range(players):
            del bag[-ingredients:]  # the cabinet, never used again
            hands.append([(word, Counter(word.upper())) for word in (deck.pop(0) for _ in range(homework))])
        scores = [0] * players
        player, turns_left = 0, TURN_CAP * players
        while max(scores) < courseload and turns_left:
            hand = hands[player]
            place = rng.randrange(len(bag))
            letter = bag[place]
            spell = next((s for s in hand if s[1][letter]), None)
            if spell is not None:
                bag[place] = bag[-1]
                bag.pop()
                missing = spell[1]
                missing[letter] -= 1
                if not +missing:
                    hand.remove(spell)
                    bag.extend(spell[0].upper())
                    scores[player] += credits[spell[0]]
                    if deck:
                        word = deck.pop(0)
                        hand.append((word, Counter(word.upper())))
            player = (player + 1) % players
            turns += 1
            turns_left -= 1
    return turns


def main() -> int:
    bench = SimBench(__doc__, "magic-spell", "pnp.games.magic_spell", book_of=lambda content: content)
    content, sim = bench.book, bench.sim
    setup = content["magic-spell-set"]
    semester = sim.Semester.of(content, PLAYERS, setup.letter_tiles)
    credits = {card["spell"]: card["credits"] for card in semester.state["deck"]}

    return bench.against_floor(
        PLAYERS,
        heading=f"{bench.games} games, {PLAYERS} students, {setup.letter_tiles} tiles",
        floor=(
            "floor: draws + weaving, no rules",
            lambda: floor(
                bench.games,
                PLAYERS,
                semester.words,
                semester.pool,
                credits,
                semester.state["courseload"],
                setup.start.ingredients,
                setup.start.homework,
            ),
        ),
        figures=lambda results: sim.figures(results, PLAYERS, setup.letter_tiles, SIM_SEED),
        figures_line=lambda found: (
            f"finished {found.finished:.1%}, locked spell-turns {found.locked:.1%}, mean rounds {found.mean_rounds:.1f}"
        ),
        target="2,000 four-player games",
    )


if __name__ == "__main__":
    sys.exit(main())
