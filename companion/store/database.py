"""The connection to the database, SQLite (one file in the instance folder) or PostgreSQL (several
workers): the engine, the migrations run on start, a transaction that writes and is tried again
when it collides, and what every part of the store writes with (join codes, tokens, clean text,
times).

Join codes are typeable (no 0/O, 1/I/L) and looked up case-insensitively, spaces and dashes
ignored. Tokens are random (256 bits) and only their SHA-256 is stored. Any string a client sends
gives an answer, never an exception: text the database cannot hold (NUL, lone surrogates) is
cleaned, and what cannot be a code is None.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, func, select
from sqlalchemy.exc import IntegrityError, OperationalError

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud or off a screen and typed
CODE_LENGTH = 6  # 31**6, close to 900 million codes
MAX_SEQ = 2**31 - 1  # the seq column is a 32-bit integer
SQLITE_BUSY_MS = 10_000  # how long a writer waits for another's transaction on SQLite
ATTEMPTS = 5  # a write that collides on a unique key (a code, a seq, a player id) is tried again
MIGRATE_ATTEMPTS = 10  # a migration SQLite refuses at once as locked (workers starting together)
MIGRATION_LOCK = 0x5350_454C  # "SPEL": the PostgreSQL advisory lock workers take to migrate one at a time
MIGRATIONS = Path(__file__).resolve().parent.parent / "alembic.ini"
T = TypeVar("T")


class Database:
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
                return self.write(upgrade)
            except OperationalError as error:
                # SQLite answers "database is locked" at once, without its busy wait, when workers
                # opening a new file race to switch it to WAL: the later ones try again shortly.
                if "locked" not in str(error) or attempt == MIGRATE_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def close(self) -> None:
        self.engine.dispose()

    def read(self) -> Connection:
        """A connection for reads, as a context manager."""
        return self.engine.connect()

    def write(self, work: Callable[[Connection], T]) -> T:
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


def clean(value: str) -> str:
    """Text the database can store: no NUL (PostgreSQL refuses it), no lone surrogates (not UTF-8)."""
    return str(value).encode("utf-8", "replace").decode("utf-8").replace("\x00", "")


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    if moment.tzinfo is None:  # SQLite keeps no offset; what we wrote was UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


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
