"""Tables in play: what a request does to a table, between the storage and the game's rules.

Every change is checked against the rules on the table's log inside the transaction that appends
it (pnp.rules.table), then announced to the open event streams. The state a caller sees is always
the replay of the log, cached per table and sequence number so a room of phones streaming one
table replays it once per action, not once per phone.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from threading import Lock

from pydantic import BaseModel

from companion.db import Store, TableInfo
from companion.live import Hub
from pnp.content.game import load_game
from pnp.content.loader import Content
from pnp.games import GameDef, games
from pnp.paths import CONTENT
from pnp.rules.table import HOST, UNDO, Entry, Refused, Table, Tracker, parse_action, replay, undo_target


class NotFound(Exception):
    """No table has that code."""


@dataclass(frozen=True)
class Seat:
    """A caller at a table: the host, a player, or someone without a token (a spectator)."""

    actor: str | None  # HOST, a player id, or None

    @property
    def host(self) -> bool:
        return self.actor == HOST


@dataclass
class Play:
    store: Store
    hub: Hub
    layers: list[Path]
    _replays: OrderedDict = field(default_factory=OrderedDict)  # (code, last seq) -> Table
    _lock: Lock = field(default_factory=Lock)

    @classmethod
    def open(cls, url: str, extra: list[Path]) -> Play:
        store = Store(url)
        store.migrate()
        return cls(store, Hub.for_store(store), [CONTENT, *extra])

    def close(self) -> None:
        """Release the database connections and stop listening (tests, and the server's master)."""
        self.hub.close()
        self.store.close()

    # --- games --------------------------------------------------------------------------

    def trackable(self) -> dict[str, GameDef]:
        """The games the companion tracks, by id."""
        return {gid: g for gid, g in games().items() if g.tracker}

    def tracker(self, game_id: str) -> Tracker:
        return self.trackable()[game_id].load("tracker")

    def content(self, game_id: str) -> Content:
        return _content(game_id, tuple(self.layers))

    # --- tables -------------------------------------------------------------------------

    def info(self, code: str) -> TableInfo:
        info = self.store.table(code)
        if info is None:
            raise NotFound(code)
        return info

    def seat(self, code: str, token: str | None) -> Seat:
        return Seat(self.store.actor_for(code, token) if token else None)

    def options(self, info: TableInfo) -> BaseModel:
        return self.tracker(info.game).Options.model_validate(info.options)

    def create(self, game_id: str, options: dict) -> tuple[str, str]:
        """A new table: its join code and the host's token. Options are validated first."""
        tracker = self.tracker(game_id)
        validated = tracker.Options.model_validate(options)
        return self.store.create_table(game_id, validated.model_dump(mode="json"))

    def replayed(self, code: str, log: list[Entry] | None = None) -> Table:
        info = self.info(code)
        log = self.store.log(code) if log is None else log
        key = (code, log[-1].seq if log else 0)
        with self._lock:
            if key in self._replays:
                self._replays.move_to_end(key)
                return self._replays[key]
        table = replay(self.tracker(info.game), self.content(info.game), self.options(info), log)
        with self._lock:
            self._replays[key] = table
            while len(self._replays) > 256:
                self._replays.popitem(last=False)
        return table

    def current(self, code: str) -> tuple[TableInfo, Table, int]:
        """The table, its replayed state and the seq that state is at (0: nothing yet)."""
        info = self.info(code)
        log = self.store.log(code)
        return info, self.replayed(code, log), (log[-1].seq if log else 0)

    def names(self, code: str) -> dict[str, str]:
        return {HOST: "Host", **{player.id: player.name for player in self.store.players(code)}}

    def entry_json(self, code: str, entry: Entry, names: dict[str, str] | None = None) -> dict:
        names = self.names(code) if names is None else names
        return {
            "seq": entry.seq,
            "at": entry.at,
            "actor": entry.actor,
            "name": names.get(entry.actor, "?"),
            "type": entry.type,
            "payload": dict(entry.payload),
        }

    def history(self, code: str) -> list[dict]:
        """Who did what, oldest first; each entry marked `undone` when a later undo took it back."""
        self.info(code)
        log, names = self.store.log(code), self.names(code)
        undone = {e.payload["seq"] for e in log if e.type == UNDO}
        return [{**self.entry_json(code, e, names), "undone": e.seq in undone} for e in log]

    def results(self, code: str) -> list[dict]:
        """One row per player for the CSV export: the game's own results."""
        info, table, _ = self.current(code)
        return self.tracker(info.game).results(table.state)

    def join(self, code: str, name: str) -> tuple[str, str]:
        """Sit a new player down: their id and token. Refused when the game cannot take them."""
        info = self.info(code)
        tracker, content, options = self.tracker(info.game), self.content(info.game), self.options(info)

        def allowed(log: list[Entry], player_id: str) -> None:
            tracker.join(replay(tracker, content, options, log).state, player_id, name)

        entry, token = self.store.add_player(code, name, allowed)
        self.hub.publish(code, entry.seq)
        return entry.actor, token

    def act(self, code: str, seat: Seat, type_: str, payload: dict) -> Entry:
        """Check an action against the rules on the current log and append it; Refused if the
        rules forbid it now, pydantic.ValidationError if its payload is malformed."""
        info = self.info(code)
        tracker, content = self.tracker(info.game), self.content(info.game)
        if seat.actor is None:
            raise PermissionError("join the table first")
        action = parse_action(tracker, type_, payload)

        def allowed(log: list[Entry]) -> None:
            tracker.apply(content, self.replayed(code, log).state, seat.actor, action)

        entry = self.store.append(code, seat.actor, type_, action.model_dump(mode="json"), allowed)
        self.hub.publish(code, entry.seq)
        return entry

    def undo(self, code: str, seat: Seat) -> Entry:
        """Take back the caller's latest standing action (the host's: anyone's)."""
        info = self.info(code)
        tracker, content, options = self.tracker(info.game), self.content(info.game), self.options(info)
        if seat.actor is None:
            raise PermissionError("join the table first")
        target = undo_target(tracker, content, options, self.store.log(code), seat.actor)

        def still_latest(log: list[Entry]) -> None:
            if undo_target(tracker, content, options, log, seat.actor).seq != target.seq:
                raise Refused("The table changed while you undid; look again and retry.")

        entry = self.store.append(code, seat.actor, UNDO, {"seq": target.seq}, still_latest)
        self.hub.publish(code, entry.seq)
        return entry


@cache
def _content(game_id: str, layers: tuple[Path, ...]) -> Content:
    """A game's content with the overlays, loaded once per process: the same cards `pnp build` prints."""
    return load_game(games()[game_id], list(layers))
