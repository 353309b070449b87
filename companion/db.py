"""Storage of the companion: tables, their players and their logs of actions, through SQLAlchemy
Core on SQLite (one file in the instance folder) or PostgreSQL (several workers).

    store = Store("sqlite:///instance/companion.sqlite3")  # or "postgresql+psycopg://user@host/db"
    store.migrate()                                       # Alembic `upgrade head`; many workers at once is safe
    store.close()                                         # closes the pooled connections
    code, host_token = store.create_table(game, options)
    entry, token = store.add_player(code, name, check)    # entry.actor: the new player's id
    store.table(code) -> TableInfo | None
    entry, _ = store.add_player(code, name, check, by="host")  # a seat without a phone: no token
    store.players(code) -> list[Player]                   # in the order they joined
    store.actor_for(code, token) -> "host" | player_id | None
    store.credentials(code, token) -> (actor, the host's own seat or None)
    entry, token = store.claim(code, player_id)           # a phone asks for a seat without one
    store.answer(code, player_id, given) -> Entry         # the host gives it (the token is the seat's) or not
    store.asking_for(code, token) -> player_id | None     # the seat a phone has asked for, unanswered
    store.append(code, actor, type, payload, check, by=None, after=0, keep=None) -> Entry
    store.log(code, after=0) -> list[Entry]               # seq > after, in seq order
    store.page(code, before, limit) -> (entries, undone)  # the newest `limit` before a seq, and which were taken back
    store.checkpoint(code) -> Checkpoint | None           # the newest state folded up to an entry
    code, token = store.create_event(game, name, seed)    # an event: many tables, one roll sequence
    store.event(code) -> EventInfo | None
    store.organiser_of(code, token) -> bool
    store.change_event(code, change) -> EventInfo         # change(info) -> columns to set, or raises
    store.append_to_event(code, actor, type, change)      # the event and an entry at each of its tables, at once
    store.event_tables(code) -> list[str]                 # its tables' codes, oldest first
    store.event_logs(code) -> dict[str, list[Entry]]      # every table's log, in one read

`append` reads the table's log after `after` (the seq of the state the caller holds), calls
`check(tail)` (the caller applies the rules and raises to refuse; the exception propagates and
nothing is written; or it returns the payload to record, with the server's dice in it) and writes
the next seq, all in one transaction that holds the table's write lock, so the check always sees
the log the entry joins. `keep(entry)` may hand back the state after the new entry, kept in that
transaction as a checkpoint: a later caller with no state at hand folds the entries after it
only. A checkpoint is the fold of the log up to its seq as the log stands now: an undo appended
removes, in its transaction, every checkpoint at or after the entry it takes back.
`add_player` does the same with the player's JOIN, writing their row in that transaction too;
`claim` and `answer` change a seat's row with their entry in the same way. `append_to_event` does
it for every table of an event at once (an organiser's roll): one transaction holding the event's
row and all its tables', so a room of tables costs one write.
The (table, seq) primary key is what makes a duplicate seq impossible.

Join codes are typeable (no 0/O, 1/I/L) and looked up case-insensitively, spaces and dashes
ignored. Tokens are random (256 bits) and only their SHA-256 is stored. Any string a client sends
(a code, a token, a name) gives an answer, never an exception: unknown codes and tokens are None,
text the database cannot hold (NUL, lone surrogates) is cleaned. A code that names no table makes
`log` and `players` empty, and `add_player` and `append` raise NoSuchTable.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    Table,
    Text,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.sql.expression import ScalarSelect

from pnp.rules.table import ANSWER, CLAIM, HOST, JOIN, UNDO, Entry, Refused

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud or off a screen and typed
CODE_LENGTH = 6  # 31**6, close to 900 million codes
MAX_SEQ = 2**31 - 1  # the seq column is a 32-bit integer
SQLITE_BUSY_MS = 10_000  # how long a writer waits for another's transaction on SQLite
ATTEMPTS = 5  # a write that collides on a unique key (a code, a seq, a player id) is tried again
MIGRATE_ATTEMPTS = 10  # a migration SQLite refuses at once as locked (workers starting together)
MIGRATION_LOCK = 0x5350_454C  # "SPEL": the PostgreSQL advisory lock workers take to migrate one at a time
MIGRATIONS = Path(__file__).with_name("alembic.ini")
T = TypeVar("T")

metadata = MetaData()  # mirrors migrations/versions; the migrations create it, these build the queries
tables = Table(
    "tables",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code", Text, nullable=False, unique=True),
    Column("game", Text, nullable=False),
    Column("options", JSON, nullable=False),
    Column("host_token_hash", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("event_id", Integer),  # the event the table plays in, if any
    Column("host_seat", Text),  # the host's own seat, when the host also plays (joined with the host's token)
)
events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code", Text, nullable=False, unique=True),
    Column("game", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("organiser_token_hash", Text, nullable=False),
    Column("seed", Text, nullable=False),
    Column("rolled", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True)),
)
players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("player_id", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("token_hash", Text, unique=True),  # NULL: a seat kept on the host's phone
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Column("claim_hash", Text),  # a phone's ask for a seat without one, until the host answers
)
actions = Table(
    "actions",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("actor", Text, nullable=False),
    Column("type", Text, nullable=False),
    Column("payload", JSON, nullable=False),
    Column("by", Text),  # who made it for the actor (the host, for a seat without a phone); NULL: the actor
)
checkpoints = Table(
    "checkpoints",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # the state after every standing entry up to this one
    Column("state", JSON, nullable=False),
)


class Stale(Exception):
    """The state an append was asked to build on no longer holds: an entry after it took back one
    it had folded in. The caller folds afresh from further back."""


class NoSuchTable(LookupError):
    """No table has that join code."""


class NoSuchSeat(LookupError):
    """No player of that table has that id."""


class NoSuchEvent(LookupError):
    """No event has that code."""


@dataclass(frozen=True)
class TableInfo:
    code: str
    game: str
    options: dict
    created_at: str  # ISO 8601, UTC
    event: str | None = None  # the code of the event it plays in


@dataclass(frozen=True)
class EventInfo:
    code: str
    game: str
    name: str
    seed: str  # hex; secret until the event ends
    rolled: int  # rounds the organiser has rolled
    created_at: str
    ended_at: str | None


@dataclass(frozen=True)
class Checkpoint:
    seq: int
    state: dict


@dataclass(frozen=True)
class Player:
    id: str  # the actor id in the log: "p1", "p2", ... in the order they joined
    name: str
    joined_at: str  # ISO 8601, UTC
    phone: bool = True  # False: a seat kept on the host's phone
    asked: bool = False  # a phone has asked for this seat and the host has not answered yet


class Store:
    def __init__(self, url: str):
        self.engine: Engine = create_engine(url, pool_pre_ping=True)
        if self.engine.dialect.name == "sqlite":
            _configure_sqlite(self.engine)

    def migrate(self) -> None:
        """Bring the schema to the newest migration. Workers starting together take turns: on
        PostgreSQL under an advisory lock, on SQLite under the write lock; the later ones find
        nothing left to do."""
        config = Config(str(MIGRATIONS))

        def upgrade(connection) -> None:
            if connection.dialect.name == "postgresql":
                connection.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

        for attempt in range(MIGRATE_ATTEMPTS):
            try:
                return self._write(upgrade)
            except OperationalError as error:
                # SQLite answers "database is locked" at once, without its busy wait, when workers
                # opening a new file race to switch it to WAL: the later ones try again shortly.
                if "locked" not in str(error) or attempt == MIGRATE_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, game: str, options: Mapping[str, Any], event: str | None = None) -> tuple[str, str]:
        """A new table, in `event` if given: (its join code, the host's token)."""
        token = new_token()

        def insert(connection) -> str:
            event_id = None
            if event is not None:
                event_id = connection.scalar(select(events.c.id).where(events.c.code == normalize_code(event)))
                if event_id is None:
                    raise NoSuchEvent(event)
            code = new_code()
            connection.execute(
                tables.insert().values(
                    code=code,
                    game=_clean(game),
                    options=dict(options),
                    host_token_hash=token_hash(token),
                    created_at=_now(),
                    event_id=event_id,
                )
            )
            return code

        return self._write(insert), token

    def add_player(
        self,
        code: str,
        name: str,
        check: Callable[[list[Entry], str], object] | None = None,
        by: str | None = None,
        hosts: bool = False,
    ) -> tuple[Entry, str | None]:
        """A new player sits down: (their JOIN entry, their token). `check(log, player_id)` may
        refuse them by raising; otherwise their row and their JOIN (as them, payload {"name"})
        are written in one transaction, so a refused or failed join leaves no player behind.
        Seated `by` someone else (the host), the seat has no phone and no token (None). `hosts`:
        the host's own phone sits down (the table's first such seat is the host's own)."""
        token = new_token() if by is None else None

        def insert(connection) -> Entry:
            table_id = self._locked_table_id(connection, code)
            player_id = f"p{connection.scalar(select(func.count()).where(players.c.table_id == table_id)) + 1}"
            log = self._read_log(connection, table_id, after=0)
            if check is not None:
                check(log, player_id)
            connection.execute(
                players.insert().values(
                    table_id=table_id,
                    player_id=player_id,
                    name=_clean(name),
                    token_hash=None if token is None else token_hash(token),
                    joined_at=_now(),
                )
            )
            if hosts:
                mine = tables.update().where(tables.c.id == table_id, tables.c.host_seat.is_(None))
                connection.execute(mine.values(host_seat=player_id))
            return self._insert_entry(connection, table_id, _newest_seq(log), player_id, JOIN, {"name": name}, by)

        return self._write(insert), token

    def claim(self, code: str, player_id: str) -> tuple[Entry, str]:
        """A phone asks for a seat without one: (the CLAIM entry, the token the seat will have once
        the host gives it). Refused while the seat has a phone or another phone's ask is waiting."""
        token = new_token()

        def ask(connection) -> Entry:
            table_id, seat = self._seat(connection, code, player_id)
            if seat.token_hash is not None:
                raise Refused(f"{seat.name}'s seat already has a phone.")
            if seat.claim_hash is not None:
                raise Refused(f"Another phone has asked for {seat.name}'s seat; the host answers it first.")
            connection.execute(players.update().where(players.c.id == seat.id).values(claim_hash=token_hash(token)))
            return self._insert_entry(connection, table_id, self._last_seq(connection, table_id), player_id, CLAIM, {})

        return self._write(ask), token

    def answer(self, code: str, player_id: str, given: bool) -> Entry:
        """The host answers a phone's ask for a seat: given, the phone's token becomes the seat's."""

        def settle(connection) -> Entry:
            table_id, seat = self._seat(connection, code, player_id)
            if seat.claim_hash is None:
                raise Refused(f"No phone is asking for {seat.name}'s seat.")
            held = seat.claim_hash if given else None
            connection.execute(players.update().where(players.c.id == seat.id).values(token_hash=held, claim_hash=None))
            last = self._last_seq(connection, table_id)
            return self._insert_entry(connection, table_id, last, HOST, ANSWER, {"seat": player_id, "given": given})

        return self._write(settle)

    def _seat(self, connection, code: str, player_id: str):
        """The table's id (its row locked) and the seat's row; NoSuchSeat if it has no such player."""
        table_id = self._locked_table_id(connection, code)
        if _clean(player_id) != player_id:  # text no player id holds, and PostgreSQL refuses to compare
            raise NoSuchSeat(player_id)
        query = select(players).where(players.c.table_id == table_id, players.c.player_id == player_id)
        seat = connection.execute(query).one_or_none()
        if seat is None:
            raise NoSuchSeat(player_id)
        return table_id, seat

    def table(self, code: str) -> TableInfo | None:
        code = normalize_code(code)
        if code is None:
            return None
        query = (
            select(tables, events.c.code.label("event_code"))
            .outerjoin(events, events.c.id == tables.c.event_id)
            .where(tables.c.code == code)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).one_or_none()
        if row is None:
            return None
        return TableInfo(row.code, row.game, row.options, _iso(row.created_at), row.event_code)

    # --- events -------------------------------------------------------------------------

    def create_event(self, game: str, name: str, seed: str) -> tuple[str, str]:
        """A new event: (its code, the organiser's token)."""
        token = new_token()

        def insert(connection) -> str:
            code = new_code()
            connection.execute(
                events.insert().values(
                    code=code,
                    game=_clean(game),
                    name=_clean(name),
                    organiser_token_hash=token_hash(token),
                    seed=seed,
                    rolled=0,
                    created_at=_now(),
                )
            )
            return code

        return self._write(insert), token

    def event(self, code: str) -> EventInfo | None:
        code = normalize_code(code)
        if code is None:
            return None
        with self.engine.connect() as connection:
            row = connection.execute(select(events).where(events.c.code == code)).one_or_none()
        return None if row is None else _event_info(row)

    def organiser_of(self, code: str, token: str) -> bool:
        code = normalize_code(code)
        if code is None or not isinstance(token, str):
            return False
        with self.engine.connect() as connection:
            digest = connection.scalar(select(events.c.organiser_token_hash).where(events.c.code == code))
        return digest is not None and hmac.compare_digest(digest, token_hash(token))

    def change_event(self, code: str, change: Callable[[EventInfo], Mapping[str, Any]]) -> EventInfo:
        """Set the columns `change(info)` returns ("rolled", "ended_at"), with the event's row locked
        so two organisers' taps are one after the other; `change` raises to refuse."""

        def update(connection) -> EventInfo:
            row = self._locked_event(connection, code)
            return self._update_event(connection, row.id, change(_event_info(row)))

        return self._write(update)

    def append_to_event(
        self,
        code: str,
        actor: str,
        type: str,
        change: Callable[[EventInfo, list[tuple[TableInfo, list[Entry]]]], tuple[Mapping, Mapping[str, Mapping]]],
    ) -> tuple[EventInfo, dict[str, Entry]]:
        """Change the event and append an entry to any of its tables, in one transaction that holds
        the event's row and every table's write lock: `change(info, tables)` (each table with its
        whole log, oldest table first) returns the event's columns to set and, by table code, the
        payload of the entry `actor` appends there; it raises to refuse, and nothing is written.
        The event as changed, and the entries by table code."""

        def update(connection) -> tuple[EventInfo, dict[str, Entry]]:
            row = self._locked_event(connection, code)
            # every table's row locked in one statement (PostgreSQL): an append to one of them waits
            query = select(tables).where(tables.c.event_id == row.id).order_by(tables.c.id).with_for_update()
            rows = connection.execute(query).all()
            logs = self._event_logs(connection, row.code)
            infos = [TableInfo(r.code, r.game, r.options, _iso(r.created_at), row.code) for r in rows]
            values, payloads = change(_event_info(row), [(info, logs[info.code]) for info in infos])
            event = self._update_event(connection, row.id, values)
            ids = {r.code: r.id for r in rows}
            appended = [(ids[t], _newest_seq(logs[t]), actor, type, payload, None) for t, payload in payloads.items()]
            return event, dict(zip(payloads, self._insert_entries(connection, appended), strict=True))

        return self._write(update)

    @staticmethod
    def _locked_event(connection, code: str):
        """The event's row, locked until the transaction ends, so two organisers' taps are one
        after the other."""
        query = select(events).where(events.c.code == normalize_code(code)).with_for_update()
        row = connection.execute(query).one_or_none()
        if row is None:
            raise NoSuchEvent(code)
        return row

    @staticmethod
    def _update_event(connection, event_id: int, values: Mapping[str, Any]) -> EventInfo:
        connection.execute(events.update().where(events.c.id == event_id).values(**values))
        return _event_info(connection.execute(select(events).where(events.c.id == event_id)).one())

    def event_tables(self, code: str) -> list[str]:
        query = (
            select(tables.c.code)
            .join(events, events.c.id == tables.c.event_id)
            .where(events.c.code == normalize_code(code))
            .order_by(tables.c.id)
        )
        with self.engine.connect() as connection:
            return list(connection.scalars(query))

    def event_logs(self, code: str) -> dict[str, list[Entry]]:
        """Every table of the event with its whole log, in one query (a leaderboard reads them all)."""
        with self.engine.connect() as connection:
            return self._event_logs(connection, code)

    @staticmethod
    def _event_logs(connection, code: str) -> dict[str, list[Entry]]:
        query = (
            select(tables.c.code, actions)
            .join(events, events.c.id == tables.c.event_id)
            .outerjoin(actions, actions.c.table_id == tables.c.id)
            .where(events.c.code == normalize_code(code))
            .order_by(tables.c.id, actions.c.seq)
        )
        logs: dict[str, list[Entry]] = {}
        for r in connection.execute(query):
            log = logs.setdefault(r.code, [])
            if r.seq is not None:
                log.append(_entry(r))
        return logs

    def players(self, code: str) -> list[Player]:
        query = (
            select(players)
            .join(tables, tables.c.id == players.c.table_id)
            .where(tables.c.code == normalize_code(code))
            .order_by(players.c.id)
        )
        with self.engine.connect() as connection:
            return [
                Player(r.player_id, r.name, _iso(r.joined_at), r.token_hash is not None, r.claim_hash is not None)
                for r in connection.execute(query)
            ]

    def actor_for(self, code: str, token: str) -> str | None:
        """Who holds `token` at this table: HOST, a player id, or None."""
        return self.credentials(code, token)[0]

    def credentials(self, code: str, token: str) -> tuple[str | None, str | None]:
        """Who holds `token` at this table (HOST, a player id, or None), and the host's own seat
        (None unless the host also plays), in one read."""
        code = normalize_code(code)
        if code is None or not isinstance(token, str):
            return None, None
        digest = token_hash(token)
        with self.engine.connect() as connection:
            table = connection.execute(
                select(tables.c.id, tables.c.host_token_hash, tables.c.host_seat).where(tables.c.code == code)
            ).one_or_none()
            if table is None:
                return None, None
            if hmac.compare_digest(table.host_token_hash, digest):
                return HOST, table.host_seat
            # A player's hash is looked up by equality: the index needs it, and a token of 256
            # random bits cannot be guessed a byte at a time.
            found = connection.scalar(
                select(players.c.player_id).where(players.c.table_id == table.id, players.c.token_hash == digest)
            )
            return found, table.host_seat

    def asking_for(self, code: str, token: str) -> str | None:
        """The seat whose host `token`'s phone has asked for and not answered yet, or None."""
        if not isinstance(token, str):
            return None
        query = (
            select(players.c.player_id)
            .join(tables, tables.c.id == players.c.table_id)
            .where(tables.c.code == normalize_code(code), players.c.claim_hash == token_hash(token))
        )
        with self.engine.connect() as connection:
            return connection.scalar(query)

    def append(
        self,
        code: str,
        actor: str,
        type: str,
        payload: Mapping[str, Any],
        check: Callable[[list[Entry]], Mapping[str, Any] | None],
        by: str | None = None,
        after: int = 0,
        keep: Callable[[Entry], dict | None] | None = None,
    ) -> Entry:
        """Record an action as the table's next seq, if `check(tail)` does not raise (`tail`: the
        entries after seq `after`, the caller's state; 0, the whole log); with the payload `check`
        returns, if any (what the server's dice added to it). `by`: who made it for the actor, if
        someone else did (the host, for a seat without a phone). `keep(entry)`: the state after
        the new entry to keep as a checkpoint, or None. Stale when the log ends before `after`."""

        def insert(connection) -> Entry:
            table_id = self._locked_table_id(connection, code)
            last = self._last_seq(connection, table_id)
            if last < after:
                raise Stale(f"the log ends at {last}, before {after}")
            checked = check(self._read_log(connection, table_id, after) if last > after else [])
            done = payload if checked is None else checked
            entry = self._insert_entry(connection, table_id, last, actor, type, done, by)
            if type == UNDO:  # the checkpoints that folded in what it takes back are wrong now
                taken = checkpoints.c.seq >= entry.payload["seq"]
                connection.execute(checkpoints.delete().where(checkpoints.c.table_id == table_id, taken))
            state = keep(entry) if keep is not None else None
            if state is not None:
                connection.execute(checkpoints.insert().values(table_id=table_id, seq=entry.seq, state=state))
            return entry

        return self._write(insert)

    def checkpoint(self, code: str) -> Checkpoint | None:
        """The table's newest checkpoint, if it has one."""
        query = (
            select(checkpoints.c.seq, checkpoints.c.state)
            .join(tables, tables.c.id == checkpoints.c.table_id)
            .where(tables.c.code == normalize_code(code))
            .order_by(checkpoints.c.seq.desc())
            .limit(1)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).one_or_none()
        return None if row is None else Checkpoint(row.seq, row.state)

    def page(self, code: str, before: int | None, limit: int) -> tuple[list[Entry], set[int]]:
        """The table's newest `limit` entries with seq < before (None: the newest of all), oldest
        first, and the seqs among them a later undo took back."""
        table_id = select(tables.c.id).where(tables.c.code == normalize_code(code)).scalar_subquery()
        query = select(actions).where(actions.c.table_id == table_id).order_by(actions.c.seq.desc()).limit(limit)
        if before is not None:
            query = query.where(actions.c.seq < max(0, min(int(before), MAX_SEQ)))
        with self.engine.connect() as connection:
            entries = [_entry(r) for r in reversed(connection.execute(query).all())]
            if not entries:
                return [], set()
            # an undo comes after what it takes back: only those after the page's first entry matter
            undos = select(actions.c.payload).where(
                actions.c.table_id == table_id, actions.c.seq > entries[0].seq, actions.c.type == UNDO
            )
            undone = {payload["seq"] for payload in connection.scalars(undos)}
        return entries, undone & {e.seq for e in entries}

    @staticmethod
    def _insert_entry(
        connection, table_id: int, last: int, actor: str, type: str, payload: Mapping, by: str | None = None
    ) -> Entry:
        """The entry after seq `last` (the table's newest, read under its write lock)."""
        return Store._insert_entries(connection, [(table_id, last, actor, type, payload, by)])[0]

    @staticmethod
    def _insert_entries(connection, appended: list[tuple[int, int, str, str, Mapping, str | None]]) -> list[Entry]:
        """An entry after each table's newest seq, as _insert_entry's arguments, in one statement
        (an event's roll: one for every table)."""
        at = _now()
        rows = [
            dict(table_id=table_id, seq=last + 1, at=at)
            | dict(actor=_clean(actor), type=_clean(type), payload=dict(payload), by=by)
            for table_id, last, actor, type, payload, by in appended
        ]
        if rows:
            connection.execute(actions.insert(), rows)
        return [Entry(r["seq"], r["actor"], r["type"], r["payload"], _iso(at), r["by"]) for r in rows]

    def log(self, code: str, after: int = 0) -> list[Entry]:
        """The table's entries with seq > after, in order; empty for an unknown code."""
        table_id = select(tables.c.id).where(tables.c.code == normalize_code(code)).scalar_subquery()
        with self.engine.connect() as connection:  # one query: a room's streams read a log each
            return self._read_log(connection, table_id, after)

    def _write(self, work: Callable[[Connection], T]) -> T:
        """work(connection) in a transaction that writes, tried again if it collides on a unique
        key (a code, a seq, a player id) with another writer. On SQLite the transaction takes the
        write lock at BEGIN (BEGIN IMMEDIATE), so a read-then-write never fails halfway."""
        for attempt in range(ATTEMPTS):
            try:
                with self.engine.connect() as connection:
                    connection.execution_options(sqlite_immediate=True)
                    with connection.begin():
                        return work(connection)
            except IntegrityError:
                if attempt == ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def _locked_table_id(self, connection, code: str) -> int:
        """The table's id, its row locked (PostgreSQL) until the transaction ends, so writes to one
        table queue up rather than collide; SQLite's BEGIN IMMEDIATE already serialises them."""
        table_id = connection.scalar(select(tables.c.id).where(tables.c.code == normalize_code(code)).with_for_update())
        if table_id is None:
            raise NoSuchTable(code)
        return table_id

    @staticmethod
    def _last_seq(connection, table_id: int) -> int:
        """The table's newest seq (0: none yet), from the primary key's index."""
        return connection.scalar(select(func.max(actions.c.seq)).where(actions.c.table_id == table_id)) or 0

    @staticmethod
    def _read_log(connection, table_id: int | ScalarSelect, after: int) -> list[Entry]:
        after = max(0, min(int(after), MAX_SEQ))
        rows = connection.execute(
            select(actions).where(actions.c.table_id == table_id, actions.c.seq > after).order_by(actions.c.seq)
        )
        return [_entry(r) for r in rows]


def _entry(row) -> Entry:
    return Entry(row.seq, row.actor, row.type, row.payload, _iso(row.at), row.by)


def _newest_seq(log: list[Entry]) -> int:
    return log[-1].seq if log else 0


def normalize_code(code: object) -> str | None:
    """The join code as stored ("abc-def " -> "ABCDEF"), or None if it cannot be one."""
    if not isinstance(code, str) or len(code) > 4 * CODE_LENGTH:
        return None
    code = "".join(code.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or not all(c in CODE_ALPHABET for c in code):
        return None
    return code


def new_code() -> str:
    """A join code for a table or an event (a collision on the unique column is tried again)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    # surrogatepass: a token a client makes up may hold lone surrogates; it hashes, and matches nothing.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _clean(value: str) -> str:
    """Text the database can store: no NUL (PostgreSQL refuses it), no lone surrogates (not UTF-8)."""
    return str(value).encode("utf-8", "replace").decode("utf-8").replace("\x00", "")


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:  # SQLite keeps no offset; what we wrote was UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _event_info(row) -> EventInfo:
    ended = None if row.ended_at is None else _iso(row.ended_at)
    return EventInfo(row.code, row.game, row.name, row.seed, row.rolled, _iso(row.created_at), ended)


def _configure_sqlite(engine: Engine) -> None:
    """WAL (readers never wait for the writer), a busy timeout (writers queue rather than fail),
    foreign keys on, and transactions that begin when we say, as IMMEDIATE when they will write."""

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # pysqlite's own implicit BEGINs off; "begin" below does it
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection):
        immediate = connection.get_execution_options().get("sqlite_immediate", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
