"""The caster's choices in Magecraft (issue 33): the order the icons resolve in, and each gem an
icon moves, as the rules give them to the caster; and the end coming at once, mid-spell. Each test
quotes the sentence it checks and sets out pieces that tell two readings apart."""

from __future__ import annotations

import random

import pytest

from pnp.games.magecraft.rules import OVER, RuleError
from tests.test_magecraft_rules import D, E, F, L, W, book, gems, mastered_book, table, unchanged

__all__ = ["book"]  # the fixture, shared with the rules' tests

DRAW, ATTACK, HEAL, SHIELD, VANISH = range(5)


def test_the_order_of_the_icons_is_the_casters_and_changes_what_they_do(book):
    """ "Resolve the effect icons of the spell in any order." Ash Spring (a Draw, a Heal from your
    Discard Area) with an empty bag: Heal first takes the Discard Area's Water to your HP; Draw first
    sends the Discard Area into the bag and the Heal finds nothing."""
    healed = table(book, books=(("Ash Spring",),))
    me = healed.wizards[0]
    me.hand, me.hp, me.discard = gems(W=1), gems(F=2), gems(W=1)
    healed.cast(0, random.Random(1), choices={"order": ["heal", "draw"]})
    assert me.hp == gems(F=2, W=1) and me.hand == gems() and me.discard == gems()

    drawn = table(book, books=(("Ash Spring",),))
    me = drawn.wizards[0]
    me.hand, me.hp, me.discard = gems(W=1), gems(F=2), gems(W=1)
    drawn.cast(0, random.Random(1))  # the engine's order when the caster names none: Draw first
    assert me.hp == gems(F=2) and me.hand == gems(W=1) and me.discard == gems()


def test_one_by_one_each_icon_waits_for_the_casters_choice_and_nothing_else_moves_meanwhile(book):
    """The same spell on the phones: each icon is resolved by its own move, in the order the caster
    takes them; until the last one no other move is open, and an icon the spell lacks is refused."""
    g = table(book, books=(("Ash Spring",),))
    me = g.wizards[0]
    me.hand, me.hp, me.discard = gems(W=1), gems(F=2), gems(W=1)
    rng = random.Random(1)
    g.cast(0, rng, one_by_one=True)
    assert g.pending == [1, 0, 1, 0, 0] and me.hp == gems(F=2)
    unchanged(g, lambda: g.refresh(rng), "first resolve the icons of Ash Spring", rng)
    unchanged(g, lambda: g.resolve(ATTACK, rng), "Ash Spring has no attack icon left", rng)
    g.resolve(HEAL, rng, {"colour": W})
    assert me.hp == gems(F=2, W=1) and g.resolving
    g.resolve(DRAW, rng)
    assert not g.resolving and me.hand == gems()  # the bag and the Discard Area were both empty
    with pytest.raises(RuleError, match="no spell's icons are waiting"):
        g.resolve(DRAW, rng)
    g.refresh(rng)


def test_an_attack_takes_the_shield_gem_the_caster_chooses(book):
    """ "Choose and discard a gem from one of your opponent's Shield Area to their Discard Area."
    The rival's shield holds two Fire and one Water: the caster may take the Water, not only the
    most plentiful."""
    g = table(book, books=(("Magic Missile",),))
    me, rival = g.wizards
    me.hand, rival.shield = gems(F=1), gems(F=2, W=1)
    g.cast(0, random.Random(1), one_by_one=True)
    g.resolve(ATTACK, random.Random(1), {"colour": W})
    assert rival.shield == gems(F=2) and rival.discard == gems(W=1)


def test_a_vanish_takes_the_source_and_the_colour_the_caster_chooses(book):
    """ "Move a gem from your hand or your HP Area to your Score Area." From the HP Area, of the
    colour the caster names (the HP Area holds more Fire, the hand more Light)."""
    g = table(book, books=(("Dawn Offering",),))
    me = g.wizards[0]
    me.hand, me.hp = gems(L=4, E=1), gems(F=3, E=1)
    named = [{"from": "hp", "colour": E}, {"from": "hand", "colour": E}, {"from": "hp", "colour": F}, {"from": "hand"}]
    g.cast(0, random.Random(1), [L, L, L], {"vanish": named})
    assert me.score == gems(E=2, F=1, L=1) and me.hp == gems(F=2) and me.hand == gems()


def test_a_shield_takes_the_source_and_the_colour_the_caster_chooses(book):
    """ "Move a gem from the Academy or your Discard Area to your Shield Area." From the Discard
    Area, its Darkness rather than its more plentiful Earth."""
    g = table(book, books=(("Absorb",),))
    me = g.wizards[0]
    me.hand, me.discard = gems(E=1, W=1), gems(E=2, D=1)
    g.cast(0, random.Random(1), one_by_one=True)
    g.resolve(SHIELD, random.Random(1), {"from": "discard", "colour": D})
    assert me.shield == gems(D=1) and me.discard == gems(E=2)
    unchanged(g, lambda: g.resolve(SHIELD, random.Random(1), {"from": "discard", "colour": D}), "has no Darkness")


def test_a_wrong_order_is_refused_and_leaves_no_trace(book):
    g = table(book, books=(("Ash Spring",),))
    g.wizards[0].hand = gems(W=1)
    unchanged(g, lambda: g.cast(0, random.Random(1), choices={"order": ["heal"]}), "names each of its icons once")
    unchanged(g, lambda: g.cast(0, random.Random(1), choices={"order": ["heal", "bolt"]}), "an order names icons")


def test_the_game_ends_immediately_when_a_heal_scores_the_twentieth_gem(book):
    """ "The game ends immediately when: ... 2. Any player has 20 gems or more in his or her Score
    Area." Tidal Ward's Heal on a full HP Area scores the 20th gem: its two Shields, still waiting,
    never resolve (read as "after the spell", the Academy would lose two more gems to the shield)."""
    g = table(book, books=(("Tidal Ward",),))
    me = g.wizards[0]
    me.hand, me.score = gems(W=2), gems(L=19)
    g.cast(0, random.Random(1), choices={"order": ["heal", "shield", "shield"]})
    assert (g.phase, g.winner, g.ended) == (OVER, 0, "score")
    assert sum(me.score) == 20 and me.shield == gems() and sum(g.academy_gems) == 39
    assert not g.resolving
    with pytest.raises(RuleError, match="the game is over"):
        g.resolve(SHIELD, random.Random(1))


def test_the_game_ends_immediately_mid_spell_one_by_one_too(book):
    """Chain Sparks strikes every rival: the first rival's last HP gem is the 20th in the Score Area,
    and the second rival is never struck."""
    g = table(book, players=3, books=(("Chain Sparks",),))
    me, first, second = g.wizards
    me.hand, me.score = gems(F=2), gems(L=19)
    first.hp, second.hp = gems(W=1), gems(W=1)
    g.cast(0, random.Random(1), one_by_one=True)
    g.resolve(ATTACK, random.Random(1))
    assert (g.phase, g.winner, g.ended) == (OVER, 0, "score") and second.hp == gems(W=1)


def test_a_mastered_spells_golden_gem_moves_on_once_its_last_icon_is_resolved(book):
    """ "After casting the mastered spell, the golden gem will move onto the next spell." Cast one
    by one, the golden gem stays on the card while an icon waits (a Shield from the Discard Area
    cannot take it), and moves on after the last."""
    g = mastered_book(book, "Absorb", "Stone Skin")
    me = g.wizards[0]
    me.hand = gems(E=1, F=1)
    g.cast(0, random.Random(1), one_by_one=True)
    assert me.golden == -1 and me.books[0][0].paid == [E, F]
    for _ in range(3):
        g.resolve(SHIELD, random.Random(1), {"from": "academy"})
    assert me.golden == E and me.books[0][0].paid == [F]


def test_the_caster_still_names_each_attacks_target_one_by_one(book):
    """Our ruling "targets": with two rivals each Attack names its own."""
    g = table(book, players=3, books=(("Magic Missile",),))
    g.wizards[0].hand = gems(F=1)
    g.cast(0, random.Random(1), one_by_one=True)
    unchanged(g, lambda: g.resolve(ATTACK, random.Random(1)), "name the rival this Attack strikes")
    g.resolve(ATTACK, random.Random(1), {"player": 2, "colour": L})
    assert g.wizards[2].hp == gems(F=3, W=3, E=3, L=2) and g.wizards[0].score == gems(L=1)
