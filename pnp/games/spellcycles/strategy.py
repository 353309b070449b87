"""What Spellcycles' strong computer player weighs its moves with (pnp.rules.computer's Strategy):
the worlds a wizard cannot tell from the table, and how well a wizard stands in one.

Everything on the field and in the apothecaries is in plain sight; what a wizard cannot see is
the prestige certificates: the pile's order and which cards each rival holds (their counts are
shown). A world deals those cards anew between the pile and the rivals, counts kept.

The simulation's greedy wizard (pnp.games.spellcycles.sim) is the hunch: the move it would make
now is always weighed. A move plays out on the rules engine: the simulation's greedy wizards (pnp.games.spellcycles.sim)
finish the turn and play the game to its end; the game won is 1 (shared, its share), lost 0. A
game the simulation would stop as endless is judged by the wizard's score as the rules count it
(certificates, or essence in a Duel) against the best rival's, and a little by their essence.
"""

from __future__ import annotations

import copy
import random

from pnp.content.loader import Content
from pnp.games.spellcycles.engine import book, game_of, shown_piece
from pnp.games.spellcycles.rules import OVER, Game
from pnp.games.spellcycles.sim import LONGEST, Greedy
from pnp.rules.computer import Intent, Strategy
from pnp.rules.flow import ENGINE

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


class _Foreseen(Game):
    """A game that makes no move (but the Refresh a table's state has made already): the first
    one made on it raises the Intent saying which."""

    def renew(self, *_):
        raise Intent("renew", {})

    def contribute(self, piece, space):
        raise Intent("contribute", {"piece": shown_piece(self.book, piece), "space": space})

    def skip_contribute(self):
        raise Intent("skip_contribute", {})

    def cast(self, position, shape, origin, *_, **__):
        # on the phones a cast names its way as the `match`-th of the spell's matches
        match = next(n for n, (s, o, _) in enumerate(self.matches(position)) if (s, o) == (shape, origin))
        raise Intent("cast", {"position": position, "match": match})

    def progress(self, position=None):
        raise Intent("progress", {} if position is None else {"position": position})


def hunch(content: Content, state: dict, seat: str, rng: random.Random) -> tuple[str, dict]:
    """The move the simulation's greedy wizard would make now in `seat`."""
    try:
        Greedy(_Foreseen.from_data(book(content), state[ENGINE]), rng).turn()
    except Intent as intent:
        return intent.move
    raise AssertionError("a greedy turn ends with a Progress")


def played_out(content: Content, state: dict, seat: str, rng: random.Random) -> float:
    game = game_of(content, state)
    greedy = Greedy(game, rng)
    last = game.turn + LONGEST * len(game.wizards) * len(game.line)  # as a simulated game is stopped
    while game.step != OVER and game.turn <= last:
        greedy.turn()
    return standing(game, state["players"].index(seat))


def standing(game: Game, me: int) -> float:
    """How well wizard `me` stands: 1 won (shared, its share), 0 lost, else by their leads."""
    if game.step == OVER:
        winners = game.winners()
        return (1.0 / len(winners)) if me in winners else 0.0
    others = [p for p in range(len(game.wizards)) if p != me]
    lead = game.score(me) - max(game.score(p) for p in others)
    essence = game.wizards[me].essence - max(game.wizards[p].essence for p in others)
    return min(1.0, max(0.0, 0.5 + SCORE * lead + ESSENCE * essence))


STRATEGY = Strategy(unseen, played_out, hunch)
