"""Cards the companion deals (the table option `cards`: "dealt"): at the start it deals the
Masteries, each player's Sponsored Adventurer and orders, with the rules' re-deal, from the
server's chance; the start's entry records the deal, so a replay lays out the same cards. The
orders move on as the engine moves them."""

from __future__ import annotations

from pnp.games.merchants_of_magick.actions import Start
from pnp.games.merchants_of_magick.rules import Book, Merchant, Table, deal
from pnp.games.merchants_of_magick.shoppe import begun, book
from pnp.games.merchants_of_magick.strategy import STRATEGY
from pnp.rules.flow import HOST_ONLY, JOINING, Move, Way
from pnp.rules.table import Refused


def _draw(content, state: dict, _actor: str, action: Start, chance) -> Start:
    """The deal, from the server's chance, never a phone's."""
    rules = book(content)
    players = len(state["players"])
    dealt = None
    if state["phase"] == JOINING and 0 < players <= len(rules.adventurers):
        dealt = _record(deal(rules, players, chance.rng))
    return action.model_copy(update={"deal": dealt})


def _start(content, state: dict, _host: str, action: Start) -> dict:
    rules = book(content)
    heroes = len(rules.adventurers)
    if len(state["players"]) > heroes:
        raise Refused(f"{len(state['players'])} merchants need as many Sponsored Adventurers; there are {heroes}.")
    if action.deal is None:
        raise Refused("The deal is missing.")  # the server draws one whenever it can deal
    return begun(state, _dealt(rules, action.deal))


def _record(table: Table) -> dict:
    """A deal as the log keeps it: card names and the orders' places in the book's deck."""
    index = table.book.order_index
    return {
        "masteries": [card.name for card in table.masteries],
        "adventurers": [m.adventurer.name for m in table.merchants],
        "shops": [[index[order] for order in m.shop] for m in table.merchants],
        "deck": [index[order] for order in table.deck],
        "waiting": [index[order] for order in table.waiting],
    }


def _dealt(rules: Book, record: dict) -> Table:
    heroes = {hero.name: hero for hero in rules.adventurers}
    cards = {card.name: card for card in rules.masteries}
    merchants = [
        Merchant(rules.sheet, heroes[name], shop=[rules.orders[i] for i in shop])
        for name, shop in zip(record["adventurers"], record["shops"], strict=True)
    ]
    return Table(
        rules,
        merchants,
        [rules.orders[i] for i in record["deck"]],
        [cards[name] for name in record["masteries"]],
        waiting=[rules.orders[i] for i in record["waiting"]],
    )


def customer_phase(_state: dict, table: Table) -> None:
    """The orders move one space clockwise (solo: the line shifts), as the rules move them."""
    table.customer_phase()


def claim(table: Table, m: Merchant, slot: int, checked: bool) -> None:
    """The claimed order leaves; the deck's next lies face down in its space."""
    table.claim(m, slot, checked=checked)


WAY = Way(
    title="cards the companion deals",
    moves={"start": Move(Start, _start, HOST_ONLY, stage=JOINING, final=True, draw=_draw)},
    computers=True,  # the orders are the server's, and a computer player's sheet is digital
    strategy=STRATEGY,
)
