"""A table as the server keeps it, without the server: each action drawn from a seeded chance,
checked by the game's tracker (pnp.rules.table) and logged, for the pure tests of a tracker; and
played from the moves the rules offer (pnp.rules.flow: offers), as tests/support/legal.py plays a
table through the API."""

from __future__ import annotations

import random
from functools import cache

from pnp.content.game import load_game
from pnp.gamedef import games
from pnp.paths import CONTENT
from pnp.rules.chance import SecureChance
from pnp.rules.flow import Caller
from pnp.rules.offers import sample
from pnp.rules.table import HOST, SPECTATOR, UNDO, Entry, replay, undo_target


@cache
def content_of(game: str):
    """A registered game's content, as `pnp build` reads it: loaded once."""
    return load_game(games()[game], [CONTENT])


class TrackedTable:
    def __init__(self, tracker, content, players, seed=1, **options):
        self.tracker, self.content = tracker, content
        self.options = tracker.Options(**options)
        self.chance = SecureChance(random.Random(seed))
        self.state = tracker.setup(content, self.options)
        self.log: list[Entry] = []
        self.players = list(players)
        self.viewers = [*players, HOST, SPECTATOR]
        for pid in players:
            self.log.append(Entry(len(self.log) + 1, pid, "join", {"name": pid.upper()}))
            self.state = tracker.join(self.state, pid, pid.upper())

    def do(self, actor, type_, /, **payload):
        tracker = self.tracker
        action = tracker.actions[type_](**payload)
        if tracker.draw is not None:
            action = tracker.draw(self.content, self.state, actor, action, self.chance)
        self.state = tracker.apply(self.content, self.state, actor, action)
        self.log.append(Entry(len(self.log) + 1, actor, type_, action.model_dump(mode="json")))
        return self.state

    def offered_move(self, rng: random.Random) -> str | None:
        """A move offered to a caller chosen at random among those who have any (each player, the
        host), completed at random and made: the actor it is made as (None: no one has a move)."""
        callers = [*map(Caller, self.players), Caller(host=True)]
        rng.shuffle(callers)
        for caller in callers:
            offers = self.tracker.offers(self.content, self.state, caller, self.chance)
            if offers:
                offer = rng.choice(offers)
                body = sample(offer, rng)
                action = self.tracker.actions[offer["type"]].model_validate(body)
                actor = self.tracker.actor_for(self.state, caller, offer["type"], action)
                self.do(actor, offer["type"], **body)
                return actor
        return None

    def undo(self, actor) -> Entry:
        """`actor` takes back what the table lets them; the entry taken back."""
        target = undo_target(self.tracker, self.content, self.options, self.log, actor)
        self.log.append(Entry(len(self.log) + 1, actor, UNDO, {"seq": target.seq}))
        self.state = replay(self.tracker, self.content, self.options, self.log).state
        return target

    def view(self, viewer):
        return self.tracker.view(self.state, viewer)

    @property
    def turn(self):
        return self.tracker.turn(self.state)
