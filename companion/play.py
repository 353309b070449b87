"""Tables in play: what a request does to a table, between the storage and the game's rules, in
four parts by concern, each a module of its own, over what they share (companion.context: the
store, the games, each table's game and options, chance, announcing):

- seats (companion.seats): who a token names, who sits at the table, the joins and asks for seats;
- replays (companion.replays): each table's state, the fold of its log, kept in memory;
- moves (companion.moves): a move checked against the rules and appended, an undo;
- views (companion.table_views): what a caller sees of a table, its live messages and history;
- computers (companion.computers): the moves of the computer players, made as each change wakes them.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.computers import PAUSE, Computers, in_background
from companion.context import Context
from companion.feed import Feed
from companion.live import Hub
from companion.moves import Moves
from companion.replays import Replays
from companion.seats import Seats
from companion.store import Store
from companion.store.schema import TableInfo
from companion.table_views import Views
from pnp.gamedef import GameDef
from pnp.paths import CONTENT


class Play(Context):
    def __init__(
        self,
        store: Store,
        hub: Hub,
        layers: list[Path],
        games: dict[str, GameDef],
        rng=None,
        pause: float = PAUSE,
        run=in_background,
    ):
        super().__init__(store, hub, layers, games, rng)
        self.replays = Replays(self)
        self.seats = Seats(self, self.replays.built_on)
        self.moves = Moves(self, self.replays)
        self.computers = Computers(self, self.replays, self.moves.act, pause, run)
        self.views = Views(self, self.replays, self.seats, self.computers)
        self.feed = Feed(self.replays.since, self.views.messages)  # the live streams' messages

    @classmethod
    def open(
        cls,
        url: str,
        extra: list[Path],
        games: dict[str, GameDef],
        rng: random.Random | None = None,
        pause: float = PAUSE,
        run=in_background,
    ) -> Play:
        store = Store(url)
        store.migrate()
        return cls(store, Hub.for_store(store), [CONTENT, *extra], games, rng, pause, run)

    def announce(self, info: TableInfo, seq: int) -> None:
        """Wake the table's streams, and its computer players (after this process's change, the
        state at hand is the newest)."""
        super().announce(info, seq)
        self.computers.woken(info, self.replays.base(info)[1].state)
