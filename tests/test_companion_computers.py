"""Computer players over the API (issue 36): the host seats one before the start, the server makes
its moves as soon as they are its to make (here within the request that woke it: the app's
COMPUTERS_INLINE, no pause), and it plays from the moves its seat is offered, as a phone would."""

from __future__ import annotations

import random

import pytest

from companion import create_app
from pnp.rules.offers import sample
from tests.support.api import bearer, error_of, join, open_table, whole_history
from tests.support.example import tell_the_companion

SOLO = [("magecraft", {"mode": "phones"}), ("spellcycles", {"mode": "phones"})]


def computer(client, code, host, name="Ada", level="easy"):
    return client.post(f"/api/tables/{code}/computers", json={"name": name, "level": level}, headers=bearer(host))


def table(client, code, headers):
    res = client.get(f"/api/tables/{code}", headers=headers)
    assert res.status_code == 200, res.json
    return res.json


def solo_table(client, game, options, level="easy"):
    """A table of `game` with the host playing one seat (their phone) and a computer the other."""
    opened = open_table(client, game, options)
    code, host = opened["code"], opened["host_token"]
    me = client.post(f"/api/tables/{code}/players", json={"name": "Bo"}, headers=bearer(host)).json
    res = computer(client, code, host, level=level)
    assert res.status_code == 201, res.json
    return code, host, me, res.json["player_id"]


def send(client, code, headers, offered: dict, rng: random.Random):
    """An offered move completed at random, sent as a phone sends it: the answer."""
    body = {"type": offered["type"], **sample(offered, rng)}
    return client.post(f"/api/tables/{code}/actions", json=body, headers=headers)


def start(client, code, host):
    [offered] = [m for m in table(client, code, bearer(host))["moves"] if m["type"] == "start"]
    res = send(client, code, bearer(host), offered, random.Random(1))
    assert res.status_code == 200, res.json
    return res.json


def play_to_the_end(client, code, headers, rng, most=2000) -> dict:
    """The person takes a move offered to them, at random, until the game is over; the computer's
    moves happen in between, made by the server."""
    for _ in range(most):
        seen = table(client, code, headers)
        if seen["flow"]["phase"] == "over":
            return seen
        mine = [m for m in seen["moves"] if m["for"] != "host"]
        assert mine, f"the person has no move and the game is not over: {seen['thinking']=}, {seen['flow']=}"
        offered = rng.choice(mine)
        res = send(client, code, headers, offered, rng)
        assert res.status_code == 200, (offered, res.json)
    raise AssertionError(f"not over after {most} moves")


@pytest.mark.parametrize("level", ["easy", "strong"])
@pytest.mark.parametrize(("game", "options"), SOLO, ids=[g for g, _ in SOLO])
def test_one_person_plays_a_whole_game_against_the_computer(client, game, options, level):
    """Issue 36: "One person with a printed Magecraft or Spellcycles set and a phone can play a
    whole game against the computer at either level." The computer's moves are its seat's own,
    named as a computer's in the history, and the person never waits on a move no one makes."""
    code, host, me, ada = solo_table(client, game, options, level)
    start(client, code, host)
    over = play_to_the_end(client, code, bearer(me["token"]), random.Random(36))
    assert over["thinking"] == []
    history = whole_history(client, code, bearer(host))
    by_ada = [e for e in history if e["actor"] == ada and e["type"] != "join"]
    by_bo = [e for e in history if e["actor"] == me["player_id"] and e["type"] != "join"]
    assert by_ada and by_bo
    assert {e["name"] for e in by_ada} == {"Ada (computer)"}
    assert {e["name"] for e in by_bo} == {"Bo"}
    [seat] = [s for s in over["seats"] if s["id"] == ada]
    assert seat["computer"] == level and not seat["phone"]


def test_a_computer_moves_at_once_when_it_is_its_turn(client):
    """ "It moves on the server as soon as it is its turn": whoever's turn the start gives, the
    table answers each request with the person to move (or the game over)."""
    code, host, me, ada = solo_table(client, "magecraft", {"mode": "phones"})
    start(client, code, host)
    seen = table(client, code, bearer(me["token"]))
    assert seen["flow"]["turn"] != ada or seen["flow"]["phase"] == "over"
    assert seen["thinking"] == []


def test_a_table_of_computers_only_does_not_start(client):
    """ "A table of only computers is refused.\""""
    opened = open_table(client, "magecraft", {"mode": "phones"})
    code, host = opened["code"], opened["host_token"]
    assert computer(client, code, host, "Ada").status_code == 201
    assert computer(client, code, host, "Cy").status_code == 201
    seen = table(client, code, bearer(host))
    assert "start" not in {m["type"] for m in seen["moves"]}
    res = client.post(f"/api/tables/{code}/actions", json={"type": "start"}, headers=bearer(host))
    assert "a person plays too" in error_of(res, 409)["reason"]
    assert table(client, code, bearer(host))["flow"]["phase"] == "joining"


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("magecraft", {"mode": "gems"}),
        ("spellcycles", {"mode": "pieces"}),
        ("merchants-of-magick", {"cards": "printed"}),
        ("magic-spell", {}),
        ("spells-and-potions", {}),
    ],
)
def test_a_way_of_playing_with_pieces_on_the_table_says_it_has_no_computer_players(client, game, options):
    """ "A game played with physical hands or tiles the server never sees says plainly that it has
    no computer players.\""""
    opened = open_table(client, game, options)
    code, host = opened["code"], opened["host_token"]
    why = table(client, code, bearer(host))["computer_players"]
    assert why["levels"] == {} and "has no computer players: its pieces are on the table" in why["why_not"]
    res = computer(client, code, host)
    assert error_of(res, 409)["reason"] == why["why_not"]
    assert table(client, code, bearer(host))["seats"] == []


def test_merchants_computers_keep_digital_sheets_and_play_every_round(client):
    """Issue 36: computer players "where the server knows everything a seat needs to decide":
    Merchants "with dealt orders and digital sheets". A computer's sheet is digital from the
    moment it sits (it marks no paper) and stays so; the person hosting rolls and moves the
    phases on, and the computers spend each round's dice on their own sheets."""
    opened = open_table(client, "merchants-of-magick", {"cards": "dealt"})
    code, host = opened["code"], opened["host_token"]
    levels = {"easy": "Easy", "strong": "Strong"}
    assert table(client, code, bearer(host))["computer_players"] == {"levels": levels, "why_not": None}
    me = client.post(f"/api/tables/{code}/players", json={"name": "Bo"}, headers=bearer(host)).json
    ada = computer(client, code, host).json["player_id"]
    seen = table(client, code, bearer(host))
    assert [(p["id"], p["sheet"]) for p in seen["state"]["players"]] == [(me["player_id"], "paper"), (ada, "digital")]
    choose = client.post(
        f"/api/tables/{code}/actions?as={ada}", json={"type": "sheet", "kind": "paper"}, headers=bearer(host)
    )
    assert choose.status_code in (403, 409)
    mine = bearer(me["token"])
    assert (
        client.post(f"/api/tables/{code}/actions", json={"type": "sheet", "kind": "digital"}, headers=mine).status_code
        == 200
    )
    start(client, code, host)
    rng = random.Random(5)
    for _ in range(2000):
        seen = table(client, code, bearer(host))
        if seen["flow"]["phase"] == "over":
            break
        assert seen["thinking"] == []  # inline: the computer has done its part before the answer
        offered = rng.choice(
            [m for m in seen["moves"] if m["for"] == me["player_id"]]
            or [m for m in seen["moves"] if m["type"] in ("roll", "advance")]
        )
        headers = mine if offered["for"] == me["player_id"] else bearer(host)
        assert send(client, code, headers, offered, rng).status_code == 200
    else:
        raise AssertionError("not over after 2000 moves")
    rounds, spent_in, readied = 0, set(), set()
    for e in whole_history(client, code, bearer(host)):
        rounds += e["type"] == "roll"
        if e["actor"] == ada and e["type"] == "spend":
            spent_in.add(rounds)
        if e["actor"] == ada and e["type"] == "ready":
            readied.add(e["payload"]["phase"])
    assert rounds == 10 and len(spent_in) >= 5, spent_in
    assert "crafting" in readied


def test_only_the_host_seats_a_computer_and_only_at_a_level_there_is(client):
    opened = open_table(client, "magecraft", {"mode": "phones"})
    code, host = opened["code"], opened["host_token"]
    assert table(client, code, bearer(host))["computer_players"]["levels"] == {"easy": "Easy", "strong": "Strong"}
    player = join(client, code, "Bo")
    assert computer(client, code, player["token"]).status_code == 403
    assert error_of(computer(client, code, host, level="grandmaster"), 422, "level")
    assert [s["name"] for s in table(client, code, bearer(host))["seats"]] == ["Bo"]


def test_no_one_plays_a_computers_seat_for_it(client):
    """A computer's seat has no phone, but it is not the host's to play (?as=) nor a phone's to claim."""
    code, host, me, ada = solo_table(client, "magecraft", {"mode": "phones"})
    res = client.get(f"/api/tables/{code}?as={ada}", headers=bearer(host))
    assert error_of(res, 403, "as")
    res = client.post(f"/api/tables/{code}/seats/{ada}/claim")
    assert "computer player" in error_of(res, 409)["reason"]


def test_the_host_takes_a_computer_off_its_seat_before_the_start_only(client):
    """ "The host ... can remove it before Start": its seat goes, its id is never given again, and
    once the game has begun every seat plays to the end."""
    code, host, me, ada = solo_table(client, "magecraft", {"mode": "phones"})
    res = client.delete(f"/api/tables/{code}/seats/{ada}", headers=bearer(host))
    assert res.status_code == 200, res.json
    assert [s["id"] for s in res.json["seats"]] == [me["player_id"]]
    assert res.json["flow"]["players"] == [me["player_id"]]
    again = computer(client, code, host, "Cy").json["player_id"]
    assert again not in (ada, me["player_id"])
    assert client.delete(f"/api/tables/{code}/seats/{me['player_id']}", headers=bearer(host)).status_code == 409
    guest = join(client, code, "Di")  # a phone that is not the host's
    assert client.delete(f"/api/tables/{code}/seats/{again}", headers=bearer(guest["token"])).status_code == 403
    start(client, code, host)
    res = client.delete(f"/api/tables/{code}/seats/{again}", headers=bearer(host))
    assert "every seat plays to the end" in error_of(res, 409)["reason"]
    history = whole_history(client, code, bearer(host))
    assert [e["name"] for e in history if e["type"] == "leave_seat"] == ["Host"]
    assert [e["name"] for e in history if e["type"] == "join"] == ["Bo", "Ada (computer)", "Cy (computer)", "Di"]


def person_then_computer(client, code, headers, ada, rng, drawn: bool):
    """The person's moves at random until one is followed by the computer's, none of which drew
    (`drawn`: one of which drew: a draw is never taken back): (the state before the person's
    move, its seq, the computer's entries after it); None if the game ends first."""
    from pnp.rules.table import Refused, undoable

    play = client.application.extensions["play"]
    tracker = play.tracker(play.info(code).game)
    for _ in range(300):
        before = play.replays.replayed(code).state
        seen = table(client, code, headers)
        if seen["flow"]["phase"] == "over":
            return None
        offered = rng.choice([m for m in seen["moves"] if m["for"] != "host"])
        res = send(client, code, headers, offered, rng)
        mine = res.json["seq"]
        after = [e for e in play.replays.replayed(code).standing if e.seq > mine]
        if not after or res.json["flow"]["phase"] == "over":
            continue
        try:
            for e in after:
                undoable(tracker, e)
            final = False
        except Refused:
            final = True
        if final == drawn:
            assert {e.actor for e in after} == {ada}
            return before, mine, after
    raise AssertionError("the game went on and on")


@pytest.fixture
def lanterns(monkeypatch):
    """The tests' example game told to the companion (as tests/test_example_game.py tells it):
    Lantern Charms deals hidden hands at the start and draws nothing after, so a computer's moves
    can all be taken back."""
    tell_the_companion(monkeypatch)


def test_an_undo_takes_back_the_persons_move_and_the_computers_after_it(lanterns, client):
    """ "An undo by the host takes back the human's move and any computer moves after it": the
    table is as it was before the person's move, and the person's to move again."""
    from tests.example_game import GAME

    code, host, me, ada = solo_table(client, GAME.id, {})
    computer(client, code, host, "Cy")  # two computers move after the person
    start(client, code, host)
    play, headers = client.application.extensions["play"], bearer(me["token"])
    seen = table(client, code, headers)
    if seen["flow"]["turn"] != me["player_id"]:
        raise AssertionError("the computers did not move first at once")
    before = play.replays.replayed(code).state
    offered = seen["moves"][0]
    res = send(client, code, headers, offered, random.Random(2))
    mine = res.json["seq"]
    after = [e for e in play.replays.replayed(code).standing if e.seq > mine]
    assert len(after) == 2 and {e.actor for e in after} == {ada, "p3"}
    res = client.post(f"/api/tables/{code}/undo", json={"seq": mine}, headers=bearer(host))
    assert res.status_code == 200, res.json
    assert play.replays.replayed(code).state == before
    assert table(client, code, headers)["flow"]["turn"] == me["player_id"]
    undone = {e["seq"] for e in whole_history(client, code, bearer(host)) if e["undone"]}
    assert undone == {mine, *(e.seq for e in after)}


def test_a_game_without_a_strategy_seats_easy_computers_only(lanterns, client):
    """The strong level weighs moves with its game's Strategy: Lantern Charms has none."""
    from tests.example_game import GAME

    opened = open_table(client, GAME.id, {})
    code, host = opened["code"], opened["host_token"]
    assert table(client, code, bearer(host))["computer_players"]["levels"] == {"easy": "Easy"}
    res = computer(client, code, host, level="strong")
    assert error_of(res, 409)["reason"] == "No strong computer players here: the levels are easy."
    assert computer(client, code, host, level="easy").status_code == 201


def computer_after_person(client, game, drawn: bool):
    """A solo table of `game` where the person's move was just followed by the computer's (with a
    draw among them, or none), dealt from the first seed that gives one."""
    for seed in range(40):
        code, host, me, ada = solo_table(client, game, {"mode": "phones"})
        start(client, code, host)
        found = person_then_computer(client, code, bearer(me["token"]), ada, random.Random(seed), drawn)
        if found is not None:
            return code, host, me, ada, *found
    raise AssertionError(f"no seed of 40 gave a {game} move followed by the computer's")


def test_an_undo_stops_at_a_computers_draw(client):
    """A draw is never undone, a computer's neither: the person's move before it stands, and the
    refusal says whose draw stopped it."""
    code, host, me, ada, _, mine, _ = computer_after_person(client, "magecraft", drawn=True)
    seq = table(client, code, bearer(host))["seq"]
    res = client.post(f"/api/tables/{code}/undo", json={"seq": mine}, headers=bearer(host))
    assert error_of(res, 409)["reason"].startswith("Ada (computer) has moved since, and ")
    assert table(client, code, bearer(host))["seq"] == seq


def test_a_computer_move_chosen_on_a_state_the_table_has_left_is_not_made(client):
    """Two workers woken by one change make one move: each appends only on the state it chose on."""
    from pnp.rules.table import Refused

    code, host, me, ada = solo_table(client, "magecraft", {"mode": "phones"})
    play = client.application.extensions["play"]
    chosen_on = table(client, code, bearer(host))["seq"]
    start(client, code, host)
    now = table(client, code, bearer(host))["seq"]
    assert now > chosen_on
    with pytest.raises(Refused, match="moved on"):
        play.moves.act(code, play.seats.of(code, me["token"]), "refresh", {}, expect=chosen_on)
    assert table(client, code, bearer(host))["seq"] == now


def test_a_computers_turn_left_undone_by_a_stopped_server_is_made_when_it_starts_again(database_url, tmp_path):
    """ "A server restart mid-game resumes the computer's turn": a server whose computers never got
    to move (stopped at once) leaves the turn; the next one to start makes it."""
    config = {
        **{"TESTING": True, "DATABASE_URL": database_url, "INSTANCE_PATH": str(tmp_path)},
        **{"COMPUTER_PAUSE": 0, "CHANCE": random.Random(5)},
    }
    stopped = create_app({**config, "COMPUTERS_INLINE": True})
    stopped.extensions["play"].computers.run = lambda work: None  # the server dies before its computer moves
    client = stopped.test_client()
    code, host, me, ada = solo_table(client, "spellcycles", {"mode": "phones"})
    rng = random.Random(3)
    for _ in range(100):
        seen = start(client, code, host) if table(client, code, bearer(host))["flow"]["phase"] == "joining" else None
        seen = table(client, code, bearer(me["token"]))
        if seen["thinking"] == [ada]:
            break
        offered = rng.choice([m for m in seen["moves"] if m["for"] != "host"])
        send(client, code, bearer(me["token"]), offered, rng)
    else:
        raise AssertionError("the computer never had a turn")
    waiting = seen["seq"]
    stopped.extensions["play"].close()

    again = create_app({**config, "COMPUTERS_INLINE": True})
    try:
        client = again.test_client()
        after = table(client, code, bearer(me["token"]))
        assert after["seq"] > waiting and after["thinking"] == []
        assert any(e["actor"] == ada for e in whole_history(client, code, bearer(host)) if e["seq"] > waiting)
    finally:
        again.extensions["play"].close()


def test_computers_that_would_go_on_without_a_person_stop_and_say_so(client, monkeypatch, caplog):
    """A game whose computers could move for ever among themselves (none of ours: some 25 moves in
    a row at most) stops them after MOST_IN_A_ROW moves a wake-up, and the server's log says where."""
    import companion.computers

    play = client.application.extensions["play"]
    opened = open_table(client, "magecraft", {"mode": "phones"})
    code, host = opened["code"], opened["host_token"]
    client.post(f"/api/tables/{code}/players", json={"name": "Bo"}, headers=bearer(host))
    ada = [computer(client, code, host, name).json["player_id"] for name in ("Ada", "Cy", "Di")]
    inline, play.computers.run = play.computers.run, lambda work: None  # no one wakes them yet
    start(client, code, host)
    seq = table(client, code, bearer(host))["seq"]
    monkeypatch.setattr(companion.computers, "MOST_IN_A_ROW", 1)
    play.computers._busy.clear()  # as the server that never ran them left it
    play.computers.run = inline
    play.computers.woken(play.info(code), play.replays.replayed(code).state)
    made = [e for e in whole_history(client, code, bearer(host)) if e["seq"] > seq]
    assert [e["actor"] in ada for e in made] == [True]
    assert f"computer players at table {code}: 1 moves without a person's" in caplog.text
