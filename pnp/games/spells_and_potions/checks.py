"""Spells and Potions' own demands on its content, beyond each field's type: pure, the companion runs them too."""

from __future__ import annotations

from collections.abc import Iterator

from pnp.content.loader import Content, run_checks
from pnp.content.problems import Problem, expected_got
from pnp.games.spells_and_potions.kinds import DuelRules, ElementSuits, MagicCards


def check(content: Content) -> list[Problem]:
    """Each part's problems, those of the parts whose files validated even when others did not."""
    return run_checks(content, _suit_problems, _deal_problems)


def _suit_problems(content: Content) -> Iterator[Problem]:
    suits: ElementSuits = content["element-suits"]
    ids = [s.id for s in suits.suits]
    if suits.trump not in ids:
        yield content.problem(
            "element-suits", "trump", message=expected_got("a suit id (" + ", ".join(ids) + ")", suits.trump, ids)
        )
    for field in ("id", "letter", "icon"):
        seen: set[str] = set()
        for i, suit in enumerate(suits.suits):
            value = getattr(suit, field)
            if value in seen:
                yield content.problem(
                    "element-suits", "suits", i, field, message=expected_got(f"a {field} no other suit has", value)
                )
            seen.add(value)


def _deal_problems(content: Content) -> Iterator[Problem]:
    suits: ElementSuits = content["element-suits"]
    magic: MagicCards = content.whole("magic-cards")  # counts every card
    duel: DuelRules = content["duel-rules"]
    hands, per_hand = duel.hands, duel.magic_per_hand
    total_magic = sum(card.count for card in magic.cards)
    if total_magic < hands * per_hand:
        yield content.problem(
            "magic-cards",
            "cards",
            message=expected_got(
                f"at least {hands * per_hand} cards in all ({per_hand} for each of {hands} hands)", total_magic
            ),
        )
    deck = suits.ranks * len(suits.suits) + total_magic
    if deck % hands:
        yield content.problem(
            "magic-cards",
            "cards",
            message=expected_got(
                f"element and magic cards that deal evenly into {hands} hands (a multiple of {hands}; "
                f"add or remove cards)",
                deck,
            ),
        )
