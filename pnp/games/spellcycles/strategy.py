"""What Spellcycles' strong computer player weighs its moves with (pnp.rules.computer's Strategy):
the worlds a wizard cannot tell from the table, and how well a wizard stands in one.

Everything on the field and in the apothecaries is in plain sight; what a wizard cannot see is
the prestige certificates: the pile's order and which cards each rival holds (their counts are
shown). A world deals those cards anew between the pile and the rivals, counts kept.

A wizard stands well by their score as the rules count it at the end (certificates, or essence in
a Duel) against the best rival's, and a little by their essence, which buys the next casts; the
game won is 1 (shared, a half), lost 0.
"""

from __future__ import annotations

import copy
import random

from pnp.content.loader import Content
from pnp.games.spellcycles.engine import game_of
from pnp.rules.computer import Strategy
from pnp.rules.flow import ENGINE, OVER

SCORE, ESSENCE = 0.08, 0.01  # what a point of lead in each is worth


def unseen(_content: Content, state: dict, seat: str, rng: random.Random) -> dict:
    world = copy.deepcopy(state)
    game = world[ENGINE]
    rivals = [w for pid, w in zip(state["players"], game["wizards"], strict=True) if pid != seat]
    # in order, then shuffled: the deal owes nothing to where the cards really are
    cards = sorted(game["pile"] + [card for w in rivals for card in w["certificates"]])
    rng.shuffle(cards)
    for w in rivals:
        w["certificates"], cards = cards[: len(w["certificates"])], cards[len(w["certificates"]) :]
    game["pile"] = cards
    return world


def standing(content: Content, state: dict, seat: str) -> float:
    if state["phase"] == OVER:
        winners = state["winners"]
        return (1.0 / len(winners)) if seat in winners else 0.0
    game, me = game_of(content, state), state["players"].index(seat)
    others = [p for p in range(len(state["players"])) if p != me]
    lead = game.score(me) - max(game.score(p) for p in others)
    essence = game.wizards[me].essence - max(game.wizards[p].essence for p in others)
    return min(1.0, max(0.0, 0.5 + SCORE * lead + ESSENCE * essence))


STRATEGY = Strategy(unseen, standing)
