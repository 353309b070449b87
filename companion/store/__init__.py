"""Storage of the companion, through SQLAlchemy Core on SQLite (one file in the instance folder)
or PostgreSQL (several workers), in three parts by what they keep:

    store = Store("sqlite:///instance/companion.sqlite3")  # or "postgresql+psycopg://user@host/db"
    store.migrate()                                        # Alembic `upgrade head`; many workers at once is safe
    store.close()                                          # closes the pooled connections

    store.tables   tables and their seats (store/tables.py)
        code, host_token = store.tables.create(game, options, event=None)
        store.tables.info(code) -> TableInfo | None
        entry, token = store.tables.add_player(code, name, check, by=None, hosts=False, after=0)  # actor: their id
        entry, token = store.tables.claim(code, player_id)      # a phone asks for a seat without one
        store.tables.answer(code, player_id, given) -> Entry    # the host gives it (the token is the seat's) or not
        store.tables.players(code) -> list[Player]              # in the order they joined
        store.tables.actor_for(code, token) -> "host" | player_id | None
        store.tables.credentials(code, token) -> (actor, the host's own seat or None)
        store.tables.asking_for(code, token) -> player_id | None  # the seat a phone has asked for, unanswered
    store.log      each table's log of actions (store/log.py)
        store.log.append(code, actor, type, payload, check, by=None, after=0, keep=None) -> Entry
        store.log.append_undo(code, actor, seq, check, by=None, keep=None, mover=None) -> Entry  # check(UndoScope)
        store.log.read(code, after=0) -> list[Entry]            # seq > after, in seq order
        store.log.page(code, before, limit) -> (entries, undone)
        store.log.pages(code, through, size) -> iterator of (entries, undone)  # an export, oldest first
        store.log.checkpoint(code) -> Checkpoint | None         # the newest state folded up to an entry
    store.events   events: many tables, one roll sequence (store/events.py)
        code, token = store.events.create(game, name, seed)
        store.events.info(code) -> EventInfo | None
        store.events.organiser_of(code, token) -> bool
        store.events.change(code, change) -> EventInfo          # change(info) -> columns to set, or raises
        store.events.append(code, actor, type, change)          # the event and an entry at each of its tables, at once
        store.events.tables(code) -> list[str]                  # its tables' codes, oldest first
        store.events.logs(code) -> dict[str, list[Entry]]       # every table's log, in one read

Every write that checks the rules runs the check inside the transaction that writes, holding the
table's (or the event's) lock, so the check always sees what the write joins.
"""

from __future__ import annotations

from companion.store.database import Database
from companion.store.events import Events
from companion.store.log import Log
from companion.store.tables import Tables


class Store:
    def __init__(self, url: str):
        self.db = Database(url)
        self.engine = self.db.engine  # the live streams listen on it (PostgreSQL's LISTEN)
        self.tables = Tables(self.db)
        self.log = Log(self.db)
        self.events = Events(self.db)

    def migrate(self) -> None:
        self.db.migrate()

    def close(self) -> None:
        self.db.close()
