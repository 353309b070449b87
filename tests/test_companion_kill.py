"""A server killed with SIGKILL in the middle of a burst of moves (SQLite with its one worker;
PostgreSQL with four), for every registered game: every move it answered 200 before it died is in
the log once it is back, no move is there that was not sent, the seqs run without a gap, the table
reads as a fresh replay of its log, and it plays on (issue 26).

THREADS threads each read a random caller's offers and send one (tests/support/safe_moves.py)
until the server is gone; it is killed, its master and every worker at once, as soon as
KILL_AFTER moves have been answered 200."""

from __future__ import annotations

import http.client
import random
import threading
import time
from collections import Counter

import psutil
import pytest

from tests.support.http import call, free_port, server
from tests.support.safe_moves import GAMES, begun, offered, options_for, send
from tests.support.stored import fields_sent, fresh_view, moves_in, sent_key, stored_log
from tests.support.stream import events, opened

pytestmark = pytest.mark.slow  # real servers in subprocesses

THREADS, KILL_AFTER = 4, 15  # early: a Spells and Potions tournament takes some 45 moves in all
GONE = (OSError, http.client.HTTPException, ValueError)  # refused, reset, cut short: no answer


def killed(port: int) -> int:
    """SIGKILL the server listening on `port`: its master and every worker, no chance to finish
    anything; how many processes died."""
    master = next(p for p in psutil.Process().children() if str(port) in p.cmdline())
    victims = [master, *master.children(recursive=True)]
    for proc in victims:
        proc.kill()
    deadline = time.monotonic() + 10
    while any(alive(proc) for proc in victims):  # gone, or a zombie: dead, not yet reaped
        assert time.monotonic() < deadline, "SIGKILL did not kill the server"
        time.sleep(0.01)
    return len(victims)


def alive(proc: psutil.Process) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.fixture(params=GAMES)
def game(request):
    return request.param


def test_a_server_killed_mid_burst_loses_no_move_it_answered_and_plays_on(game, database_url, tmp_path):
    workers = 1 if database_url.startswith("sqlite") else 4
    port = free_port()
    answered, unanswered = [], []  # moves answered 200; moves whose answer never came
    cut = []  # each thread whose last request (a read of its offers, or a move) went unanswered
    with server(database_url, tmp_path, workers=workers, port=port):
        table = begun(port, game)
        before = call(port, "GET", f"/api/tables/{table.code}")[1]["seq"]

        def player(seed: int) -> None:
            rng = random.Random(f"{game} {seed}")
            while True:
                try:
                    move = offered(table, rng)
                except GONE:
                    cut.append(seed)
                    return  # the server is gone
                if move is None:
                    continue
                try:
                    status, _ = send(table, move)
                except GONE:
                    unanswered.append(move)
                    cut.append(seed)
                    return
                if status == 200:
                    answered.append(move)

        threads = [threading.Thread(target=player, args=(n,), daemon=True) for n in range(THREADS)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while len(answered) < KILL_AFTER:
            assert time.monotonic() < deadline, f"only {len(answered)} moves answered 200"
            time.sleep(0.005)
        acknowledged = list(answered)  # everything answered before the kill, and maybe a few after
        assert killed(port) >= workers + 1
        for thread in threads:
            thread.join(30)
        assert len(cut) == THREADS  # each thread's last request went unanswered: the kill hit mid-burst

    with server(database_url, tmp_path) as port:  # back on the same database (one worker reads it as well)
        table.port = port
        log = stored_log(database_url, table.code)
        seq = log[-1].seq
        assert [e.seq for e in log] == list(range(1, seq + 1)), "the seqs have a gap or a repeat"
        fields = fields_sent([*answered, *unanswered])
        logged = moves_in(log, fields, before)
        acked = Counter(sent_key(game, move, fields) for move in answered)
        assert len(acknowledged) >= KILL_AFTER and not acked - logged, "a move answered 200 is not in the log"
        sent = Counter(sent_key(game, move, fields) for move in unanswered)
        assert not logged - acked - sent, "a move no one sent is logged"

        base = f"/api/tables/{table.code}"
        shown = call(port, "GET", base, token=table.host)[1]
        assert shown["seq"] == seq and shown["state"] == fresh_view(game, options_for(game), log, "host")

        stream = opened(port, table.code, table.host, last_event_id=seq)  # a phone that saw all before
        move = offered(table, random.Random(game))  # it plays on: a move offered now is accepted, the next entry
        assert move is not None, "the game ended before the kill"
        status, after = send(table, move)
        assert status == 200 and after["seq"] == seq + 1, after
        got, data = next(events(stream))
        assert got == seq + 1 and data["entry"]["type"] == move[1]
        stream.conn.close()
