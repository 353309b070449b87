"""Lantern Charms' own demands on its content, beyond each field's type: pure, the companion runs them too."""

from __future__ import annotations

from collections.abc import Iterator

from pnp.content.loader import Content, run_checks
from pnp.content.problems import Problem, expected_got
from tests.example_game import GAME
from tests.example_game.kinds import CharmCards, CharmRules


def check(content: Content) -> list[Problem]:
    return run_checks(content, _card_problems, _deal_problems)


def _card_problems(content: Content) -> Iterator[Problem]:
    """Each card of a suit the rules name, and a name of its own (a phone plays a card by its name)."""
    ids = [suit.id for suit in content["charm-rules"].suits]
    for i, card in enumerate(content["charm-cards"].cards):
        if card.suit not in ids:
            wanted = f"a suit id of charm-rules ({', '.join(ids)})"
            yield content.problem("charm-cards", "cards", i, "suit", message=expected_got(wanted, card.suit, ids))
    yield from content.repeated_names("charm-cards", "charm")


def _deal_problems(content: Content) -> Iterator[Problem]:
    """Enough charms for the most players the game seats, each dealt a full hand."""
    rules: CharmRules = content["charm-rules"]
    deck: CharmCards = content.whole("charm-cards")  # counts every card
    most = GAME.players[1]
    if len(deck.cards) < most * rules.hand:
        wanted = f"at least {most * rules.hand} charms in all ({rules.hand} for each of {most} players)"
        yield content.problem("charm-cards", "cards", message=expected_got(wanted, len(deck.cards)))
