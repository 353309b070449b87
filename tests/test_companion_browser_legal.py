"""For every game, in real Chromium at 360 x 640, over a seeded game: each phone's live buttons are
the moves the server offers it, and a tap on one is never refused.

At each step every phone (each player's, the host's, the host's playing a seat without a phone) is
read once it shows the table's newest move: the types of its enabled move buttons (`data-move`,
in every section of its panel and in the lobby) must equal the types of the moves the API offers
it. Then one of those buttons, chosen by the seed, is tapped: a move it sends must be accepted (no
refusal shows). The game then moves on by a move the server offers, chosen by the seed, sent over
the API, so every run walks the same game. Every way of playing each game is walked, and each
page is measured in every section while the game is played: at most two screens tall."""

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
# every way of playing each game (printed gems or the phones, real pieces or the phones, dealt or
# printed cards), as (a name for it, the game, the way's option; none for a game played one way)
WAYS = [
    (f"{game_id}-{way}" if way else game_id, game_id, {tracker.way_option: way} if way else {})
    for game_id in RULED
    for tracker in [games()[game_id].load("tracker")]
    for way in (tracker.ways or [None])
]
STEPS = 10  # moves each way is walked through while it is played (after the joins and the start)
MOST_STEPS = 40  # moves in all, the joining's included
SCREENS = 2  # the tallest a phone page may be mid-game, in screens of the phone's height


@pytest.mark.parametrize(("way", "game_id", "options"), WAYS, ids=[way for way, _, _ in WAYS])
def test_each_phones_buttons_are_its_offered_moves_and_none_is_refused(chromium, tmp_path, way, game_id, options):
    rng = random.Random(way)
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        tracker = games()[game_id].load("tracker")
        fewest = tracker.seats(tracker.Options(**options))[0]
        status, opened = call(port, "POST", "/api/tables", {"game": game_id, "options": options})
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
        in_play = 0  # moves walked while the game is being played (measured: the short pages)
        for step in range(MOST_STEPS):
            playing = call(port, "GET", f"/api/tables/{code}")[1]["flow"]["phase"] == "playing"
            for phone in phones:
                seq, offered = phone.offered()
                assert phone.shown(seq, measure=playing) == offered, (step, phone.seat or phone.token[:6])
            in_play += playing
            if in_play == STEPS:
                break
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
            shot(phone.page, f"legal-{way}-{n}")
        assert in_play == STEPS, f"the game was played for {in_play} of {STEPS} moves"
        tallest = max(phone.tallest for phone in phones)
        assert tallest <= SCREENS * PHONE["viewport"]["height"], tallest
