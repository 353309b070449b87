"""Events: one roll sequence for many tables. An event's row (its game, name, secret seed, the
rounds rolled so far, the organiser's token), its tables, and a change made to the event and
every one of its tables at once (an organiser's roll: one transaction holding the event's row and
all its tables', so a room of tables costs one write)."""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, and_, func, or_, select

from companion.store.database import Database, clean, iso, new_code, new_token, normalize_code, now, token_hash
from companion.store.log import entry_of, insert_entries
from companion.store.schema import EventInfo, NoSuchEvent, TableInfo, actions, events, tables
from companion.store.tables import info_of
from pnp.rules.table import Entry

# Reads, in the transaction of a change, the entries of some of the event's tables: by table code,
# those after the seq given (0: the whole log).
ReadAfter = Callable[[Mapping[str, int]], dict[str, list[Entry]]]
# change(event, its tables each with its newest seq, read_after) -> (the event's columns to set,
# by table code the payload to append)
Change = Callable[[EventInfo, list[tuple[TableInfo, int]], ReadAfter], tuple[Mapping, Mapping[str, Mapping]]]


class Events:
    def __init__(self, db: Database):
        self.db = db

    def create(self, game: str, name: str, seed: str) -> tuple[str, str]:
        """A new event: (its code, the organiser's token)."""
        token = new_token()

        def insert(connection) -> str:
            code = new_code()
            connection.execute(
                events.insert().values(
                    code=code,
                    game=clean(game),
                    name=clean(name),
                    organiser_token_hash=token_hash(token),
                    seed=seed,
                    rolled=0,
                    created_at=now(),
                )
            )
            return code

        return self.db.write(insert), token

    def info(self, code: str) -> EventInfo | None:
        code = normalize_code(code)
        if code is None:
            return None
        with self.db.read() as connection:
            row = connection.execute(select(events).where(events.c.code == code)).one_or_none()
        return None if row is None else _event_info(row)

    def organiser_of(self, code: str, token: str) -> bool:
        code = normalize_code(code)
        if code is None or not isinstance(token, str):
            return False
        with self.db.read() as connection:
            digest = connection.scalar(select(events.c.organiser_token_hash).where(events.c.code == code))
        return digest is not None and hmac.compare_digest(digest, token_hash(token))

    def change(self, code: str, change: Callable[[EventInfo], Mapping[str, Any]]) -> EventInfo:
        """Set the columns `change(info)` returns ("rolled", "ended_at"), with the event's row locked
        so two organisers' taps are one after the other; `change` raises to refuse."""

        def update(connection) -> EventInfo:
            row = _locked_event(connection, code)
            return _update_event(connection, row.id, change(_event_info(row)))

        return self.db.write(update)

    def append(self, code: str, actor: str, type: str, change: Change) -> tuple[EventInfo, dict[str, Entry]]:
        """Change the event and append an entry to any of its tables, in one transaction that holds
        the event's row and every table's write lock: `change(info, tables, read_after)` (each
        table with its newest seq, oldest table first; `read_after` reads the entries a caller
        lacks, of the tables it names) returns the event's columns to set and, by table code, the
        payload of the entry `actor` appends there; it raises to refuse, and nothing is written.
        No table's whole log is read unless asked for. The event as changed, and the entries by
        table code."""

        def update(connection) -> tuple[EventInfo, dict[str, Entry]]:
            row = _locked_event(connection, code)
            # every table's row locked in one statement (PostgreSQL): an append to one of them waits
            query = select(tables).where(tables.c.event_id == row.id).order_by(tables.c.id).with_for_update()
            rows = connection.execute(query).all()
            ids = {r.code: r.id for r in rows}
            newest = dict(
                connection.execute(
                    select(actions.c.table_id, func.max(actions.c.seq))
                    .where(actions.c.table_id.in_(ids.values()))
                    .group_by(actions.c.table_id)
                ).all()
            )
            last = {r.code: newest.get(r.id, 0) for r in rows}

            def read_after(after: Mapping[str, int]) -> dict[str, list[Entry]]:
                return _entries_after(connection, {ids[t]: (t, seq) for t, seq in after.items()})

            infos = [info_of(r, row.code) for r in rows]
            values, payloads = change(_event_info(row), [(info, last[info.code]) for info in infos], read_after)
            event = _update_event(connection, row.id, values)
            appended = [(ids[t], last[t], actor, type, payload, None) for t, payload in payloads.items()]
            return event, dict(zip(payloads, insert_entries(connection, appended), strict=True))

        return self.db.write(update)

    def tables(self, code: str) -> list[str]:
        """Its tables' codes, oldest first."""
        query = (
            select(tables.c.code)
            .join(events, events.c.id == tables.c.event_id)
            .where(events.c.code == normalize_code(code))
            .order_by(tables.c.id)
        )
        with self.db.read() as connection:
            return list(connection.scalars(query))

    def logs(self, code: str) -> dict[str, list[Entry]]:
        """Every table of the event with its whole log, in one query (a leaderboard reads them all)."""
        with self.db.read() as connection:
            return _logs(connection, code)


def _logs(connection: Connection, code: str) -> dict[str, list[Entry]]:
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
            log.append(entry_of(r))
    return logs


def _entries_after(connection: Connection, after: Mapping[int, tuple[str, int]]) -> dict[str, list[Entry]]:
    """By table code, its entries after the seq given, for the tables named by id, in one query."""
    found: dict[str, list[Entry]] = {code: [] for code, _ in after.values()}
    if not after:
        return found
    wanted = or_(*(and_(actions.c.table_id == tid, actions.c.seq > seq) for tid, (_, seq) in after.items()))
    for r in connection.execute(select(actions).where(wanted).order_by(actions.c.table_id, actions.c.seq)):
        found[after[r.table_id][0]].append(entry_of(r))
    return found


def _locked_event(connection: Connection, code: str):
    """The event's row, locked until the transaction ends, so two organisers' taps are one after the other."""
    row = connection.execute(
        select(events).where(events.c.code == normalize_code(code)).with_for_update()
    ).one_or_none()
    if row is None:
        raise NoSuchEvent(code)
    return row


def _update_event(connection: Connection, event_id: int, values: Mapping[str, Any]) -> EventInfo:
    connection.execute(events.update().where(events.c.id == event_id).values(**values))
    return _event_info(connection.execute(select(events).where(events.c.id == event_id)).one())


def _event_info(row) -> EventInfo:
    ended = None if row.ended_at is None else iso(row.ended_at)
    return EventInfo(row.code, row.game, row.name, row.seed, row.rolled, iso(row.created_at), ended)
