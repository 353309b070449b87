"""Printed cards on the table (the table option `cards`: "printed"): the group deals its own cards.
The host enters the Mastery cards in play before the start; a player on a digital sheet enters
their Sponsored Adventurer and the orders in front of them, which the companion then moves as the
table does. A paper sheet's cards stay on the table, unseen here."""

from __future__ import annotations

from collections import Counter

from pnp.games.merchants_of_magick.actions import SetCards, SetMasteries, Start
from pnp.games.merchants_of_magick.rules import Book, Merchant, OrderCard, Table, orders_per_player
from pnp.games.merchants_of_magick.shoppe import begun, book, engine, kept, mastery_card, merchant
from pnp.rules.flow import HOST_ONLY, JOINING, SEAT, Move, Way, per_content
from pnp.rules.offers import offer, one_of, some_of
from pnp.rules.table import Refused

KINDS = ("material", "energy")
ROOM = 100  # players at one table with printed cards: a room with its own sheets and cards
SHOP_MOST = 8  # orders a shoppe may be entered with (SetCards.shop)


def _set_masteries(content, state: dict, _host: str, action: SetMasteries) -> dict:
    cards = []
    for kind, name in zip(KINDS, (action.material, action.energy), strict=True):
        found = next((c for c in book(content).masteries if c.name == name and c.type == kind), None)
        if found is None:
            known = ", ".join(c.name for c in book(content).masteries if c.type == kind)
            raise Refused(f"There is no {kind} Mastery called {name}; the cards are {known}.")
        cards.append(mastery_card(found))
    return {**state, "masteries": cards}


def _masteries_choices(content, _state: dict, _host: str) -> list[dict]:
    cards = book(content).masteries
    return [offer(pick=[one_of(kind, [c.name for c in cards if c.type == kind]) for kind in KINDS])]


def _start(content, state: dict, _host: str, _action: Start) -> dict:
    if len(state["masteries"]) != len(KINDS):
        raise Refused("Choose the Material and the Energy Mastery in play first.")
    rules = book(content)
    chosen = {card.name: card for card in rules.masteries}
    masteries = [chosen[card["name"]] for card in state["masteries"]]
    return begun(state, Table(rules, [Merchant(rules.sheet) for _ in state["players"]], [], masteries))


def _set_cards(content, state: dict, mover: str, action: SetCards) -> dict:
    if state["sheets"][mover] != "digital":
        raise Refused("Only a digital sheet needs its cards entered.")
    table = engine(content, state)
    m = merchant(state, table, mover)
    rules = book(content)
    if action.adventurer is not None:
        heroes = {hero.name: hero for hero in rules.adventurers}
        if action.adventurer not in heroes:
            raise Refused(f"There is no Sponsored Adventurer called {action.adventurer}.")
        if m.delivered and m.adventurer and m.adventurer.name != action.adventurer:
            raise Refused(f"You have delivered to {m.adventurer.name} already.")
        m.adventurer = heroes[action.adventurer]
    by_label = {str(order): order for order in rules.orders}
    unknown = [label for label in action.shop if label not in by_label]
    if unknown:
        raise Refused(f"There is no order card {unknown[0]}.")
    m.shop = [by_label[label] for label in action.shop]  # face up; face-down stand-ins stay
    return kept(state, table)


def _cards_choices(content, state: dict, mover: str) -> list[dict]:
    """The adventurer (none: the one entered stays; once delivered to, only that one) and up to a
    shoppe's orders, each at most as often as the deck holds it."""
    if state["sheets"][mover] != "digital":
        return []
    m = merchant(state, engine(content, state), mover)
    cards = book(content)
    heroes = [m.adventurer.name] if m.delivered and m.adventurer else [hero.name for hero in cards.adventurers]
    adventurer = one_of("adventurer", [None, *heroes], {None: "As entered"})
    return [offer(pick=[adventurer, some_of("shop", _labels(content), 0, _shop_size(cards, len(state["players"])))])]


_labels = per_content(lambda content: sorted(Counter(str(order) for order in book(content).orders).items()))


def _shop_size(cards: Book, players: int) -> int:
    """The orders in front of each player at this count (a room past the rules' counts: the fewest)."""
    if players == 1:
        return cards.rules.solo_shop
    bands = list(cards.rules.orders_dealt)
    known = players <= max(high for (_, high), _ in bands)
    return min(SHOP_MOST, orders_per_player(bands, players) if known else min(n for _, n in bands))


def customer_phase(state: dict, table: Table) -> None:
    orders_moved(table, [state["sheets"][pid] == "digital" for pid in state["players"]])


def orders_moved(table: Table, digital: list[bool]) -> None:
    """Printed cards move as the engine moves dealt ones (one space to the left, each leftmost to
    the right end of the next line), so a digital sheet keeps what it entered. Only the cards it
    cannot know are left to enter: a revealed replacement and a newcomer from a paper sheet."""
    lines = [m.line() for m in table.merchants]
    for i, m in enumerate(table.merchants):
        if not digital[i]:
            continue
        # solo's newcomer comes from the printed waiting line, which the companion does not see
        incoming = lines[i - 1][:1] if digital[i - 1] and len(lines) > 1 else []
        m.lay([(card, True) for card, up in lines[i][1:] + incoming if up])  # face down: not known


def claim(table: Table, m: Merchant, slot: int, checked: bool) -> None:
    """The printed replacement lies face down in the claimed card's space; the companion cannot see
    it, so the claimed card stands in for it until the Customer phase reveals it."""
    spaces = m.line()
    order: OrderCard = table.claim(m, slot, checked=checked)
    space = [i for i, (_, up) in enumerate(spaces) if up][slot]
    m.lay([*m.line()[:space], (order, False), *m.line()[space:]])


WAY = Way(
    title="printed cards on the table",
    moves={
        "start": Move(Start, _start, HOST_ONLY, stage=JOINING, final=True),
        "masteries": Move(SetMasteries, _set_masteries, HOST_ONLY, stage=JOINING, choices=_masteries_choices),
        "cards": Move(SetCards, _set_cards, SEAT, choices=_cards_choices),
    },
)
