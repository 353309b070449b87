"""The floor of the action benchmark: the least a server can do to record a move, under the very
gunicorn the companion runs on (one gevent worker), with nothing of the companion: a bare Flask
app that appends the POSTed JSON as the table's next row, in SQLite through SQLAlchemy Core, in
WAL mode with a write transaction begun IMMEDIATE (as the companion's store does), and answers
{"seq": n}. No rules, no state, no tokens.

    python bench/floor_action.py --port P --database /tmp/floor.sqlite3   # serves until interrupted

POST /api/tables/<code>/actions    the body, any JSON object, appended; answers {"seq": n}
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from flask import Flask, request
from floor_sse import serve
from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, Table, Text, create_engine, event, func, select

metadata = MetaData()
actions = Table(
    "actions",
    metadata,
    Column("code", Text, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("payload", JSON, nullable=False),
)


def create_app(database: str) -> Flask:
    engine = create_engine(f"sqlite:///{database}")

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # BEGIN as we say, below
        dbapi_connection.execute("PRAGMA journal_mode = WAL")
        dbapi_connection.execute("PRAGMA busy_timeout = 10000")

    @event.listens_for(engine, "begin")
    def on_begin(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    metadata.create_all(engine)
    app = Flask(__name__)

    @app.post("/api/tables/<code>/actions")
    def append(code: str):
        with engine.begin() as connection:
            seq = (connection.scalar(select(func.max(actions.c.seq)).where(actions.c.code == code)) or 0) + 1
            connection.execute(actions.insert().values(code=code, seq=seq, at=datetime.now(UTC), payload=request.json))
        return {"seq": seq}

    return app


def main() -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--database", required=True)
    known, rest = parser.parse_known_args()
    return serve(lambda: create_app(known.database), __doc__.split("\n\n")[0], rest)


if __name__ == "__main__":
    sys.exit(main())
