"""Merchants of Magick's rules, as the rules book words them."""

from __future__ import annotations

import pytest

from pnp.content.game import load_game
from pnp.games import game
from pnp.paths import CONTENT
from pnp.rules.merchants_of_magick import meets, orders_per_player, potions_needed


def test_crafting_needs_at_least_and_research_at_most_the_circles_number():
    assert meets("crafting", 7, 7) and meets("crafting", 8, 7) and not meets("crafting", 6, 7)
    assert meets("research", 3, 3) and meets("research", 2, 3) and not meets("research", 4, 3)


def test_the_rules_potion_example_a_5_with_two_potions_marks_a_7():
    assert potions_needed("crafting", 5, 7) == 2
    assert potions_needed("research", 5, 7) == 0
    assert potions_needed("research", 9, 7) == 2


@pytest.mark.parametrize(("players", "orders"), [(1, 4), (2, 4), (3, 3), (6, 3), (7, 2), (8, 2)])
def test_orders_dealt_follow_the_player_count_in_the_content(players, orders):
    rules = load_game(game("merchants-of-magick"), [CONTENT])["merchants-rules"]
    dealt = [(band.players, band.orders) for band in rules.orders_dealt]
    assert orders_per_player(dealt, players) == orders
