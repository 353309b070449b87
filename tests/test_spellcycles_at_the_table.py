"""Spellcycles at the table (issue 33): who goes first is the table's choice, the rules' costs
unless the table plays our Swift Time, a cast offered only complete when its effect is not
optional, each spell's effect in words on the phones, no choice that changes nothing, and the
last cast saying what it paid."""

from __future__ import annotations

import json

import pytest

from pnp.games.spellcycles.engine import game_of
from pnp.games.spellcycles.tracker import Options
from pnp.rules.offers import completions
from pnp.rules.table import HOST, SPECTATOR, Refused, seen_by
from tests.test_spellcycles_tracker import SC, Table, laid


def test_the_host_chooses_who_goes_first_at_start():
    """The rules: "Choose a player to go first." At Start the host is offered each wizard; the one
    chosen takes the first turn, and a Start naming no one is refused."""
    table = Table(mode="phones")
    start = next(o for o in table.offers(None, host=True) if o["type"] == "start")
    assert [o["value"] for o in start["pick"][0]["one_of"]] == ["a", "b", "c"]
    with pytest.raises(Refused, match="Choose who goes first"):
        table.do(HOST, "start")
    table.do(HOST, "start", first="b")
    assert table.view("a")["turn"]["player"] == "b" and table.view("a")["first_player"] == "b"
    assert table.state["engine"]["wizards"][1]["essence"] == 1  # b's turn began: Refresh
    assert [w["essence"] for w in table.state["engine"]["wizards"]] == [0, 1, 0]


def test_the_server_draws_who_goes_first_when_the_table_asks():
    """A table opened with `first: drawn`: Start asks nothing; the server's chance draws the wizard
    (different tables, different wizards), the deal records it for every viewer, and a host who
    names one anyway is refused."""
    firsts = set()
    for seed in range(12):
        table = Table(mode="phones", first="drawn", seed=seed)
        start = next(o for o in table.offers(None, host=True) if o["type"] == "start")
        assert "pick" not in start
        table.do(HOST, "start")
        first = table.view("a")["first_player"]
        assert table.view("a")["turn"]["player"] == first
        entry = next(e for e in table.log if e.type == "start")
        assert table.state["players"][seen_by(table.tracker, entry, SPECTATOR).payload["deal"]["first"]] == first
        firsts.add(first)
    assert firsts == {"a", "b", "c"}
    with pytest.raises(Refused, match="the server draws who goes first"):
        Table(mode="phones", first="drawn").do(HOST, "start", first="a")


@pytest.mark.parametrize(("swift", "reverse", "killing"), [(False, 6, 6), (True, 2, 3)])
def test_the_table_plays_the_rules_costs_unless_it_opts_into_swift_time(swift, reverse, killing):
    """The rules: Reverse Time and Killing Time "Requirements: 6 Essence"; our retune, 2 and 3,
    only at a table playing Swift Time, whose phones say so beside the cost."""
    table = Table(mode="phones", swift_time=swift)
    table.do(HOST, "start", first="a")
    game = game_of(SC, table.state)
    assert (game.book.spell("Reverse Time").essence, game.book.spell("Killing Time").essence) == (reverse, killing)
    for shown in table.view("a")["line"]:
        assert shown["swift_time"] == (swift and shown["name"] in ("Reverse Time", "Killing Time"))


def test_the_swift_time_option_says_the_costs_the_content_gives():
    described = Options.model_fields["swift_time"].description
    for card in SC["spell-cards"].cards:
        if card.swift_time is not None:
            assert f"{card.name} costs {card.swift_time.essence}" in described or (
                f"{card.name} {card.swift_time.essence}" in described
            ), card.name


def at_reap(line: list[str], pieces: dict, essence: int = 5, apothecary=((0, 2),)) -> Table:
    """A phones table at a's Reap, the line's first spells those named, each with a crescent."""
    table = Table(mode="phones", seed=15)
    table.do(HOST, "start", first="a")
    table.do("a", "renew")
    table.do("a", "contribute", piece=table.view("a")["players"][0]["apothecary"][0], space=63)
    laid(table, pieces, line=line)
    engine = json.loads(json.dumps(table.state["engine"]))
    engine["crescents"] = list(range(len(line))) + [0] * (3 - len(line))
    engine["wizards"][0]["essence"] = essence
    engine["wizards"][0]["apothecary"] = [list(p) for p in apothecary]
    table.state = {**table.state, "engine": engine}
    return table


def test_quick_fingers_is_offered_only_with_a_square_for_its_piece():
    """Quick Fingers: "Put a randomly selected piece from your Apothecary on the Casting Field."
    The offer asks for exactly one square (a phone's Cast stays disabled until it is tapped), and a
    cast naming none is not accepted."""
    table = at_reap(["Quick Fingers"], {16: ("yellow", "large"), 17: ("red", "large")})
    offer = next(o for o in table.offers("a") if o["type"] == "cast")
    picks = [p for o in offer["pick"][1]["one_of"] for p in o["pick"] if p["field"] == "choices.0.to"]
    assert picks and all(p["size"] == [1, 1] for p in picks)
    assert not table.accepts("a", offer, {"position": 0, "match": offer["pick"][0]["one_of"][0]["value"], "paid": 1})
    for body in completions(offer, most=40):
        assert table.accepts("a", offer, body), body


def test_ashen_ledger_asks_no_one_to_take_certificates_from():
    """Ashen Ledger takes its certificates from the pile: its offer holds no choice of a wizard
    (a choice that changes nothing), where Friend of Jack's names each rival."""
    pieces = {0: ("black", "large"), 1: ("white", "large"), 2: ("black", "large")}
    pieces |= {16: ("red", "large"), 17: ("black", "large"), 24: ("black", "large"), 25: ("yellow", "large")}
    table = at_reap(["Ashen Ledger", "Friend of Jack"], pieces)
    casts = {o["label"]: json.dumps(o) for o in table.offers("a") if o["type"] == "cast"}
    assert "player" not in casts["Ashen Ledger"] and '"choices.0.player"' in casts["Friend of Jack"]


def test_each_dealt_spell_carries_its_effect_in_the_cards_words():
    table = Table(mode="phones")
    table.do(HOST, "start", first="a")
    cards = {c.name: c for c in SC["spell-cards"].cards}
    for shown in table.view(SPECTATOR)["line"]:
        assert shown["effect"] == cards[shown["name"]].effect_words() and "{" not in shown["effect"]


def test_the_last_cast_says_what_it_paid_for_the_spell_and_for_its_recolours():
    """Ashen Ledger (1 essence) on black, white, blue: one recolour, one essence more."""
    table = at_reap(["Ashen Ledger"], {0: ("black", "large"), 1: ("white", "large"), 2: ("blue", "large")})
    offer = next(o for o in table.offers("a") if o["type"] == "cast")
    way = next(o for o in offer["pick"][0]["one_of"] if o["recolour"] == [2])
    assert way["label"] == "1 recolour (+1 essence)"
    table.do("a", "cast", position=0, match=way["value"])
    last = table.view("b")["last_cast"]
    assert (last["paid"], last["recolours"], last["recolour_essence"], last["certificates"]) == (1, 1, 1, 0)
    assert table.view("a")["players"][0]["essence"] == 3
