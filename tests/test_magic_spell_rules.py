"""Magic Spell's pure rules: the tile mix derived from the deck, the credit rule, how many play."""

from __future__ import annotations

from collections import Counter

import pytest

from pnp.gamedef import game
from pnp.games.magic_spell.rules import CreditRule, credits, letter_needs, missing, points, rare_letters, tile_mix

WORDS = ["alacrity", "filch", "quixotic", "zephyr", "mnemonic", "pizzazz"]
RULE = CreditRule(rare_at_most=2, rare_bonus=2, two_credits_from=9, three_credits_from=12)


def test_the_mix_adds_up_to_the_total_and_spells_every_word_alone():
    mix = tile_mix(WORDS, 100)
    assert sum(mix.values()) == 100
    for word in WORDS:
        assert not missing(word, mix), word
    assert mix["Z"] >= 4, "PIZZAZZ needs four Z at once"
    assert set(mix) <= set("".join(WORDS).upper()), "no tile for a letter no spell uses"


def test_every_letter_gets_at_least_what_its_greediest_word_needs():
    needs = letter_needs(WORDS)
    assert needs["Z"] == 4 and needs["I"] == 2 and needs["M"] == 2 and needs["C"] == 1
    mix = tile_mix(WORDS, 60)
    assert all(mix[letter] >= n for letter, n in needs.items())


def test_a_different_deck_gets_a_different_mix():
    base = tile_mix(WORDS, 100)
    more = tile_mix(WORDS + ["jejune", "jujitsu"], 100)
    assert more != base
    assert more["J"] > base.get("J", 0) and more["U"] > base["U"]
    assert sum(more.values()) == 100


def test_the_mix_is_deterministic_and_independent_of_deck_order():
    assert tile_mix(WORDS, 100) == tile_mix(list(reversed(WORDS)), 100)


def test_a_pool_too_small_for_the_deck_leaves_words_unspellable():
    mix = tile_mix(WORDS, 20)
    assert sum(mix.values()) == 20
    assert missing("pizzazz", mix), "20 tiles shared by use cannot hold four Z"


def test_credit_rule_worked_examples():
    pool = Counter(
        {"A": 9, "E": 9, "L": 5, "C": 4, "R": 4, "I": 6, "T": 5, "Y": 2, "Q": 1, "U": 3, "X": 1, "O": 5, "F": 2, "H": 3}
    )
    # ALACRITY: 8 letters, Y is rare (2 tiles): 8 + 2 = 10 points -> 2 credits
    assert rare_letters("alacrity", pool, RULE) == ["Y"]
    assert points("alacrity", pool, RULE) == 10 and credits("alacrity", pool, RULE) == 2
    # QUIXOTIC: 8 letters, Q and X rare: 8 + 4 = 12 -> 3 credits
    assert credits("quixotic", pool, RULE) == 3
    # FILCH: 5 letters, F rare: 5 + 2 = 7 -> 1 credit
    assert credits("filch", pool, RULE) == 1


@pytest.mark.parametrize("score, expected", [(8, 1), (9, 2), (11, 2), (12, 3)])
def test_credit_thresholds(score, expected):
    word = "a" * score  # no rare letters in a pool with plenty of A
    assert credits(word, Counter({"A": 50}), RULE) == expected


def test_the_game_is_for_two_to_four_students():
    """ "Low Enrollment – You can play with two players.": the fewest are two; the most are the
    set's four spirit tracks (its GameDef's players, which `pnp sim` and the companion read)."""
    assert game("magic-spell").players == (2, 4)
