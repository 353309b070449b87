"""Magic Spell: the letter tiles derived from the spell deck, the credit rule, spellability.

The tile mix is computed, never typed: every letter gets at least as many tiles as the most any
one word needs (so each word can be spelled alone), and the rest of the total is shared out in
proportion to how often the deck uses each letter (largest remainders, ties alphabetical).
A word's credits come from its length plus a bonus for each letter that is rare in that mix.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from statistics import fmean


@dataclass(frozen=True)
class CreditRule:
    rare_at_most: int  # a letter with this many tiles or fewer is rare
    rare_bonus: int  # points a rare letter adds
    two_credits_from: int  # points for 2 credits
    three_credits_from: int  # points for 3 credits


def letter_needs(words: list[str]) -> Counter:
    """For each letter, the most copies any single word needs."""
    needs: Counter = Counter()
    for word in words:
        needs |= Counter(word.upper())
    return needs


def _share(total: int, weights: Counter) -> Counter:
    """`total` split in proportion to `weights` by largest remainders; ties go alphabetically."""
    whole = sum(weights.values())
    if not whole or total <= 0:
        return Counter()
    exact = {letter: total * weight / whole for letter, weight in weights.items()}
    shares = Counter({letter: int(value) for letter, value in exact.items()})
    left = total - sum(shares.values())
    for letter in sorted(exact, key=lambda L: (-(exact[L] - int(exact[L])), L))[:left]:
        shares[letter] += 1
    return +shares


def tile_mix(words: list[str], total: int) -> Counter:
    """How many tiles of each letter a pool of `total` tiles holds for this deck.

    When `total` cannot cover every word's needs, the whole total is shared by use instead,
    and `unspellable` names the words that pool cannot make."""
    needs = letter_needs(words)
    use = Counter("".join(words).upper())
    if sum(needs.values()) > total:
        return _share(total, use)
    return needs + _share(total - sum(needs.values()), use)


def missing(word: str, pool: Counter) -> Counter:
    """Letters the word needs beyond what the pool holds (empty: spellable without a stone)."""
    return Counter(word.upper()) - pool


def rare_letters(word: str, pool: Counter, rule: CreditRule) -> list[str]:
    return [letter for letter in word.upper() if pool[letter] <= rule.rare_at_most]


def points(word: str, pool: Counter, rule: CreditRule) -> int:
    return len(word) + rule.rare_bonus * len(rare_letters(word, pool, rule))


def credits(word: str, pool: Counter, rule: CreditRule) -> int:
    score = points(word, pool, rule)
    return 3 if score >= rule.three_credits_from else 2 if score >= rule.two_credits_from else 1


def spells_for_courseload(spell_credits: list[int], goal: int) -> float:
    """How many spells an average hand needs to reach `goal` credits."""
    return goal / fmean(spell_credits)


# --- A student's spirit and limits through a turn ---------------------------------------------
# `spirit` below is the content's Spirit numbers (start, rest, research, weave_again, move,
# trade_remove, recover, recover_below); the rules read them, never literals, so the printed card
# and the tracker always agree.


class RuleError(ValueError):
    """An action the rules do not allow now (too little spirit), with the reason."""


def rest(have: int, spirit) -> int:
    """The Rest action: gain spirit."""
    return have + spirit.rest


def pay(have: int, cost: int, what: str) -> int:
    if have < cost:
        raise RuleError(f"{what} costs {cost} spirit; you have {have}")
    return have - cost


def research(have: int, spirit) -> int:
    """The Research action: pay spirit to draw another spell."""
    return pay(have, spirit.research, "Research")


def weave_again(have: int, spirit) -> int:
    """Another weave action in the same turn."""
    return pay(have, spirit.weave_again, "Weaving again")


def move_ingredient(have: int, spirit, first_weave: bool = False) -> int:
    """Moving an ingredient from one spell to another. It is a weave ("Take an ingredient from your
    cabinet or one of your partially woven spells and put it face down on one of your homework
    spells."), so after the turn's first weave it is a weave again too: N moves cost 2N-1."""
    cost = spirit.move + (0 if first_weave else spirit.weave_again)
    return pay(have, cost, "Moving an ingredient" if first_weave else "Weaving again to move an ingredient")


def trade_remove(have: int, spirit) -> int:
    """Taking an ingredient off a partly woven spell to trade it, between turns."""
    return pay(have, spirit.trade_remove, "Taking an ingredient off a spell to trade it")


def end_of_turn(have: int, spirit) -> int:
    """Below the threshold, a student recovers a little spirit at the end of their turn."""
    return have + spirit.recover if have < spirit.recover_below else have


def over_limit(held: int, limit: int) -> int:
    """How many must go back at the end of a turn (ingredients to the laboratory, spells to the deck)."""
    return max(0, held - limit)


def calls_for_grading(credits_in_spellbook: int, courseload: int) -> bool:
    """At the end of their turn, a student with the courseload's credits calls for grading."""
    return credits_in_spellbook >= courseload
