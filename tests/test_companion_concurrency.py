"""Many moves at once at one table, over real HTTP to `companion serve` (SQLite with its one
worker; PostgreSQL with four), for each of the five games: nothing is lost and nothing doubled
(every move answered 200 is in the log exactly once, no refused one is, the seqs run without a
gap), every stream got every event once and in order, the table the server shows each viewer is
what a fresh replay of its log shows, and in a game with secrets no viewer's answer, read or
stream ever held what only another player may see (issue 26).

Each table takes MOVES safe moves (tests/safe_moves.py) and READS reads from THREADS threads at
once, while a stream per viewer follows it."""

from __future__ import annotations

import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from pnp.gamedef import games
from tests.conftest import fresh_schema
from tests.support.http import call, server
from tests.support.safe_moves import GAMES, SAFE_PLAYS, begun, send
from tests.support.stored import fresh_view, moves_in, sent_key, stored_log
from tests.support.stream import Follower

pytestmark = pytest.mark.slow  # real servers in subprocesses

MOVES, READS, THREADS = 200, 40, 16
SECRET_GAMES = {"spellcycles", "magecraft"}  # the trackers that redact (checked below)


def test_the_games_with_secrets_are_the_ones_checked_for_them():
    """A game that starts hiding something is checked here too: its leaks need a rule below."""
    assert {g for g in GAMES if games()[g].load("tracker").redact is not None} == SECRET_GAMES


def leaks(game: str, viewer: str | None, document) -> list[str]:
    """What in `document` (any answer, read or event `viewer` got) is not for `viewer`: a table
    shown as someone else sees it, or an entry holding another's drawn gems or certificates, or
    the certificate pile or a cast's seed, which no one sees."""
    found = []

    def entry(actor: str, type_: str, payload: dict) -> None:
        if game == "magecraft":
            deal = payload.get("deal") or {}
            for pid, hand in zip(deal.get("order", ()), deal.get("drawn", ()), strict=True):
                if isinstance(hand, list) and pid != viewer:
                    found.append(f"{pid}'s opening hand")
            drawer = (payload.get("done") or {}).get("player", actor)
            if isinstance(payload.get("drawn"), list) and payload["drawn"] and drawer != viewer:
                found.append(f"{drawer}'s drawn gems")
        if game == "spellcycles":
            if "pile" in (payload.get("deal") or {}) or "seed" in payload:
                found.append("the pile or a seed")
            if type_ == "cast" and isinstance(payload.get("cards"), list) and actor != viewer:
                found.append(f"{actor}'s certificates")

    def walk(node) -> None:
        if isinstance(node, dict):
            if "you" in node and "state" in node and node["you"]["actor"] != viewer:
                found.append(f"the table as {node['you']['actor']} sees it")
            if "players" in node and "you" in node and not isinstance(node["you"], dict) and node["you"] != viewer:
                found.append(f"the game as {node['you']} sees it")  # a tracker's view names its viewer
            if {"actor", "type", "payload"} <= node.keys():
                entry(node["actor"], node["type"], node["payload"])
            if "entry" in node and "table" in node:  # a stream's event: the payload at its top too
                top = {k: v for k, v in node.items() if k not in ("type", "entry", "table")}
                entry(node["entry"]["actor"], node["type"], top)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    return found


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database_url(request, tmp_path_factory):
    """One database for the module's tables (conftest's database_url, made once): SQLite, and
    PostgreSQL with DATABASE_URL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('concurrency') / 'companion.sqlite3'}"
        return
    with fresh_schema(request.getfixturevalue("postgresql_database")) as url:
        yield url


@pytest.fixture(scope="module")
def serving(database_url, tmp_path_factory) -> tuple[int, int]:
    """The server every table of the module plays on (its port, its workers): SQLite's one
    worker; four on PostgreSQL. A start takes seconds: once a database, not once a game."""
    workers = 1 if database_url.startswith("sqlite") else 4
    with server(database_url, tmp_path_factory.mktemp("instance"), workers=workers) as port:
        yield port, workers


@pytest.fixture(params=GAMES)
def game(request):
    return request.param


def test_many_moves_at_once_lose_nothing_double_nothing_and_show_no_one_another_s_secrets(game, database_url, serving):
    play = SAFE_PLAYS[game]
    port, workers = serving
    table = begun(port, game)
    base = f"/api/tables/{table.code}"
    tokens = {"host": table.host, **table.tokens, None: None}  # None: a spectator
    followers = {viewer: Follower(port, table.code, token) for viewer, token in tokens.items()}
    for follower in followers.values():
        follower.start()
    before = call(port, "GET", base)[1]["seq"]

    rng = random.Random(f"{game} {workers}")
    moves = [play.move(rng, list(table.tokens)) for _ in range(MOVES)]
    reads = [(rng.choice(list(tokens)), rng.choice(("", "/history", "/export"))) for _ in range(READS)]
    jobs = [("move", m) for m in moves] + [("read", r) for r in reads]
    rng.shuffle(jobs)

    def run(job):
        kind, what = job
        if kind == "move":
            return send(table, what)
        viewer, path = what
        return call(port, "GET", base + path, token=tokens[viewer])

    with ThreadPoolExecutor(THREADS) as pool:
        answers = list(pool.map(run, jobs))
    seq = call(port, "GET", base)[1]["seq"]
    streamed = {viewer: follower.until(seq) for viewer, follower in followers.items()}
    shown = {viewer: call(port, "GET", base, token=token)[1] for viewer, token in tokens.items()}

    statuses = Counter(status for status, _ in answers)
    assert set(statuses) <= {200, 403, 409}, statuses  # a refusal is the rules', never an error
    accepted = [job[1] for job, (status, _) in zip(jobs, answers, strict=True) if job[0] == "move" and status == 200]
    assert len(accepted) >= 30, statuses  # a Spells and Potions tournament holds 42 moves

    log = stored_log(database_url, table.code)
    assert [e.seq for e in log] == list(range(1, seq + 1)), "the seqs have a gap or a repeat"
    sent = Counter(sent_key(who, type_, payload) for who, type_, payload in accepted)  # "host" is the host's actor id
    fields = {type_: sorted(payload) for _, type_, payload in moves}
    assert moves_in(log, fields, before) == sent, "the log's moves are not the ones answered 200"

    for viewer, events in streamed.items():
        assert [seq_ for seq_, _ in events] == list(range(1, seq + 1)), f"{viewer}'s stream"
        assert [data["entry"]["type"] for _, data in events] == [e.type for e in log]

    for viewer, table_shown in shown.items():  # the server's table, kept move by move, is a fresh replay's
        assert table_shown["seq"] == seq
        assert table_shown["state"] == fresh_view(game, play.options, log, viewer), f"{viewer}'s table"

    if game in SECRET_GAMES:
        raw = [{"actor": e.actor, "type": e.type, "payload": dict(e.payload)} for e in log]
        assert leaks(game, None, raw), "the log as stored holds secrets: the check must see them"
        got = {viewer: [data for _, data in events] for viewer, events in streamed.items()}
        for (_, what), (_, answer) in zip(jobs, answers, strict=True):
            got[what[0]].append(answer)  # a move's mover, a read's reader
        for viewer, documents in got.items():
            assert leaks(game, viewer, documents) == [], f"{viewer} was shown what is not theirs"
