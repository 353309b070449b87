"""A server killed with SIGKILL while a computer player thinks (issue 36: "kill -9 of the server
during a computer's turn loses nothing and the turn completes after the restart"), on SQLite with
its one worker and on PostgreSQL with two (both of which wake the computer when they start: it
moves once). And tables of one person and three computers played to the end over HTTP, in each
game that seats computers."""

from __future__ import annotations

import random
import time

import pytest

from companion import COMPUTER_PAUSE_VARIABLE
from pnp.rules.offers import sample
from tests.support.http import call, free_port, server
from tests.test_companion_kill import killed

pytestmark = pytest.mark.slow  # real servers in subprocesses

# each game in the way of playing whose every piece the server sees
ON_THE_PHONES = {
    "magecraft": {"mode": "phones"},
    "spellcycles": {"mode": "phones"},
    "merchants-of-magick": {"cards": "dealt"},
}
HOSTING = ("roll", "advance")  # the moves a person hosting makes that no seat does


class Solo:
    """A table over HTTP: the host's phone plays one seat, computers the others."""

    def __init__(self, port: int, game: str, computers: int):
        self.port = port
        status, opened = call(port, "POST", "/api/tables", {"game": game, "options": ON_THE_PHONES[game]})
        assert status == 201, opened
        self.path, self.host = f"/api/tables/{opened['code']}", opened["host_token"]
        status, me = call(port, "POST", f"{self.path}/players", {"name": "Bo"}, self.host)
        self.me = me["token"]
        if game == "merchants-of-magick":  # the person marks a digital sheet too, as the computers do
            status, answer = call(port, "POST", f"{self.path}/actions", {"type": "sheet", "kind": "digital"}, self.me)
            assert status == 200, answer
        self.computers = []
        for name in ("Ada", "Cy", "Di")[:computers]:
            status, seated = call(port, "POST", f"{self.path}/computers", {"name": name, "level": "easy"}, self.host)
            assert status == 201, seated
            self.computers.append(seated["player_id"])
        [start] = [m for m in self.seen(self.host)["moves"] if m["type"] == "start"]
        body = {"type": "start", **sample(start, random.Random(1))}
        status, answer = call(port, "POST", f"{self.path}/actions", body, self.host)
        assert status == 200, answer

    def seen(self, token=None) -> dict:
        status, table = call(self.port, "GET", self.path, token=token or self.me)
        assert status == 200, table
        return table

    def my_move(self, seen: dict, rng: random.Random) -> None:
        """A move of the person's seat at random; with none, the host's part (Merchants' roll, the
        next phase), which the person makes as the table's host."""
        mine = [m for m in seen["moves"] if m["for"] != "host"]
        token = self.me
        if not mine:
            mine, token = [m for m in self.seen(self.host)["moves"] if m["type"] in HOSTING], self.host
        move = rng.choice(mine)
        body = {"type": move["type"], **sample(move, rng)}
        status, answer = call(self.port, "POST", f"{self.path}/actions", body, token)
        assert status == 200, (move, answer)

    def history(self) -> list[dict]:
        """Every entry, oldest first, read page by page as a phone scrolls back."""
        entries, before = [], None
        while True:
            query = "?limit=500" + ("" if before is None else f"&before={before}")
            status, page = call(self.port, "GET", f"{self.path}/history{query}", token=self.host)
            assert status == 200, page
            entries[:0] = page["history"]
            before = page["earlier"]
            if before is None:
                return entries

    def until(self, done, seconds: float = 20) -> dict:
        deadline = time.monotonic() + seconds
        while True:
            seen = self.seen()
            if done(seen):
                return seen
            assert time.monotonic() < deadline, f"waited {seconds} s: {seen['thinking']=}, {seen['flow']=}"
            time.sleep(0.05)


def test_a_server_killed_while_a_computer_thinks_makes_its_move_once_it_is_back(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv(COMPUTER_PAUSE_VARIABLE, "1.5")  # long enough to be killed in
    workers = 1 if database_url.startswith("sqlite") else 2
    port, rng = free_port(), random.Random(26)
    with server(database_url, tmp_path, workers=workers, port=port):
        table = Solo(port, "spellcycles", computers=1)
        for _ in range(200):
            seen = table.seen()
            if seen["thinking"]:
                break
            table.my_move(seen, rng)
        else:
            raise AssertionError("the computer never had a move to make")
        assert killed(port) >= 2
    history_then = seen["seq"]

    with server(database_url, tmp_path, workers=workers, port=port):
        table.port = port
        after = table.until(lambda t: t["seq"] > history_then and not t["thinking"])
        entries = table.history()
        assert [e["seq"] for e in entries] == list(range(1, after["seq"] + 1))  # nothing lost, no gap
        made = [e for e in entries if e["seq"] > history_then]
        assert made and {e["actor"] for e in made} == set(table.computers)
        assert after["flow"]["phase"] == "over" or [m for m in after["moves"] if m["for"] != "host"]


@pytest.mark.parametrize("game", list(ON_THE_PHONES))
def test_one_person_and_three_computers_play_to_the_end(database_url, tmp_path, monkeypatch, game):
    monkeypatch.setenv(COMPUTER_PAUSE_VARIABLE, "0")
    with server(database_url, tmp_path) as port:
        table, rng = Solo(port, game, computers=3), random.Random(3)
        for _ in range(1500):
            seen = table.until(lambda t: t["flow"]["phase"] == "over" or not t["thinking"])
            if seen["flow"]["phase"] == "over":
                break
            table.my_move(seen, rng)
        else:
            raise AssertionError("not over after 1500 of the person's moves")
        actors = {e["actor"] for e in table.history() if e["type"] not in ("join", "start")}
        assert set(table.computers) <= actors
