"""What Magecraft's strong computer player weighs its moves with (pnp.rules.computer's Strategy):
the worlds a wizard cannot tell from the table, and how a move plays out in one.

What a wizard cannot see of a rival is which of the rival's gems are in the hand and which in the
bag: how many are in each is shown, and how many of each colour the two hold together follows from
what is in sight. A world deals those gems anew between hand and bag, sizes kept. A wizard's own
bag is theirs to know (the gems not in sight), and every draw is the table's chance.

The simulation's greedy wizard (pnp.games.magecraft.sim) is the hunch: the move it would make
now is always weighed. A move plays out on the rules engine: greedy wizards finish the turn and
play every seat's next turns, to the end or for AHEAD turns; the game won is 1, lost 0, and one
still going is judged by the wizard's score against the best rival's (20 wins) and HP against the
weakest rival's (an empty HP Area loses).
"""

from __future__ import annotations

import random

from pnp.content.loader import Content
from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.recorded import rulebook
from pnp.games.magecraft.rules import OPENING, OVER, Game
from pnp.games.magecraft.sim import Greedy, most_plentiful
from pnp.rules.computer import Intent, Strategy
from pnp.rules.flow import ENGINE

AHEAD = 6  # turns, every wizard's, a move is played out for before it is judged
SCORE, HP = 0.25, 0.2  # how much each lead counts, as a share of its whole


def unseen(_content: Content, state: dict, seat: str, rng: random.Random) -> dict:
    wizards = []
    for pid, wizard in zip(state["players"], state[ENGINE]["wizards"], strict=True):
        if pid != seat:
            # by colour, then shuffled: the deal owes nothing to where the gems really are
            gems = sorted(c for area in ("hand", "bag") for c, n in enumerate(wizard[area]) for _ in range(n))
            rng.shuffle(gems)
            size, colours = sum(wizard["hand"]), range(len(wizard["hand"]))
            hand, bag = gems[:size], gems[size:]
            wizard = {**wizard, "hand": [hand.count(c) for c in colours], "bag": [bag.count(c) for c in colours]}
        wizards.append(wizard)
    # a new state around the areas dealt anew; the rest shared, as every move makes a new state
    return {**state, ENGINE: {**state[ENGINE], "wizards": wizards}}


class _Foreseen(Game):
    """A game that makes no move: the first one made on it raises the Intent saying which."""

    def _named(self, gems: list[int]) -> list[str]:
        return [self.book.colours[c] for c in gems]

    def discard_shield(self, gems, *_):
        raise Intent("discard_shield", {"gems": self._named(gems)})

    def cast(self, spellbook, *_, **__):
        raise Intent("cast", {"spellbook": spellbook})

    def cantrip(self, *_, **__):
        raise Intent("cantrip", {})

    def resolve(self, icon, _rng, choice=None):
        rival = (choice or {}).get("player")
        raise Intent("resolve", {"icon": ICONS[icon], **({} if rival is None else {"rival": rival})})

    def learn(self, spell, spellbook, *_):
        raise Intent("learn", {"spell": spell, "spellbook": spellbook})

    def revise(self, gems, arrangement, master, *_):
        # on the phones spellbooks stay as they are: the spell mastered named by its place now,
        # and a revision that would only rearrange them is no move at all
        if master is None:
            raise Intent("refresh", {})
        raise Intent("revise", {"gems": self._named(gems), "master": list(arrangement[master[0]][master[1]])})

    def refresh(self, *_):
        raise Intent("refresh", {})


def hunch(content: Content, state: dict, seat: str, rng: random.Random) -> tuple[str, dict]:
    """The move the simulation's greedy wizard would make now in `seat`."""
    game = _Foreseen.from_data(rulebook(content), state[ENGINE])
    me = state["players"].index(seat)
    if game.phase == OPENING:
        return "opening_discard", {"gems": game._named(most_plentiful(game.wizards[me].hand, game.opening[me]))}
    try:
        Greedy(game, rng).turn()
    except Intent as intent:
        type_, body = intent.move
        if type_ == "resolve" and "rival" in body:
            body["rival"] = state["players"][body["rival"]]
        return type_, body
    raise AssertionError("a greedy turn ends with a Refresh")


def played_out(content: Content, state: dict, seat: str, rng: random.Random) -> float:
    book = rulebook(content)
    game = Game.from_data(book, state[ENGINE])
    greedy = Greedy(game, rng)
    if game.phase == OPENING:
        greedy.opening()
    last = game.turn + AHEAD
    while game.phase != OVER and game.turn <= last:
        greedy.turn()
    return standing(game, state["players"].index(seat))


def standing(game: Game, me: int) -> float:
    """How well wizard `me` stands: 1 won, 0 lost (or out), else by their leads."""
    if game.phase == OVER:
        return 1.0 if game.winner == me else 0.0
    wizard = game.wizards[me]
    rivals = [w for p, w in enumerate(game.wizards) if p != me and not w.out]
    if wizard.out:
        return 0.0
    score = (sum(wizard.score) - max(sum(w.score) for w in rivals)) / game.book.score_to_win
    hp = (sum(wizard.hp) - min(sum(w.hp) for w in rivals)) / game.book.hp
    return min(1.0, max(0.0, 0.5 + SCORE * score + HP * hp))


STRATEGY = Strategy(unseen, played_out, hunch)
