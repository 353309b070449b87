"""The start, in both ways of playing Magecraft: the wizards seated in a random order (the rules:
"Determine the starting player randomly"), drawn by the server's chance into the Start's deal,
to which each way adds its own."""

from __future__ import annotations

import random

from pnp.rules.chance import shuffled
from pnp.rules.flow import JOINING, PLAYING
from pnp.rules.table import Refused


def dealing(state: dict, chance) -> random.Random | None:
    """The generator a Start's deal is drawn from, or None when nothing is dealt now (the flow then
    refuses the Start in its words: begun already, or too few wizards)."""
    if state["phase"] != JOINING or len(state["players"]) < state["room"][0]:
        return None
    return random.Random(chance.rng.getrandbits(63))  # never recorded: what it dealt is


def order_drawn(state: dict, rng: random.Random) -> list[str]:
    return shuffled(state["players"], rng)


def seated(state: dict, deal: dict | None) -> dict:
    """The table playing, its wizards in the seat order dealt."""
    if deal is None:
        raise Refused("The seats have not been drawn.")
    order = list(deal["order"])
    if sorted(order) != sorted(state["players"]):
        raise Refused("The seats drawn are not this table's wizards.")
    return {**state, "phase": PLAYING, "players": order}
