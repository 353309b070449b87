"""Events through the Flask test client (SQLite, and PostgreSQL with DATABASE_URL): an event's
code and digest, the organiser's rolls (one per round however many taps, 409 for the second), how
many tables have finished the round and a roll ahead of them refused until confirmed (a double tap
rolls once), an organiser's roll racing a host's without a double roll, a
table opened late taking the event's rolls in turn, the leaderboard across tables with shared
places (JSON and CSV), the seed revealed at the end, the live stream's first message, and the
event's pages (page, projector, QR, a code typed at home)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import threading

import pytest

import companion.store.events
from companion.events import Events
from companion.play import Play
from companion.seats import Seat
from companion.store.log import Log
from companion.store.tables import Tables
from pnp.gamedef import games
from pnp.rules.chance import seeded_die
from pnp.rules.table import HOST
from tests.test_companion_checkpoints import whole_fold

GAME = "merchants-of-magick"
DICE = {"d6": 6, "d8": 8, "d10": 10, "d12": 12}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_event(client, name="Club night") -> dict:
    res = client.post("/api/events", json={"game": GAME, "name": name})
    assert res.status_code == 201, res.json
    return res.json


def roll(client, event: dict, round_: int, ahead: bool = False):
    organiser = bearer(event["organiser_token"])
    body = {"round": round_, "ahead": True} if ahead else {"round": round_}
    return client.post(f"/api/events/{event['code']}/roll", json=body, headers=organiser)


def seated_table(client, event: dict, names=("Ada", "Bo")) -> tuple[str, str, list[str]]:
    """A started table in the event: its code, host token and its players' tokens."""
    res = client.post(f"/api/events/{event['code']}/tables", json={})
    assert res.status_code == 201, res.json
    code, host = res.json["code"], res.json["host_token"]
    tokens = [client.post(f"/api/tables/{code}/players", json={"name": n}).json["token"] for n in names]
    assert client.post(f"/api/tables/{code}/actions", json={"type": "start"}, headers=bearer(host)).status_code == 200
    return code, host, tokens


def state(client, code: str) -> dict:
    return client.get(f"/api/tables/{code}").json["state"]


def test_an_event_shows_its_digest_and_no_seed_until_it_ends(client):
    event = new_event(client)
    assert event["seed"] is None and not event["ended"] and event["rolled"] == 0 and event["tables"] == 0
    assert len(event["seed_sha256"]) == 64 and event["join_url"].endswith(f"/e/{event['code']}")
    assert client.get(f"/api/events/{event['code'].lower()}").json["seed"] is None

    ended = client.post(f"/api/events/{event['code']}/end", headers=bearer(event["organiser_token"]))
    assert ended.status_code == 200 and ended.json["ended"]
    assert hashlib.sha256(bytes.fromhex(ended.json["seed"])).hexdigest() == event["seed_sha256"]
    again = client.post(f"/api/events/{event['code']}/end", headers=bearer(event["organiser_token"]))
    assert again.status_code == 409
    assert roll(client, event, 1).status_code == 409  # no rolls after the end
    assert client.post(f"/api/events/{event['code']}/tables", json={}).status_code == 409


def test_only_games_that_run_events_and_only_the_organiser(client):
    assert client.post("/api/events", json={"game": "magic-spell"}).status_code == 422
    assert client.post("/api/events/NOPE/roll", json={"round": 1}).status_code == 404
    event = new_event(client)
    code = event["code"]
    assert client.post(f"/api/events/{code}/roll", json={"round": 1}).status_code == 401
    wrong = client.post(f"/api/events/{code}/roll", json={"round": 1}, headers=bearer("not-the-token"))
    assert wrong.status_code == 401
    _, host, _ = seated_table(client, event)
    assert client.post(f"/api/events/{code}/roll", json={"round": 1}, headers=bearer(host)).status_code == 401
    assert client.post(f"/api/events/{code}/end").status_code == 401


def test_two_taps_on_roll_give_one_roll_per_round(client):
    event = new_event(client)
    table, _, _ = seated_table(client, event)
    first = roll(client, event, 1)
    assert first.status_code == 200 and first.json["tables"] == 1
    second = roll(client, event, 1)  # the other organiser's phone, a moment later
    assert second.status_code == 409 and "already rolled" in second.json["error"]["reason"]
    assert roll(client, event, 3).status_code == 409  # the next roll is round 2
    summary = client.get(f"/api/events/{event['code']}").json
    assert summary["rolled"] == 1 and [r["round"] for r in summary["rolls"]] == [1]
    assert state(client, table)["rolls"] == summary["rolls"]
    assert first.json["dice"] == summary["rolls"][0]["dice"]


def test_two_taps_at_the_same_moment_give_one_roll(app):
    event = new_event(app.test_client())
    statuses: list[int] = []
    start = threading.Barrier(2)

    def tap():
        client = app.test_client()
        start.wait()
        statuses.append(roll(client, event, 1).status_code)

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [200, 409]
    assert app.test_client().get(f"/api/events/{event['code']}").json["rolled"] == 1


def act(client, table: str, token: str, body: dict):
    res = client.post(f"/api/tables/{table}/actions", json=body, headers=bearer(token))
    assert res.status_code == 200, res.json
    return res.json


def finish_round(client, table: str, host: str, players: list[str]) -> None:
    """The host ends the Resource phase and every merchant is Ready in the Crafting phase."""
    act(client, table, host, {"type": "advance", "phase": "resource"})
    for token in players:
        act(client, table, token, {"type": "ready", "phase": "crafting"})


def progress(client, event: dict) -> dict:
    return client.get(f"/api/events/{event['code']}").json["progress"]


def test_a_roll_ahead_of_tables_still_playing_needs_the_organisers_yes(client):
    event = new_event(client)
    one, host_one, players_one = seated_table(client, event, names=("Ada", "Bo"))
    two, _, _ = seated_table(client, event, names=("Cy",))
    client.post(f"/api/events/{event['code']}/tables", json={})  # opened, never started: holds no one back
    assert progress(client, event) == {"round": 0, "finished": 2, "of": 2}
    assert roll(client, event, 1).status_code == 200  # nothing to finish before the first round
    assert progress(client, event) == {"round": 1, "finished": 0, "of": 2}

    ahead = roll(client, event, 2)  # the second of two quick taps
    assert ahead.status_code == 409
    error = ahead.json["error"]
    assert error["field"] == "ahead" and error["progress"] == {"round": 1, "finished": 0, "of": 2}
    assert error["reason"].startswith("0 of 2 tables have finished round 1; 2 still playing it.")
    summary = client.get(f"/api/events/{event['code']}").json
    assert summary["rolled"] == 1 and [len(state(client, t)["rolls"]) for t in (one, two)] == [1, 1]

    act(client, one, players_one[0], {"type": "ready", "phase": "resource"})  # Ready in the wrong phase: not done
    assert progress(client, event)["finished"] == 0
    finish_round(client, one, host_one, players_one)
    assert progress(client, event) == {"round": 1, "finished": 1, "of": 2}
    again = roll(client, event, 2)
    assert again.status_code == 409 and again.json["error"]["progress"]["finished"] == 1
    assert "1 still playing it" in again.json["error"]["reason"]

    for loose in ("yes", 1, "true"):  # a roll cannot be taken back: only a real true confirms it
        res = client.post(
            f"/api/events/{event['code']}/roll",
            json={"round": 2, "ahead": loose},
            headers=bearer(event["organiser_token"]),
        )
        assert res.status_code == 422 and res.json["error"]["field"] == "ahead"
    confirmed = roll(client, event, 2, ahead=True)
    assert confirmed.status_code == 200 and confirmed.json["tables"] == 2  # the table still playing takes it too
    assert [[r["round"] for r in state(client, t)["rolls"]] for t in (one, two)] == [[1, 2], [1, 2]]
    assert progress(client, event) == {"round": 2, "finished": 0, "of": 2}


def test_a_double_tap_once_every_table_has_finished_rolls_once(client):
    event = new_event(client)
    table, host, players = seated_table(client, event)
    assert roll(client, event, 1).status_code == 200
    finish_round(client, table, host, players)
    assert roll(client, event, 2).status_code == 200
    second = roll(client, event, 3)  # the same button a moment later: the table has just begun round 2
    assert second.status_code == 409 and second.json["error"]["field"] == "ahead"
    assert client.get(f"/api/events/{event['code']}").json["rolled"] == 2
    assert [r["round"] for r in state(client, table)["rolls"]] == [1, 2]


def test_a_table_past_its_crafting_phase_has_finished_the_round(client):
    event = new_event(client)
    table, host, _ = seated_table(client, event)
    assert roll(client, event, 1).status_code == 200
    act(client, table, host, {"type": "advance", "phase": "resource"})
    assert progress(client, event)["finished"] == 0  # crafting, nobody Ready
    act(client, table, host, {"type": "advance", "phase": "crafting"})  # the host moves on without them
    assert state(client, table)["round_phase"] == "mastery"
    assert progress(client, event) == {"round": 1, "finished": 1, "of": 1}
    assert roll(client, event, 2).status_code == 200  # nothing to confirm


def test_a_finished_game_has_finished_every_round(client):
    event = new_event(client)
    table, host, players = seated_table(client, event, names=("Ada",))
    for r in range(1, 11):
        assert roll(client, event, r).status_code == 200, r
        finish_round(client, table, host, players)
    act(client, table, host, {"type": "advance", "phase": "crafting"})
    act(client, table, host, {"type": "advance", "phase": "mastery"})
    assert progress(client, event) == {"round": 10, "finished": 1, "of": 1}  # the paper sheets' final scores
    act(client, table, host, {"type": "advance", "phase": "scoring"})
    assert state(client, table)["phase"] == "over"
    assert progress(client, event) == {"round": 10, "finished": 1, "of": 1}


def test_an_organisers_roll_racing_a_hosts_roll_gives_the_table_each_round_once(app):
    client = app.test_client()
    event = new_event(client)
    early, host_early, players = seated_table(client, event)
    assert roll(client, event, 1).status_code == 200
    late, host, _ = seated_table(client, event, names=("Cy",))  # begins after round 1: takes it from its host
    finish_round(client, early, host_early, players)
    start = threading.Barrier(2)
    statuses: dict[str, int] = {}

    def organiser():
        start.wait()
        statuses["organiser"] = roll(app.test_client(), event, 2, ahead=True).status_code

    def hosts_roll():
        start.wait()
        res = app.test_client().post(
            f"/api/tables/{late}/actions", json={"type": "roll", "round": 1}, headers=bearer(host)
        )
        statuses["host"] = res.status_code

    threads = [threading.Thread(target=organiser), threading.Thread(target=hosts_roll)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert statuses == {"organiser": 200, "host": 200}
    rounds = [r["round"] for r in state(client, late)["rolls"]]
    assert rounds in ([1], [1, 2])  # round 2 reached it only if its host's roll came first; never twice
    assert [r["round"] for r in state(client, early)["rolls"]] == [1, 2]


def test_the_streams_of_an_events_tables_render_a_roll_without_reading_the_store(client, monkeypatch):
    """Each table's streams get the roll with the table as it stands after it from what the roll
    kept: the entry as appended, the state it was checked to, the seats already read."""
    event = new_event(client)
    codes = [seated_table(client, event)[0] for _ in range(3)]
    play = client.application.extensions["play"]
    audiences = [play.seats.audience(play.info(code), None) for code in codes]
    seqs = [play.feed.after(audience, 0, None)[-1][0] for audience in audiences]  # the streams, open
    rolled = roll(client, event, 1).json["dice"]
    reads = []

    def counted(part: type, name: str):
        read = getattr(part, name)

        def counting(self, *args, **kwargs):
            reads.append(name)
            return read(self, *args, **kwargs)

        return counting

    for part, name in ((Log, "read"), (Tables, "players")):
        monkeypatch.setattr(part, name, counted(part, name))
    sent = []
    for audience, seq in zip(audiences, seqs, strict=True):
        ((at, text),) = play.feed.after(audience, seq, seq + 1)
        sent.append(json.loads(text.partition("data: ")[2]))
        assert at == seq + 1 and sent[-1]["type"] == "roll" and sent[-1]["dice"] == rolled
        assert sent[-1]["table"]["seq"] == seq + 1 and sent[-1]["table"]["state"]["dice"] == rolled
    assert reads == []
    for code, data in zip(codes, sent, strict=True):  # the entry as the store holds it, to the microsecond
        stored = client.get(f"/api/tables/{code}/history").json["history"][-1]
        assert data["entry"] == {k: v for k, v in stored.items() if k != "undone"}


def test_the_rolls_come_from_the_seed_revealed_at_the_end(client):
    event = new_event(client)
    seated_table(client, event)
    rolled = [roll(client, event, r, ahead=True).json["dice"] for r in (1, 2, 3)]
    seed = client.post(f"/api/events/{event['code']}/end", headers=bearer(event["organiser_token"])).json["seed"]
    for round_, dice in enumerate(rolled, start=1):
        assert dice == {die: seeded_die(seed, round_, die, faces) for die, faces in DICE.items()}


def test_a_late_table_takes_the_events_rolls_in_turn(client):
    event = new_event(client)
    early, _, _ = seated_table(client, event)
    rolls = [roll(client, event, r, ahead=True).json for r in (1, 2)]
    assert [r["tables"] for r in rolls] == [1, 1]

    late, host, _ = seated_table(client, event, names=("Cy",))
    assert roll(client, event, 3, ahead=True).json["tables"] == 1  # the late table is at round 1: not reached
    assert state(client, late)["rolls"] == []
    for round_ in (1, 2, 3):  # its host's Roll takes the event's rounds one by one
        res = client.post(f"/api/tables/{late}/actions", json={"type": "roll", "round": round_}, headers=bearer(host))
        assert res.status_code == 200, res.json
        assert res.json["state"]["dice"] == state(client, early)["rolls"][round_ - 1]["dice"]
    ahead = client.post(f"/api/tables/{late}/actions", json={"type": "roll", "round": 4}, headers=bearer(host))
    assert ahead.status_code == 409  # not rolled by the organiser yet
    assert state(client, late)["rolls"] == state(client, early)["rolls"]


def scores(client, table: str, token: str, coins: int, fulfilled: int, potions: int) -> None:
    body = {"type": "scores", "lines": {"crafting": coins}, "fulfilled": fulfilled, "potions": potions}
    res = client.post(f"/api/tables/{table}/actions", json=body, headers=bearer(token))
    assert res.status_code == 200, res.json


def test_the_leaderboard_ranks_every_table_with_the_tie_breaks_and_shares_places(client):
    event = new_event(client)
    one, _, (ada, bo) = seated_table(client, event, names=("Ada", "Bo"))
    two, _, (cy, di) = seated_table(client, event, names=("Cy", "Di"))
    scores(client, one, ada, 20, 2, 1)
    scores(client, two, cy, 20, 2, 1)  # Ada's equal on coins and both tie-breaks, at another table
    scores(client, one, bo, 20, 2, 0)  # fewer potions: after them
    scores(client, two, di, 25, 0, 0)
    rows = client.get(f"/api/events/{event['code']}/leaderboard").json["rows"]
    ranked = [(row["name"], row["table"], row["total"], row["place"]) for row in rows]
    assert ranked[0] == ("Di", two, 25, 1)
    assert sorted(ranked[1:3]) == [("Ada", one, 20, 2), ("Cy", two, 20, 2)]
    assert ranked[3][:3] == ("Bo", one, 20) and ranked[3][3] > 2

    res = client.get(f"/api/events/{event['code']}/leaderboard?format=csv")
    assert res.mimetype == "text/csv" and "attachment" in res.headers["Content-Disposition"]
    table = list(csv.DictReader(io.StringIO(res.get_data(as_text=True))))
    assert [(r["name"], r["place"]) for r in table] == [(name, str(place)) for name, _, _, place in ranked]


def test_the_live_stream_starts_with_the_event_and_its_leaderboard(client):
    event = new_event(client)
    table, _, (ada, _) = seated_table(client, event)
    scores(client, table, ada, 7, 0, 0)
    res = client.get(f"/api/events/{event['code']}/events", buffered=False)
    assert res.mimetype == "text/event-stream"
    text = ""
    for chunk in res.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: event" in text and text.endswith("\n\n"):
            break
    res.close()
    message = next(block for block in text.split("\n\n") if block.startswith("event: event"))
    data = json.loads(message.split("data: ", 1)[1])
    assert data["event"]["code"] == event["code"] and data["event"]["tables"] == 1
    assert data["event"]["seed"] is None
    assert [(row["name"], row["total"]) for row in data["leaderboard"]][0] == ("Ada", 7)


def test_the_events_pages(client):
    event = new_event(client, name="Friday <b>night</b>")
    code = event["code"]
    page = client.get(f"/e/{code}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Friday &lt;b&gt;night&lt;/b&gt;" in html and "Open a table in this event" in html
    assert "Checking an event&#39;s dice" in html or "Checking an event's dice" in html
    projector = client.get(f"/e/{code.lower()}/projector")
    assert projector.status_code == 200 and f"/e/{code}/qr.svg" in projector.get_data(as_text=True)
    qr = client.get(f"/e/{code}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    missing = client.get("/e/NOPE42")
    assert missing.status_code == 404 and "No such event" in missing.get_data(as_text=True)
    assert client.get("/e/NOPE42/projector").status_code == 404
    assert client.get("/e/NOPE42/qr.svg").status_code == 404
    typed = client.get(f"/join-event?code= {code.lower()[:3]} {code.lower()[3:]}")
    assert typed.status_code == 302 and typed.headers["Location"].endswith(f"/e/{code}")
    home = client.get("/").get_data(as_text=True)
    assert "Start an event" in home and "Join an event" in home


@pytest.mark.parametrize("path", ["/t/{code}/projector", "/t/{lower}/projector"])
def test_a_tables_projector_page(client, path):
    code = client.post("/api/tables", json={"game": GAME, "options": {}}).json["code"]
    res = client.get(path.format(code=code, lower=code.lower()))
    assert res.status_code == 200
    html = res.get_data(as_text=True)
    assert f"/t/{code}/qr.svg" in html and "projector.js" in html
    missing = client.get("/t/NOPE42/projector")
    assert missing.status_code == 404 and "No such table" in missing.get_data(as_text=True)


def test_a_roll_reads_only_the_entries_its_kept_tables_lack(tmp_path, monkeypatch):
    """An organiser's roll reads no table's whole log: a worker holding every table's replay reads
    no entry; one that moved on without it reads only the newer entries; a restarted worker, with
    nothing kept, reads each log once. Every table's state after the roll is its whole log's fold."""
    read: list[int] = []
    entries_after = companion.store.events._entries_after

    def counting(connection, after):
        found = entries_after(connection, after)
        read.append(sum(map(len, found.values())))
        return found

    monkeypatch.setattr(companion.store.events, "_entries_after", counting)
    url = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    play = Play.open(url, [], games())
    code, _ = Events(play).create(GAME, "Night")
    tables = [Events(play).open_table(code, {})[0] for _ in range(3)]
    for table in tables:
        play.seats.join(table, "Ada")
        play.seats.join(table, "Bo")
        play.moves.act(table, Seat(HOST), "start", {})
    Events(play).roll(code, 1)
    read.clear()
    Events(play).roll(code, 2, ahead=True)
    assert sum(read) == 0

    restarted = Play.open(url, [], games())
    read.clear()
    Events(restarted).roll(code, 3, ahead=True)
    logs = {table: restarted.store.log.read(table) for table in tables}
    assert sum(read) == sum(len(log) - 1 for log in logs.values())  # all but the roll just appended
    Events(restarted).roll(code, 4, ahead=True)

    read.clear()
    Events(play).roll(code, 5, ahead=True)  # `play` holds the tables as of round 2: rounds 3 and 4 read
    assert sum(read) == 2 * len(tables)
    for each in (play, restarted):
        for table in tables:
            assert each.replays.replayed(table).state == whole_fold(each, table)
        each.close()
