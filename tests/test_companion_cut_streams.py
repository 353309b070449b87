"""A phone's stream cut again and again in the middle of a game (the socket closed, sometimes in
the middle of an event) and resumed each time with Last-Event-ID gets every event exactly once,
in order, and each is the log's entry of that seq: for every registered game, while moves keep
coming (issue 26). The phone is a player's: in a game with secrets, its own view is resumed.

tests/test_companion_live.py resumes a stream once, at a quiet moment; here it is CUTS times."""

from __future__ import annotations

import random
import threading
import time

import pytest

from tests.support.http import call, server
from tests.support.safe_moves import GAMES, begun, offered, send
from tests.support.stored import stored_log
from tests.support.stream import cut, events, opened

pytestmark = pytest.mark.slow  # a real server in a subprocess

CUTS, MOVES = 15, 40  # MOVES answered 200 (a Spells and Potions tournament holds some 45)


@pytest.fixture(scope="module")
def serving(tmp_path_factory) -> tuple[str, int]:
    """One server (SQLite) for the module's tables: its database and port."""
    folder = tmp_path_factory.mktemp("cut-streams")
    database = f"sqlite:///{folder / 'companion.sqlite3'}"
    with server(database, folder) as port:
        yield database, port


@pytest.mark.parametrize("game", GAMES)
def test_a_stream_cut_again_and_again_and_resumed_gets_every_event_once_in_order(game, serving):
    database, port = serving
    table = begun(port, game)
    phone = next(iter(table.tokens.values()))  # the first player's
    rng = random.Random(game)

    def moves() -> None:
        accepted, dice = 0, random.Random(f"{game} moves")
        for _ in range(20 * MOVES):  # the only mover: what it is offered stands until it moves
            move = offered(table, dice)
            accepted += move is not None and send(table, move)[0] == 200
            if accepted == MOVES:
                return
            time.sleep(0.01)

    mover = threading.Thread(target=moves)
    mover.start()
    got, last = [], 0
    for _ in range(CUTS):  # a life reads a few lines (an event is 3; 15 lives at most 120, fewer
        # than a game of MOVES has), then its socket is cut wherever it is
        stream = opened(port, table.code, phone, last_event_id=last)
        for seq, data in events(stream, lines=rng.randint(2, 8)):
            got.append((seq, data))
            last = seq
        cut(stream)
    mover.join(60)
    final = call(port, "GET", f"/api/tables/{table.code}")[1]["seq"]
    assert last < final, "every cut came after the game's last move: none was mid-game"
    stream = opened(port, table.code, phone, last_event_id=last)
    for seq, data in events(stream):
        got.append((seq, data))
        if seq == final:
            break
    cut(stream)

    log = stored_log(database, table.code)
    assert [seq for seq, _ in got] == list(range(1, final + 1))  # every event once, in order
    assert [(data["entry"]["seq"], data["entry"]["type"]) for _, data in got] == [(e.seq, e.type) for e in log]
