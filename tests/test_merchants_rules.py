"""Merchants of Magick's rules, as the rules book words them."""

from __future__ import annotations

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.merchants_of_magick.rules import meets, orders_per_player, potions_needed
from pnp.paths import CONTENT


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


# --- The engine, through the rules book's worked examples ---------------------------------------

import random  # noqa: E402

from pnp.games.merchants_of_magick.rulebook import book_of  # noqa: E402
from pnp.games.merchants_of_magick.rules import (  # noqa: E402
    Merchant,
    OrderCard,
    RuleError,
    Table,
    deal,
)


@pytest.fixture(scope="module")
def book():
    return book_of(load_game(game("merchants-of-magick"), [CONTENT]))


def table(book, players=1, **results) -> Table:
    t = Table(book, [Merchant(book.sheet, book.adventurers[p]) for p in range(players)], [], [])
    t.start_round(results or {"d6": 3, "d8": 5, "d10": 6, "d12": 9})
    return t


def complete(t: Table, m: Merchant, *names: str) -> None:
    for name in names:
        i = t.book.sheet.row(name)
        for j in range(len(t.book.sheet.rows[i].circles)):
            if not m.marked[i][j]:
                t.mark(m, i, j)


def test_a_5_plus_two_potions_marks_the_7_that_completes_greaves(book):
    t = table(book, d6=2, d8=5, d10=1, d12=1)
    m = t.merchants[0]
    greaves = book.sheet.rows[book.sheet.row("Greaves")]
    assert [(c.column, c.threshold) for c in greaves.circles] == [("leather", 3), ("steel", 5), ("steel", 7)]
    t.mark(m, book.sheet.row("Greaves"), 0)
    t.mark(m, book.sheet.row("Greaves"), 1)
    m.potions = 3
    t.spend(m, "d8", "Greaves", 2, adjust=+2)
    assert m.done("Greaves")
    assert m.potions == 3 - 2 + book.rules.potion_per_row  # the new potion is there at once
    assert m.score()["crafting"] == greaves.coins


def test_an_order_is_claimed_when_its_item_and_every_enchantment_are_complete(book):
    t = table(book)
    m = t.merchants[0]
    complete(t, m, "Ring", "Pendant", "Everlasting", "of the Elves")
    wanted = OrderCard("Pendant", "Everlasting", "of the Elves", 6)
    orcs = OrderCard("Ring", "Everlasting", "of the Orcs", 5)
    backpack = OrderCard("Backpack", None, "of the Elves", 2)
    replacement = OrderCard("Dagger", None, "of the Orcs", 2)
    m.shop = [wanted, orcs, backpack]
    t.deck = [replacement]
    with pytest.raises(RuleError, match="Everlasting Ring of the Orcs needs of the Orcs complete first"):
        t.claim(m, 1)
    with pytest.raises(RuleError, match="Backpack of the Elves needs Backpack complete first"):
        t.claim(m, 2)
    assert t.claim(m, 0) == wanted
    assert m.claimed == [wanted] and m.shop == [orcs, backpack]
    assert m.face_down == [(0, replacement)]  # in the claimed order's space, revealed in the Customer phase
    assert m.score()["orders"] == 6
    m.shop = [OrderCard("Ring", "Everlasting", None, 3), orcs, backpack]
    t.claim(m, 0)
    assert m.face_down == [(0, replacement)] and m.shop == [orcs, backpack]  # the deck is empty: no replacement


def steel(t: Table, m: Merchant, n: int) -> None:
    marks = [
        (i, j) for i, row in enumerate(t.book.sheet.rows) for j, c in enumerate(row.circles) if c.column == "steel"
    ]
    for i, j in marks[:n]:
        t.mark(m, i, j)


def test_the_blacksmith_pays_master_to_all_who_reach_it_together_then_apprentice(book):
    blacksmith = next(c for c in book.masteries if c.name == "Blacksmith")
    t = table(book, players=3)
    t.masteries = [blacksmith]
    first, second, later = t.merchants
    steel(t, first, blacksmith.circles)
    steel(t, second, blacksmith.circles + 1)
    steel(t, later, blacksmith.circles - 1)
    assert t.mastery_phase() == [(0, "Blacksmith", blacksmith.master), (1, "Blacksmith", blacksmith.master)]
    assert "Blacksmith" in t.flipped
    steel(t, later, blacksmith.circles)
    assert t.mastery_phase() == [(2, "Blacksmith", blacksmith.apprentice)]  # each player scores it once
    assert [m.score()["material-mastery"] for m in t.merchants] == [6, 6, 3]
    assert t.mastery_phase() == []


def test_solo_masteries_pay_their_apprentice_side(book):
    blacksmith = next(c for c in book.masteries if c.name == "Blacksmith")
    t = table(book)
    t.masteries = [blacksmith]
    steel(t, t.merchants[0], blacksmith.circles)
    assert t.mastery_phase() == [(0, "Blacksmith", blacksmith.apprentice)]


def test_extra_dice_free_then_paid_in_order(book):
    assert book.sheet.extra_dice == (0, 0, 0, 1, 2, 3)
    t = table(book, d6=6, d8=8, d10=1, d12=1)
    m = t.merchants[0]
    t.spend(m, "d6", "Ring", 0)  # leather 3
    t.spend(m, "d8", "Pendant", 0)  # leather 4
    assert t.slot_cost(m) == 0
    t.spend(m, "d10", "Fiery", 0)  # elemental 5: the first Extra Dice slot, free
    assert m.extra_used == 1 and m.potions == 0
    m.extra_used = 3
    with pytest.raises(RuleError, match=r"that needs 1 potions \(the Extra Dice slot costs 1\); you have 0"):
        t.spend(m, "d12", "Divine", 1)
    m.potions = 1
    t.spend(m, "d12", "Divine", 1)  # wild 3
    assert m.extra_used == 4 and m.potions == 0
    t.start_round({"d6": 1, "d8": 1, "d10": 1, "d12": 1})
    m.extra_used = len(book.sheet.extra_dice)
    t.spend(m, "d12", "Everlasting", 1)
    t.spend(m, "d10", "Everlasting", 0)
    with pytest.raises(RuleError, match="all 6 Extra Dice slots are used"):
        t.spend(m, "d6", "of the Dragons", 2)  # wild 3: a 1 would do, but no slot is left


@pytest.mark.parametrize(
    ("die", "row", "circle", "adjust", "message"),
    [
        ("d12", "Pendant", 1, 0, "the d12 cannot be spent on Wood"),
        ("d10", "Plate Armor", 3, 2, "Plate Armor's 9 needs a result of at least 9; 6 with 2 potions is 8"),
        ("d12", "Fiery", 1, 0, "Fiery's 4 needs a result of at most 4; 9"),
        ("d20", "Ring", 0, 0, "there is no d20 result this round"),
        ("d6", "Ring", 5, 0, "Ring has 2 circles"),
        ("d6", "Nothing", 0, 0, "the sheet has no row Nothing"),
        ("d6", "Ring", 0, 1, r"that needs 1 potions \(1 to move the result\); you have 0"),
    ],
)
def test_refusals_say_why(book, die, row, circle, adjust, message):
    t = table(book)
    with pytest.raises(RuleError, match=message):
        t.spend(t.merchants[0], die, row, circle, adjust)


def test_a_result_is_spent_once_and_only_in_its_round(book):
    t = table(book)
    m = t.merchants[0]
    t.spend(m, "d6", "Ring", 0)
    with pytest.raises(RuleError, match="this round's d6 result is already spent"):
        t.spend(m, "d6", "Pendant", 0)
    with pytest.raises(RuleError, match="Ring's 3 is already marked"):
        t.spend(m, "d8", "Ring", 0)
    t.start_round({"d6": 1, "d8": 1, "d10": 1, "d12": 1})
    with pytest.raises(RuleError, match="Pendant's 4 needs a result of at least 4; 1"):
        t.spend(m, "d6", "Pendant", 0)  # last round's 3 is gone


def test_the_adventurer_rewards_and_charms_count_its_deliveries(book):
    t = table(book)
    m = t.merchants[0]
    hero = m.adventurer  # the Ranger: Ring, Bow, Gloves of the Elves
    assert hero.name == "The Ranger"
    with pytest.raises(RuleError, match="needs Ring and of the Elves complete first"):
        t.deliver(m, "accessory")
    complete(t, m, "Ring", "Bow", "Gloves", "of the Elves", "Jeweller's Charm")
    potions = m.potions
    assert t.deliver(m, "accessory").potions == 3 and m.potions == potions + 3
    t.deliver(m, "weapon")
    assert m.free_circles == 1
    with pytest.raises(RuleError, match="mark the free circle"):
        t.spend(m, "d6", "Pendant", 0)
    t.mark_free(m, "Plate Armor", 3)
    t.deliver(m, "armour")
    t.mark_free(m, "Plate Armor", 2)
    assert m.score()["adventurer"] == hero.coins
    assert m.score()["charms"] == 2  # Jeweller's: 2 coins for the Ring delivered
    with pytest.raises(RuleError, match="already delivered"):
        t.deliver(m, "armour")


def test_ranking_breaks_ties_by_orders_then_potions_then_shares(book):
    t = table(book, players=4)
    a, b, c, d = t.merchants
    for m in t.merchants:
        complete(t, m, "Ring")
    a.claimed = [OrderCard("Ring", "Fiery", None, 0)]
    b.potions = c.potions = d.potions = 5
    a.potions = 0
    assert t.ranking() == [[0], [1, 2, 3]]
    b.potions = 6
    assert t.ranking() == [[0], [1], [2, 3]]


class InOrder(random.Random):
    def shuffle(self, x):  # the deck as written
        pass


def test_a_hand_of_three_doubles_is_dealt_again(book):
    double = OrderCard("Ring", "Fiery", "of the Elves", 5)
    single = OrderCard("Ring", "Fiery", None, 2)
    from dataclasses import replace

    ours = replace(book, orders=(double, double, double, single, single, single, single, single, single, single))
    t = deal(ours, 1, InOrder(0))
    assert t.merchants[0].shop == [single] * 4
    assert t.waiting == [single, single]
    assert len(t.masteries) == 2 and {c.type for c in t.masteries} == {"material", "energy"}
    t = deal(ours, 4, InOrder(0))
    assert [len(m.shop) for m in t.merchants] == [3, 3, 3, 1]


def cards(n: int) -> list[OrderCard]:
    """n orders told apart by their coins."""
    return [OrderCard("Ring", "Fiery", None, k) for k in range(n)]


def coins(t: Table) -> list[list[int]]:
    return [[card.coins for card in m.shop] for m in t.merchants]


# "Move all Orders one space clockwise around the table": seats run clockwise and the next
# player clockwise sits on the left, so every order moves one space to its player's left and
# each shoppe's leftmost enters the next player's line at its right end (our ruling, rulings.yaml).
# The whole-line reading would hand [0, 1, 2] on to the next player at once.
def test_three_players_orders_move_one_space_clockwise_card_by_card(book):
    t = table(book, players=3)
    for p, m in enumerate(t.merchants):
        m.shop = cards(9)[3 * p : 3 * p + 3]
    t.customer_phase()
    assert coins(t) == [[1, 2, 6], [4, 5, 0], [7, 8, 3]]
    t.customer_phase()
    assert coins(t) == [[2, 6, 7], [5, 0, 1], [8, 3, 4]]
    t.customer_phase()
    # an unclaimed order came in at the right end and stays three rounds, one per space
    assert coins(t) == [[6, 7, 8], [0, 1, 2], [3, 4, 5]]


def test_the_content_ruling_says_what_the_engine_does():
    rulings = load_game(game("merchants-of-magick"), [CONTENT])["merchants-rulings"].rulings
    words = " ".join(str(rulings["order-move"]).replace("**", "").split())
    assert "one space to the left" in words and "right end of their line" in words
    assert "one order shorter" in str(rulings["deck-empty"]).replace("**", "")


def test_eight_players_orders_move_one_space_clockwise_card_by_card(book):
    t = table(book, players=8)
    for p, m in enumerate(t.merchants):
        m.shop = cards(16)[2 * p : 2 * p + 2]
    t.customer_phase()
    assert coins(t) == [[2 * p + 1, 2 * ((p - 1) % 8)] for p in range(8)]
    assert coins(t)[0] == [1, 14]


# "That Order is moved to the side of their Player sheet and replaced with a face-down Order from
# the deck": the replacement lies in the claimed card's space and moves on from there.
def test_a_claimed_orders_replacement_keeps_its_space_as_the_orders_move(book):
    t = table(book, players=3)
    for p, m in enumerate(t.merchants):
        m.shop = cards(9)[3 * p : 3 * p + 3]
    t.deck = cards(12)[9:]
    first, second = t.merchants[0], t.merchants[1]
    t.claim(first, 1, checked=False)  # the middle order
    t.claim(second, 0, checked=False)  # the leftmost: its replacement is what passes on
    assert first.face_down == [(1, OrderCard("Ring", "Fiery", None, 9))]
    assert [c.coins for c, _ in first.line()] == [0, 9, 2]
    t.customer_phase()
    assert coins(t) == [[9, 2, 6], [4, 5, 0], [7, 8, 10]]
    assert all(not m.face_down for m in t.merchants)  # revealed


# Solo: "all Orders shift one space to the left. The leftmost Order is discarded. A new face-up
# Order is added from the deck to the far right end of the line of Orders."
def test_the_solo_line_shifts_one_space_left_card_by_card(book):
    t = table(book)
    m = t.merchants[0]
    line = cards(9)
    m.shop, t.waiting, t.deck = line[:4], line[4:6], line[6:]
    t.customer_phase()
    assert coins(t) == [[1, 2, 3, 4]] and [c.coins for c in t.waiting] == [5, 6]
    # a claimed order's face-down replacement takes its space: the unclaimed 4 stays in the
    # shoppe, not pushed out a round early by a replacement put at the end
    t.claim(m, 1, checked=False)  # the 2
    assert [(c.coins, up) for c, up in m.line()] == [(1, True), (7, False), (3, True), (4, True)]
    t.customer_phase()
    assert coins(t) == [[7, 3, 4, 5]] and [c.coins for c in t.waiting] == [6, 8]


@pytest.mark.parametrize("potions", [0, 2])
def test_the_bounds_of_each_die_are_the_moves_spending_it_allows(book, potions):
    """A die's bounds on a circle are exactly the potions' moves with which the spend goes
    through: every move within them is allowed, every other one refused (the phone offers these)."""
    import copy

    t = table(book, d6=3, d8=5, d10=6, d12=9)
    m = t.merchants[0]
    t.spend(m, "d6", "Ring", 0)  # the d6 is spent, and Ring's first circle marked
    m.potions = potions
    bounds = t.spend_bounds(m)
    assert set(bounds) == {"d8", "d10", "d12"}
    found = [b for circles in bounds.values() for b in circles.values()]
    circles = sum(len(row.circles) for row in book.sheet.rows)
    assert all(len(c) < circles for c in bounds.values())  # some out of reach
    assert any(low <= 0 <= high for low, high in found)  # some free
    assert not potions or any(low > 0 for low, _ in found)  # and some that need potions
    for die, reach in bounds.items():
        for i, row in enumerate(book.sheet.rows):
            for k in range(len(row.circles)):
                bound = reach.get((i, k))
                allowed = []
                for adjust in range(-potions - 1, potions + 2):
                    trial = copy.deepcopy(t)
                    try:
                        trial.spend(trial.merchants[0], die, i, k, adjust)
                    except RuleError:
                        continue
                    allowed.append(adjust)
                want = list(range(bound[0], bound[1] + 1)) if bound else []
                assert allowed == want, (die, row.name, k)


def test_no_bounds_while_a_free_circle_is_owed(book):
    t = table(book, d6=3, d8=5, d10=6, d12=9)
    t.merchants[0].free_circles = 1
    assert t.spend_bounds(t.merchants[0]) == {}


def test_a_table_as_data_comes_back_the_same(book):
    """The companion keeps the engine's table as data (Table.to_data) between moves."""
    t = deal(book, 3, random.Random(4))
    t.start_round({"d6": 3, "d8": 5, "d10": 6, "d12": 9})
    t.spend(t.merchants[0], "d6", "Ring", 0)
    t.claim(t.merchants[1], 0, checked=False)
    data = t.to_data()
    again = Table.from_data(book, data)
    assert again.to_data() == data and again.merchants[1].line() == t.merchants[1].line()


def test_the_game_is_for_one_to_eight_merchants():
    """ "In Merchants of Magick, 1-8 players compete to earn the most Coins" (its GameDef's players,
    which `pnp sim` and the companion read)."""
    assert game("merchants-of-magick").players == (1, 8)
