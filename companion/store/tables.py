"""Tables and their seats: a table's row (its game, options and event, the host's token), the
players who sit at it, the tokens of their phones, and a phone's ask for a seat without one.

A seat changes with an entry of the table's log written in the same transaction (a join, an ask,
the host's answer), so the seats and the log always agree. Any string a client sends (a code, a
token, a name) gives an answer, never an exception: unknown codes and tokens are None, and a code
that names no table makes `players` empty and `add_player` raise NoSuchTable.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, func, select

from companion.store.database import Database, clean, iso, new_code, new_token, normalize_code, now, token_hash
from companion.store.log import insert_entries, last_seq, locked_table_id, read_entries
from companion.store.schema import NoSuchEvent, NoSuchSeat, Player, Stale, TableInfo, events, players, tables
from pnp.rules.table import ANSWER, CLAIM, HOST, JOIN, LEAVE, Entry, Refused


class Tables:
    def __init__(self, db: Database):
        self.db = db

    def create(self, game: str, options: Mapping[str, Any], event: str | None = None) -> tuple[str, str]:
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
                    game=clean(game),
                    options=dict(options),
                    host_token_hash=token_hash(token),
                    created_at=now(),
                    event_id=event_id,
                )
            )
            return code

        return self.db.write(insert), token

    def info(self, code: str) -> TableInfo | None:
        code = normalize_code(code)
        if code is None:
            return None
        query = (
            select(tables, events.c.code.label("event_code"))
            .outerjoin(events, events.c.id == tables.c.event_id)
            .where(tables.c.code == code)
        )
        with self.db.read() as connection:
            row = connection.execute(query).one_or_none()
        return None if row is None else info_of(row, row.event_code)

    def add_player(
        self,
        code: str,
        name: str,
        check: Callable[[list[Entry], str], object] | None = None,
        by: str | None = None,
        hosts: bool = False,
        after: int = 0,
        computer: str | None = None,
    ) -> tuple[Entry, str | None]:
        """A new player sits down: (their JOIN entry, their token). `check(tail, player_id)` may
        refuse them by raising (`tail`: the log's entries after seq `after`, the state the caller
        holds; 0, the whole log; Stale when the log ends before `after`); otherwise their row and
        their JOIN (as them, payload {"name"}) are written in one transaction, so a refused or
        failed join leaves no player behind.
        Seated `by` someone else (the host), the seat has no phone and no token (None). `hosts`:
        the host's own phone sits down (the table's first such seat is the host's own). `computer`:
        the level of the computer player seated (by the host), named in its JOIN too."""
        token = new_token() if by is None else None

        def insert(connection) -> Entry:
            table_id = locked_table_id(connection, code)
            player_id = f"p{connection.scalar(select(func.count()).where(players.c.table_id == table_id)) + 1}"
            last = last_seq(connection, table_id)
            if last < after:
                raise Stale(f"the log ends at {last}, before {after}")
            if check is not None:
                check(read_entries(connection, table_id, after) if last > after else [], player_id)
            connection.execute(
                players.insert().values(
                    table_id=table_id,
                    player_id=player_id,
                    name=clean(name),
                    token_hash=None if token is None else token_hash(token),
                    joined_at=now(),
                    computer=computer,
                )
            )
            if hosts:
                mine = tables.update().where(tables.c.id == table_id, tables.c.host_seat.is_(None))
                connection.execute(mine.values(host_seat=player_id))
            joined = {"name": name} | ({"computer": computer} if computer else {})
            [entry] = insert_entries(connection, [(table_id, last, player_id, JOIN, joined, by)])
            return entry

        return self.db.write(insert), token

    def remove_computer(self, code: str, player_id: str, check: Callable[[list[Entry]], object], after: int) -> Entry:
        """A computer player leaves its seat: its row marked as left (its id is never given again)
        and the host's LEAVE, in one transaction, once `check(tail)` lets it (`tail`: the log's
        entries after seq `after`, as for `add_player`)."""

        def leave(connection) -> Entry:
            table_id, seat = _seat(connection, code, player_id)
            if seat.computer is None or seat.left_at is not None:
                raise Refused(f"{seat.name} is not a computer player at this table.")
            last = last_seq(connection, table_id)
            if last < after:
                raise Stale(f"the log ends at {last}, before {after}")
            check(read_entries(connection, table_id, after) if last > after else [])
            connection.execute(players.update().where(players.c.id == seat.id).values(left_at=now()))
            return _seat_entry(connection, table_id, HOST, LEAVE, {"player": player_id})

        return self.db.write(leave)

    def claim(self, code: str, player_id: str) -> tuple[Entry, str]:
        """A phone asks for a seat without one: (the CLAIM entry, the token the seat will have once
        the host gives it). Refused while the seat has a phone or another phone's ask is waiting."""
        token = new_token()

        def ask(connection) -> Entry:
            table_id, seat = _seat(connection, code, player_id)
            if seat.computer is not None:
                raise Refused(f"{seat.name} is a computer player: its seat is not a phone's to hold.")
            if seat.token_hash is not None:
                raise Refused(f"{seat.name}'s seat already has a phone.")
            if seat.claim_hash is not None:
                raise Refused(f"Another phone has asked for {seat.name}'s seat; the host answers it first.")
            connection.execute(players.update().where(players.c.id == seat.id).values(claim_hash=token_hash(token)))
            return _seat_entry(connection, table_id, player_id, CLAIM, {})

        return self.db.write(ask), token

    def answer(self, code: str, player_id: str, given: bool) -> Entry:
        """The host answers a phone's ask for a seat: given, the phone's token becomes the seat's."""

        def settle(connection) -> Entry:
            table_id, seat = _seat(connection, code, player_id)
            if seat.claim_hash is None:
                raise Refused(f"No phone is asking for {seat.name}'s seat.")
            held = seat.claim_hash if given else None
            connection.execute(players.update().where(players.c.id == seat.id).values(token_hash=held, claim_hash=None))
            return _seat_entry(connection, table_id, HOST, ANSWER, {"seat": player_id, "given": given})

        return self.db.write(settle)

    def players(self, code: str, left: bool = False) -> list[Player]:
        """Who sits at the table, in the order they joined; `left`: and the computer players who
        left their seats before the start (whose entries a history still names)."""
        query = (
            select(players)
            .join(tables, tables.c.id == players.c.table_id)
            .where(tables.c.code == normalize_code(code))
            .order_by(players.c.id)
        )
        if not left:
            query = query.where(players.c.left_at.is_(None))
        with self.db.read() as connection:
            return [
                Player(
                    r.player_id,
                    r.name,
                    iso(r.joined_at),
                    r.token_hash is not None,
                    r.claim_hash is not None,
                    r.computer,
                )
                for r in connection.execute(query)
            ]

    def with_computers(self) -> list[str]:
        """The codes of the tables where a computer player sits."""
        query = (
            select(tables.c.code)
            .join(players, players.c.table_id == tables.c.id)
            .where(players.c.computer.is_not(None), players.c.left_at.is_(None))
            .distinct()
            .order_by(tables.c.code)
        )
        with self.db.read() as connection:
            return list(connection.scalars(query))

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
        with self.db.read() as connection:
            table = connection.execute(_CREDENTIALS, {"code": code, "digest": digest}).one_or_none()
        if table is None:
            return None, None
        if hmac.compare_digest(table.host_token_hash, digest):
            return HOST, table.host_seat
        return table.player_id, table.host_seat

    def asking_for(self, code: str, token: str) -> str | None:
        """The seat whose host `token`'s phone has asked for and not answered yet, or None."""
        if not isinstance(token, str):
            return None
        query = (
            select(players.c.player_id)
            .join(tables, tables.c.id == players.c.table_id)
            .where(tables.c.code == normalize_code(code), players.c.claim_hash == token_hash(token))
        )
        with self.db.read() as connection:
            return connection.scalar(query)


# Every request with a token asks this, so it is built once. A player's hash is looked up by
# equality: the index needs it, and a token of 256 random bits cannot be guessed a byte at a time.
# The host's is compared in constant time.
_CREDENTIALS = (
    select(tables.c.host_token_hash, tables.c.host_seat, players.c.player_id)
    .select_from(
        tables.outerjoin(players, (players.c.table_id == tables.c.id) & (players.c.token_hash == bindparam("digest")))
    )
    .where(tables.c.code == bindparam("code"))
)


def info_of(row, event_code: str | None) -> TableInfo:
    """A table's row as its TableInfo, with the code of the event it plays in."""
    return TableInfo(row.code, row.game, row.options, iso(row.created_at), event_code)


def _seat(connection: Connection, code: str, player_id: str):
    """The table's id (its row locked) and the seat's row; NoSuchSeat if it has no such player."""
    table_id = locked_table_id(connection, code)
    if clean(player_id) != player_id:  # text no player id holds, and PostgreSQL refuses to compare
        raise NoSuchSeat(player_id)
    query = select(players).where(players.c.table_id == table_id, players.c.player_id == player_id)
    seat = connection.execute(query).one_or_none()
    if seat is None:
        raise NoSuchSeat(player_id)
    return table_id, seat


def _seat_entry(connection: Connection, table_id: int, actor: str, type_: str, payload: dict) -> Entry:
    """The log's entry for a change of a seat, in the transaction that makes it."""
    [entry] = insert_entries(connection, [(table_id, last_seq(connection, table_id), actor, type_, payload, None)])
    return entry
