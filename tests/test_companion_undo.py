"""Undo names the move it takes back, on SQLite and on PostgreSQL: ten taps at once take back that
one move and nothing more; a move that is not the caller's latest standing one is refused in words."""

from __future__ import annotations

import threading

from tests.support.api import bearer, error_of, join, open_table, undo_latest


def spirited(client):
    """A started Magic Spell table where Ann has moved her spirit up three times: seqs 4, 5, 6."""
    table = open_table(client)
    code, host = table["code"], bearer(table["host_token"])
    ann = bearer(join(client, code, "Ann")["token"])
    join(client, code, "Bo")
    assert client.post(f"/api/tables/{code}/actions", json={"type": "start"}, headers=host).status_code == 200
    for _ in range(3):
        res = client.post(f"/api/tables/{code}/actions", json={"type": "spirit", "delta": 1}, headers=ann)
        assert res.status_code == 200, res.json
    return code, host, ann


def spirit(client, code) -> int:
    return client.get(f"/api/tables/{code}").json["state"]["students"]["p1"]["spirit"]


def test_ten_undos_naming_one_move_at_once_take_back_that_move_only(app, client):
    code, host, _ = spirited(client)
    before = spirit(client, code)
    barrier = threading.Barrier(10)
    answers = []

    def tap():
        barrier.wait()
        res = app.test_client().post(f"/api/tables/{code}/undo", json={"seq": 6}, headers=host)
        answers.append((res.status_code, res.json["state"]["students"]["p1"]["spirit"]))

    threads = [threading.Thread(target=tap) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [(200, before - 1)] * 10  # each tap is told the move is taken back
    history = client.get(f"/api/tables/{code}/history").json["history"]
    assert [(e["seq"], e["payload"]) for e in history if e["type"] == "undo"] == [(7, {"seq": 6})]
    assert [e["seq"] for e in history if e["undone"]] == [6]
    assert spirit(client, code) == before - 1


def test_an_undo_naming_a_move_that_is_not_the_latest_standing_one_is_409_and_takes_back_nothing(client):
    code, host, ann = spirited(client)
    before = spirit(client, code)
    for seq, latest in ((5, 6), (2, 6), (99, 6)):  # an earlier move of hers; a join; no move at all
        reason = error_of(client.post(f"/api/tables/{code}/undo", json={"seq": seq}, headers=ann), 409)["reason"]
        assert reason == f"Move {seq} is not your latest move that stands (move {latest} is); look again."
    history = client.get(f"/api/tables/{code}/history").json["history"]
    assert spirit(client, code) == before and not [e for e in history if e["type"] == "undo" or e["undone"]]
    assert undo_latest(client, code, ann).status_code == 200  # 6 now; then 5 is her latest
    assert client.post(f"/api/tables/{code}/undo", json={"seq": 5}, headers=ann).status_code == 200
    assert spirit(client, code) == before - 2


def test_an_undo_body_without_a_move_is_422_naming_seq(client):
    code, host, _ = spirited(client)
    for body in ({}, {"seq": "6"}, {"seq": 0}, {"seq": True}):
        error_of(client.post(f"/api/tables/{code}/undo", json=body, headers=host), 422, "seq")
    assert not [e for e in client.get(f"/api/tables/{code}/history").json["history"] if e["type"] == "undo"]
