"""What Magecraft's strong computer player weighs its moves with (pnp.rules.computer's Strategy):
the worlds a wizard cannot tell from the table, and how well a wizard stands in one.

What a wizard cannot see of a rival is which of the rival's gems are in the hand and which in the
bag: how many are in each is shown, and how many of each colour the two hold together follows from
what is in sight. A world deals those gems anew between hand and bag, sizes kept. A wizard's own
bag is theirs to know (the gems not in sight), and every draw is the table's chance.

A wizard stands well by their score against the best rival's (20 wins), their HP against the
weakest rival's (an empty HP Area loses) and, a little, their shield; the game won is 1, lost 0.
"""

from __future__ import annotations

import copy
import random

from pnp.content.loader import Content
from pnp.rules.computer import Strategy
from pnp.rules.flow import ENGINE, OVER

SCORE, HP, SHIELD = 0.25, 0.2, 0.0  # how much each lead counts, as a share of its whole


def unseen(_content: Content, state: dict, seat: str, rng: random.Random) -> dict:
    world = copy.deepcopy(state)
    for p, pid in enumerate(state["players"]):
        if pid == seat:
            continue
        wizard = world[ENGINE]["wizards"][p]
        # by colour, then shuffled: the deal owes nothing to where the gems really are
        gems = sorted(colour for area in ("hand", "bag") for colour, n in enumerate(wizard[area]) for _ in range(n))
        rng.shuffle(gems)
        size = sum(wizard["hand"])
        for area, dealt in (("hand", gems[:size]), ("bag", gems[size:])):
            wizard[area] = [dealt.count(colour) for colour in range(len(wizard[area]))]
    return world


def standing(_content: Content, state: dict, seat: str) -> float:
    if state["phase"] == OVER:
        return 1.0 if state["winner"] == seat else 0.0
    shown, wizards = state["shown"], state[ENGINE]["wizards"]
    to_win, full = shown["score_to_win"], shown["hp_full"]
    me = wizards[state["players"].index(seat)]
    rivals = [w for pid, w in zip(state["players"], wizards, strict=True) if pid != seat and not w["out"]]
    if not rivals:
        return 1.0
    score = (sum(me["score"]) - max(sum(w["score"]) for w in rivals)) / to_win
    hp = (sum(me["hp"]) - min(sum(w["hp"]) for w in rivals)) / full
    value = 0.5 + SCORE * score + HP * hp + SHIELD * sum(me["shield"]) / full
    return min(1.0, max(0.0, value))


STRATEGY = Strategy(unseen, standing)
