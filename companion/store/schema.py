"""The companion's database as SQLAlchemy Core sees it: the five SQL tables (mirroring
migrations/versions, which create them; these build the queries), the records a read hands back,
and what a read or write may refuse with."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Integer, MetaData, Table, Text

metadata = MetaData()
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
    Column("computer", Text),  # the level of the computer player in the seat; NULL: a person's
    Column("left_at", DateTime(timezone=True)),  # a computer's seat taken off before the start
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
    computer: str | None = None  # the level of the computer player in the seat; None: a person's
