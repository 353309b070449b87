"""A move costs the same on a long game as on a new one: at 2,000 entries an action reads no entry
of the log and applies one move when the server holds the table's state; a restarted server folds
only the entries after the newest checkpoint; an undo of the checkpoint's own entry makes the next
fold start from the checkpoint before it, and every fold equals the whole log's. The history is
read a page at a time."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

import companion.store.log
from companion.moves import CHECKPOINT_EVERY
from companion.play import Play
from companion.seats import Seat
from companion.store.schema import actions, checkpoints, tables
from pnp.gamedef import games
from pnp.rules.flow import Rules
from pnp.rules.table import HOST, SPECTATOR, Entry, extend, replay
from tests.support.api import error_of, undo_latest
from tests.test_companion_undo import spirited

ENTRIES = 2000  # the long game


@pytest.fixture
def counted(monkeypatch):
    """How many log rows the store reads and how many moves the rules apply, since the last reset."""
    counts = {"read": 0, "applied": 0}
    read_log, apply = companion.store.log.read_entries, Rules.apply

    def reading(connection, table_id, after):
        rows = read_log(connection, table_id, after)
        counts["read"] += len(rows)
        return rows

    def applying(self, *args, trial: bool = False):
        counts["applied"] += not trial  # a fold's moves and the move checked, not the moves tried for the offers
        return apply(self, *args, trial=trial)

    monkeypatch.setattr(companion.store.log, "read_entries", reading)
    monkeypatch.setattr(Rules, "apply", applying)
    return counts


def whole_fold(play: Play, code: str) -> dict:
    info = play.info(code)
    return replay(play.tracker(info.game), play.content(info.game), play.options(info), play.store.log.read(code)).state


def spirit_delta(n: int) -> int:
    return 1 - 2 * (n % 2)  # Ann's spirit up and down: the state keeps its size, the log grows


def started_table(url: str) -> tuple[Play, str]:
    """A worker on the database at `url`, and a Magic Spell table in it that Ann and Bo have begun."""
    play = Play.open(url, [], games())
    code, _ = play.create("magic-spell", {})
    play.seats.join(code, "Ann")
    play.seats.join(code, "Bo")
    play.moves.act(code, Seat(HOST), "start", {})
    return play, code


def long_log(play: Play, code: str, upto: int) -> None:
    """Ann's spirit moves after the start up to entry `upto`, written at once with a checkpoint
    every CHECKPOINT_EVERY entries, as the server would have written them: a long game in a moment."""
    info = play.info(code)
    tracker, content = play.tracker(info.game), play.content(info.game)
    log = play.store.log.read(code)
    table = replay(tracker, content, play.options(info), log)
    moves = [Entry(seq, "p1", "spirit", {"delta": spirit_delta(seq)}) for seq in range(len(log) + 1, upto + 1)]
    with play.store.engine.begin() as connection:
        table_id = connection.scalar(select(tables.c.id).where(tables.c.code == info.code))
        at = datetime.now(UTC)
        rows = [dict(table_id=table_id, seq=e.seq, at=at, actor=e.actor, type=e.type, payload=e.payload) for e in moves]
        connection.execute(actions.insert(), rows)
        for e in moves:
            table = extend(tracker, content, table, [e], e.seq - 1)
            if e.seq % CHECKPOINT_EVERY == 0:
                connection.execute(checkpoints.insert().values(table_id=table_id, seq=e.seq, state=table.state))


def test_a_move_at_2000_entries_reads_and_folds_only_what_follows_the_state_at_hand(tmp_path, counted):
    url = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    play, code = started_table(url)
    ann = Seat("p1")
    written = ENTRIES - CHECKPOINT_EVERY // 2
    long_log(play, code, written)
    for n in range(written, ENTRIES):  # the server's own moves write the checkpoint at 2,000
        play.moves.act(code, ann, "spirit", {"delta": spirit_delta(n)})

    counted.update(read=0, applied=0)
    play.moves.act(code, ann, "spirit", {"delta": 1})  # entry 2,001
    play.views.table(code, Seat(SPECTATOR))  # a phone reads the table
    assert counted == {"read": 0, "applied": 1}

    restarted = Play.open(url, [], games())  # no state in memory: the newest checkpoint, at 2,000, and what follows
    counted.update(read=0, applied=0)
    restarted.moves.act(code, ann, "spirit", {"delta": -1})  # entry 2,002
    assert counted == {"read": 1, "applied": 2}
    assert restarted.replays.replayed(code).state == whole_fold(restarted, code)

    # Ann takes back 2,002, 2,001, then 2,000: the checkpoint's own entry, so that checkpoint goes
    for seq in (2002, 2001, ENTRIES):
        restarted.moves.undo(code, ann, seq)
    assert restarted.replays.replayed(code).state == whole_fold(restarted, code)
    again = Play.open(url, [], games())
    counted.update(read=0, applied=0)
    state = again.replays.replayed(code).state
    assert counted == {"read": 2005 - (ENTRIES - CHECKPOINT_EVERY), "applied": CHECKPOINT_EVERY - 1}
    assert state == whole_fold(again, code)
    for each in (play, restarted, again):
        each.close()


def test_the_history_comes_in_pages_of_the_newest_entries_with_what_was_taken_back(client):
    code, _, ann = spirited(client)  # entries 1-6: two joins, the start, Ann's spirit three times
    assert undo_latest(client, code, ann).status_code == 200  # 7 takes back 6

    def page(query: str) -> tuple[list, int | None]:
        got = client.get(f"/api/tables/{code}/history?{query}").json
        return [(e["seq"], e["type"], e["undone"]) for e in got["history"]], got["earlier"]

    assert page("limit=3") == ([(5, "spirit", False), (6, "spirit", True), (7, "undo", False)], 5)
    assert page("limit=3&before=5") == ([(2, "join", False), (3, "start", False), (4, "spirit", False)], 2)
    assert page("limit=3&before=2") == ([(1, "join", False)], None)
    whole = client.get(f"/api/tables/{code}/history").json
    assert [e["seq"] for e in whole["history"]] == list(range(1, 8)) and whole["earlier"] is None
    refused = ("limit=0", "limit=501", "limit=x", "limit=3&limit=4")
    refused += ("before=-1", "before=null", "before=", "before=2&before=3")
    for query in refused:  # a second value is refused, not dropped; "null" is text, not no number
        field = query.partition("=")[0]
        error_of(client.get(f"/api/tables/{code}/history?{query}"), 422, field)


def test_an_undo_of_the_move_just_made_folds_nothing_and_any_other_folds_from_the_checkpoint(tmp_path, counted):
    """A phone taking back the move it just made starts from the table kept when that move was
    appended: no entry read, no move applied. Once another worker has appended after it, or for a
    worker that did not append it, the undo folds from the newest checkpoint; each undo's table is
    the whole log's fold."""
    url = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    play, code = started_table(url)
    ann = Seat("p1")
    long_log(play, code, CHECKPOINT_EVERY + 40)  # a checkpoint at 100, 40 entries after it
    other = Play.open(url, [], games())  # a second worker on the same database

    made, _ = play.moves.act(code, ann, "spirit", {"delta": 1})
    counted.update(read=0, applied=0)
    _, table = play.moves.undo(code, ann, made.seq)
    assert counted == {"read": 0, "applied": 0}
    assert table.state == whole_fold(play, code)
    assert [e.seq for e in table.standing][-1] == CHECKPOINT_EVERY + 40

    play.moves.act(code, ann, "spirit", {"delta": 1})
    theirs, _ = other.moves.act(code, ann, "spirit", {"delta": -1})  # after the move `play` kept
    counted.update(read=0, applied=0)
    _, table = play.moves.undo(code, ann, theirs.seq)  # not the move it appended: from the checkpoint
    after_checkpoint = theirs.seq - CHECKPOINT_EVERY
    assert counted == {"read": after_checkpoint, "applied": after_checkpoint - 3}  # less the undone pair and this one
    assert table.state == whole_fold(play, code)

    mine, _ = other.moves.act(code, ann, "spirit", {"delta": 1})
    counted.update(read=0, applied=0)
    _, table = other.moves.undo(code, ann, mine.seq)
    assert counted == {"read": 0, "applied": 0}
    assert table.state == whole_fold(other, code)
    for each in (play, other):
        each.close()


def test_who_a_move_is_made_as_is_decided_again_when_another_worker_moved_the_table_on(tmp_path, monkeypatch):
    """A worker decides who a move is recorded as on the state it holds; when another worker has
    appended since, the append's transaction decides it again on the table as it stands. Here a
    made-up rule: a host's spirit move for a seat is the seat's own until that seat's spirit is
    2 above where it began, and the host's from then."""
    actor_for, began = Rules.actor_for, {}

    def by_spirit(self, state, caller, type_, action):
        spirit = state.get("students", {}).get("p1", {}).get("spirit")
        if type_ == "spirit" and caller.host and began and spirit >= began["spirit"] + 2:
            return HOST
        return actor_for(self, state, caller, type_, action)

    monkeypatch.setattr(Rules, "actor_for", by_spirit)
    url = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    play, code = started_table(url)
    began["spirit"] = play.replays.replayed(code).state["students"]["p1"]["spirit"]
    for_ann = Seat("p1", by=HOST)  # the host playing Ann's seat, which has no phone
    first, _ = play.moves.act(code, for_ann, "spirit", {"player": "p1", "delta": 0})
    assert first.actor == "p1"

    other = Play.open(url, [], games())  # a second worker raises Ann's spirit by 2
    other.moves.act(code, Seat("p1"), "spirit", {"delta": 2})
    made, table = play.moves.act(code, for_ann, "spirit", {"player": "p1", "delta": 1})  # `play` holds the old spirit
    assert made.actor == HOST
    assert table.state == whole_fold(play, code)
    for each in (play, other):
        each.close()
