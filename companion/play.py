"""Tables in play: what a request does to a table, between the storage and the game's rules.

Every change is checked against the rules on the table's log inside the transaction that appends
it (pnp.rules.table), then announced to the open event streams. The state a caller sees is always
the replay of the log, cached per table and sequence number so a room of phones streaming one
table replays it once per action, not once per phone. An action costs the same on a long game as
on a new one: it reads and folds only the entries after the state kept in memory, or, in a worker
that has none (a restart, another worker), after the table's newest checkpoint in the database
(one every CHECKPOINT_EVERY entries; server-only, never sent). An undo re-folds the whole log.
What a caller sees is what their seat may see (pnp.rules.table's viewers): a game with secrets
redacts each entry and view for them.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel

from companion.db import Stale, Store, TableInfo, normalize_code
from companion.feed import Feed, Message, message
from companion.live import Hub
from pnp.content.game import load_game
from pnp.content.loader import Content
from pnp.gamedef import GameDef
from pnp.paths import CONTENT
from pnp.rules.bodies import strictly
from pnp.rules.chance import SecureChance, SeededChance, Unrolled
from pnp.rules.flow import Caller, Rules
from pnp.rules.table import (
    ANSWER,
    CLAIM,
    HOST,
    JOIN,
    UNDO,
    Entry,
    Refused,
    Table,
    extend,
    parse_action,
    replay,
    seen_by,
    undo_target,
)

SEATING = {JOIN, CLAIM, ANSWER}  # the entries that change who sits at a table, or whose phone holds a seat
REPLAYS_KEPT = 1024  # tables whose newest replay stays in memory (an event of 200 tables, and more)
CHECKPOINT_EVERY = 100  # entries between a table's checkpoints: a worker without its state folds at most these


class NotFound(Exception):
    """No table has that code."""


class NotKept(PermissionError):
    """Only the host acts for a seat, and only for one without a phone of its own."""


class AlreadyUndone(Exception):
    """The move an undo names was taken back already: by this entry."""

    def __init__(self, entry: Entry):
        super().__init__(entry.seq)
        self.entry = entry


@dataclass(frozen=True)
class Seat:
    """A caller at a table: the host, a player, or someone without a token (a spectator); or the
    host acting for a seat without a phone (its player, `by` the host). A host who also plays is
    one caller whichever of their two tokens they send: their seat's player, with the host's rights."""

    actor: str | None  # HOST, a player id, or None
    by: str | None = None  # HOST when the host acts for the seat `actor`
    asking: str | None = None  # a phone without a seat: the seat it has asked for, not given yet
    own: str | None = None  # the host's own seat, when the host also plays
    hosting: bool = False  # a player's token of the host's own seat: the host's rights too

    @property
    def host(self) -> bool:
        return self.actor == HOST or self.by == HOST or self.hosting

    @property
    def viewer(self) -> str | None:
        """Whose view the caller gets: the seat they play (the host's own, once they sit down)."""
        return self.own if self.actor == HOST and self.own else self.actor

    def caller(self) -> Caller:
        """The caller as the flow sees them (pnp.rules.flow.Caller)."""
        return Caller(None if self.viewer == HOST else self.viewer, self.host)


class Audience(NamedTuple):
    """The streams of one table that get the same live messages: one viewer's (a seat, the host,
    or SPECTATOR for all who hold no token), whose moves the messages offer, so a table costs a
    rendering per seat, not per phone."""

    code: str
    viewer: str | None
    host: bool = False  # the viewer holds the host's rights (the host, or a host who also plays)


@dataclass
class Play:
    store: Store
    hub: Hub
    layers: list[Path]
    games: dict[str, GameDef]  # the games the companion may track, by id (create_app's configuration)
    # where every table's dice and shuffles come from: None, the operating system's secure generator;
    # a seeded random.Random in tests, which deals the same cards every run
    rng: random.Random | None = None
    _replays: OrderedDict = field(default_factory=OrderedDict)  # code -> (last seq, Table)
    _infos: OrderedDict = field(default_factory=OrderedDict)  # code -> TableInfo
    _seats: OrderedDict = field(default_factory=OrderedDict)  # code -> (seq, its seats read once that was newest)
    # Looked up when made, not when imported: `companion serve` imports this module in gunicorn's
    # master, before gevent patches threading in the worker; a lock bound then would block the
    # whole worker instead of one greenlet.
    _lock: threading.Lock = field(default_factory=lambda: threading.Lock())
    feed: Feed = field(init=False)  # the live streams' messages

    def __post_init__(self):
        self.feed = Feed(self._since, self.messages)

    @classmethod
    def open(cls, url: str, extra: list[Path], games: dict[str, GameDef], rng: random.Random | None = None) -> Play:
        store = Store(url)
        store.migrate()
        return cls(store, Hub.for_store(store), [CONTENT, *extra], games, rng)

    def close(self) -> None:
        """Release the database connections and stop listening (tests, and the server's master)."""
        self.hub.close()
        self.store.close()

    # --- games --------------------------------------------------------------------------

    def trackable(self) -> dict[str, GameDef]:
        """The games the companion tracks, by id."""
        return {gid: g for gid, g in self.games.items() if g.tracker}

    def tracker(self, game_id: str) -> Rules:
        return self.trackable()[game_id].load("tracker")

    def content(self, game_id: str) -> Content:
        return _content(self.games[game_id], tuple(self.layers))

    # --- tables -------------------------------------------------------------------------

    def info(self, code: str) -> TableInfo:
        """The table's game, options and event, which never change: read once, then remembered
        (a roll's streams ask for every table of an event)."""
        info = self._infos.get(normalize_code(code) or "")
        if info is None:
            info = self.store.table(code)
            if info is None:
                raise NotFound(code)
            with self._lock:
                self._infos[info.code] = info
                while len(self._infos) > REPLAYS_KEPT:
                    self._infos.popitem(last=False)
        return info

    def seat(self, code: str, token: str | None, kept: str | None = None) -> Seat:
        """Who holds `token`; with `kept`, the host acting for that seat without a phone (NotKept
        unless the token is the host's and the seat has no phone)."""
        actor, host_seat = self.store.credentials(code, token) if token else (None, None)
        if kept is not None:
            if actor != HOST and (actor is None or actor != host_seat):
                raise NotKept("Only the host acts for a seat without a phone.")
            if kept not in self.kept(code):
                raise NotKept("That seat is not one kept on the host's phone.")
            return Seat(kept, by=HOST)
        if actor is None and token:
            return Seat(None, asking=self.store.asking_for(code, token))
        if actor == HOST:
            return Seat(HOST, own=host_seat)
        return Seat(actor, hosting=actor is not None and actor == host_seat)

    def kept(self, code: str) -> frozenset[str]:
        """The seats without a phone of their own: the host acts and sees for them."""
        return frozenset(seat["id"] for seat in self.seats(code) if not seat["phone"])

    def audience(self, info: TableInfo, token: str | None, kept: str | None = None) -> Audience:
        """The live messages a stream opened with `token` (acting for the seat `kept`, if given)
        shares. The token is looked up only in a game with secrets, or for a kept seat: in one
        that hides nothing every stream gets the spectator's."""
        caller = self.seat(info.code, token, kept) if token or kept else Seat(None)
        return Audience(info.code, caller.viewer, caller.host)

    def options(self, info: TableInfo) -> BaseModel:
        return self.tracker(info.game).Options.model_validate(info.options)

    def create(self, game_id: str, options: dict, event: str | None = None) -> tuple[str, str]:
        """A new table (in `event`, if given): its join code and the host's token. Options are
        validated first."""
        tracker = self.tracker(game_id)
        validated = strictly(tracker.Options, options)
        return self.store.create_table(game_id, validated.model_dump(mode="json"), event)

    def view(self, code: str, caller: Seat, known: list[Entry] | None = None) -> dict:
        """The table as the caller sees it (a spectator: as every live stream sends it); `known`: its
        newest entries, just read by the caller (see _newest)."""
        info, table, seq = self.current(code, known)
        seats = self._seats_at(info.code, seq, known)
        tracker = self.tracker(info.game)
        return {
            "code": info.code,
            "game": info.game,
            "title": self.trackable()[info.game].title,
            "options": info.options,
            "event": info.event,
            "seq": seq,
            "you": you(caller),
            "seats": seats,
            "state": tracker.view(table.state, caller.viewer),
            "flow": flow_of(tracker, table.state),
            "moves": self.offers(info, table.state, caller),
        }

    def offers(self, info: TableInfo, state: dict, caller: Seat) -> list[dict]:
        """The moves `caller` may make now (pnp.rules.flow: offers), for their seat and as the host."""
        tracker = self.tracker(info.game)
        if caller.actor is None and not caller.host:
            return []
        return tracker.offers(self.content(info.game), state, caller.caller(), self.chance(info))

    def replayed(self, code: str, log: list[Entry] | None = None, info: TableInfo | None = None) -> Table:
        """The table after `log` (default: its whole stored log; `info`: the table's, if at hand).
        The newest replay of each table is kept, and a longer log only applies its new entries to
        it; an undo replays it all."""
        info = info or self.info(code)
        if log is None:
            return self._newest(info)[0]
        seq = log[-1].seq if log else 0
        with self._lock:
            cached = self._replays.get(info.code)
            if cached is not None:
                self._replays.move_to_end(info.code)
        if cached is not None and cached[0] == seq:
            return cached[1]
        tracker, content = self.tracker(info.game), self.content(info.game)
        table = None
        if cached is not None and cached[0] < seq:
            table = extend(tracker, content, cached[1], [e for e in log if e.seq > cached[0]], cached[0])
        if table is None:
            table = replay(tracker, content, self.options(info), log)
        self._keep(info.code, seq, table)
        return table

    def _keep(self, code: str, seq: int, table: Table) -> None:
        """`table` as the replay kept for `code`, unless a newer one is kept already."""
        with self._lock:
            if code not in self._replays or self._replays[code][0] < seq:
                self._replays[code] = (seq, table)
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)

    def recorded(self, info: TableInfo, log: list[Entry], entry: Entry, state: dict) -> None:
        """Keep `state`, what the rules made of `entry` when it was checked after `log` and then
        appended, as the table's newest replay: the streams that render it need not apply it again."""
        before = self.replayed(info.code, log, info)
        self._keep(info.code, entry.seq, Table(state, (*before.standing, entry)))

    def current(self, code: str, known: list[Entry] | None = None) -> tuple[TableInfo, Table, int]:
        """The table, its replayed state and the seq that state is at (0: nothing yet)."""
        info = self.info(code)
        return info, *self._newest(info, known)

    def _newest(self, info: TableInfo, known: list[Entry] | None = None) -> tuple[Table, int]:
        """The table after its whole stored log, and the seq of its last entry. Only the entries
        after the kept replay (or the newest checkpoint) are read (a room's streams each render a
        roll), unless one undoes an entry before it; none when `known`, entries the caller has
        just read (a stream's new ones), reach back to it: the table is then as of the newest of
        those, or of the kept replay if that is newer."""
        seq, base = self._base(info)
        if known and known[0].seq <= seq + 1:
            newer = [e for e in known if e.seq > seq]
        else:
            newer = self.store.log(info.code, after=seq)
        table = extend(self.tracker(info.game), self.content(info.game), base, newer, seq) if newer else base
        if table is None:
            log = self.store.log(info.code)
            return self.replayed(info.code, log, info), (log[-1].seq if log else 0)
        seq = newer[-1].seq if newer else seq
        self._keep(info.code, seq, table)
        return table, seq

    def _base(self, info: TableInfo) -> tuple[int, Table]:
        """The newest state at hand and its seq: the replay kept in memory, else the table's newest
        checkpoint (its standing entries not known: what reads them reads the log), else the setup."""
        with self._lock:
            kept = self._replays.get(info.code)
        if kept is not None:
            return kept
        checkpoint = self.store.checkpoint(info.code)
        if checkpoint is not None:
            return checkpoint.seq, Table(checkpoint.state, ())
        return 0, self._setup(info)

    def _setup(self, info: TableInfo) -> Table:
        return Table(self.tracker(info.game).setup(self.content(info.game), self.options(info)), ())

    def seats(self, code: str) -> list[dict]:
        """Who sits at the table, and whether each has a phone of their own or one asking for it."""
        return [{"id": p.id, "name": p.name, "phone": p.phone, "asked": p.asked} for p in self.store.players(code)]

    def _seats_at(self, code: str, seq: int, known: list[Entry] | None = None) -> list[dict]:
        """The seats as of `seq`, the table's newest entry the caller knows (`known`: entries it has
        just read). The players change only with an entry (a join, a phone's ask for a seat, the
        host's answer) written in the same transaction, so seats read once an entry was written
        hold until the next such entry: a room's streams read them once, not at every action."""
        with self._lock:
            cached = self._seats.get(code)
        if cached is not None and cached[0] != seq:
            since = [e for e in known or () if cached[0] < e.seq <= seq]
            unchanged = len(since) == seq - cached[0] and not any(e.type in SEATING for e in since)
            cached = (seq, cached[1]) if unchanged else None
        seats = cached[1] if cached is not None else self.seats(code)
        with self._lock:
            if code not in self._seats or self._seats[code][0] < seq:
                self._seats[code] = (seq, seats)
            self._seats.move_to_end(code)
            while len(self._seats) > REPLAYS_KEPT:
                self._seats.popitem(last=False)
        return seats

    def names(self, code: str) -> dict[str, str]:
        return names_of(self.seats(code))

    def _since(self, audience: Audience, after: int, through: int | None) -> list[Entry]:
        """The table's entries after seq `after` for its streams, up to `through` at least: the kept
        replay's newest when its standing entries run without a gap from there to `through` or
        beyond (an event's roll, kept as each table's replay as it was appended), else read."""
        with self._lock:
            kept = self._replays.get(audience.code)
        if through is not None and kept is not None and kept[0] >= through > after:
            newest = kept[1].standing[after - kept[0] :]
            if [e.seq for e in newest] == list(range(after + 1, kept[0] + 1)):
                return list(newest)
        return self.store.log(audience.code, after)

    def messages(self, audience: Audience, entries: list[Entry]) -> list[Message]:
        """New entries as live events for one audience: each entry as its viewer may see it (its
        payload also at the top, so a roll reads {"type": "roll", "round", "dice"}) with the
        table as that viewer now sees it."""
        table = self.view(audience.code, audience_seat(audience), entries)
        names = names_of(table["seats"])
        tracker = self.tracker(table["game"])
        sent = []
        for e in (seen_by(tracker, e, audience.viewer) for e in entries):
            data = {"type": e.type, **e.payload, "entry": entry_json(e, names), "table": table}
            sent.append((e.seq, message(e.seq, data)))
        return sent

    def history(self, code: str, viewer: str | None) -> list[dict]:
        """Who did what, oldest first, as `viewer` may see it; each entry marked `undone` when a
        later undo took it back."""
        log = self.store.log(code)
        return self._described(code, viewer, log, {e.payload["seq"] for e in log if e.type == UNDO})

    def history_page(
        self, code: str, viewer: str | None, before: int | None, limit: int
    ) -> tuple[list[dict], int | None]:
        """The newest `limit` entries of the history before seq `before` (None: the newest of all),
        oldest first, and the `before` that asks for the page of earlier ones (None: none left)."""
        entries, undone = self.store.page(code, before, limit)
        earlier = entries[0].seq if entries and entries[0].seq > 1 else None  # seqs run from 1 without a gap
        return self._described(code, viewer, entries, undone), earlier

    def _described(self, code: str, viewer: str | None, entries: list[Entry], undone: set[int]) -> list[dict]:
        tracker, names = self.tracker(self.info(code).game), self.names(code)
        return [{**entry_json(seen_by(tracker, e, viewer), names), "undone": e.seq in undone} for e in entries]

    def results(self, code: str) -> list[dict]:
        """One row per player for the CSV export: the game's own results."""
        info, table, _ = self.current(code)
        return self.tracker(info.game).results(table.state)

    def join(self, code: str, name: str, by: str | None = None, hosts: bool = False) -> tuple[str, str | None]:
        """Sit a new player down: their id and token. Refused when the game cannot take them.
        Seated `by` the host, the seat has no phone (and no token): the host acts for it. `hosts`:
        the host's own phone sits down, and the seat has the host's rights too."""
        info = self.info(code)
        tracker, content, options = self.tracker(info.game), self.content(info.game), self.options(info)

        def allowed(log: list[Entry], player_id: str) -> None:
            tracker.join(replay(tracker, content, options, log).state, player_id, name)

        entry, token = self.store.add_player(code, name, allowed, by, hosts)
        self.announce(info, entry.seq)
        return entry.actor, token

    def claim(self, code: str, player_id: str) -> str:
        """A phone asks for a seat without one: the token the seat will have once the host gives it."""
        entry, token = self.store.claim(code, player_id)
        self.announce(self.info(code), entry.seq)
        return token

    def answer(self, code: str, player_id: str, given: bool) -> None:
        """The host gives the seat to the phone that asked for it, or keeps it."""
        entry = self.store.answer(code, player_id, given)
        self.announce(self.info(code), entry.seq)

    def act(self, code: str, seat: Seat, type_: str, payload: dict) -> Entry:
        """Check an action against the rules on the current log and append it; Refused if the
        rules forbid it now, Malformed if its payload is not the action's shape."""
        info = self.info(code)
        tracker = self.tracker(info.game)
        if seat.actor is None:
            raise PermissionError("join the table first")
        action = parse_action(tracker, type_, payload, sent=True)
        seat = self._as(info, seat, type_, action)  # who the move is made as: the host's rights or the seat's own
        try:
            entry = self._append_on(info, *self._base(info), seat, type_, action)
        except Stale:  # an undo in another worker took back what the state at hand folded in
            entry = self._append_on(info, 0, self._setup(info), seat, type_, action)
        self.announce(info, entry.seq)
        return entry

    def _as(self, info: TableInfo, seat: Seat, type_: str, action: BaseModel) -> Seat:
        """The seat a move is recorded as: the caller's, or the host's for the host's own moves and
        corrections of another's seat (NotYours when the caller may make it as neither)."""
        state = self._newest(info)[0].state
        actor = self.tracker(info.game).actor_for(state, seat.caller(), type_, action)
        if actor == HOST:
            return Seat(HOST)
        return seat if actor == seat.actor else Seat(actor)

    def _append_on(self, info: TableInfo, seq: int, base: Table, seat: Seat, type_: str, action: BaseModel) -> Entry:
        """Append `action` checked on `base`, the table as of `seq`, with the entries after it
        (Stale if one of them undoes an entry before); keep the table after it in memory, and every
        CHECKPOINT_EVERY entries in the database."""
        after: list[Table] = []

        def allowed(tail: list[Entry]) -> dict:
            table = extend(self.tracker(info.game), self.content(info.game), base, tail, seq)
            if table is None:
                raise Stale(f"an undo after {seq} takes back an entry before it")
            payload, state = self.applied(info, table.state, seat.actor, action, self.chance(info))
            after[:] = [table, Table(state, ())]
            return payload

        dumped = action.model_dump(mode="json")
        keep = checkpointed(lambda: after[1].state)
        entry = self.store.append(info.code, seat.actor, type_, dumped, allowed, seat.by, seq, keep)
        self._keep(info.code, entry.seq, Table(after[1].state, (*after[0].standing, entry)))
        return entry

    def checked(
        self, info: TableInfo, log: list[Entry], actor: str, action: BaseModel, chance: SecureChance | SeededChance
    ) -> tuple[dict, dict]:
        """The payload to record for `actor`'s `action` after `log`, with what `chance` adds to it
        (dice, a deal), and the state after it; Refused if the rules forbid it now."""
        return self.applied(info, self.replayed(info.code, log, info).state, actor, action, chance)

    def applied(
        self, info: TableInfo, state: dict, actor: str, action: BaseModel, chance: SecureChance | SeededChance
    ) -> tuple[dict, dict]:
        """`checked`, on the table's `state` at hand."""
        tracker, content = self.tracker(info.game), self.content(info.game)
        done = action
        if tracker.draw is not None:
            try:
                done = tracker.draw(content, state, actor, action, chance)
            except Unrolled as unrolled:
                raise Refused(f"The event's organiser has not rolled round {unrolled.args[0]} yet.") from None
        return done.model_dump(mode="json"), tracker.apply(content, state, actor, done)

    def chance(self, info: TableInfo) -> SecureChance | SeededChance:
        """Where this table's dice come from: its event's seed, or the secure generator (the
        configured one, seeded, in tests)."""
        rng = self.rng or random.SystemRandom()
        if info.event is None:
            return SecureChance(rng)
        event = self.store.event(info.event)
        return SeededChance(event.seed, event.rolled, rng)

    def announce(self, info: TableInfo, seq: int) -> None:
        """Wake the table's streams, and its event's (whose leaderboard may have changed)."""
        self.hub.publish(info.code, seq)
        if info.event is not None:
            self.hub.publish(event_channel(info.event), seq)

    def undo(self, code: str, seat: Seat, seq: int) -> Entry:
        """Take back the move `seq`, which must be the caller's latest standing one (the host's:
        anyone's), as their phone showed it; Refused if it is not (the table moved on). Naming it
        makes a second tap harmless: a move already taken back is answered with the undo that did
        it, and nothing more is taken back. The whole log is folded again: the move may be before
        the kept state and the checkpoints."""
        info = self.info(code)
        tracker, content, options = self.tracker(info.game), self.content(info.game), self.options(info)
        if seat.actor is None:
            raise PermissionError("join the table first")
        if seat.hosting or seat.own:  # a host who also plays undoes as the host: anyone's latest move
            seat = Seat(HOST)
        after: list[Table] = []

        def still_latest(log: list[Entry]) -> None:
            done = next((e for e in log if e.type == UNDO and e.payload["seq"] == seq), None)
            if done is not None:
                raise AlreadyUndone(done)
            latest = undo_target(tracker, content, options, log, seat.actor)
            if latest.seq != seq:
                raise Refused(f"Move {seq} is not your latest move that stands (move {latest.seq} is); look again.")
            after[:] = [replay(tracker, content, options, [*log, Entry(0, seat.actor, UNDO, {"seq": seq})])]

        try:
            keep = checkpointed(lambda: after[0].state)
            entry = self.store.append(code, seat.actor, UNDO, {"seq": seq}, still_latest, seat.by, keep=keep)
        except AlreadyUndone as already:
            return already.entry
        self._keep(info.code, entry.seq, after[0])
        self.announce(info, entry.seq)
        return entry


def checkpointed(state: Callable[[], dict]) -> Callable[[Entry], dict | None]:
    """What an append keeps as a checkpoint: `state()`, the table after the new entry, every
    CHECKPOINT_EVERY entries (an undo's too: the count holds whatever the entry)."""
    return lambda entry: state() if entry.seq % CHECKPOINT_EVERY == 0 else None


def names_of(seats: list[dict]) -> dict[str, str]:
    """Each actor's name in the history: the host's, and each seat's."""
    return {HOST: "Host", **{seat["id"]: seat["name"] for seat in seats}}


def you(caller: Seat) -> dict:
    """The caller as a view names them: `by` when the host acts for a seat without a phone,
    `asking` when a phone waits for the host to give it a seat."""
    extra = {"by": caller.by, "asking": caller.asking}
    return {"actor": caller.actor, "host": caller.host, **{k: v for k, v in extra.items() if v is not None}}


def entry_json(entry: Entry, names: dict[str, str]) -> dict:
    return {
        "seq": entry.seq,
        "at": entry.at,
        "actor": entry.actor,
        "name": names.get(entry.actor, "?"),
        "by": entry.by,  # who made it for the actor (the host, for a seat without a phone), if not the actor
        "by_name": None if entry.by is None else names.get(entry.by, "?"),
        # the host's move names whom it is for in `player` (pnp.rules.table.moved_for)
        "for_name": names.get(entry.payload.get("player") or "") if entry.actor == HOST else None,
        "type": entry.type,
        "payload": dict(entry.payload),
    }


def flow_of(tracker: Rules, state: dict) -> dict:
    """What every game's table shares (pnp.rules.flow): its stage, its players in seat order,
    whose turn it is, and how many it seats."""
    return {"phase": state["phase"], "players": state["players"], "turn": tracker.turn(state), "room": state["room"]}


def audience_seat(audience: Audience) -> Seat:
    """The seat whose view an audience's messages carry."""
    if audience.viewer == HOST:
        return Seat(HOST)
    return Seat(audience.viewer, hosting=audience.host and audience.viewer is not None)


@cache
def _content(game: GameDef, layers: tuple[Path, ...]) -> Content:
    """A game's content with the overlays, loaded once per process: the same cards `pnp build` prints."""
    return load_game(game, list(layers))


def event_channel(code: str) -> str:
    """The hub's name for an event's streams (beside its tables', which are their codes)."""
    return f"event:{normalize_code(code) or code}"
