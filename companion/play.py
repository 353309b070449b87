"""Tables in play: what a request does to a table, between the storage and the game's rules, in
four parts by concern, each a module of its own, over what they share (companion.context: the
store, the games, each table's game and options, chance, announcing):

- seats (companion.seats): who a token names, who sits at the table, the joins and asks for seats;
- replays (companion.replays): each table's state, the fold of its log, kept in memory;
- moves (companion.moves): a move checked against the rules and appended, an undo;
- views (companion.table_views): what a caller sees of a table, its live messages and history.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.context import Context
from companion.feed import Feed
from companion.live import Hub
from companion.moves import Moves
from companion.replays import Replays
from companion.seats import Seats
from companion.store import Store
from companion.table_views import Views
from pnp.gamedef import GameDef
from pnp.paths import CONTENT


class Play(Context):
    def __init__(self, store: Store, hub: Hub, layers: list[Path], games: dict[str, GameDef], rng=None):
        super().__init__(store, hub, layers, games, rng)
        self.replays = Replays(self)
        self.seats = Seats(self, self.replays.built_on)
        self.moves = Moves(self, self.replays)
        self.views = Views(self, self.replays, self.seats)
        self.feed = Feed(self.replays.since, self.views.messages)  # the live streams' messages

    @classmethod
    def open(cls, url: str, extra: list[Path], games: dict[str, GameDef], rng: random.Random | None = None) -> Play:
        store = Store(url)
        store.migrate()
        return cls(store, Hub.for_store(store), [CONTENT, *extra], games, rng)
