"""Each table's log of actions: entries appended under the table's write lock, read in order or a
page at a time, and the checkpoints that spare a fold of the whole log.

`append` reads the table's log after `after` (the seq of the state the caller holds), calls
`check(tail)` (the caller applies the rules and raises to refuse; the exception propagates and
nothing is written; or it returns the payload to record, with the server's dice in it) and writes
the next seq, all in one transaction that holds the table's write lock, so the check always sees
the log the entry joins. `keep(entry)` may hand back the state after the new entry, kept in that
transaction as a checkpoint: a later caller with no state at hand folds the entries after it
only. A checkpoint is the fold of the log up to its seq as the log stands now: an undo appended
removes, in its transaction, every checkpoint at or after the entry it takes back. The (table,
seq) primary key is what makes a duplicate seq impossible.

The functions below the class are the log's own steps inside another part's transaction: a join
writes its seat and its entry together (store.tables), a roll an entry at every table of an event
(store.events).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Integer, bindparam, func, select
from sqlalchemy.sql.expression import ScalarSelect

from companion.store.database import MAX_SEQ, Database, clean, iso, normalize_code, now
from companion.store.schema import Checkpoint, NoSuchTable, Stale, actions, checkpoints, tables
from pnp.rules.table import RESERVED, UNDO, Entry


class Log:
    def __init__(self, db: Database):
        self.db = db

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
            table_id = locked_table_id(connection, code)
            last = last_seq(connection, table_id)
            if last < after:
                raise Stale(f"the log ends at {last}, before {after}")
            checked = check(read_entries(connection, table_id, after) if last > after else [])
            done = payload if checked is None else checked
            [entry] = insert_entries(connection, [(table_id, last, actor, type, done, by)])
            _keep(connection, table_id, entry, keep)
            return entry

        return self.db.write(insert)

    def append_undo(
        self,
        code: str,
        actor: str,
        seq: int,
        check: Callable[[UndoScope], None],
        by: str | None = None,
        keep: Callable[[Entry], dict | None] | None = None,
        mover: str | None = None,
    ) -> Entry:
        """Record `actor`'s undo of move `seq`, if `check(scope)` does not raise: `scope` is what the
        undo needs of the log (UndoScope), read in the transaction that appends it, from the log's
        end back to the move and to the newest checkpoint before it only. `mover`: whose latest
        standing move the scope finds (None: anyone's, the host's undo). Every checkpoint at or
        after `seq` is removed with it: they folded in what it takes back."""

        def insert(connection) -> Entry:
            table_id = locked_table_id(connection, code)
            scope = undo_scope(connection, table_id, mover, seq)
            check(scope)
            [entry] = insert_entries(connection, [(table_id, scope.last, actor, UNDO, {"seq": seq}, by)])
            connection.execute(_CHECKPOINTS_FROM, {"table_id": table_id, "seq": seq})
            _keep(connection, table_id, entry, keep)
            return entry

        return self.db.write(insert)

    def read(self, code: str, after: int = 0) -> list[Entry]:
        """The table's entries with seq > after, in order; empty for an unknown code."""
        with self.db.read() as connection:  # one query: a room's streams read a log each
            return read_entries(connection, table_id_of(code), after)

    def page(self, code: str, before: int | None, limit: int) -> tuple[list[Entry], set[int]]:
        """The table's newest `limit` entries with seq < before (None: the newest of all), oldest
        first, and the seqs among them a later undo took back."""
        table_id = table_id_of(code)
        query = select(actions).where(actions.c.table_id == table_id).order_by(actions.c.seq.desc()).limit(limit)
        if before is not None:
            query = query.where(actions.c.seq < max(0, min(int(before), MAX_SEQ)))
        with self.db.read() as connection:
            entries = [entry_of(r) for r in reversed(connection.execute(query).all())]
            if not entries:
                return [], set()
            # an undo comes after what it takes back: only those after the page's first entry matter
            undos = select(actions.c.payload).where(
                actions.c.table_id == table_id, actions.c.seq > entries[0].seq, actions.c.type == UNDO
            )
            undone = {payload["seq"] for payload in connection.scalars(undos)}
        return entries, undone & {e.seq for e in entries}

    def pages(self, code: str, through: int, size: int) -> Iterator[tuple[list[Entry], set[int]]]:
        """The table's entries up to seq `through`, oldest first, `size` at a time, each page read
        on its own (a whole export holds no transaction open while it is sent), with the seqs among
        them an undo up to `through` took back."""
        table_id = table_id_of(code)
        with self.db.read() as connection:
            undos = select(actions.c.payload).where(
                actions.c.table_id == table_id, actions.c.seq <= through, actions.c.type == UNDO
            )
            undone = {payload["seq"] for payload in connection.scalars(undos)}
        after = 0
        while after < through:
            query = select(actions).where(actions.c.table_id == table_id, actions.c.seq.between(after + 1, through))
            with self.db.read() as connection:
                entries = [entry_of(r) for r in connection.execute(query.order_by(actions.c.seq).limit(size))]
            if not entries:
                return
            yield entries, undone & {e.seq for e in entries}
            after = entries[-1].seq

    def checkpoint(self, code: str) -> Checkpoint | None:
        """The table's newest checkpoint, if it has one."""
        query = (
            select(checkpoints.c.seq, checkpoints.c.state)
            .where(checkpoints.c.table_id == table_id_of(code))
            .order_by(checkpoints.c.seq.desc())
            .limit(1)
        )
        with self.db.read() as connection:
            row = connection.execute(query).one_or_none()
        return None if row is None else Checkpoint(row.seq, row.state)


@dataclass(frozen=True)
class UndoScope:
    """What an undo of a move needs of the table's log, without the whole log: the undo that took
    the move back already (None: none has), the mover's latest standing move (None: they have
    none), the seq of the log's last entry, and `fold_base()`, read only when called: the newest
    checkpoint before that move (None: fold from the setup) with every entry after it. An undo of
    the log's last entry may fold from a state at hand instead (companion.moves)."""

    taken_back_by: Entry | None
    latest: Entry | None
    last: int
    fold_base: Callable[[], tuple[Checkpoint | None, list[Entry]]]


def undo_scope(connection: Connection, table_id: int, mover: str | None, named: int) -> UndoScope:
    """The UndoScope of an undo of move `named` by `mover` (None: anyone's move), read from the
    log's end back, a page at a time, far enough to have seen every undo after `named` and the
    mover's latest standing move: undos come after what they take back, so walking back, a move
    is known to stand once it is reached. The first page is small: an undo is mostly of a move
    just made."""
    undone: dict[int, Entry] = {}  # seq taken back -> the undo that did
    latest, before, size, last = None, None, 8, 0  # before: the oldest seq read so far (None: from the end)
    while True:
        asked = {"table_id": table_id, "size": size, "through": MAX_SEQ if before is None else before - 1}
        page = [entry_of(r) for r in connection.execute(_NEWEST_THROUGH, asked)]
        last = last or (page[0].seq if page else 0)
        for entry in page:
            if entry.type == UNDO:
                undone[entry.payload["seq"]] = entry
            elif latest is None and entry.type not in RESERVED and entry.seq not in undone:
                latest = entry if mover is None or entry.actor == mover else None
            if latest is not None and entry.seq <= named:
                break
        else:
            if len(page) == size:
                before, size = page[-1].seq, min(size * 4, 4096)
                continue
        break

    def fold_base() -> tuple[Checkpoint | None, list[Entry]]:
        checkpoint = None
        if latest is not None:
            query = select(checkpoints.c.seq, checkpoints.c.state).where(
                checkpoints.c.table_id == table_id, checkpoints.c.seq < latest.seq
            )
            row = connection.execute(query.order_by(checkpoints.c.seq.desc()).limit(1)).one_or_none()
            checkpoint = None if row is None else Checkpoint(row.seq, row.state)
        since = read_entries(connection, table_id, checkpoint.seq if checkpoint else 0)
        if checkpoint is not None and any(e.payload["seq"] <= checkpoint.seq for e in since if e.type == UNDO):
            # an undo removes the checkpoints it makes wrong in its own transaction; should one have
            # stayed (a database written before that rule), fold from the setup rather than trust it
            checkpoint, since = None, read_entries(connection, table_id, 0)
        return checkpoint, since

    return UndoScope(undone.get(named), latest, last, fold_base)


def _keep(connection: Connection, table_id: int, entry: Entry, keep: Callable[[Entry], dict | None] | None) -> None:
    """Keep the state `keep(entry)` hands back, if any, as the checkpoint at the new entry."""
    state = keep(entry) if keep is not None else None
    if state is not None:
        connection.execute(checkpoints.insert().values(table_id=table_id, seq=entry.seq, state=state))


def table_id_of(code: str) -> ScalarSelect:
    """The table's id as a subquery, for a read in one statement."""
    return select(tables.c.id).where(tables.c.code == normalize_code(code)).scalar_subquery()


# What every append and undo asks, built once.
_LOCKED_ID = select(tables.c.id).where(tables.c.code == bindparam("code")).with_for_update()
_LAST_SEQ = select(func.max(actions.c.seq)).where(actions.c.table_id == bindparam("table_id"))
_NEWEST_THROUGH = (  # the newest `size` entries up to seq `through` (an int column: MAX_SEQ at most), newest first
    select(actions)
    .where(actions.c.table_id == bindparam("table_id"), actions.c.seq <= bindparam("through"))
    .order_by(actions.c.seq.desc())
    .limit(bindparam("size", type_=Integer))
)
_CHECKPOINTS_FROM = checkpoints.delete().where(
    checkpoints.c.table_id == bindparam("table_id"), checkpoints.c.seq >= bindparam("seq")
)


def locked_table_id(connection: Connection, code: str) -> int:
    """The table's id, its row locked (PostgreSQL) until the transaction ends, so writes to one
    table queue up rather than collide; SQLite's BEGIN IMMEDIATE already serialises them."""
    table_id = connection.scalar(_LOCKED_ID, {"code": normalize_code(code)})
    if table_id is None:
        raise NoSuchTable(code)
    return table_id


def last_seq(connection: Connection, table_id: int) -> int:
    """The table's newest seq (0: none yet), from the primary key's index."""
    return connection.scalar(_LAST_SEQ, {"table_id": table_id}) or 0


def read_entries(connection: Connection, table_id: int | ScalarSelect, after: int) -> list[Entry]:
    after = max(0, min(int(after), MAX_SEQ))
    rows = connection.execute(
        select(actions).where(actions.c.table_id == table_id, actions.c.seq > after).order_by(actions.c.seq)
    )
    return [entry_of(r) for r in rows]


def insert_entries(
    connection: Connection, appended: list[tuple[int, int, str, str, Mapping, str | None]]
) -> list[Entry]:
    """An entry after each table's newest seq, in one statement (an event's roll: one for every
    table): each (table id, its newest seq read under its write lock, actor, type, payload, by)."""
    at = now()
    rows = [
        dict(table_id=table_id, seq=last + 1, at=at)
        | dict(actor=clean(actor), type=clean(type), payload=dict(payload), by=by)
        for table_id, last, actor, type, payload, by in appended
    ]
    if rows:
        connection.execute(actions.insert(), rows)
    return [Entry(r["seq"], r["actor"], r["type"], r["payload"], iso(at), r["by"]) for r in rows]


def entry_of(row) -> Entry:
    return Entry(row.seq, row.actor, row.type, row.payload, iso(row.at), row.by)
