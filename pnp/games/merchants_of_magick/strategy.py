"""What Merchants of Magick's strong computer player weighs its marks with (pnp.rules.computer's
Strategy): the worlds a merchant cannot tell from the table, the simulation's merchant as its
hunch, and how a mark plays out.

Every sheet, every face-up order and the dice are in plain sight; what a merchant cannot see is
the orders face down: the deck and the cards lying face down in the shoppes. A world deals those
anew, each face-down space and the deck keeping their count. The dice to come are chance.

The simulation's greedy merchant (pnp.games.merchants_of_magick.sim) is the hunch: the mark,
claim or delivery it would make now (Ready once it has none) is always weighed. A move plays out
on the rules engine: greedy merchants finish the round, then the Mastery and Customer phases and
every round to come, the dice from the table's chance, and is judged by the merchant's coins at
the end against the best rival's (SPREAD ahead: 1; as far behind: 0).
"""

from __future__ import annotations

import copy
import random

from pnp.content.loader import Content
from pnp.games.merchants_of_magick.rules import Merchant, Table
from pnp.games.merchants_of_magick.shoppe import book, claiming_now, engine, merchant, rolled, spending_now
from pnp.games.merchants_of_magick.sim import Greedy, round_part
from pnp.rules.computer import Intent, Strategy
from pnp.rules.flow import ENGINE

CRAFTING = ("resource", "crafting")  # the round's phases in which its results are spent
SPREAD = 60  # coins of lead at the end that count as a game won for sure


def unseen(_content: Content, state: dict, _seat: str, rng: random.Random) -> dict:
    world = copy.deepcopy(state)
    game = world[ENGINE]
    if game is None:
        return world
    down = [place for m in game["merchants"] for place in m["face_down"]]
    # in order, then shuffled: the deal owes nothing to where the cards really are
    cards = sorted([card for _, card in down] + game["deck"])
    rng.shuffle(cards)
    for place, card in zip(down, cards, strict=False):
        place[1] = card
    game["deck"] = cards[len(down) :]
    return world


class _Foreseen(Table):
    """A table that makes no move: the first one made on it raises the Intent saying which."""

    def _row(self, row: str | int) -> str:
        return row if isinstance(row, str) else self.book.sheet.rows[row].name

    def spend(self, _m: Merchant, die: str, row: str | int, circle: int, adjust: int = 0) -> None:
        raise Intent("spend", {"die": die, "row": self._row(row), "circle": circle, "adjust": adjust})

    def mark_free(self, _m: Merchant, row: str | int, circle: int) -> None:
        raise Intent("free", {"row": self._row(row), "circle": circle})

    def claim(self, _m: Merchant, slot: int, checked: bool = True):
        raise Intent("claim", {"slot": slot})

    def deliver(self, _m: Merchant, category: str):
        raise Intent("deliver", {"category": category})


def hunch(content: Content, state: dict, seat: str, _rng: random.Random) -> tuple[str, dict]:
    """The move the simulation's greedy merchant would make now in `seat`: its next mark while
    the results may be spent, its claims and deliveries while orders may be claimed; else Ready."""
    table = _Foreseen.from_data(book(content), state[ENGINE])
    try:
        round_part(
            Greedy(table), merchant(state, table, seat), spending_now(state) is None, claiming_now(state) is None
        )
    except Intent as intent:
        return intent.move
    return "ready", {"phase": state["round_phase"]}


def played_out(content: Content, state: dict, seat: str, rng: random.Random) -> float:
    table = engine(content, state)
    greedy, rounds = Greedy(table), table.book.rules.rounds
    if rolled(state):  # the rest of this round
        if state["round_phase"] in CRAFTING:
            for m in table.merchants:
                greedy.fill(m)  # a free circle owed is marked before a result is spent
                greedy.turn(m)
            table.mastery_phase()
        for m in table.merchants:
            greedy.fill(m)
        table.customer_phase()
    while table.round < rounds:
        table.roll(rng)
        for m in table.merchants:
            greedy.turn(m)
        table.mastery_phase()
        table.customer_phase()
    me = table.merchants[state["players"].index(seat)]
    lead = me.total() - max((m.total() for m in table.merchants if m is not me), default=0)
    return min(1.0, max(0.0, 0.5 + lead / SPREAD))


STRATEGY = Strategy(unseen, played_out, hunch)
