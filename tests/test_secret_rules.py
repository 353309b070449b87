"""Secrets in the rules: seeded shuffles and bag draws repeat from their seed, a game's redaction
shows each viewer only their own cards, and a draw, once made, is never taken back or redrawn."""

from __future__ import annotations

import random

import pytest

from pnp.rules.chance import SecureChance, draw_from, shuffled
from pnp.rules.table import HOST, SPECTATOR, Entry, Refused, replay, seen_by, undo_target
from tests.support.secret_game import DECK, TRACKER, Deal, Options


def test_a_shuffle_repeats_from_its_seed_and_leaves_its_items_alone():
    items = list(range(20))
    first = shuffled(items, random.Random("seed"))
    assert first == shuffled(items, random.Random("seed"))
    assert sorted(first) == items and first != items and items == list(range(20))
    assert shuffled(items, random.Random("another seed")) != first


def test_a_bag_draw_repeats_from_its_seed_and_keeps_the_rest_in_order():
    drawn, rest = draw_from("abcdefgh", 3, random.Random(7))
    assert (drawn, rest) == draw_from("abcdefgh", 3, random.Random(7))
    assert sorted(drawn + rest) == list("abcdefgh") and rest == sorted(rest)
    assert draw_from("ab", 0, random.Random(1)) == ([], ["a", "b"])
    with pytest.raises(ValueError):
        draw_from("ab", 3, random.Random(1))


def test_a_tables_chance_is_the_secure_generator_unless_a_test_seeds_it():
    assert isinstance(SecureChance().rng, random.SystemRandom)
    seated = _seated(["Ann", "Bob"])
    deal = [TRACKER.draw(None, seated, HOST, Deal(), SecureChance(random.Random(3))) for _ in range(2)]
    assert deal[0] == deal[1] and len(deal[0].hands["p1"]) == 3


def _seated(names: list[str]) -> dict:
    state = TRACKER.setup(None, Options())
    for n, name in enumerate(names, start=1):
        state = TRACKER.join(state, f"p{n}", name)
    return state


def _log() -> list[Entry]:
    """Ann and Bob sit down and are dealt three cards each; Ann draws one, Bob discards one."""
    return [
        Entry(1, "p1", "join", {"name": "Ann"}),
        Entry(2, "p2", "join", {"name": "Bob"}),
        Entry(3, HOST, "deal", {"hands": {"p1": list(DECK[0:3]), "p2": list(DECK[3:6])}}),
        Entry(4, "p1", "draw", {"cards": [DECK[6]]}),
        Entry(5, "p2", "discard", {"card": DECK[3]}),
    ]


@pytest.mark.parametrize("viewer", ["p1", "p2", HOST, SPECTATOR])
def test_each_viewer_sees_only_their_own_cards_in_every_entry_and_the_view(viewer):
    log = _log()
    own = {"p1": set(DECK[0:3]) | {DECK[6]}, "p2": set(DECK[3:6])}.get(viewer, set())
    seen = str([seen_by(TRACKER, e, viewer).payload for e in log])
    seen += str(TRACKER.view(replay(TRACKER, None, Options(), log).state, viewer))
    assert {card for card in DECK if card in seen} == own
    assert "'counts': {'p1': 3, 'p2': 3}" in seen  # everyone sees how many


def test_a_game_that_hides_nothing_shows_every_entry_as_logged():
    from pnp.games.magic_spell.tracker import TRACKER as public

    entry = Entry(4, "p1", "rest", {"note": "x"})
    assert seen_by(public, entry, SPECTATOR) is entry


def test_a_draw_is_never_taken_back_by_its_player_or_the_host():
    log = _log()[:4]
    for actor in ("p1", HOST):
        with pytest.raises(Refused, match="draw cannot be taken back"):
            undo_target(TRACKER, None, Options(), log, actor)
    with pytest.raises(Refused, match="deal cannot be taken back"):
        undo_target(TRACKER, None, Options(), log[:3], HOST)


def test_taking_back_a_move_before_a_draw_leaves_the_draw_as_it_was_drawn():
    log = [*_log()[:3], Entry(4, "p2", "pass", {}), Entry(5, "p1", "draw", {"cards": [DECK[6]]})]
    assert undo_target(TRACKER, None, Options(), log, "p2").seq == 4
    after = replay(TRACKER, None, Options(), [*log, Entry(6, "p2", "undo", {"seq": 4})])
    assert after.state["hands"]["p1"] == [*DECK[0:3], DECK[6]]  # replayed as recorded: no redraw


def test_a_discard_a_later_draw_took_from_the_deck_cannot_be_taken_back():
    log = [*_log(), Entry(6, "p1", "draw", {"cards": [DECK[3]]})]  # Ann draws the card Bob discarded
    with pytest.raises(Refused, match="later moves depend on it"):
        undo_target(TRACKER, None, Options(), log, "p2")
