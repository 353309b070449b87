"""The Spellcycles tracker, purely through pnp.rules.flow: a whole game on the phones played by a
script from the moves offered, to its end with the engine's scores; every completion of the offers
accepted, and the issue's Skip Contribute offered only when the rules would take it; refusals in
the rules' words and the flow's; certificates that no other viewer sees at any point, replay and
undo, and the table that plays with real pieces."""

from __future__ import annotations

import json
import random

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.spellcycles.field import Piece
from pnp.games.spellcycles.rulebook import book_of
from pnp.games.spellcycles.rules import Game, Variants
from pnp.games.spellcycles.tracker import TRACKER
from pnp.paths import CONTENT
from pnp.rules.flow import Caller
from pnp.rules.offers import completions, first, sample
from pnp.rules.table import HOST, SPECTATOR, Entry, NotYours, Refused, replay, seen_by, undo_target
from tests.support.tracked import TrackedTable

SC = load_game(game("spellcycles"), [CONTENT])
BOOK = book_of(SC)
PLAYERS = ("a", "b", "c")
SCRIPTED = ("renew", "contribute", "skip_contribute", "cast", "progress")  # what the script's turns make


class Table(TrackedTable):
    def __init__(self, players=PLAYERS, seed=1, content=SC, **options):
        super().__init__(TRACKER, content, players, seed, **options)

    def offers(self, seat=None, host=False) -> list[dict]:
        """The moves offered to the phone of `seat` (and the host's rights, if `host`)."""
        return TRACKER.offers(self.content, self.state, Caller(seat, host), self.chance)

    def accepts(self, actor, offered: dict, body: dict) -> bool:
        return TRACKER.accepts(self.content, self.state, actor, offered["type"], body, self.chance)


def started(**options):
    table = Table(**options)
    table.do(HOST, "start", first=table.state["players"][0])
    return table


def others_hidden(state: dict, viewer) -> dict:
    """`state` with every certificate the viewer may not see, and the pile, replaced by others."""
    engine = json.loads(json.dumps(state["engine"]))
    for p, w in enumerate(engine["wizards"]):
        if state["players"][p] != viewer:
            w["certificates"] = [[99, p]] * len(w["certificates"])
    engine["pile"] = [[98, 0]] * len(engine["pile"])
    return {**state, "engine": engine}


def assert_secrets_kept(table: Table) -> None:
    """Non-interference: what each viewer sees of the state and of the latest entry is the same
    whatever the others' certificates, the pile and the seed are; their own cards they do see."""
    entry = table.log[-1]
    faked = Entry(entry.seq, entry.actor, entry.type, _faked_payload(entry))
    for viewer in table.viewers:
        shown = TRACKER.view(table.state, viewer)
        assert shown == TRACKER.view(others_hidden(table.state, viewer), viewer), viewer
        if viewer in table.state["players"] and table.state["engine"]:
            own = table.state["engine"]["wizards"][table.state["players"].index(viewer)]["certificates"]
            assert shown["hand"] == own
        if entry.actor != viewer:
            assert seen_by(TRACKER, entry, viewer).payload == seen_by(TRACKER, faked, viewer).payload, (viewer, entry)


def _faked_payload(entry: Entry) -> dict:
    payload = json.loads(json.dumps(dict(entry.payload)))
    if entry.type == "start" and payload.get("deal"):
        payload["deal"]["pile"] = [[97, 1]] * len(payload["deal"]["pile"])
    if entry.type == "cast":
        payload["seed"] = 12345
        payload["cards"] = [[96, 2]] * len(payload["cards"])
    return payload


# --- the script: a turn from the moves offered ----------------------------------------------


def scripted(moves: list[dict], rng: random.Random, tried: set) -> tuple[str, dict] | None:
    """The script's next move of its turn, from `moves` (the offers): Renew; a random piece onto a
    random space; each spell offered cast once, by its first completion (its first way, the least
    it costs, the first rival, the rearmost crescent, the first squares); then Progress from the
    rearmost crescent. None: no move of the turn's is offered."""
    by_type = {}
    for offered in moves:
        by_type.setdefault(offered["type"], []).append(offered)
    for type_ in ("renew", "contribute", "skip_contribute"):
        if type_ in by_type:
            return type_, sample(by_type[type_][0], rng)
    for offered in by_type.get("cast", []):
        if offered["payload"]["position"] not in tried:
            tried.add(offered["payload"]["position"])
            return "cast", first(offered)
    if "progress" in by_type:
        return "progress", first(by_type["progress"][0])
    return None


def play_turn(table: Table, rng: random.Random, check) -> None:
    """One wizard's turn by the script; `check(table)` after every move."""
    me, tried = table.turn, set()
    while table.state["phase"] == "playing" and table.turn == me:
        move = scripted(table.offers(me), rng, tried)
        assert move is not None, table.view(me)["turn"]
        table.do(me, move[0], **move[1])
        check(table)


def engine_replay(table: Table) -> Game:
    """The same moves made on the engine directly, from the log."""
    players = table.state["players"]
    g = None
    for entry in table.log:
        p = entry.payload
        if entry.type == "start":
            g = Game(BOOK, len(players), p["deal"]["line"], Variants())
            g.pile = [tuple(c) for c in p["deal"]["pile"]]
            for w, colours in zip(g.wizards, p["deal"]["pieces"], strict=True):
                for colour in colours:
                    g.cauldron[colour][2] -= 1
                    w.apothecary.append(Piece(colour, 2))
        elif entry.type == "renew":
            faces = iter(p["faces"])
            g.renew(type("Faces", (), {"randint": lambda self, a, b: next(faces)})())
        elif entry.type == "contribute":
            g.contribute(
                Piece(BOOK.colours.index(p["piece"][0]), ("small", "medium", "large").index(p["piece"][1])), p["space"]
            )
        elif entry.type == "skip_contribute":
            g.skip_contribute()
        elif entry.type == "cast":
            choices = [
                {
                    {"take": "from"}.get(k, k): players.index(v) if k == "player" else v
                    for k, v in c.items()
                    if v is not None
                }
                for c in p["choices"]
            ]
            shape, origin, _ = g.matches(p["position"])[p["match"]]
            g.cast(p["position"], shape, origin, random.Random(p["seed"]), p["paid"], choices)
        elif entry.type == "progress":
            g.progress(p["position"])
        if g is not None and g.step == "refresh":
            g.refresh()
    return g


@pytest.fixture(scope="module")
def whole_game():
    """Three wizards on the phones, played by the script to the end, secrets checked throughout."""
    table = started(mode="phones")
    assert_secrets_kept(table)
    rng = random.Random(5)
    turns = 0
    while table.state["phase"] == "playing":
        play_turn(table, rng, assert_secrets_kept)
        turns += 1
        assert turns < 200, "the script's game did not end"
    return table


def test_a_whole_three_player_game_on_the_phones_ends_with_the_engines_scores(whole_game):
    table = whole_game
    engine = engine_replay(table)
    assert engine.step == "over"
    scores = {pid: engine.score(p) for p, pid in enumerate(PLAYERS)}
    assert table.state["scores"] == scores and sum(scores.values()) > 0  # spells were cast
    assert table.state["winners"] == [PLAYERS[p] for p in engine.winners()]
    casts = [e for e in table.log if e.type == "cast"]
    assert len(casts) >= 3
    rows = TRACKER.results(table.state)
    assert [r["name"] for r in rows] == ["A", "B", "C"] and [r["score"] for r in rows] == list(scores.values())
    assert TRACKER.view(table.state, SPECTATOR)["scores"] == scores


def test_replaying_the_log_gives_the_same_state(whole_game):
    again = replay(TRACKER, SC, whole_game.options, whole_game.log)
    assert again.state == whole_game.state


def test_a_cast_which_drew_certificates_is_never_taken_back(whole_game):
    first_cast = next(n for n, e in enumerate(whole_game.log) if e.type == "cast" and e.payload["cards"])
    for actor in (HOST, whole_game.log[first_cast].actor):
        with pytest.raises(Refused, match="A cast cannot be taken back."):
            undo_target(TRACKER, SC, whole_game.options, whole_game.log[: first_cast + 1], actor)


def test_no_viewer_sees_another_wizards_certificates(whole_game):
    """(The fixture checked every viewer after every action; here: the cards were really dealt.)"""
    final = whole_game.state["engine"]["wizards"]
    assert any(w["certificates"] for w in final)
    spectator = TRACKER.view(whole_game.state, SPECTATOR)
    assert spectator["hand"] == [] and [p["certificates"] for p in spectator["players"]] == [
        len(w["certificates"]) for w in final
    ]
    cast = next(e for e in whole_game.log if e.type == "cast" and e.payload["cards"])
    assert seen_by(TRACKER, cast, cast.actor).payload["cards"] == cast.payload["cards"]
    assert seen_by(TRACKER, cast, HOST).payload["cards"] == len(cast.payload["cards"])
    assert "seed" not in seen_by(TRACKER, cast, cast.actor).payload
    start = next(e for e in whole_game.log if e.type == "start")
    assert "pile" not in seen_by(TRACKER, start, "a").payload["deal"]


# --- the offers -------------------------------------------------------------------------------


def test_every_completion_of_every_offer_is_accepted_through_a_seeded_game():
    """The promise (pnp.rules.flow): each move offered to the wizard whose turn it is and to the host,
    at every step of a game played from the offers, is accepted however its choices are completed
    (each offer's completions, up to a bound, and random ones)."""
    rng = random.Random(8)
    for options in ({"mode": "phones", "stackers": True, "accelerando": True}, {"mode": "pieces", "duel": True}):
        table = started(players=("a", "b"), line="short", **options)
        steps = 0
        while table.state["phase"] == "playing" and steps < 120:
            me = table.turn
            for seat, host, actor in ((me, False, me), (None, True, HOST)):
                for offered in table.offers(seat, host):
                    bodies = [*completions(offered, most=40), *(sample(offered, rng) for _ in range(10))]
                    for body in bodies:
                        assert table.accepts(actor, offered, body), (offered["type"], body)
            mine = [o for o in table.offers(me) if o["type"] in SCRIPTED]
            chosen = rng.choice(mine)
            table.do(me, chosen["type"], **sample(chosen, rng))
            steps += 1


def test_skip_contribute_is_offered_only_when_the_apothecary_is_empty():
    """The issue: "Skip Contribute" was shown with a full apothecary, and refused."""
    table = started(mode="phones")
    table.do("a", "renew")
    types = {o["type"] for o in table.offers("a")}
    assert "contribute" in types and "skip_contribute" not in types
    with pytest.raises(Refused, match="you must place a piece from your apothecary"):
        table.do("a", "skip_contribute")
    engine = json.loads(json.dumps(table.state["engine"]))
    engine["wizards"][0]["apothecary"] = []
    table.state = {**table.state, "engine": engine}
    types = {o["type"] for o in table.offers("a")}
    assert "skip_contribute" in types and "contribute" not in types


def laid(table: Table, pieces: dict[int, tuple[str, str]], line: list[str] | None = None) -> None:
    """The table's field holding `pieces` (space -> colour, size), and its line's first spells
    replaced by those named: a position set up for a test."""
    engine = json.loads(json.dumps(table.state["engine"]))
    for space, (colour, size) in pieces.items():
        engine["field"][space] = [[BOOK.colours.index(colour), ("small", "medium", "large").index(size)]]
    shown = list(table.state["line"])
    spells = book_of(table.content).spells
    for p, name in enumerate(line or ()):
        engine["line"][p] = next(i for i, spell in enumerate(spells) if spell.name == name)
        shown[p] = {**shown[p], "name": name}
    table.state = {**table.state, "engine": engine, "line": shown}


def test_the_cast_offers_name_each_way_with_its_squares_and_the_rivals_to_choose():
    table = started(mode="phones", seed=15)  # Starfall first
    table.do("a", "renew")
    piece = table.view("a")["players"][0]["apothecary"][0]
    table.do("a", "contribute", piece=piece, space=63)
    assert table.offers("b") == []  # a rival has no move on another's turn
    laid(table, {0: ("yellow", "large"), 8: ("yellow", "small"), 16: ("white", "medium"), 17: ("blue", "large")})
    laid(table, {1: ("blue", "large"), 2: ("black", "large")}, line=["Starfall", "Subtle Drain"])
    engine = json.loads(json.dumps(table.state["engine"]))
    engine["crescents"] = [0, 0, 1]
    table.state = {**table.state, "engine": engine}
    casts = {o["label"]: o for o in table.offers("a") if o["type"] == "cast"}
    assert set(casts) == {"Starfall", "Subtle Drain"}
    ways = casts["Starfall"]["pick"][0]
    assert ways["field"] == "match" and ways["one_of"] == [
        {"value": 0, "label": "No recolour", "squares": [0, 8, 16], "recolour": []}
    ]
    drain = casts["Subtle Drain"]["pick"]
    assert drain[0]["one_of"][0]["squares"] == [1, 2]
    rivals = next(p for p in drain if p["field"] == "choices.0.player")["one_of"]
    assert rivals == [{"value": "b", "label": "B"}, {"value": "c", "label": "C"}]  # never the caster


# Spells of a group's own whose later effects' choices hang on earlier ones, added after Starfall
CHAINED = """
  - name: Twin Drain
    pattern: [[red, red]]
    duel: true
    effect: "Take **{amount}** essence from one wizard, then from one still in."
    does:
      - {do: drain-essence, amount: 1}
      - {do: drain-essence, amount: 1}
  - name: Moon Shuffle
    pattern: [[yellow, yellow]]
    effect: "Move a moon crescent forward {spaces} spell, then take one out."
    does:
      - {do: move-crescent, direction: forward, spaces: 1}
      - {do: remove-crescent}
  - name: Rolling Moon
    pattern: [[white, white]]
    effect: "Roll and move a moon crescent back, then take one out. Once a game."
    once_a_game: true
    does:
      - {do: move-crescent, direction: back, spaces: roll}
      - {do: remove-crescent}
"""


def test_a_choice_that_hangs_on_an_earlier_one_is_nested_under_it(tmp_path):
    """Whom the second drain may take from, in a Duel, hangs on whom the first put out; which
    crescent is taken out, on where the first moved one: each nested under the choice before. Which
    one after a roll is chance's: that spell is not offered while the crescents are apart."""
    from tests.test_rule_numbers import overlay

    content = load_game(
        game("spellcycles"), [CONTENT, overlay(tmp_path, "spellcycles", "spells.yaml", STARFALL, STARFALL + CHAINED)]
    )
    table = Table(content=content, seed=3, mode="phones", duel=True)
    table.do(HOST, "start", first=table.state["players"][0])
    table.do("a", "renew")
    table.do("a", "contribute", piece=table.view("a")["players"][0]["apothecary"][0], space=63)
    laid(table, {0: ("red", "large"), 1: ("red", "large"), 8: ("yellow", "large"), 9: ("yellow", "large")})
    laid(table, {16: ("white", "large"), 17: ("white", "large")}, line=["Twin Drain", "Moon Shuffle", "Rolling Moon"])
    engine = json.loads(json.dumps(table.state["engine"]))
    engine["crescents"], engine["wizards"][1]["essence"] = [0, 1, 2], 1  # b: out after one drain
    table.state = {**table.state, "engine": engine}
    casts = {o["label"]: o for o in table.offers("a") if o["type"] == "cast"}
    assert set(casts) == {"Twin Drain", "Moon Shuffle"}
    first_drain = next(p for p in casts["Twin Drain"]["pick"] if p["field"] == "choices.0.player")
    then = {o["value"]: [v["value"] for v in o["pick"][0]["one_of"]] for o in first_drain["one_of"]}
    assert then == {"b": ["c"], "c": ["b", "c"]}
    moved = next(p for p in casts["Moon Shuffle"]["pick"] if p["field"] == "choices.0.crescent")
    assert [o["value"] for o in moved["one_of"]] == [0, 1, 2]
    assert [v["value"] for v in moved["one_of"][0]["pick"][0]["one_of"]] == [1, 2]  # 0 moved on: none left there
    for offered in casts.values():
        for body in completions(offered, most=200):
            assert table.accepts("a", offered, body), body


def test_on_the_phones_only_the_host_puts_a_wizards_essence_right():
    """The companion keeps every wizard's essence on the phones: a wizard changing their own would
    be a wizard paying themself. The host puts anyone's right (a correction)."""
    table = started(mode="phones")
    [offered] = [o for o in table.offers(host=True) if o["type"] == "essence"]
    assert {choice["value"] for choice in offered["pick"][0]["one_of"]} == set(PLAYERS)
    assert "essence" not in {o["type"] for o in table.offers("b")}
    with pytest.raises(NotYours, match="Only the host does that"):
        table.do("b", "essence", wizard="b", change=1)
    table.do(HOST, "essence", wizard="a", change=2)
    assert table.view("b")["players"][0]["essence"] == BOOK.refresh + 2
    with pytest.raises(Refused, match=f"has only {BOOK.refresh + 2} essence"):
        table.do(HOST, "essence", wizard="a", change=-(BOOK.refresh + 3))


# --- refusals -------------------------------------------------------------------------------


def test_the_view_shows_the_field_the_line_and_the_turn():
    table = started(mode="phones")
    me = table.turn
    table.do(me, "renew")
    shown = table.view("b")
    assert len(shown["field"]) == 64 and shown["turn"] == {"player": "a", "step": "contribute", "number": 1}
    assert shown["last_roll"]["player"] == "a" and shown["last_roll"]["piece"] in shown["colours"]
    assert [s["active"] for s in shown["line"]] == [True] + [False] * 7 and shown["line"][0]["crescents"] == 3
    apothecary = shown["players"][0]["apothecary"]
    assert len(apothecary) == 4 and all(size == "large" for _, size in apothecary)  # 3 dealt, 1 renewed
    assert shown["players"][0]["essence"] == BOOK.refresh and shown["rulings"]["rotation"]
    table.do(me, "contribute", piece=apothecary[0], space=27)
    assert table.view(SPECTATOR)["field"][27] == [apothecary[0]]


def test_a_refused_move_says_why_in_the_rules_words_or_the_flows():
    table = Table(players=("a",))
    with pytest.raises(Refused, match=r"^Spellcycles needs at least 2 wizards; 1 has joined\.$"):
        table.do(HOST, "start", first=table.state["players"][0])
    with pytest.raises(Refused, match="The game has not begun yet."):
        table.do("a", "renew")
    table = started(mode="phones")
    with pytest.raises(Refused, match="The game has already begun."):
        table.do(HOST, "start", first=table.state["players"][0])
    with pytest.raises(Refused, match="Contribute comes at Contribute; this is Renew."):
        table.do("a", "contribute", piece=["red", "large"], space=0)
    with pytest.raises(Refused, match="It is A's turn."):
        table.do("b", "renew")
    with pytest.raises(Refused, match="This table plays with everything on the phones: that move is not part of it."):
        table.do(HOST, "cauldron", colour="red", large=0)
    table.do("a", "renew")
    with pytest.raises(Refused, match="your apothecary holds no small red"):
        table.do("a", "contribute", piece=["red", "small"], space=0)


def test_a_cast_the_caster_cannot_pay_is_refused_naming_the_spell():
    """Rules: a spell's cost is paid in essence; the engine refuses what the caster cannot pay."""
    table = started(mode="pieces", seed=3)  # this deal lays Long Night, for 3 essence, first
    table.do("a", "renew")
    assert table.state["line"][0]["name"] == "Long Night" and BOOK.refresh == 1
    assert "cast" not in {o["type"] for o in table.offers("a")}
    with pytest.raises(Refused, match=r"^Long Night needs 3 essence; you have 1\.$"):
        table.do("a", "cast", position=0)
    with pytest.raises(Refused, match="has no moon crescent: only active spells are cast"):
        table.do("a", "cast", position=1)


def test_undo_never_takes_back_a_roll_a_deal_or_a_cast_but_takes_back_a_placed_piece():
    table = started(mode="phones")
    with pytest.raises(Refused, match="start cannot be taken back"):
        undo_target(TRACKER, SC, table.options, table.log, HOST)
    table.do("a", "renew")
    for actor in (HOST, "a"):
        with pytest.raises(Refused, match="renew cannot be taken back"):
            undo_target(TRACKER, SC, table.options, table.log, actor)
    piece = table.view("a")["players"][0]["apothecary"][0]
    table.do("a", "contribute", piece=piece, space=0)
    assert undo_target(TRACKER, SC, table.options, table.log, "a").type == "contribute"
    undone = replay(TRACKER, SC, table.options, [*table.log, Entry(99, "a", "undo", {"seq": table.log[-1].seq})])
    assert undone.state["engine"]["field"][0] == [] and undone.state["last_roll"] == table.state["last_roll"]


# --- with real pieces ------------------------------------------------------------------------


def test_with_pieces_the_knucklebone_rolls_again_for_a_colour_with_no_large_piece_left():
    """Rules: Renew takes a large piece of the colour rolled; 'roll again' when none is left."""
    rolled_again = 0
    for seed in range(12):
        table = started(mode="pieces", seed=seed)
        for colour in table.state["colours"][1:]:
            table.do(HOST, "cauldron", colour=colour, large=0)  # only red has large pieces left
        red = table.state["engine"]["cauldron"][0][2]
        table.do("a", "renew")
        roll = table.view("a")["last_roll"]
        assert roll["piece"] == "red" and roll["colours"][-1] == "red"
        assert all(c != "red" for c in roll["colours"][:-1])
        assert table.view("a")["cauldron"]["red"][2] == red - 1
        rolled_again += len(roll["faces"]) > 1
    assert rolled_again >= 6  # red is one face in six: most deals roll more than once
    assert "apothecary" not in table.view("a")["players"][0]  # the real board's


def test_with_pieces_and_an_untracked_cauldron_the_wizard_asks_to_roll_again():
    table = started(mode="pieces", cauldron=False)
    table.do("a", "renew")
    assert len(table.view("a")["last_roll"]["faces"]) == 1 and "cauldron" not in table.view("a")
    assert {"reroll", "progress"} <= {o["type"] for o in table.offers("a")}
    table.do("a", "reroll")
    assert len(table.view("a")["last_roll"]["faces"]) == 2
    with pytest.raises(Refused, match="reroll cannot be taken back"):
        undo_target(TRACKER, SC, table.options, table.log, "a")


def pieces_turn(table: Table) -> None:
    me = table.turn
    table.do(me, "renew")
    crescents = table.view(me)["crescents"]
    table.do(me, "progress", position=crescents[0] if crescents else None)


def replays(table: Table) -> bool:
    return replay(TRACKER, SC, table.options, table.log).state == table.state


def test_with_pieces_a_cast_by_hand_pays_draws_face_down_and_the_crescents_end_the_game():
    """Rules: the game ends when the last moon crescent leaves the line; prestige is certificates."""
    table = started(mode="pieces", line="short", players=("a", "b"), seed=15)  # Starfall first: free, no choice
    assert table.state["line"][0]["name"] == "Starfall"
    table.do("a", "renew")
    offered = next(o for o in table.offers("a") if o["type"] == "cast")
    assert offered["payload"] == {"position": 0} and offered["pick"] == [
        {"field": "recolours", "range": [0, BOOK.refresh]}
    ]
    table.do("a", "cast", position=0, prestige=3)
    assert len(table.view("a")["hand"]) == 3 and table.view("b")["players"][0]["certificates"] == 3
    assert table.view("b")["hand"] == [] and table.view("a")["line"][0]["cast"]
    assert table.view("b")["players"][0]["essence"] == BOOK.refresh + 2  # Starfall's essence, enacted
    with pytest.raises(Refused, match="was cast this turn already"):
        table.do("a", "cast", position=0, prestige=3)
    assert_secrets_kept(table)
    table.do("a", "progress", position=0)
    moves = 0
    while table.state["phase"] == "playing":
        pieces_turn(table)
        moves += 1
    assert moves == 2 * 4 - 1  # each turn moves a crescent one spell on; the last one off ends it
    assert table.state["scores"] == {"a": 3, "b": 0} and table.state["winners"] == ["a"]
    assert replays(table)


@pytest.mark.parametrize("variant", ["extra_credit", "double_plus"])
def test_extra_credit_and_double_plus_are_tallied_by_the_engine_and_the_marker_shown_at_the_end(variant):
    table = started(mode="pieces", line="short", players=("a", "b"), seed=15, **{variant: True})
    assert table.view("a")["marker"] is None
    table.do("a", "renew")
    table.do("a", "cast", position=0, prestige=4)
    table.do("a", "progress", position=0)
    while table.state["phase"] == "playing":
        pieces_turn(table)
    final = table.view(SPECTATOR)
    marker = final["marker"]
    assert (marker is not None) == (variant == "double_plus") and final["pile"] > 0
    hand = table.view("a")["hand"]
    number, royal, ace = BOOK.points

    def worth(card):
        base = ace if card[0] == 1 else royal if card[0] >= 11 else number
        return base * (BOOK.double_plus if marker and card[1] == marker[1] else 1)

    assert len(hand) == 4 and final["scores"] == {"a": sum(worth(c) for c in hand), "b": 0}
    assert final["scores"]["a"] > 4  # this deal's four hold an ace: counted by rank, not one a card
    assert replays(table)


def test_a_duel_counts_essence_and_prestige_is_paid_as_essence():
    """Duel: prestige is awarded as essence; a wizard with none is out, and the last one in wins."""
    table = started(mode="pieces", line="short", players=("a", "b"), duel=True, seed=0)  # Subtle Drain first
    start = BOOK.duel_essence + BOOK.refresh
    assert table.view("b")["players"][0]["essence"] == start
    table.do("a", "renew")
    offered = next(o for o in table.offers("a") if o["type"] == "cast")
    assert {"field": "choices.0.player", "one_of": [{"value": "b", "label": "B"}]} in offered["pick"]
    table.do("a", "cast", position=0, prestige=2, choices=[{"player": "b"}])
    assert table.view("a")["hand"] == [] and table.view("a")["players"][0]["certificates"] == 0
    assert [p["essence"] for p in table.view("b")["players"]] == [start + 1 + 2, BOOK.duel_essence - 1]
    table.do("b", "essence", wizard="b", change=-(BOOK.duel_essence - 1))  # by hand: a text-only spell's drain
    assert table.state["phase"] == "over" and table.state["winners"] == ["a"]
    assert table.state["scores"] == {"a": start + 3, "b": 0}
    assert replays(table)


def test_the_engines_game_goes_to_data_and_back_unchanged_stacks_variants_and_all():
    from pnp.games.spellcycles.rules import deal

    stackers = Variants(stackers=True, accelerando=True)
    g = deal(BOOK, 3, random.Random(2), None, stackers)
    g.refresh()
    g.renew(random.Random(4))
    g.field.put(9, Piece(0, 2))
    g.field.put(9, Piece(3, 1))  # a stack: blue on red
    g.wizards[1].certificates.append((12, 3))
    data = g.to_data()
    back = Game.from_data(BOOK, json.loads(json.dumps(data)))
    assert back.to_data() == data and back.variants == stackers
    assert (
        back.field.top(9) == Piece(3, 1) and back.field.tops == g.field.tops and back.field.occupied == g.field.occupied
    )


def test_accelerando_places_a_second_piece_for_essence_once_a_turn():
    """Variant: at the end of Contribute, an extra piece for essence, once a turn."""
    table = started(mode="phones", accelerando=True)
    table.do(HOST, "essence", wizard="a", change=4)
    table.do("a", "renew")
    apothecary = table.view("a")["players"][0]["apothecary"]
    table.do("a", "contribute", piece=apothecary[0], space=0)
    assert "accelerate" in {o["type"] for o in table.offers("a")}
    table.do("a", "accelerate", piece=apothecary[1], space=1)
    assert table.view("b")["players"][0]["essence"] == BOOK.refresh + 4 - BOOK.accelerando
    assert table.view("b")["accelerated"] and table.view("b")["field"][1] == [apothecary[1]]
    assert "accelerate" not in {o["type"] for o in table.offers("a")}
    with pytest.raises(Refused, match="Accelerando comes once a turn"):
        table.do("a", "accelerate", piece=apothecary[2], space=2)
    assert replays(table)


def test_the_host_moves_for_the_wizard_whose_turn_it_is_and_a_choice_of_the_wrong_shape_is_refused():
    table = started(mode="phones", seed=5)
    table.do(HOST, "renew")
    assert table.view(SPECTATOR)["last_roll"]["player"] == "a"
    with pytest.raises(Refused, match="It is A's turn."):
        table.do("b", "skip_contribute")
    apothecary = table.view("a")["players"][0]["apothecary"]
    table.do(HOST, "contribute", piece=apothecary[0], space=0)
    assert table.state["line"][0]["name"] == "Telekinesis"  # this deal's (seed 5)
    with pytest.raises(Refused, match="Choose one space for this spell's pieces."):
        table.do("a", "cast", position=0, shape=0, origin=0, paid=1, choices=[{"take": [1, 2]}])
    assert replays(table)


STARFALL = """    pattern:
      - [yellow]
      - [yellow]
      - [white]
    effect: "Draw **{amount}** essence from the pool."
    does:
      - {do: gain-essence, amount: 2}
"""
# Starfall's text and data as a group's own text-only spell would have them
TEXT_ONLY = """    pattern:
      - [marked]
    effect: "Move any piece anywhere, and a moon crescent anywhere."
"""


@pytest.fixture(scope="module")
def own_spell(tmp_path_factory):
    """Our content with Starfall made a group's own text-only spell: its pattern one marked space (any piece)."""
    from tests.test_rule_numbers import overlay

    folder = overlay(tmp_path_factory.mktemp("own"), "spellcycles", "spells.yaml", STARFALL, TEXT_ONLY)
    return load_game(game("spellcycles"), [CONTENT, folder])


def test_a_text_only_spells_changes_are_made_by_hand_each_logged(own_spell):
    """Issue 23: 'A text-only spell from a group's own deck: the caster makes its changes by hand, each logged.'"""
    table = started(mode="phones", seed=15, content=own_spell)  # Starfall, now text-only, first in the line
    assert table.state["line"][0]["effects"] is None and table.state["line"][0]["name"] == "Starfall"
    table.do("a", "renew")
    apothecary = table.view("a")["players"][0]["apothecary"]
    table.do("a", "contribute", piece=apothecary[0], space=0)
    assert "by_hand" not in {o["type"] for o in table.offers("a")}
    with pytest.raises(Refused, match="Changes by hand follow a text-only spell cast this turn."):
        table.do("a", "by_hand", take=0, to="apothecary")
    table.do("a", "cast", position=0, match=0)
    by_hand = [o for o in table.offers("a") if o["type"] == "by_hand"]
    assert len(by_hand) == 4  # a crescent; a piece from the field, the cauldron or the apothecary
    for offered in by_hand:
        for body in completions(offered, most=60):
            assert table.accepts("a", offered, body), body
    table.do("a", "by_hand", take=0, to=63)
    table.do("a", "by_hand", take="cauldron", piece=["black", "small"], to="apothecary")
    table.do("a", "by_hand", crescent=0, crescent_to=2)
    shown = table.view("b")
    assert shown["field"][63] == [apothecary[0]] and shown["field"][0] == []
    assert ["black", "small"] in shown["players"][0]["apothecary"] and shown["cauldron"]["black"][0] == 4
    assert shown["crescents"] == [0, 0, 2]
    with pytest.raises(Refused, match="The cauldron holds no"):
        for _ in range(5):
            table.do("a", "by_hand", take="cauldron", piece=["black", "small"], to="apothecary")
    assert [e.type for e in table.log].count("by_hand") == 3 + 4
    assert replay(TRACKER, own_spell, table.options, table.log).state == table.state
