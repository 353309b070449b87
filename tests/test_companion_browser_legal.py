"""For every game, in real Chromium at 360 x 640, over a seeded game: each phone's live buttons are
the moves the server offers it, and a tap on one is never refused.

At each step every phone (each player's, the host's, the host's playing a seat without a phone) is
read once it shows the table's newest move: the types of its enabled move buttons (`data-move`,
in every section of its panel and in the lobby) must equal the types of the moves the API offers
it. Then one of those buttons, chosen by the seed, is tapped: a move it sends must be accepted (no
refusal shows). The game then moves on by a move the server offers, chosen by the seed, sent over
the API, so every run walks the same game. Each game's page is also measured mid-game: at most two
screens tall (the issue's short pages)."""

from __future__ import annotations

import random

import pytest

from pnp.gamedef import games
from pnp.rules.flow import Rules
from pnp.rules.offers import sample
from tests.support.browser import PHONE, shot
from tests.support.http import call, free_port, server
from tests.support.phones import Phone

RULED = [g.id for g in games().values() if g.tracker and isinstance(g.load("tracker"), Rules)]
STEPS = 14  # moves each game is walked through
SCREENS = 2  # the tallest a phone page may be mid-game, in screens of the phone's height


@pytest.mark.parametrize("game_id", RULED)
def test_each_phones_buttons_are_its_offered_moves_and_none_is_refused(chromium, tmp_path, game_id):
    rng = random.Random(game_id)
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        tracker = games()[game_id].load("tracker")
        fewest = tracker.seats(tracker.Options())[0]  # the default table's
        status, opened = call(port, "POST", "/api/tables", {"game": game_id, "options": {}})
        code, host = opened["code"], opened["host_token"]
        seats = [call(port, "POST", f"/api/tables/{code}/players", {"name": f"Phone {n}"})[1] for n in (1, 2)]
        _, kept = call(port, "POST", f"/api/tables/{code}/seats", {"name": "Kept"}, token=host)
        for n in range(3, fewest):  # more seats, their phones not followed
            call(port, "POST", f"/api/tables/{code}/players", {"name": f"Phone {n}"})
        phones = [Phone(chromium, port, code, {"host_token": host}, host)]
        phones += [Phone(chromium, port, code, seat, seat["token"]) for seat in seats]
        phones.append(
            Phone(chromium, port, code, {"host_token": host, "as": kept["player_id"]}, host, kept["player_id"])
        )
        tallest = 0
        for step in range(STEPS):
            for phone in phones:
                seq, offered = phone.offered()
                assert phone.shown(seq) == offered, (step, phone.seat or phone.token[:6])
                if step > 2:
                    tallest = max(tallest, phone.height())
            phone = rng.choice(phones)
            phone.tap(rng)
            movers = [p for p in phones if p.offered()[1]]
            if not movers:
                break
            mover = rng.choice(movers)
            query = f"?as={mover.seat}" if mover.seat else ""
            _, table = call(port, "GET", f"/api/tables/{code}{query}", token=mover.token)
            offer = rng.choice(table["moves"])
            body = {"type": offer["type"], **sample(offer, rng)}
            status, answer = call(port, "POST", f"/api/tables/{code}/actions{query}", body, token=mover.token)
            assert status == 200, (offer, answer)
        for n, phone in enumerate(phones):  # the host's, the players', the host's playing a kept seat
            shot(phone.page, f"legal-{game_id}-{n}")
        assert tallest <= SCREENS * PHONE["viewport"]["height"], tallest
