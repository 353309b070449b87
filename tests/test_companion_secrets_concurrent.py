"""The test tracker with secrets (tests/support/secret_game.py: hands dealt from a deck, every card's
name distinctive) played by every seat at once: three players each drawing and discarding face
down in a thread of their own while others read every route as every viewer. No byte any viewer
got, answer or read, holds a card that viewer never held; every answered move is in the log once
(issue 26). The tracker is registered in the app (test_companion_secrets' client), so this runs
in-process, on SQLite and PostgreSQL, rather than on `companion serve` like the five games."""

from __future__ import annotations

import random
import threading
from collections import Counter

from tests.support.api import bearer
from tests.support.secret_game import DECK
from tests.test_companion_secrets import app, dealt_table, held  # noqa: F401 (app: the fixture)

ROUNDS = 30  # each player's moves; each reader's reads


def test_players_drawing_and_discarding_at_once_see_only_cards_they_held(client):  # noqa: F811
    code, tokens, answers = dealt_table(client)
    server = client.application
    got: dict = {viewer: list(answers[viewer]) for viewer in tokens}
    answered = []  # (actor, type) of each move answered 200
    wrong = []  # answers neither 200 nor the rules' 409
    before = client.get(f"/api/tables/{code}").json["seq"]

    def player(pid: str) -> None:
        phone, rng = server.test_client(), random.Random(pid)
        for _ in range(ROUNDS):
            hand = phone.get(f"/api/tables/{code}", headers=bearer(tokens[pid])).json["state"]["hand"]
            move = {"type": "discard", "card": rng.choice(hand)} if hand and rng.random() < 0.5 else {"type": "draw"}
            res = phone.post(f"/api/tables/{code}/actions", json=move, headers=bearer(tokens[pid]))
            if res.status_code not in (200, 409):  # a thread's assert would not fail the test
                wrong.append(res.data[:300])
            got[pid].append(res.data)
            if res.status_code == 200:
                answered.append((pid, move["type"]))

    def reader(seed: int) -> None:
        phone, rng = server.test_client(), random.Random(seed)
        for _ in range(ROUNDS):
            viewer = rng.choice(list(tokens))
            path = rng.choice(("", "/history", "/export", "/export?format=csv"))
            headers = bearer(tokens[viewer]) if tokens[viewer] else {}
            got[viewer].append(phone.get(f"/api/tables/{code}{path}", headers=headers).data)

    threads = [threading.Thread(target=player, args=(pid,)) for pid in ("p1", "p2", "p3")]
    threads += [threading.Thread(target=reader, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert wrong == []
    log = server.extensions["play"].store.log.read(code)
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert len(answered) >= ROUNDS
    assert Counter((e.actor, e.type) for e in log if e.seq > before) == Counter(answered)
    cards = held(client, code)
    assert all(cards.get(pid) for pid in ("p1", "p2", "p3"))  # every hand held something to leak
    for viewer, received in got.items():
        shown = {card for card in DECK if any(card.encode() in data for data in received)}
        assert shown <= cards.get(viewer, set()), f"{viewer} was shown {sorted(shown - cards.get(viewer, set()))}"
