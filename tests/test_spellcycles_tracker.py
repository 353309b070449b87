"""The Spellcycles tracker, purely through pnp.rules.table: a whole game on the phones played by a
script to its end with the engine's scores, refusals in the rules' words, certificates that no
other viewer sees at any point, replay and undo, and the table that plays with real pieces."""

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
from pnp.rules.table import HOST, SPECTATOR, Entry, Refused, replay, seen_by, undo_target
from tests.support.tracked import TrackedTable

SC = load_game(game("spellcycles"), [CONTENT])
BOOK = book_of(SC)
PLAYERS = ("a", "b", "c")


class Table(TrackedTable):
    def __init__(self, players=PLAYERS, seed=1, content=SC, **options):
        super().__init__(TRACKER, content, players, seed, **options)


def started(**options):
    table = Table(**options)
    table.do(HOST, "start")
    return table


def others_hidden(state: dict, viewer) -> dict:
    """`state` with every certificate the viewer may not see, and the pile, replaced by others."""
    game = json.loads(json.dumps(state["game"]))
    for p, w in enumerate(game["wizards"]):
        if state["players"][p] != viewer:
            w["certificates"] = [[99, p]] * len(w["certificates"])
    game["pile"] = [[98, 0]] * len(game["pile"])
    return {**state, "game": game}


def assert_secrets_kept(table: Table) -> None:
    """Non-interference: what each viewer sees of the state and of the latest entry is the same
    whatever the others' certificates, the pile and the seed are; their own cards they do see."""
    entry = table.log[-1]
    faked = Entry(entry.seq, entry.actor, entry.type, _faked_payload(entry))
    for viewer in table.viewers:
        shown = TRACKER.view(table.state, viewer)
        assert shown == TRACKER.view(others_hidden(table.state, viewer), viewer), viewer
        if viewer in table.state["players"] and table.state["game"]:
            own = table.state["game"]["wizards"][table.state["players"].index(viewer)]["certificates"]
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


# --- a whole game on the phones --------------------------------------------------------------


def choices_for(table: Table, match: dict) -> list[dict]:
    """The script's choices: another wizard to drain or rob, the rearmost crescent; the rest undone."""
    me = table.turn
    other = next(p for p in table.state["players"] if p != me)
    spell = table.state["line"][match["position"]]
    chosen = []
    for effect in spell["effects"] or ():
        if effect["do"] in ("drain-essence", "take-certificates") and not effect.get("each"):
            chosen.append({"player": other})
        elif effect["do"] in ("move-crescent", "remove-crescent") and table.view(me)["crescents"]:
            chosen.append({"crescent": table.view(me)["crescents"][0]})
        else:
            chosen.append({})
    return chosen


def least(spell: dict) -> int:
    cost = spell["essence"]
    return 1 if cost == "n" else cost[0] if isinstance(cost, list) else cost


def play_turn(table: Table, rng: random.Random, check) -> None:
    me = table.turn
    table.do(me, "renew")
    check(table)
    shown = table.view(me)
    apothecary = shown["players"][table.state["players"].index(me)]["apothecary"]
    empties = [s for s, stack in enumerate(shown["field"]) if not stack]
    if apothecary and empties:
        table.do(me, "contribute", piece=apothecary[rng.randrange(len(apothecary))], space=rng.choice(empties))
    else:
        table.do(me, "skip_contribute")
    check(table)
    tried = set()
    while table.state["phase"] == "playing":
        matches = [m for m in table.view(me)["matches"] if m["position"] not in tried]
        if not matches:
            break
        match = min(matches, key=lambda m: m["recolours"])
        tried.add(match["position"])
        spell = table.state["line"][match["position"]]
        payload = {"shape": match["shape"], "origin": match["origin"], "paid": least(spell)}
        try:
            table.do(me, "cast", position=match["position"], choices=choices_for(table, match), **payload)
        except Refused:
            continue  # e.g. a drain or a theft from a wizard out of reach: the script passes
        check(table)
    if table.state["phase"] == "playing":
        crescents = table.view(me)["crescents"]
        table.do(me, "progress", position=crescents[0] if crescents else None)
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
                {k: players.index(v) if k == "player" else v for k, v in c.items() if v is not None}
                for c in p["choices"]
            ]
            g.cast(p["position"], p["shape"], p["origin"], random.Random(p["seed"]), p["paid"], choices)
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
    first = next(n for n, e in enumerate(whole_game.log) if e.type == "cast" and e.payload["cards"])
    for actor in (HOST, whole_game.log[first].actor):
        with pytest.raises(Refused, match="A cast cannot be taken back."):
            undo_target(TRACKER, SC, whole_game.options, whole_game.log[: first + 1], actor)


def test_no_viewer_sees_another_wizards_certificates(whole_game):
    """(The fixture checked every viewer after every action; here: the cards were really dealt.)"""
    final = whole_game.state["game"]["wizards"]
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


def test_the_view_shows_the_field_the_line_and_the_matches_of_the_wizard_whose_turn_it_is():
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


def test_a_refused_move_says_why_in_the_rules_words():
    table = started(mode="phones")
    with pytest.raises(Refused, match="Contribute comes at Contribute; this is Renew."):
        table.do("a", "contribute", piece=["red", "large"], space=0)
    with pytest.raises(Refused, match="It is A's turn."):
        table.do("b", "renew")
    table.do("a", "renew")
    with pytest.raises(Refused, match="your apothecary holds no small red"):
        table.do("a", "contribute", piece=["red", "small"], space=0)
    with pytest.raises(Refused, match="Contribute: you must place a piece from your apothecary"):
        table.do("a", "skip_contribute")


def test_a_cast_the_caster_cannot_pay_is_refused_naming_the_spell():
    """Rules: a spell's cost is paid in essence; the engine refuses what the caster cannot pay."""
    table = started(mode="pieces", seed=3)  # this deal lays Long Night, for 3 essence, first
    table.do("a", "renew")
    assert table.state["line"][0]["name"] == "Long Night" and BOOK.refresh == 1
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
    assert undone.state["game"]["field"][0] == [] and undone.state["last_roll"] == table.state["last_roll"]


# --- with real pieces ------------------------------------------------------------------------


def test_with_pieces_the_knucklebone_rolls_again_for_a_colour_with_no_large_piece_left():
    """Rules: Renew takes a large piece of the colour rolled; 'roll again' when none is left."""
    rolled_again = 0
    for seed in range(12):
        table = started(mode="pieces", seed=seed)
        for colour in table.state["colours"][1:]:
            table.do(HOST, "cauldron", colour=colour, large=0)  # only red has large pieces left
        red = table.state["game"]["cauldron"][0][2]
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
    table.do("a", "cast", position=0, prestige=2, choices=[{"player": "b"}])
    assert table.view("a")["hand"] == [] and table.view("a")["players"][0]["certificates"] == 0
    assert [p["essence"] for p in table.view("b")["players"]] == [start + 1 + 2, BOOK.duel_essence - 1]
    table.do("b", "essence", wizard="b", change=-(BOOK.duel_essence - 1))  # by hand: a text-only spell's drain
    assert table.state["phase"] == "over" and table.state["winners"] == ["a"]
    assert table.state["scores"] == {"a": start + 3, "b": 0}
    assert replays(table)


def test_the_engines_game_goes_to_data_and_back_unchanged_stacks_and_all():
    from pnp.games.spellcycles.rules import deal

    stackers = Variants(stackers=True, accelerando=True)
    g = deal(BOOK, 3, random.Random(2), None, stackers)
    g.refresh()
    g.renew(random.Random(4))
    g.field.put(9, Piece(0, 2))
    g.field.put(9, Piece(3, 1))  # a stack: blue on red
    g.wizards[1].certificates.append((12, 3))
    data = g.to_data()
    back = Game.from_data(BOOK, stackers, json.loads(json.dumps(data)))
    assert back.to_data() == data
    assert (
        back.field.top(9) == Piece(3, 1) and back.field.tops == g.field.tops and back.field.occupied == g.field.occupied
    )


def test_accelerando_places_a_second_piece_for_essence_once_a_turn():
    """Variant: at the end of Contribute, an extra piece for essence, once a turn."""
    table = started(mode="phones", accelerando=True)
    with pytest.raises(Refused, match="only the host corrects it"):
        table.do("a", "essence", wizard="a", change=4)
    table.do(HOST, "essence", wizard="a", change=4)
    table.do("a", "renew")
    apothecary = table.view("a")["players"][0]["apothecary"]
    table.do("a", "contribute", piece=apothecary[0], space=0)
    table.do("a", "accelerate", piece=apothecary[1], space=1)
    assert table.view("b")["players"][0]["essence"] == BOOK.refresh + 4 - BOOK.accelerando
    assert table.view("b")["accelerated"] and table.view("b")["field"][1] == [apothecary[1]]
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
    with pytest.raises(Refused, match="Changes by hand follow a text-only spell cast this turn."):
        table.do("a", "by_hand", take=0, to="apothecary")
    table.do("a", "cast", position=0, match=0)
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
