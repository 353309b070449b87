"""Merchants of Magick's rules as pure code over plain values (no content models, no drawing), so
the printed sheet's checks, the balance simulation and the companion share them.

The book (pnp.games.merchants_of_magick.book's frozen dataclasses) is built from the content by
`pnp.games.merchants_of_magick.rulebook`; the play (`Table`, one `Merchant` per player) changes as
moves are made. A move the rules forbid raises `RuleError`
saying why in words.

Decisions the rules book leaves open, taken here:
  - a charm's coins count every fulfilled order of its category, the Sponsored Adventurer's three
    deliveries included (each is "an order" of its item's category), and so do the tie-breaks'
    "fulfilled orders";
  - an order that replaces a claimed one comes face down and can be claimed only once revealed, in
    the Customer phase (so never after the last round's claims);
  - a result may be moved by potions below 1 or above its die's faces;
  - free circles (the adventurer's rewards) are marked at once, with no die, before the next move;
  - "one space clockwise" and a claim with the deck empty: our rulings in
    content/merchants-of-magick/rulings.yaml (every order moves one space to its player's left,
    the leftmost to the right end of the next player's line, each card keeping its space; a
    claimed order with no replacement closes up its line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from pnp.games.merchants_of_magick.book import (
    CRAFTING,
    RESEARCH,
    AdventurerCard,
    Book,
    Circle,
    MasteryCard,
    OrderCard,
    Reward,
    RuleError,
    Sheet,
)
from pnp.rules.standings import places


def meets(side: str, result: int, threshold: int) -> bool:
    """Whether a result may mark a circle: crafting needs at least its number, research at most."""
    return result >= threshold if side == CRAFTING else result <= threshold


def potions_needed(side: str, result: int, threshold: int) -> int:
    """The fewest potions (each moves a result by one) that let `result` mark the circle."""
    gap = threshold - result if side == CRAFTING else result - threshold
    return max(0, gap)


def adjustments(side: str, result: int, threshold: int, budget: int) -> tuple[int, int] | None:
    """The potions' moves (-budget to +budget, one potion a step) with which `result` meets the
    circle, as (lowest, highest): `meets` holds from a bound on (crafting up, research down), so
    they are one run; None when no move within the budget does."""
    low, high = (threshold - result, budget) if side == CRAFTING else (-budget, threshold - result)
    low, high = max(low, -budget), min(high, budget)
    return (low, high) if low <= high else None


def orders_per_player(dealt: list[tuple[tuple[int, int], int]], players: int) -> int:
    """How many orders each shoppe holds at this player count: ((from, to), orders) bands."""
    for (low, high), orders in dealt:
        if low <= players <= high:
            return orders
    raise ValueError(f"no order count for {players} players")


# --- The play ---------------------------------------------------------------------------------


@dataclass
class Merchant:
    """One player's sheet and shoppe."""

    sheet: Sheet
    adventurer: AdventurerCard | None = None
    marked: list[list[bool]] = field(default_factory=list)  # per row, per circle
    completed: list[bool] = field(default_factory=list)  # per row
    column_marks: dict[str, int] = field(default_factory=dict)
    potions: int = 0
    extra_used: int = 0  # Extra Dice slots marked, in order
    claimed: list[OrderCard] = field(default_factory=list)
    delivered: list[str] = field(default_factory=list)  # the adventurer's categories, in order
    adventurer_coins: int = 0
    free_circles: int = 0  # marks owed by an adventurer reward
    mastery: dict[str, tuple[str, int]] = field(default_factory=dict)  # card name -> (type, coins)
    shop: list[OrderCard] = field(default_factory=list)  # face up, claimable
    # replacements, by their space in the line, revealed next Customer phase
    face_down: list[tuple[int, OrderCard]] = field(default_factory=list)
    used: set[str] = field(default_factory=set)  # dice spent this round
    spent: int = 0  # results spent this round

    def __post_init__(self):
        if not self.marked:
            self.marked = [[False] * len(row.circles) for row in self.sheet.rows]
            self.completed = [False] * len(self.sheet.rows)
            self.column_marks = {c.id: 0 for c in self.sheet.columns}

    def line(self) -> list[tuple[OrderCard, bool]]:
        """The shoppe's spaces left to right: (card, face up). Face-down cards sit where the
        claimed orders they replaced sat."""
        spaces = [(card, True) for card in self.shop]
        for space, card in sorted(self.face_down, key=lambda hidden: hidden[0]):
            spaces.insert(space, (card, False))
        return spaces

    def lay(self, spaces: list[tuple[OrderCard, bool]]) -> None:
        """Set the shoppe's line from its spaces left to right: (card, face up)."""
        self.shop = [card for card, up in spaces if up]
        self.face_down = [(space, card) for space, (card, up) in enumerate(spaces) if not up]

    def done(self, name: str) -> bool:
        return self.completed[self.sheet.row(name)]

    def fulfilled(self, category: str | None = None) -> int:
        """Orders fulfilled (the adventurer's deliveries included), of one category or all."""
        rows = self.sheet.rows
        kinds = {r.name: r.kind for r in rows}
        claimed = [kinds[o.item] for o in self.claimed]
        every = claimed + self.delivered
        return len(every) if category is None else sum(1 for c in every if c == category)

    def can_fill(self, order: OrderCard) -> bool:
        return self.done(order.item) and all(self.done(e) for e in order.enchantments)

    def missing(self, order: OrderCard) -> list[str]:
        return [name for name in (order.item, *order.enchantments) if not self.done(name)]

    def claimable(self) -> list[int]:
        """The face-up orders' slots this sheet can fill now."""
        return [slot for slot, order in enumerate(self.shop) if self.can_fill(order)]

    def adventurer_order(self, category: str) -> OrderCard | None:
        """The Sponsored Adventurer's order of `category`, as an order card (no coins of its own)."""
        hero = self.adventurer
        item = dict(hero.items).get(category) if hero else None
        return None if item is None else OrderCard(item, hero.enchantment, None, 0)

    def deliverable(self) -> list[str]:
        """The adventurer's categories not yet delivered that this sheet can fill now."""
        items = self.adventurer.items if self.adventurer else ()
        return [c for c, _ in items if c not in self.delivered and self.can_fill(self.adventurer_order(c))]

    def score(self) -> dict[str, int]:
        """Coins by score line (the sheet's score box keys)."""
        rows, done = self.sheet.rows, self.completed
        charms = [r for r, d in zip(rows, done, strict=True) if d and r.charm_coins]
        lines = {
            "crafting": sum(r.coins for r, d in zip(rows, done, strict=True) if d and r.side == CRAFTING),
            "material-mastery": sum(c for t, c in self.mastery.values() if t == "material"),
            "research": sum(r.coins for r, d in zip(rows, done, strict=True) if d and r.side == RESEARCH),
            "energy-mastery": sum(c for t, c in self.mastery.values() if t == "energy"),
            "orders": sum(o.coins for o in self.claimed),
            "charms": sum(r.charm_coins * self.fulfilled(r.charm_category) for r in charms),
            "adventurer": self.adventurer_coins,
        }
        return lines

    def total(self) -> int:
        return sum(self.score().values())


def describe(result: int, adjust: int, value: int) -> str:
    if not adjust:
        return f"{value}"
    n = abs(adjust)
    return f"{value} with {n} potion{'s' if n != 1 else ''} is {result}"


@dataclass
class Table:
    """A game: the book, the players, the orders deck, the masteries in play and this round."""

    book: Book
    merchants: list[Merchant]
    deck: list[OrderCard]
    masteries: list[MasteryCard]
    flipped: set[str] = field(default_factory=set)  # mastery cards on their Apprentice side
    waiting: list[OrderCard] = field(default_factory=list)  # solo: orders waiting to enter
    round: int = 0
    results: dict[str, int] = field(default_factory=dict)

    @property
    def solo(self) -> bool:
        return len(self.merchants) == 1

    # Resource phase
    def roll(self, rng: Random) -> dict[str, int]:
        return self.start_round({die: rng.randint(1, faces) for die, faces in self.book.sheet.dice})

    def start_round(self, results: dict[str, int]) -> dict[str, int]:
        if self.round >= self.book.rules.rounds:
            raise RuleError(f"the game is over after round {self.book.rules.rounds}")
        self.round += 1
        self.results = dict(results)
        for m in self.merchants:
            m.used = set()
            m.spent = 0
        return self.results

    # Crafting and Research phase
    def slot_cost(self, m: Merchant) -> int | None:
        """The potions the next result costs: 0 within the round's results, an Extra Dice slot's
        cost after them, None when no slot is left."""
        if m.spent < self.book.rules.results_per_round:
            return 0
        slots = self.book.sheet.extra_dice
        return slots[m.extra_used] if m.extra_used < len(slots) else None

    def spend(self, m: Merchant, die: str, row: str | int, circle: int, adjust: int = 0) -> None:
        """Spend this round's result of `die`, moved by `adjust` (one potion per step), on a circle."""
        sheet, rules = self.book.sheet, self.book.rules
        if m.free_circles:
            raise RuleError("mark the free circle an adventurer gave first")
        if die not in self.results:
            raise RuleError(f"there is no {die} result this round")
        if die in m.used:
            raise RuleError(f"this round's {die} result is already spent")
        i = row if isinstance(row, int) else sheet.row(row)
        the_row = sheet.rows[i]
        spot = self.open_circle(m, i, circle)
        column = sheet.column(spot.column)
        if die not in column.dice:
            raise RuleError(f"the {die} cannot be spent on {column.name}")
        value = self.results[die]
        result = value + adjust
        if not meets(the_row.side, result, spot.threshold):
            least = "at least" if the_row.side == CRAFTING else "at most"
            raise RuleError(
                f"{the_row.name}'s {spot.threshold} needs a result of {least} {spot.threshold}; "
                f"{describe(result, adjust, value)}"
            )
        extra = m.spent >= rules.results_per_round
        cost = self.slot_cost(m)
        if cost is None:
            raise RuleError(
                f"{rules.results_per_round} results a round and all {len(sheet.extra_dice)} Extra Dice slots are used"
            )
        need = cost + abs(adjust)
        if need > m.potions:
            what = f"the Extra Dice slot costs {cost}" if cost else ""
            moved = f"{abs(adjust)} to move the result" if adjust else ""
            why = " and ".join(w for w in (what, moved) if w)
            raise RuleError(f"that needs {need} potions ({why}); you have {m.potions}")
        m.potions -= need
        if extra:
            m.extra_used += 1
        m.used.add(die)
        m.spent += 1
        self.mark(m, i, circle)

    def spend_bounds(self, m: Merchant) -> dict[str, dict[tuple[int, int], tuple[int, int]]]:
        """For each of this round's results `m` has not spent, the circles (row, circle) it may mark
        now, each with the potions' moves (lowest, highest) that let it: none where the column does
        not take the die, the circle is marked, or the potions fall short."""
        cost = self.slot_cost(m)
        if m.free_circles or cost is None or cost > m.potions:
            return {}
        budget, rows, takes = m.potions - cost, self.book.sheet.rows, self.book.sheet.takes
        bounds = {}
        for die, value in self.results.items():
            if die in m.used:
                continue
            found = {}
            for i, k, spot in takes[die]:
                if not m.marked[i][k]:
                    moves = adjustments(rows[i].side, value, spot.threshold, budget)
                    if moves is not None:
                        found[(i, k)] = moves
            bounds[die] = found
        return bounds

    def open_circle(self, m: Merchant, i: int, circle: int) -> Circle:
        the_row = self.book.sheet.rows[i]
        if not 0 <= circle < len(the_row.circles):
            raise RuleError(f"{the_row.name} has {len(the_row.circles)} circles")
        if m.marked[i][circle]:
            spot = the_row.circles[circle]
            raise RuleError(f"{the_row.name}'s {spot.threshold} is already marked")
        return the_row.circles[circle]

    def mark_free(self, m: Merchant, row: str | int, circle: int) -> None:
        """Mark a circle an adventurer's reward gave, with no die."""
        if not m.free_circles:
            raise RuleError("no free circle is owed")
        i = row if isinstance(row, int) else self.book.sheet.row(row)
        self.open_circle(m, i, circle)
        m.free_circles -= 1
        self.mark(m, i, circle)

    def mark(self, m: Merchant, i: int, circle: int) -> None:
        the_row = self.book.sheet.rows[i]
        m.marked[i][circle] = True
        m.column_marks[the_row.circles[circle].column] += 1
        if all(m.marked[i]):
            m.completed[i] = True
            m.potions += self.book.rules.potion_per_row + the_row.charm_potions

    def claim(self, m: Merchant, slot: int, checked: bool = True) -> OrderCard:
        """Claim the order in shoppe slot `slot` (face-up orders, left to right). Unchecked: a
        paper sheet's claim, taken on its player's word."""
        if not 0 <= slot < len(m.shop):
            raise RuleError(f"the shoppe has {len(m.shop)} face-up orders")
        order = m.shop[slot]
        missing = m.missing(order)
        if checked and missing:
            raise RuleError(f"{order} needs {' and '.join(missing)} complete first")
        spaces = m.line()
        # the slot-th face-up card's space: its face-down replacement takes that very space
        space = [i for i, (_, up) in enumerate(spaces) if up][slot]
        m.claimed.append(order)
        if self.deck:
            spaces[space] = (self.deck.pop(0), False)
        else:
            del spaces[space]
        m.lay(spaces)
        return order

    def deliver(self, m: Merchant, category: str) -> Reward:
        """Fill one of the Sponsored Adventurer's three orders, and take the next reward."""
        hero = m.adventurer
        if hero is None:
            raise RuleError("no Sponsored Adventurer")
        if category in m.delivered:
            raise RuleError(f"{hero.name}'s {category} is already delivered")
        order = m.adventurer_order(category)
        if order is None:
            raise RuleError(f"{hero.name} wants no {category}")
        missing = " and ".join(m.missing(order))
        if missing:
            raise RuleError(f"{hero.name}'s {order.item} {hero.enchantment} needs {missing} complete first")
        rewards = self.book.rules.adventurer_rewards
        reward = rewards[len(m.delivered)] if len(m.delivered) < len(rewards) else Reward()
        m.delivered.append(category)
        m.potions += reward.potions
        m.free_circles += reward.free_circles
        if reward.card_coins:
            m.adventurer_coins += hero.coins
        return reward

    # Mastery phase
    def mastery_phase(self) -> list[tuple[int, str, int]]:
        """Everyone meeting a card scores its current side (solo: Apprentice); a card scored by
        anyone flips at the end. Returns (player, card, coins) for each score."""
        scored = []
        for card in self.masteries:
            apprentice = self.solo or card.name in self.flipped
            coins = card.apprentice if apprentice else card.master
            for p, m in enumerate(self.merchants):
                if card.name not in m.mastery and m.column_marks[card.column] >= card.circles:
                    m.mastery[card.name] = (card.type, coins)
                    scored.append((p, card.name, coins))
        self.flipped.update(name for _, name, _ in scored)
        return scored

    # Customer phase
    def customer_phase(self) -> None:
        """Every order moves one space clockwise, keeping its place in line: each card one space to
        its player's left, each shoppe's leftmost to the right end of the next player's line (solo:
        the leftmost is discarded and a new card comes in at the right end of the waiting line).
        Then the face-down cards are revealed."""
        if self.round >= self.book.rules.rounds:
            return  # none after the last round
        if self.solo:
            m = self.merchants[0]
            spaces = m.line()
            size = len(spaces)  # the shoppe keeps its spaces (fewer only once the deck ran out)
            line = [card for card, _ in spaces] + self.waiting
            if line:
                line.pop(0)
            if self.deck:
                line.append(self.deck.pop(0))
            m.lay([(card, True) for card in line[:size]])
            self.waiting = line[size:]
            return
        lines = [[card for card, _ in m.line()] for m in self.merchants]
        for i, m in enumerate(self.merchants):
            # seats run clockwise, so the player before passes their leftmost card on to this one
            m.lay([(card, True) for card in lines[i][1:] + lines[i - 1][:1]])

    # End of game
    def ranking(self) -> list[list[int]]:
        """Players by place, best first: most coins, then most fulfilled orders, then most potions."""
        return places([(m.total(), m.fulfilled(), m.potions) for m in self.merchants])

    # As plain JSON values, for the state to carry between moves (orders by their index in
    # the book's deck: copies of one card are equal, so any copy's index does)
    def to_data(self) -> dict:
        index = self.book.order_index

        def orders(cards: list[OrderCard]) -> list[int]:
            return [index[card] for card in cards]

        return {
            "merchants": [
                {
                    "adventurer": m.adventurer.name if m.adventurer else None,
                    "marked": m.marked,
                    "completed": m.completed,
                    "column_marks": m.column_marks,
                    "potions": m.potions,
                    "extra_used": m.extra_used,
                    "claimed": orders(m.claimed),
                    "delivered": m.delivered,
                    "adventurer_coins": m.adventurer_coins,
                    "free_circles": m.free_circles,
                    "mastery": {name: list(won) for name, won in m.mastery.items()},
                    "shop": orders(m.shop),
                    "face_down": [[space, index[card]] for space, card in m.face_down],
                    "used": sorted(m.used),
                    "spent": m.spent,
                }
                for m in self.merchants
            ],
            "deck": orders(self.deck),
            "masteries": [card.name for card in self.masteries],
            "flipped": sorted(self.flipped),
            "waiting": orders(self.waiting),
            "round": self.round,
            "results": self.results,
        }

    @classmethod
    def from_data(cls, book: Book, data: dict) -> Table:
        heroes = {hero.name: hero for hero in book.adventurers}
        cards = {card.name: card for card in book.masteries}

        def orders(indexes: list[int]) -> list[OrderCard]:
            return [book.orders[i] for i in indexes]

        merchants = [
            Merchant(
                book.sheet,
                heroes.get(m["adventurer"]),
                marked=[list(row) for row in m["marked"]],
                completed=list(m["completed"]),
                column_marks=dict(m["column_marks"]),
                potions=m["potions"],
                extra_used=m["extra_used"],
                claimed=orders(m["claimed"]),
                delivered=list(m["delivered"]),
                adventurer_coins=m["adventurer_coins"],
                free_circles=m["free_circles"],
                mastery={name: (kind, coins) for name, (kind, coins) in m["mastery"].items()},
                shop=orders(m["shop"]),
                face_down=[(space, book.orders[i]) for space, i in m["face_down"]],
                used=set(m["used"]),
                spent=m["spent"],
            )
            for m in data["merchants"]
        ]
        return cls(
            book,
            merchants,
            orders(data["deck"]),
            [cards[name] for name in data["masteries"]],
            set(data["flipped"]),
            orders(data["waiting"]),
            data["round"],
            dict(data["results"]),
        )


def deal(book: Book, players: int, rng: Random) -> Table:
    """Setup: shuffle the orders and deal each shoppe its line (a hand with `redeal_doubles` or more
    double-enchantment orders goes to the bottom and is dealt again, once), deal each player an
    adventurer, draw one Material and one Energy mastery."""
    rules = book.rules
    deck = list(book.orders)
    rng.shuffle(deck)
    heroes = list(book.adventurers)
    rng.shuffle(heroes)
    if players > len(heroes):
        raise RuleError(f"{players} players need {players} adventurers; there are {len(heroes)}")
    merchants = [Merchant(book.sheet, heroes[p]) for p in range(players)]
    count = rules.solo_shop if players == 1 else orders_per_player(list(rules.orders_dealt), players)
    for m in merchants:
        m.shop = [deck.pop(0) for _ in range(min(count, len(deck)))]
        if sum(o.double for o in m.shop) >= rules.redeal_doubles:
            deck.extend(m.shop)
            m.shop = [deck.pop(0) for _ in range(min(count, len(deck)))]
    waiting = [deck.pop(0) for _ in range(min(rules.solo_waiting, len(deck)))] if players == 1 else []
    masteries = []
    for kind in ("material", "energy"):
        cards = [c for c in book.masteries if c.type == kind]
        if cards:
            masteries.append(rng.choice(cards))
    return Table(book, merchants, deck, masteries, waiting=waiting)
