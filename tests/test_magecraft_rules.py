"""Magecraft's rules, as the rules word them (../shared/rules/magecraft.txt) and as our rulings
(content/magecraft/rulings.yaml) settle what they leave open: each test quotes the sentence it
checks and sets out pieces that tell two readings apart."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.magecraft.rulebook import WILD, Cantrip, book_of
from pnp.games.magecraft.rules import (
    CASTING,
    DISCARD_SHIELD,
    OPENING,
    OVER,
    Card,
    Game,
    RuleError,
    payment_for,
    payments,
)
from pnp.paths import CONTENT

F, W, E, L, D = range(5)  # the set's colours, in set.yaml's order (checked below)


# The spells and the Cantrip these tests cast, pinned as the tests state them (cast cost; Draw,
# Attack, Heal, Shield, Vanish): `pnp sim magecraft` tunes the content's numbers, the rules stay.
PINNED = {
    "Meditation": ((L,), (2, 0, 0, 0, 0)),
    "Magic Missile": ((F,), (0, 1, 0, 0, 0)),
    "Minor Cure": ((W,), (0, 0, 2, 0, 0)),
    "Absorb": ((E, WILD), (0, 0, 0, 3, 0)),
    "Fireball": ((F, F, WILD), (0, 3, 0, 0, 0)),
    "Dawn Offering": ((L, L, WILD), (0, 0, 0, 0, 4)),
    "Ember Dart": ((F, WILD), (0, 2, 0, 0, 0)),
    "Cinder Rain": ((F, E, WILD), (1, 3, 0, 0, 0)),
    "Thornwall": ((E, W), (0, 1, 0, 2, 0)),  # steal-shield
    "Chain Sparks": ((WILD, WILD), (0, 1, 0, 0, 0)),  # attack-each
    "Ash Spring": ((W,), (1, 0, 1, 0, 0)),  # heal-from-discard
    "Tidal Ward": ((W, W), (0, 0, 1, 2, 0)),
    "Stone Skin": ((E,), (0, 0, 0, 2, 0)),
}
SPARK = Cantrip("Spark", F, (0, 1, 0, 0, 0))


@pytest.fixture(scope="module")
def book():
    found = book_of(load_game(game("magecraft"), [CONTENT]))
    assert found.colours == ("fire", "water", "earth", "light", "darkness")
    spells = tuple(
        replace(s, cast=PINNED[s.name][0], effects=PINNED[s.name][1]) if s.name in PINNED else s for s in found.spells
    )
    characters = (replace(found.characters[0], cantrip=SPARK),) + found.characters[1:]
    return replace(found, spells=spells, characters=characters)


def gems(**counts: int) -> list[int]:
    """Counts by colour letter: gems(F=2, D=1) -> [2, 0, 0, 0, 1]."""
    return [counts.get(letter, 0) for letter in "FWELD"]


def table(book, players: int = 2, books: tuple[tuple[str, ...], ...] = (), characters=None) -> Game:
    """A game at wizard 1's Discard Shield phase: every area empty, each HP Area full, the Academy
    with 8 of each gem and every spell; wizard 1's spellbooks as named (the others' starting)."""
    g = Game(book, players, characters)
    g.academy_gems = [8] * 5
    g.academy_order = list(range(len(book.spells)))
    g.academy_spells = [2] * len(book.spells)
    for p, w in enumerate(g.wizards):
        w.hp = gems(F=3, W=3, E=3, L=3)
        names = books if p == 0 and books else tuple((n,) for n in book.starting)
        w.books = [[Card(book.spell_index(n)) for n in cards] for cards in names] + [[] for _ in range(3 - len(names))]
    g.phase = DISCARD_SHIELD
    return g


def open_hands(g: Game) -> None:
    """Each seat that must discards the first gems of its opening hand."""
    for seat, due in enumerate(list(g.opening)):
        if due:
            hand = [c for c, n in enumerate(g.wizards[seat].hand) for _ in range(n)]
            g.opening_discard(seat, hand[:due])


def unchanged(g: Game, move, said: str, rng: random.Random | None = None) -> None:
    """The move is refused with `said` in its reason, and the game (and generator) are as before."""
    before, state = json.dumps(g.to_data()), rng.getstate() if rng else None
    with pytest.raises(RuleError) as refused:
        move()
    assert said in str(refused.value)
    assert json.dumps(g.to_data()) == before
    if rng:
        assert rng.getstate() == state


# --- the icons -----------------------------------------------------------------------------


def test_attack_on_an_empty_shield_scores_one_of_the_rivals_hp_gems(book):
    """ "Choose and discard a gem from one of your opponent's Shield Area to their Discard Area. If
    their Shield Area is empty, move a gem from their HP Area to your Score Area instead.\""""
    g = table(book, books=(("Magic Missile",),))
    g.wizards[0].hand = gems(F=1)
    g.cast(0, random.Random(1), choices={"attack": [{"colour": W}]})
    me, rival = g.wizards
    assert rival.hp == gems(F=3, W=2, E=3, L=3) and me.score == gems(W=1)
    assert rival.discard == gems()  # not to their Discard Area


def test_attack_on_a_shield_discards_the_shield_gem_and_leaves_hp_alone(book):
    g = table(book, books=(("Magic Missile",),))
    g.wizards[0].hand = gems(F=1)
    g.wizards[1].shield = gems(E=1)
    g.cast(0, random.Random(1))
    me, rival = g.wizards
    assert rival.shield == gems() and rival.discard == gems(E=1)
    assert sum(rival.hp) == 12 and me.score == gems()


def test_heal_on_a_full_hp_area_scores_and_otherwise_heals(book):
    """ "Move a gem from the Academy to your HP Area. If your HP Area is full (12 gems), move the
    gem to your Score Area instead.\""""
    g = table(book, books=(("Minor Cure",),))  # Heal 2
    me = g.wizards[0]
    me.hand = gems(W=1)
    me.hp = gems(F=3, W=3, E=3, L=2)  # 11: the first Heal fills it, the second scores
    g.cast(0, random.Random(1), choices={"heal": [L, D]})
    assert me.hp == gems(F=3, W=3, E=3, L=3) and me.score == gems(D=1)
    assert g.academy_gems == gems(F=8, W=8, E=8, L=7, D=7)


def test_heal_takes_the_chosen_colour_and_does_nothing_when_the_academy_is_empty(book):
    """Our ruling heal-empty: "The Academy has none left: the Heal does nothing.\""""
    g = table(book, books=(("Minor Cure",),))
    me = g.wizards[0]
    me.hand = gems(W=1)
    me.hp = gems(F=1)
    g.academy_gems = gems(E=1)
    unchanged(g, lambda: g.cast(0, random.Random(1), choices={"heal": [F]}), "the Academy has no Fire gem")
    g.cast(0, random.Random(1))
    assert me.hp == gems(F=1, E=1) and g.academy_gems == gems() and me.score == gems()


def test_draw_reshuffles_the_discard_area_only_when_the_bag_is_empty(book):
    """ "Randomly draw a gem from your bag. If there are no gems left in your bag, put all gems in
    your Discard Area into your bag and draw a random gem from it.\""""
    g = table(book, books=(("Meditation",),))  # Draw 2
    me = g.wizards[0]
    me.hand = gems(L=1)
    me.bag = gems(E=1)
    me.discard = gems(W=3)
    g.cast(0, random.Random(1))
    # the bag's one Earth first (the discard was not yet mixed in), then a Water from the reshuffle
    assert me.hand == gems(E=1, W=1) and me.bag == gems(W=2) and me.discard == gems()
    assert me.books[0][0].paid == [L]


def test_a_draw_with_gems_in_the_bag_leaves_the_discard_area_alone(book):
    g = table(book, books=(("Meditation",),))
    me = g.wizards[0]
    me.hand, me.bag, me.discard = gems(L=1), gems(F=2), gems(W=5)
    g.cast(0, random.Random(3))
    assert me.hand == gems(F=2) and me.bag == gems() and me.discard == gems(W=5)


def test_bag_and_discard_both_empty_the_draw_does_nothing(book):
    """Our ruling bag-empty: "Bag and Discard Area both empty: the Draw ... does nothing.\""""
    g = table(book, books=(("Meditation",),))
    g.wizards[0].hand = gems(L=1)
    g.cast(0, random.Random(1))
    assert g.wizards[0].hand == gems()


def test_shield_comes_from_the_academy_or_your_discard_area(book):
    """ "Move a gem from the Academy or your Discard Area to your Shield Area.\""""
    g = table(book, books=(("Absorb",),))  # Shield 3
    me = g.wizards[0]
    me.hand, me.discard = gems(E=2), gems(W=1)
    choices = {
        "shield": [{"from": "discard", "colour": W}, {"from": "academy", "colour": D}, {"from": "academy", "colour": D}]
    }
    g.cast(0, random.Random(1), choices=choices)
    assert me.shield == gems(W=1, D=2) and me.discard == gems() and g.academy_gems == gems(F=8, W=8, E=8, L=8, D=6)


def test_vanish_moves_a_gem_from_your_hand_or_your_hp_to_your_score(book):
    """ "Move a gem from your hand or your HP Area to your Score Area.\""""
    g = table(book, books=(("Dawn Offering",),))  # Vanish 4
    me = g.wizards[0]
    me.hand = gems(L=2, W=2, F=1)  # pays Light, Light, Wild (a Water), leaves a Water and a Fire
    choices = {
        "vanish": [
            {"from": "hand", "colour": F},
            {"from": "hp", "colour": E},
            {"from": "hp", "colour": E},
            {"from": "hand"},
        ]
    }
    g.cast(0, random.Random(1), payment=[L, L, W], choices=choices)
    assert me.score == gems(F=1, E=2, W=1) and me.hand == gems() and me.hp == gems(F=3, W=3, E=1, L=3)


def test_a_wild_is_paid_by_any_colour_darkness_too(book):
    """ "Wild cost can be paid by gems of any color." Our ruling wild: Darkness too."""
    g = table(book, books=(("Fireball",),))
    g.wizards[0].hand = gems(F=2, D=1)
    g.cast(0, random.Random(1), payment=[F, F, D])
    assert g.wizards[0].books[0][0].paid == [F, F, D]


def test_a_payment_refused_says_what_the_spell_needs_and_what_the_hand_has(book):
    g = table(book, books=(("Fireball",),))
    g.wizards[0].hand = gems(F=1, W=3)
    unchanged(g, lambda: g.cast(0, random.Random(1)), "Fireball needs Fire, Fire and one more; your hand has one Fire.")
    unchanged(
        g, lambda: g.cast(0, random.Random(1), payment=[F, W, W]), "gem 2 of the cost is Fire; Water cannot pay it"
    )


# --- the specials ----------------------------------------------------------------------------


def test_steal_shield_moves_the_struck_shield_gem_to_the_casters_shield(book):
    g = table(book, books=(("Thornwall",),))  # Attack 1, Shield 2, steal-shield
    me, rival = g.wizards
    me.hand = gems(E=1, W=1)
    rival.shield = gems(F=1)
    g.cast(0, random.Random(1), choices={"shield": [{"colour": E}, {"colour": E}]})
    assert rival.shield == gems() and rival.discard == gems()
    assert me.shield == gems(F=1, E=2)


def test_attack_each_strikes_every_rival_still_in_the_arena(book):
    g = table(book, players=3, books=(("Chain Sparks",),))
    g.wizards[0].hand = gems(W=2)
    g.wizards[1].shield = gems(L=1)
    g.cast(0, random.Random(1))
    assert g.wizards[1].shield == gems() and g.wizards[1].discard == gems(L=1)
    assert sum(g.wizards[2].hp) == 11 and sum(g.wizards[0].score) == 1


def test_heal_from_discard_takes_from_the_casters_discard_area(book):
    g = table(book, books=(("Ash Spring",),))
    me = g.wizards[0]
    me.hand, me.hp, me.discard, me.bag = gems(W=1), gems(F=2), gems(D=1), gems(L=1)  # the Draw takes the bag's Light
    g.cast(0, random.Random(1))
    assert me.hp == gems(F=2, D=1) and me.discard == gems() and g.academy_gems == [8] * 5


# --- spellbooks, learning, revision ----------------------------------------------------------


def test_a_spellbook_is_cast_left_to_right_never_skipping_an_unpayable_spell(book):
    """ "If you do not have sufficient gems for a spell, you cannot skip the current spell and cast
    the next one." Fireball first, then Magic Missile: one Fire pays the Missile, never the Fireball."""
    g = table(book, books=(("Fireball", "Magic Missile"), ("Meditation",)))
    g.wizards[0].hand = gems(F=1, L=1)
    unchanged(g, lambda: g.cast(0, random.Random(1)), "Fireball needs Fire, Fire and one more")
    g.wizards[0].hand = gems(F=4)
    assert g.cast(0, random.Random(1)) == "Fireball"
    assert g.cast(0, random.Random(1)) == "Magic Missile"
    unchanged(g, lambda: g.cast(0, random.Random(1)), "no spell left")


def test_only_one_spellbook_is_cast_a_turn(book):
    """ "You can NEVER cast spells from different spellbooks in the same casting phase.\""""
    g = table(book, books=(("Magic Missile",), ("Meditation",)))
    g.wizards[0].hand = gems(F=1, L=1)
    g.cast(0, random.Random(1))
    unchanged(g, lambda: g.cast(1, random.Random(1)), "never cast in the same casting phase")


def test_learning_pays_to_the_discard_area_and_places_the_spell_on_the_left(book):
    """ "Place the spell on LEFT of one of the your spellbooks." Our ruling learn-gems: the learn
    cost goes to your Discard Area."""
    g = table(book)
    me = g.wizards[0]
    me.hand = gems(F=3)
    g.learn("Fireball", 1)
    assert [book.spells[c.spell].name for c in me.books[1]] == ["Fireball", "Magic Missile"]
    assert me.hand == gems(F=1) and me.discard == gems(F=2)
    assert g.academy_spells[book.spell_index("Fireball")] == 1
    unchanged(g, lambda: g.cast(1, random.Random(1)), "the casting phase is over")
    unchanged(g, lambda: g.learn("Minor Cure", 0), "the casting phase is over")


def test_learning_a_spell_the_academy_lacks_or_cannot_be_paid_is_refused(book):
    g = table(book)
    g.wizards[0].hand = gems(F=1)
    g.academy_spells[book.spell_index("Minor Cure")] = 0
    unchanged(g, lambda: g.learn("Minor Cure", 0), "the Academy has no Minor Cure card")
    unchanged(g, lambda: g.learn("Fireball", 0), "Learning Fireball needs Fire and Fire; your hand has one Fire.")


def test_revision_needs_four_gems_rearranges_freely_and_masters_one(book):
    """ "Players can choose revision only if they have at least 4 gems in hand." "Freely rearrange
    your spells in all 3 of your spellbooks. Spellbooks can be empty after this process.\""""
    g = table(book)
    me = g.wizards[0]
    me.hand = gems(F=3)
    unchanged(g, lambda: g.revise([F, F, F]), "revision needs 4 gems in your hand; you have 3")
    me.hand = gems(F=3, W=2)
    g.revise([F, F, F, W], arrangement=[[(2, 0), (0, 0), (1, 0)], [], []], master=(0, 2))
    names = [[(book.spells[c.spell].name, c.mastered) for c in cards] for cards in me.books]
    assert names == [[("Mana Tricks", False), ("Meditation", False), ("Magic Missile", True)], [], []]
    assert me.hand == gems(W=1) and me.discard == gems(F=3, W=1)


def test_revision_refuses_a_bad_arrangement_or_a_second_mastering(book):
    g = table(book)
    g.wizards[0].hand = gems(F=4)
    g.wizards[0].books[0][0].mastered = True
    unchanged(g, lambda: g.revise([F] * 4, arrangement=[[(0, 0)], [(1, 0)], []]), "each of your spells once")
    unchanged(g, lambda: g.revise([F] * 4, master=(0, 0)), "Meditation is mastered already")


# --- the golden gem ---------------------------------------------------------------------------


def mastered_book(book, *names: str) -> Game:
    g = table(book, books=(names,))
    g.wizards[0].books[0][0].mastered = True
    return g


def test_the_golden_gem_pays_a_slot_of_its_own_colour_in_the_next_spell(book):
    """ "After casting the mastered spell, the golden gem will move onto the next spell. When you
    cast the spell after that, you can continue to spend the golden gem as part of the cast cost."
    One Fire and one Water pay Magic Missile then Fireball (Fire, Fire, Wild) only with the golden
    Fire moving on."""
    g = mastered_book(book, "Magic Missile", "Fireball")
    me = g.wizards[0]
    me.hand = gems(F=2, W=1)
    g.cast(0, random.Random(1))
    assert me.golden == F and me.books[0][0].paid == []
    g.cast(0, random.Random(1), payment=[None, F, W])
    assert me.books[0][1].paid == [F, F, W] and me.hand == gems() and me.golden == -1

    plain = table(book, books=(("Magic Missile", "Fireball"),))
    plain.wizards[0].hand = gems(F=2, W=1)
    plain.cast(0, random.Random(1))
    unchanged(
        plain,
        lambda: plain.cast(0, random.Random(1)),
        "Fireball needs Fire, Fire and one more; your hand has one Fire.",
    )


def test_the_golden_gem_pays_a_wild_when_the_next_spell_lacks_its_colour(book):
    """Our ruling golden-match: "one of its own colour, or a Wild.\""""
    g = mastered_book(book, "Meditation", "Ember Dart")  # Light; then Fire, Wild
    me = g.wizards[0]
    me.hand = gems(L=1, F=1)
    g.cast(0, random.Random(1))
    assert me.golden == L
    g.cast(0, random.Random(1))
    assert me.books[0][1].paid == [F, L]


def test_a_golden_gem_the_next_spell_cannot_use_goes_to_the_discard_area(book):
    """ "If the next spell's cast cost does not match the golden gem, move it to the Discard Area instead.\""""
    g = mastered_book(book, "Meditation", "Magic Missile")  # Light; then Fire only
    me = g.wizards[0]
    me.hand = gems(L=1)
    g.cast(0, random.Random(1))
    assert me.golden == -1 and me.discard == gems(L=1)


def test_a_golden_gem_at_the_end_of_its_spellbook_goes_to_the_discard_area(book):
    """Our ruling golden-end: "A golden gem with no next spell in the spellbook ... goes to your Discard Area.\""""
    g = mastered_book(book, "Magic Missile")
    g.wizards[0].hand = gems(F=1)
    g.cast(0, random.Random(1))
    assert g.wizards[0].golden == -1 and g.wizards[0].discard == gems(F=1)


# --- the Cantrip ------------------------------------------------------------------------------


def test_a_cantrip_is_cast_once_a_turn_before_between_or_after_the_spells(book):
    """ "It can be activated during your casting phase before or after you begin casting a spell."
    Our ruling cantrip: "at most once a turn, any time in your casting phase: before your first
    spell, between two spells or after the last". Between two Magic Missiles the Spark is cast and
    the second Missile still follows (read as "only before the first or after the last", the
    Cantrip would end the spellbook)."""
    spark = next(i for i, c in enumerate(book.characters) if c.cantrip == SPARK)  # Fire: Attack 1
    g = table(book, books=(("Magic Missile", "Magic Missile"),), characters=[spark, None])
    me = g.wizards[0]
    me.hand = gems(F=4)
    g.cantrip(random.Random(1))  # before the first spell: spells may follow
    g.cast(0, random.Random(1))
    unchanged(g, lambda: g.cantrip(random.Random(1)), "at most once a turn")
    g.refresh(random.Random(1))
    g.refresh(random.Random(1))  # the rival's turn passes
    me.hand = gems(F=3)
    g.cast(0, random.Random(1))
    g.cantrip(random.Random(1))  # between the two spells
    g.cast(0, random.Random(1))  # the second Missile still follows
    assert sum(me.score) == 5  # three Missiles and two Sparks over the two turns


# --- refresh, setup, the end ------------------------------------------------------------------


def test_refresh_discards_the_hand_and_paid_gems_then_draws_reshuffling_when_the_bag_runs_out(book):
    """ "The active player moves all gems in hand and all gems on their spell cards to the Discard
    Area, then draws 4 new gems from his or her bag. If his or her bag is out of gems, the player
    must put all the gems in the Discard Area into his or her bag, then randomly draw gems to fill
    up his or her hand of 4 gems." The bag's two gems come first, the rest from the reshuffle,
    which holds the hand and the paid gems just discarded."""
    g = table(book, books=(("Magic Missile",),))
    me = g.wizards[0]
    me.hand, me.bag = gems(F=1, W=1), gems(E=2)
    g.cast(0, random.Random(1))
    g.refresh(random.Random(5))
    # the bag's two Earth, then the Water of the hand and the Fire paid onto Magic Missile
    assert me.hand == gems(E=2, F=1, W=1) and me.bag == gems() and me.discard == gems()
    assert me.books[0][0].paid == []
    assert (g.player, g.phase, g.turn) == (1, DISCARD_SHIELD, 2)


def test_the_discard_shield_phase_comes_first_and_moves_shield_gems_to_the_discard_area(book):
    """ "You may move any number of gems from your Shield Area to the Discard Area.\""""
    g = table(book)
    me = g.wizards[0]
    me.shield, me.hand = gems(E=2, W=1), gems(L=1)
    unchanged(g, lambda: g.discard_shield([F]), "your Shield Area has no Fire")
    g.discard_shield([E])
    assert me.shield == gems(E=1, W=1) and me.discard == gems(E=1)
    g.cast(0, random.Random(1))
    unchanged(g, lambda: g.discard_shield([E]), "before casting")


@pytest.mark.parametrize(
    ("players", "cards", "academy_gems", "hands"),
    [(2, 2, 8, [2, 3]), (3, 3, 12, [2, 3, 4]), (4, 4, 16, [2, 3, 4, 4])],
)
def test_setup_follows_the_seat_table_and_the_academy_grows_with_the_table(book, players, cards, academy_gems, hands):
    """ "1st player 4 2 / 2nd player 4 1 / 3rd player 4 0 / 4th player 5 1"; "Cards per Spell 3 4 /
    Gems per Color 12 16"; the 2-player Academy: 2 cards a spell, 8 gems a colour, the basic
    spells and 9 random sets."""
    g = Game.new(book, players, random.Random(players))
    assert g.phase == OPENING and g.opening == [d for _, d in book.seats[:players]]
    for seat, w in enumerate(g.wizards):
        assert sum(w.hand) == book.seats[seat][0] and sum(w.bag) == 12 - book.seats[seat][0]
        assert w.hp == gems(F=3, W=3, E=3, L=3)
        assert [[book.spells[c.spell].name for c in cards] for cards in w.books] == [
            ["Meditation"],
            ["Magic Missile"],
            ["Mana Tricks"],
        ]
    open_hands(g)
    assert [sum(w.hand) for w in g.wizards] == hands
    assert g.phase == DISCARD_SHIELD and g.player == 0
    assert g.academy_gems == [academy_gems] * 5
    dealt = [book.spells[i].name for i in g.academy_order]
    assert dealt[:3] == ["Minor Cure", "Absorb", "Fireball"] and len(set(dealt)) == 12
    assert not set(dealt) & set(book.starting)
    assert all(g.academy_spells[i] == cards for i in g.academy_order)
    assert sum(g.academy_spells) == 12 * cards


def test_a_table_is_two_to_four_wizards_each_with_a_character_of_the_set(book):
    with pytest.raises(RuleError, match="Magecraft is for 2 to 4 wizards, not 5"):
        Game.new(book, 5, random.Random(1))
    with pytest.raises(RuleError, match="name a character for each of the 3 wizards"):
        Game.new(book, 3, random.Random(1), characters=[0, 1])
    with pytest.raises(RuleError, match="the characters are numbered 0 to 3"):
        Game.new(book, 2, random.Random(1), characters=[0, 4])


def test_an_opening_discard_must_be_the_seats_number(book):
    g = Game.new(book, 2, random.Random(1))
    hand = [c for c, n in enumerate(g.wizards[0].hand) for _ in range(n)]
    unchanged(g, lambda: g.opening_discard(0, hand[:1]), "discards 2 gems from the opening hand, not 1")
    unchanged(g, lambda: g.cast(0, random.Random(1)), "waits until every opening hand has discarded")


def test_a_defeated_wizard_takes_no_more_turns_and_is_no_target(book):
    """ "If one player has no gems in his or her HP Area, he or she has lost the game. All gems and
    spells remain on his or her board, but he or she is no longer a participating player.\""""
    g = table(book, players=3, books=(("Magic Missile", "Magic Missile"),))
    g.wizards[0].hand = gems(F=2)
    g.wizards[1].hp = gems(W=1)
    g.wizards[1].shield = gems()
    g.wizards[1].discard = gems(L=2)
    g.cast(0, random.Random(1), choices={"attack": [{"player": 1}]})
    assert g.wizards[1].out and g.phase == CASTING and g.wizards[1].discard == gems(L=2)
    unchanged(g, lambda: g.cast(0, random.Random(1), choices={"attack": [{"player": 1}]}), "wizard 3")
    g.cast(0, random.Random(1), choices={"attack": [{"player": 2}]})
    g.refresh(random.Random(1))
    assert g.player == 2  # wizard 2 is skipped


def test_attacks_name_their_target_with_three_wizards(book):
    """Our ruling targets: "each Attack picks its own target among the rivals still in the Arena.\""""
    g = table(book, players=3, books=(("Fireball",),))
    g.wizards[0].hand = gems(F=3)
    unchanged(g, lambda: g.cast(0, random.Random(1)), "name the rival each Attack strikes (3 in all)")
    g.cast(0, random.Random(1), choices={"attack": [{"player": 1}, {"player": 2}, {"player": 2}]})
    assert [sum(w.hp) for w in g.wizards] == [12, 11, 10]


def test_the_last_wizard_standing_wins_at_once(book):
    """ "The game ends immediately when: 1. There is only one player left in the game.\""""
    g = table(book, books=(("Fireball",),))
    g.wizards[0].hand = gems(F=3)
    g.wizards[1].hp = gems(E=2)
    g.cast(0, random.Random(1))
    assert (g.phase, g.winner, g.ended) == (OVER, 0, "hp")
    assert g.wizards[0].score == gems(E=2)  # the third Attack found no one left to strike
    unchanged(g, lambda: g.refresh(random.Random(1)), "the game is over")


def test_twenty_gems_in_the_score_area_win_at_once(book):
    """ "2. Any player has 20 gems or more in his or her Score Area." The rival would be out after
    one more Attack; the score ends the game first."""
    g = table(book, books=(("Fireball",),))
    me, rival = g.wizards
    me.hand, me.score = gems(F=3), gems(L=19)
    rival.hp = gems(W=3)
    g.cast(0, random.Random(1))
    assert (g.phase, g.winner, g.ended) == (OVER, 0, "score")
    assert sum(me.score) == 20 and sum(rival.hp) == 2


# --- a table's record ------------------------------------------------------------------------


def test_a_game_survives_to_data_and_from_data_mid_turn(book):
    rng = random.Random(9)
    g = Game.new(book, 3, rng, characters=[0, 1, 2])
    open_hands(g)
    g.wizards[0].books[0][0].mastered = True
    g.wizards[0].hand = gems(L=1, F=1)
    g.cast(0, rng)
    data = g.to_data()
    again = Game.from_data(book, json.loads(json.dumps(data)))
    assert again.to_data() == data
    assert again.wizards[0].books[0][0].paid == g.wizards[0].books[0][0].paid
    same = random.Random(4)
    again.refresh(same)
    g.refresh(random.Random(4))
    assert again.to_data() == g.to_data()


def test_a_refused_move_mid_spell_leaves_the_game_and_the_generator_unchanged(book):
    """Cinder Rain draws before its Attacks: a refused Attack choice undoes the draw too."""
    g = table(book, books=(("Cinder Rain",),))
    g.wizards[0].hand = gems(F=1, E=1, W=1)
    g.wizards[0].bag = gems(L=3)
    rng = random.Random(2)
    unchanged(
        g, lambda: g.cast(0, rng, choices={"attack": [{"colour": D}]}), "wizard 2's HP Area has no Darkness gem", rng
    )


def test_the_payment_helper_keeps_named_colours_for_named_slots(book):
    assert payment_for((F, F, -1), gems(F=2, W=1)) == [F, F, W]
    assert payment_for((F, F, -1), gems(F=1, W=3)) is None
    assert payment_for((F, F, -1), gems(F=1, W=1), golden=F) == [None, F, W]


def test_every_way_to_pay_comes_once_the_helpers_first(book):
    """Wild slots take any colour, Darkness too (our ruling "wild"); two Wilds paid with the same
    colours in another order are the same payment; the golden gem's slot is None in each."""
    assert payments((F, F, -1), gems(F=2, W=1, D=1)) == [[F, F, W], [F, F, D]]
    assert payments((-1, -1), gems(F=1, W=2, D=1)) == [[F, W], [W, W], [W, D], [F, D]]
    assert payments((F, F, -1), gems(F=2, W=1), golden=F) == [[None, F, F], [None, F, W]]
    assert payments((F, -1), gems(F=1)) == []
    assert payments((), gems()) == [[]]  # a learn cost of nothing


def test_the_next_spell_to_cast_and_the_strikes_a_rival_stands(book):
    g = table(book, books=(("Meditation", "Magic Missile"),))
    g.wizards[0].hand = gems(L=1, F=1)
    card, position = g.next_to_cast(0)
    assert (book.spells[card.spell].name, position) == ("Meditation", 0)
    g.cast(0, random.Random(1))
    assert book.spells[g.next_to_cast(0)[0].spell].name == "Magic Missile"
    with pytest.raises(RuleError, match="you are casting Spellbook 1 this turn"):
        g.next_to_cast(1)
    g.wizards[1].shield, g.wizards[1].hp = gems(E=2), gems(F=1)
    assert g.strikes_borne(1) == 3


def test_the_game_is_for_two_to_four_wizards():
    """ "NOTE: to play a 3/4 players game, you will need two copies of Magecraft.": two play with
    one copy, and three or four with two (its GameDef's players, which `pnp sim` and the companion
    read)."""
    assert game("magecraft").players == (2, 4)
