"""An undo, a join, the history and the export cost the same on a long game as on a new one: at
2,000 entries an undo folds only from the newest checkpoint before the move it takes back, a join
applies no move, the history comes a page at a time by default, and the export is sent as it is
read, a page at a time; every answer is the one a fold of the whole log gives."""

from __future__ import annotations

import json

import pytest

from companion.moves import CHECKPOINT_EVERY
from companion.play import Play
from companion.schemas import HISTORY_PAGE
from companion.seats import Seat
from companion.table_views import EXPORT_PAGE
from pnp.gamedef import games
from pnp.rules.table import HOST, UNDO, Refused
from tests.support.api import bearer, whole_history
from tests.test_companion_checkpoints import ENTRIES, counted, long_log, whole_fold  # noqa: F401 (a fixture)


def long_table(url: str, upto: int = ENTRIES) -> tuple[Play, str, str]:
    """A started Magic Spell table of Ann and Bo whose log runs to `upto` (Ann's spirit moves, a
    checkpoint every CHECKPOINT_EVERY), in a server just started (nothing in memory): its code and
    host token."""
    play = Play.open(url, [], games())
    code, host = play.create("magic-spell", {})
    play.seats.join(code, "Ann")
    play.seats.join(code, "Bo")
    play.moves.act(code, Seat(HOST), "start", {})
    long_log(play, code, upto)
    play.close()
    return Play.open(url, [], games()), code, host


def test_an_undo_at_2000_entries_folds_from_the_checkpoint_before_the_move(tmp_path, counted):  # noqa: F811
    play, code, _ = long_table(f"sqlite:///{tmp_path / 'companion.sqlite3'}", ENTRIES + 30)
    ann, bo = Seat("p1"), Seat("p2")
    made, _ = play.moves.act(code, ann, "spirit", {"delta": 1})  # 2,031
    for _ in range(3):  # 2,032-2,034: Bo's moves follow Ann's, and must still stand without it
        play.moves.act(code, bo, "spirit", {"delta": 1})
    counted.update(read=0, applied=0)
    undo, table = play.moves.undo(code, ann, made.seq)
    # folded: from the checkpoint at 2,000 to 2,034, less Ann's move taken back; never the whole log
    assert counted["applied"] == made.seq + 3 - ENTRIES - 1
    assert counted["read"] == made.seq + 3 - ENTRIES
    assert undo.type == UNDO and undo.payload == {"seq": made.seq}
    assert table.state == whole_fold(play, code)
    # Ann's latest move that stands is now 2,030, before three of Bo's: the same walk back finds it
    counted.update(read=0, applied=0)
    _, table = play.moves.undo(code, ann, made.seq - 1)
    assert counted["applied"] <= 2 * CHECKPOINT_EVERY and table.state == whole_fold(play, code)
    with pytest.raises(Refused) as refused:  # a move that is not her latest that stands, as before
        play.moves.undo(code, ann, made.seq - 5)
    assert (
        str(refused.value)
        == f"Move {made.seq - 5} is not your latest move that stands (move {made.seq - 2} is); look again."
    )
    again, none = play.moves.undo(code, ann, made.seq)  # a second tap: the undo that did it, nothing more
    assert again == undo and none is None
    play.close()


def test_undos_back_across_a_checkpoint_match_the_whole_fold_in_a_server_without_the_state(tmp_path):
    url = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    play, code, _ = long_table(url, ENTRIES + 2)
    ann = Seat("p1")
    for seq in range(ENTRIES + 2, ENTRIES - 3, -1):  # 2,002 back to 1,998: the checkpoint at 2,000 goes
        play.moves.undo(code, ann, seq)
        restarted = Play.open(url, [], games())  # another worker: the checkpoints and the log only
        folded = restarted.replays.replayed(code).state
        assert folded == whole_fold(restarted, code) == play.replays.replayed(code).state
        restarted.close()
    play.close()


def test_a_join_at_2000_entries_applies_no_move(tmp_path, counted):  # noqa: F811
    play, code, _ = long_table(f"sqlite:///{tmp_path / 'companion.sqlite3'}")
    whole = whole_fold(play, code)
    counted.update(read=0, applied=0)
    try:
        player, _ = play.seats.join(code, "Cy")
        joined = True
    except Refused as refused:
        joined, why = False, str(refused)
    assert counted["applied"] == 0  # the newest checkpoint is the state: nothing to fold
    # the answer is the rules' own on the whole log's state
    tracker = play.tracker("magic-spell")
    try:
        tracker.join(whole, "p3", "Cy")
        assert joined and player == "p3"
    except Refused as expected:
        assert not joined and why == str(expected)
    play.close()


def test_the_history_is_a_page_by_default_and_the_export_streams_the_whole_log(tmp_path):
    from companion import create_app

    url = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    play, code, host = long_table(url, EXPORT_PAGE * 2 + 7)  # three export pages
    undone = play.moves.undo(code, Seat("p1"), EXPORT_PAGE * 2 + 7)[0]
    play.close()
    client = create_app({"TESTING": True, "DATABASE_URL": url, "INSTANCE_PATH": str(tmp_path)}).test_client()

    page = client.get(f"/api/tables/{code}/history").json
    newest = undone.seq
    assert [e["seq"] for e in page["history"]] == list(range(newest - HISTORY_PAGE + 1, newest + 1))
    assert page["earlier"] == newest - HISTORY_PAGE + 1
    schema = client.get("/api/openapi.json").json
    [limit] = [p for p in schema["paths"]["/api/tables/{code}/history"]["get"]["parameters"] if p["name"] == "limit"]
    assert limit["schema"]["default"] == HISTORY_PAGE  # the default page is documented where clients read it

    response = client.get(f"/api/tables/{code}/export", headers=bearer(host))
    assert response.status_code == 200 and response.is_streamed and response.mimetype == "application/json"
    exported = json.loads(response.get_data(as_text=True))
    assert set(exported) == {"code", "game", "options", "event", "log", "state"}
    history = whole_history(client, code, bearer(host))
    assert exported["log"] == history and len(history) == newest
    assert [e["seq"] for e in exported["log"] if e["undone"]] == [undone.payload["seq"]]
    assert exported["state"] == client.get(f"/api/tables/{code}", headers=bearer(host)).json["state"]
