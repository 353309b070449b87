"""An accepted move is answered with its own seq and the table right after it (issue 34): with
several workers, other moves commit between a move's append and its answer, and the answer must
not show theirs (on PostgreSQL with 4 workers, a third of Magecraft's answers named a later move)."""

from __future__ import annotations

from companion.seats import Seat
from tests.support.api import bearer, join, open_table, undo_latest


def spirits(view: dict) -> dict[str, int]:
    return {student: s["spirit"] for student, s in view["state"]["students"].items()}


def another_move_after_each(play, code: str, seat: Seat) -> list[int]:
    """After each announced append, `seat` moves its spirit +1 (as another worker's move would
    commit then): the seqs of those moves."""
    announce, made, theirs = play.announce, [], []

    def then_another(info, seq):
        announce(info, seq)
        if not theirs:  # not after its own
            theirs.append(True)
            made.append(play.moves.act(code, seat, "spirit", {"delta": 1})[0].seq)
            theirs.clear()

    play.announce = then_another
    return made


def test_a_move_answered_after_another_commits_shows_itself_not_the_later_move(app, client):
    play = app.extensions["play"]
    table = open_table(client, "magic-spell")
    code, host = table["code"], bearer(table["host_token"])
    ann, bo = bearer(join(client, code, "Ann")["token"]), join(client, code, "Bo")["player_id"]
    assert client.post(f"/api/tables/{code}/actions", json={"type": "start"}, headers=host).status_code == 200
    before = spirits(client.get(f"/api/tables/{code}").json)
    others = another_move_after_each(play, code, Seat(bo))

    res = client.post(f"/api/tables/{code}/actions", json={"type": "spirit", "delta": 3}, headers=ann)
    assert res.status_code == 200, res.json
    assert others == [res.json["seq"] + 1]  # Bo's move committed after Ann's, before her answer
    assert spirits(res.json) == {**before, "p1": before["p1"] + 3}  # hers in it, his not
    assert client.get(f"/api/tables/{code}").json["seq"] == others[0]

    undone = undo_latest(client, code, ann)  # Ann takes hers back; Bo moves again before the answer
    assert undone.status_code == 200, undone.json
    assert others[1] == undone.json["seq"] + 1
    assert spirits(undone.json) == {**before, "p2": before["p2"] + 1}
