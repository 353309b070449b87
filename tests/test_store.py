"""companion.db.Store on SQLite, and on PostgreSQL when DATABASE_URL is set: the schema, join codes,
hashed tokens, and a log whose seqs are 1, 2, 3, ... however many writers race."""

from __future__ import annotations

import hashlib
import multiprocessing
import threading
from collections import Counter
from datetime import datetime

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from companion.store import Store
from companion.store.database import CODE_ALPHABET, MIGRATIONS
from companion.store.schema import NoSuchTable
from pnp.rules.table import HOST, JOIN, Refused


def nothing(log):
    """A check that allows everything."""


def contiguous(log):
    """A check that fails if the log it is shown has a gap or a repeat."""
    assert [entry.seq for entry in log] == list(range(1, len(log) + 1))


def _head() -> str:
    return ScriptDirectory.from_config(Config(str(MIGRATIONS))).get_current_head()


def test_migrate_creates_the_schema_and_is_idempotent(store):
    code, _ = store.tables.create("magic-spell", {})
    store.migrate()
    store.migrate()
    names = set(inspect(store.engine).get_table_names())
    assert {"tables", "players", "actions", "events", "alembic_version"} <= names
    with store.engine.connect() as connection:
        assert connection.scalar(text("SELECT version_num FROM alembic_version")) == _head() == "0006"
    assert store.tables.info(code) is not None


def test_upgrading_a_database_of_the_first_schema_keeps_its_tables_players_and_logs(tmp_path):
    """A companion installed before events existed: its tables survive the migration that adds them."""
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    config = Config(str(MIGRATIONS))
    config.cmd_opts = None
    old = Store(url)
    with old.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        # rows as the first schema's companion wrote them (today's Store writes event_id too)
        connection.execute(
            text(
                "INSERT INTO tables (id, code, game, options, host_token_hash, created_at) "
                "VALUES (1, 'ABCDEF', 'magic-spell', '{}', :hash, '2026-01-01 00:00:00')"
            ),
            {"hash": hashlib.sha256(b"host-token").hexdigest()},
        )
        connection.execute(
            text(
                "INSERT INTO players (table_id, player_id, name, token_hash, joined_at) "
                "VALUES (1, 'p1', 'Ann', 'x', '2026-01-01 00:00:01')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO actions (table_id, seq, at, actor, type, payload) "
                "VALUES (1, 1, '2026-01-01 00:00:01', 'p1', 'join', '{\"name\": \"Ann\"}')"
            )
        )
    old.close()

    store = Store(url)
    store.migrate()
    assert store.tables.info("ABCDEF").event is None
    assert store.tables.actor_for("ABCDEF", "host-token") == HOST
    assert [(e.seq, e.type, e.payload) for e in store.log.read("ABCDEF")] == [(1, JOIN, {"name": "Ann"})]
    assert [p.name for p in store.tables.players("ABCDEF")] == ["Ann"]
    store.close()


def test_workers_starting_together_migrate_once(database_url):
    stores = [Store(database_url) for _ in range(4)]
    errors = []

    def migrate(store):
        try:
            store.migrate()
        except Exception as error:  # reported below, with the others
            errors.append(error)

    threads = [threading.Thread(target=migrate, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert stores[0].tables.info(stores[1].tables.create("magic-spell", {})[0]) is not None
    for store in stores:
        store.close()


def test_codes_are_unique_and_typeable(store):
    codes = [store.tables.create("no-such-game", {"n": i})[0] for i in range(100)]
    assert len(set(codes)) == len(codes)
    for code in codes:
        assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert not set(CODE_ALPHABET) & set("0O1IL")
    code = codes[0]
    assert store.tables.info(code).options == {"n": 0}
    for typed in (code.lower(), f" {code[:3]}-{code[3:]} ", f"{code[:3]} {code[3:].lower()}"):
        assert store.tables.info(typed).code == code


def test_tokens_are_stored_only_as_hashes(store):
    code, host_token = store.tables.create("magic-spell", {"wizards": 2})
    player_token = store.tables.add_player(code, "Ann")[1]
    with store.engine.connect() as connection:
        dump = " ".join(
            str(row)
            for name in ("tables", "players", "actions")
            for row in connection.execute(text(f"SELECT * FROM {name}"))
        )
    for token in (host_token, player_token):
        assert len(token) >= 43  # 32 random bytes, base64
        assert token not in dump
        assert hashlib.sha256(token.encode()).hexdigest() in dump


def test_actor_for_finds_the_host_and_players_and_nobody_else(store):
    code, host_token = store.tables.create("magic-spell", {})
    other_code, other_host_token = store.tables.create("magic-spell", {})
    ann_joined, ann_token = store.tables.add_player(code, "Ann")
    bob_joined, bob_token = store.tables.add_player(code, "Bob")
    ann, bob = ann_joined.actor, bob_joined.actor
    assert (ann, bob) == ("p1", "p2")
    assert store.tables.actor_for(code, host_token) == HOST
    assert store.tables.actor_for(code, ann_token) == ann
    assert store.tables.actor_for(code.lower(), bob_token) == bob
    assert store.tables.actor_for(code, ann_token[:-1]) is None
    assert store.tables.actor_for(code, other_host_token) is None
    assert store.tables.actor_for(other_code, ann_token) is None
    assert store.tables.actor_for("ZZZZZZ", host_token) is None
    assert [(p.id, p.name) for p in store.tables.players(code)] == [("p1", "Ann"), ("p2", "Bob")]
    assert store.tables.players(other_code) == []


HOSTILE = ["", " ", "\x00", "\ud800", "x" * 100_000, "'; DROP TABLE actions; --", "%s", "ÅBÇ🙂", "-" * 30, "\n"]


@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
def test_any_string_from_a_client_gets_an_answer_not_an_exception(store, hostile):
    code, host_token = store.tables.create("magic-spell", {})
    assert store.tables.info(hostile) is None
    assert store.log.read(hostile) == []
    assert store.tables.players(hostile) == []
    assert store.tables.actor_for(hostile, host_token) is None
    assert store.tables.actor_for(code, hostile) is None
    with pytest.raises(NoSuchTable):
        store.tables.add_player(hostile, "Ann")
    with pytest.raises(NoSuchTable):
        store.log.append(hostile, HOST, "pass", {}, nothing)
    joined, token = store.tables.add_player(code, hostile)
    assert store.tables.actor_for(code, token) == joined.actor
    entry = store.log.append(code, joined.actor, hostile, {"text": hostile}, nothing)
    assert store.log.read(code) == [joined, entry]


def test_append_numbers_entries_1_2_3_and_log_reads_them_back(store):
    code, _ = store.tables.create("magic-spell", {})
    other, _ = store.tables.create("magic-spell", {})
    entries = [store.log.append(code, HOST, "roll", {"dice": [i, 6]}, nothing) for i in range(3)]
    assert [entry.seq for entry in entries] == [1, 2, 3]
    assert store.log.append(other, HOST, "roll", {}, nothing).seq == 1  # each table counts on its own
    assert store.log.read(code) == entries
    assert entries[2].payload == {"dice": [2, 6]}
    moment = datetime.fromisoformat(entries[0].at)
    assert moment.utcoffset().total_seconds() == 0
    assert abs((datetime.now(moment.tzinfo) - moment).total_seconds()) < 60


def test_check_sees_the_log_and_a_refusal_appends_nothing(store):
    code, _ = store.tables.create("magic-spell", {})
    first = store.log.append(code, HOST, "roll", {}, nothing)
    seen = []
    store.log.append(code, HOST, "roll", {}, seen.append)
    assert seen == [[first]]

    def refuse(log):
        raise Refused("Not now.")

    with pytest.raises(Refused, match="Not now"):
        store.log.append(code, HOST, "roll", {}, refuse)
    assert [entry.seq for entry in store.log.read(code)] == [1, 2]
    assert store.log.append(code, HOST, "roll", {}, nothing).seq == 3


def test_log_after_returns_exactly_the_later_entries(store):
    code, _ = store.tables.create("magic-spell", {})
    for i in range(5):
        store.log.append(code, HOST, "roll", {"i": i}, nothing)
    assert [entry.seq for entry in store.log.read(code, after=2)] == [3, 4, 5]
    assert store.log.read(code, after=5) == []
    assert store.log.read(code, after=10**30) == []
    assert [entry.seq for entry in store.log.read(code, after=-7)] == [1, 2, 3, 4, 5]


def test_appends_from_many_threads_never_repeat_or_skip_a_seq(store):
    code, _ = store.tables.create("magic-spell", {})
    errors = []

    def append_many(actor):
        try:
            for i in range(10):
                store.log.append(code, actor, "roll", {"i": i}, contiguous)
        except Exception as error:  # reported below, with the others
            errors.append(error)

    threads = [threading.Thread(target=append_many, args=(f"p{n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    log = store.log.read(code)
    assert [entry.seq for entry in log] == list(range(1, 81))
    assert Counter(entry.actor for entry in log) == {f"p{n}": 10 for n in range(8)}


def test_a_join_is_the_player_and_their_entry_or_neither(store):
    code, _ = store.tables.create("magic-spell", {})
    seen = []

    def full(log, player_id):
        seen.append((len(log), player_id))
        raise ValueError("the table is full")

    joined, _ = store.tables.add_player(code, "Ann")
    assert (joined.seq, joined.actor, joined.type, joined.payload) == (1, "p1", JOIN, {"name": "Ann"})
    with pytest.raises(ValueError, match="full"):
        store.tables.add_player(code, "Bob", full)
    assert seen == [(1, "p2")]  # the check saw the log and the id the player would have had
    assert [p.name for p in store.tables.players(code)] == ["Ann"] and store.log.read(code) == [joined]
    assert store.tables.add_player(code, "Cy")[0].actor == "p2"


def test_players_joining_together_get_distinct_ids(store):
    code, _ = store.tables.create("magic-spell", {})
    joined = []
    threads = [
        threading.Thread(target=lambda n=n: joined.append(store.tables.add_player(code, f"W{n}"))) for n in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(entry.actor for entry, _ in joined) == [f"p{n}" for n in range(1, 7)]
    assert sorted(entry.seq for entry, _ in joined) == list(range(1, 7))


def append_from_another_process(url, code, actor, count):
    store = Store(url)
    for i in range(count):
        store.log.append(code, actor, "roll", {"i": i}, contiguous)


@pytest.mark.slow
def test_appends_from_two_processes_never_repeat_or_skip_a_seq(store, database_url):
    code, _ = store.tables.create("magic-spell", {})
    spawn = multiprocessing.get_context("spawn")
    processes = [spawn.Process(target=append_from_another_process, args=(database_url, code, a, 25)) for a in "ab"]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [process.exitcode for process in processes] == [0, 0]
    log = store.log.read(code)
    assert [entry.seq for entry in log] == list(range(1, 51))
    assert Counter(entry.actor for entry in log) == {"a": 25, "b": 25}
