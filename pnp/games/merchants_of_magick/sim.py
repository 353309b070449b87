"""Merchants of Magick played by simple greedy merchants, to see whether a shoppe sheet is balanced.

Pure and seeded: game `i` of a run with seed `s` rolls its dice with random.Random(f"{s}:{i}"), so
the same content, players, games and seed give the same figures. Every move goes through the rules
engine (`pnp.games.merchants_of_magick.rules`), so a move the rules forbid would raise.

A merchant's round, in order:
  spend    the results one at a time, each time the best (die, circle) by value: a row is worth its
           coins, plus the coins of face-up (and, solo, waiting) orders that need it, plus its share
           of the adventurer's coins, plus a charm's potions or expected coins, plus a little for a
           mastery column not yet scored; a mark is worth that value over the circles the row
           still needs (all of it when it completes the row), less a little for a result much
           better than the circle needs. Potions move a result only when the mark completes a row,
           and an Extra Dice slot is used only for a mark that completes a row (or, free slots,
           in the last three rounds, for any mark worth it);
  claim    every face-up order whose item and enchantments are complete, and deliver every
           adventurer order that is; a free circle goes where it completes a row, else to the
           most valuable row.
Then the Mastery phase and the Customer phase as the rules say (solo: the line shifts left and
masteries pay their Apprentice side only).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from statistics import median, quantiles

from pnp.games.merchants_of_magick.rules import CRAFTING, Book, Merchant, Sheet, Table, deal

POTION_VALUE = 1.5  # coins a potion is worth to the greedy merchant
WASTE = 0.15  # coins lost per pip a result beats its circle by


@dataclass(frozen=True)
class GameResult:
    scores: tuple[int, ...]  # per player
    rows: tuple[int, ...]  # per sheet row: players who completed it
    seen: frozenset[str]  # orders face up in a shoppe at some round
    claimed: tuple[str, ...]  # orders claimed
    adventurers: tuple[tuple[str, bool], ...]  # (adventurer, all three delivered), per player
    masteries: tuple[tuple[str, int | None], ...]  # (card, round a player reached it or None), per player


@dataclass(frozen=True)
class Figures:
    players: int
    games: int
    seed: int
    median: float
    quartiles: tuple[float, float]
    rating: str | None  # the solo title the median earns
    rows: dict[str, float]  # share of player-games completing each row
    orders: dict[str, float]  # per order card: share of the games it was face up in a shoppe that it was claimed
    adventurers: dict[str, float]  # share of dealt adventurers with all three delivered
    masteries: dict[str, dict]  # card -> {reached: share of player-games it was in, median_round}

    def as_dict(self) -> dict:
        found = {name: getattr(self, name) for name in self.__dataclass_fields__}
        found["quartiles"] = list(self.quartiles)
        return found


@lru_cache(maxsize=8)
def reach(sheet: Sheet) -> tuple[dict, dict]:
    """For each die, the circles it may mark (row, circle, threshold, crafting?); for each column,
    the rows with a circle in it."""
    found = {
        die: [
            (i, j, c.threshold, row.side == CRAFTING)
            for i, row in enumerate(sheet.rows)
            for j, c in enumerate(row.circles)
            if die in sheet.column(c.column).dice
        ]
        for die, _ in sheet.dice
    }
    rows = {
        c.id: [i for i, r in enumerate(sheet.rows) if any(x.column == c.id for x in r.circles)] for c in sheet.columns
    }
    return found, rows


class Greedy:
    """A merchant's choices over one table."""

    def __init__(self, table: Table):
        self.table = table
        self.rows = table.book.sheet.rows
        self.reach, self.column_rows = reach(table.book.sheet)

    def values(self, m: Merchant) -> list[float]:
        table = self.table
        rows, index = self.rows, table.book.sheet.index
        value = [float(r.coins) for r in rows]
        wanted = m.shop + (table.waiting if table.solo else [])
        for order in wanted:
            parts = (order.item, *order.enchantments)
            share = order.coins / len(parts)
            for part in parts:
                value[index[part]] += share
        hero = m.adventurer
        if hero and len(m.delivered) < 3:
            for category, item in hero.items:
                if category not in m.delivered:
                    value[index[item]] += hero.coins / 3
            value[index[hero.enchantment]] += hero.coins / 2
        left = table.book.rules.rounds - table.round
        for i, r in enumerate(rows):
            if r.charm_potions:
                value[i] += r.charm_potions * POTION_VALUE * min(1.0, left / 4)
            elif r.charm_coins:
                value[i] += r.charm_coins * (m.fulfilled(r.charm_category) + 1)
        for card in table.masteries:
            if card.name not in m.mastery:
                for i in self.column_rows[card.column]:
                    value[i] += 0.5
        return value

    def best(self, m: Merchant, extra: bool, late: bool, value: list[float]):
        """The best (score, die, row, circle, adjust) for the next result, or None."""
        results, used, marked, done = self.table.results, m.used, m.marked, m.completed
        open_ = [row.count(False) for row in marked]
        cost = self.table.slot_cost(m) if extra else 0
        if cost is None:
            return None
        budget = m.potions - cost
        if budget < 0:
            return None
        best = None
        for die, rolled in results.items():
            if die in used:
                continue
            for i, j, t, crafting in self.reach[die]:
                if done[i] or marked[i][j]:
                    continue
                gap = t - rolled if crafting else rolled - t
                left = open_[i]
                completes = left == 1
                if gap > 0:
                    if not completes or gap > budget:
                        continue
                    adjust = gap if crafting else -gap
                    potions = gap
                else:
                    adjust = potions = 0
                if extra and not (completes or (late and cost == 0)):
                    continue
                score = value[i] / left - potions * POTION_VALUE + gap * WASTE
                if completes:
                    score += POTION_VALUE
                if best is None or score > best[0]:
                    best = (score, die, i, j, adjust)
        return best

    def turn(self, m: Merchant) -> None:
        table = self.table
        rules = table.book.rules
        late = table.round > rules.rounds - 3
        value = self.values(m)
        while True:
            extra = m.spent >= rules.results_per_round
            pick = self.best(m, extra, late, value)
            if pick is None or (extra and pick[0] <= 1.0):
                break
            _, die, i, j, adjust = pick
            table.spend(m, die, i, j, adjust)
            if m.completed[i]:  # orders, the adventurer and the values may change
                self.fill(m)
                value = self.values(m)
        self.fill(m)

    def fill(self, m: Merchant) -> None:
        """Claim every order that can be, deliver to the adventurer, mark free circles."""
        table = self.table
        while True:
            progress = False
            for slot in range(len(m.shop) - 1, -1, -1):
                if m.can_fill(m.shop[slot]):
                    table.claim(m, slot)
                    progress = True
            hero = m.adventurer
            if hero:
                for category, item in hero.items:
                    if category not in m.delivered and m.done(item) and m.done(hero.enchantment):
                        table.deliver(m, category)
                        progress = True
            while m.free_circles:
                self.free_circle(m)
                progress = True
            if not progress:
                return

    def free_circle(self, m: Merchant) -> None:
        value = self.values(m)
        best = None
        for i in range(len(self.rows)):
            if m.completed[i]:
                continue
            left = m.marked[i].count(False)
            score = value[i] / left + (100 if left == 1 else 0)
            if best is None or score > best[0]:
                best = (score, i)
        if best is None:
            m.free_circles = 0
            return
        i = best[1]
        self.table.mark_free(m, i, m.marked[i].index(False))


def play(book: Book, players: int, rng: random.Random) -> GameResult:
    table = deal(book, players, rng)
    merchants = table.merchants
    greedy = Greedy(table)
    seen: set[str] = set()
    reached: dict[tuple[int, str], int] = {}
    for _ in range(book.rules.rounds):
        table.roll(rng)
        for m in merchants:
            for order in m.shop:
                seen.add(str(order))
            greedy.turn(m)
        for p, name, _ in table.mastery_phase():
            reached[(p, name)] = table.round
        table.customer_phase()
    rows = tuple(sum(m.completed[i] for m in merchants) for i in range(len(book.sheet.rows)))
    return GameResult(
        scores=tuple(m.total() for m in merchants),
        rows=rows,
        seen=frozenset(seen),
        claimed=tuple(str(o) for m in merchants for o in m.claimed),
        adventurers=tuple((m.adventurer.name, len(m.delivered) == 3) for m in merchants),
        masteries=tuple((card.name, reached.get((p, card.name))) for p in range(players) for card in table.masteries),
    )


def play_games(book: Book, players: int, games: int, seed: int) -> Iterator[GameResult]:
    """Each game's result in turn (so a caller can show progress); game `i` is seeded by (seed, i)."""
    for i in range(games):
        yield play(book, players, random.Random(f"{seed}:{i}"))


def figures(book: Book, results: list[GameResult], players: int, seed: int) -> Figures:
    scores = sorted(s for r in results for s in r.scores)
    player_games = len(results) * players
    q = quantiles(scores, n=4) if len(scores) > 1 else [scores[0]] * 3
    seen: dict[str, int] = defaultdict(int)
    claimed: dict[str, int] = defaultdict(int)
    for r in results:
        for order in r.seen:
            seen[order] += 1
        for order in set(r.claimed):
            claimed[order] += 1
    names = sorted({str(o) for o in book.orders})
    orders = {name: claimed[name] / seen[name] if seen[name] else 0.0 for name in names}
    dealt: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        for name, done in r.adventurers:
            dealt[name].append(done)
    masteries: dict[str, list] = defaultdict(list)
    for r in results:
        for name, when in r.masteries:
            masteries[name].append(when)
    return Figures(
        players=players,
        games=len(results),
        seed=seed,
        median=median(scores),
        quartiles=(q[0], q[2]),
        rating=book.rules.rating(median(scores)) if players == 1 else None,
        rows={row.name: sum(r.rows[i] for r in results) / player_games for i, row in enumerate(book.sheet.rows)},
        orders=orders,
        adventurers={name: sum(done) / len(done) for name, done in sorted(dealt.items())},
        masteries={
            name: {
                "reached": sum(w is not None for w in whens) / len(whens),
                "median_round": median(w for w in whens if w is not None)
                if any(w is not None for w in whens)
                else None,
            }
            for name, whens in sorted(masteries.items())
        },
    )


def round_part(greedy: Greedy, m: Merchant, spending: bool, claiming: bool) -> None:
    """The greedy merchant's part in a round on the phones as it stands: its results spent while
    they may be, its orders claimed and adventurer delivered while they may be, and the free
    circles owed marked."""
    if spending:
        greedy.turn(m)
    elif claiming:
        greedy.fill(m)
    while m.free_circles:
        greedy.free_circle(m)


def table_turn(content, state: dict, seat: str, rng: random.Random, memory: dict) -> dict:
    """The simulation's merchant plays `seat`'s part of the round now on a table's state
    (pnp.sim.levels: the strong computer against this player), on the rules engine as in a
    simulated game, then taps Ready; the state after it (unchanged: it had nothing to do)."""
    from pnp.games.merchants_of_magick.shoppe import claiming_now, engine, kept, merchant, rolled, spending_now

    table = engine(content, state)
    m = merchant(state, table, seat)
    round_part(Greedy(table), m, spending_now(state) is None, claiming_now(state) is None)
    done = state if table.to_data() == state["engine"] else kept(state, table)
    if rolled(state) and seat not in state["ready"]:
        done = {**done, "ready": [*state["ready"], seat]}
    return done
