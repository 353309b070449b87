"""What every Merchants of Magick move shares: the rules engine's table, kept in the state as data
(state["engine"]: `Table.to_data()`, back with `Table.from_data(book, data)`), the book it is read
with, the engine's refusals in a player's words, and where the round stands."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from pnp.games.merchants_of_magick.actions import PHASES, SCORING
from pnp.games.merchants_of_magick.rulebook import book_of
from pnp.games.merchants_of_magick.rules import MasteryCard, Merchant, RuleError, Table
from pnp.rules.flow import ENGINE, PLAYING, per_content
from pnp.rules.table import Refused

book = per_content(book_of)  # the rules' book of this content, built once

PHASE_NAMES = {
    "resource": "Resource",
    "crafting": "Crafting and Research",
    "mastery": "Mastery",
    "customer": "Customer",
    SCORING: "Final scores",
}
SOLO_CUSTOMER = "Order shift"  # the solo variant's Customer phase


def engine(content, state: dict) -> Table:
    """The rules engine's table in `state`, read anew from its data: a move's to change."""
    return Table.from_data(book(content), state[ENGINE])


# The engine data `kept` made last and the table it was made from: every move ends in `kept` and
# is settled at once (table_view.settle), which reads the same table rather than the data again.
_last_kept: tuple[dict | None, Table | None] = (None, None)


def kept(state: dict, table: Table) -> dict:
    """`state` holding `table` as it is now (the move that calls it changes `table` no more)."""
    global _last_kept
    data = table.to_data()
    _last_kept = (data, table)
    return {**state, ENGINE: data}


def engine_to_read(content, state: dict) -> Table:
    """The table in `state`, to read only: the one `kept` made it from when it is the last one
    kept (checked by identity, so a table kept since cannot stand in), else read from the data."""
    data, table = _last_kept
    return table if data is state[ENGINE] else engine(content, state)


def merchant(state: dict, table: Table, pid: str) -> Merchant:
    return table.merchants[state["players"].index(pid)]


def in_words(handler: Callable) -> Callable:
    """A move's handler whose engine refusals (RuleError) reach the player as a sentence."""

    @wraps(handler)
    def ruled(*args):
        try:
            return handler(*args)
        except RuleError as err:
            reason = str(err)
            raise Refused(reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")) from None

    return ruled


def begun(state: dict, table: Table) -> dict:
    """The game under way with `table` dealt: round 1 waits for its roll."""
    masteries = [mastery_card(card) for card in table.masteries]
    state = {**state, "phase": PLAYING, "round_phase": PHASES[0], "round": 1, "masteries": masteries}
    return kept(state, table)


def mastery_card(card: MasteryCard) -> dict:
    return {k: getattr(card, k) for k in ("name", "type", "column", "circles", "master", "apprentice")}


def digital(state: dict) -> list[str]:
    """The players marking their sheets on their phones."""
    return [pid for pid in state["players"] if state["sheets"][pid] == "digital"]


# --- where the round stands ------------------------------------------------------------------


def rolled(state: dict) -> bool:
    return bool(state["dice"])


def phase_name(state: dict) -> str:
    if state["round_phase"] == "customer" and len(state["players"]) == 1:
        return SOLO_CUSTOMER
    return PHASE_NAMES[state["round_phase"]]


def spending_now(state: dict) -> str | None:
    """Why this round's results may not be spent now; None when they may."""
    if not rolled(state):
        return f"Round {state['round']} is not rolled yet."
    if state["round_phase"] not in ("resource", "crafting"):
        return "The Crafting and Research phase is over for this round."
    return None


def claiming_now(state: dict) -> str | None:
    """Why orders may not be claimed now (nor an adventurer's delivered); None when they may:
    before the Customer phase, and before the game's end."""
    if state["round_phase"] == "customer":
        return "Orders are claimed before the Customer phase."
    if state["round_phase"] == SCORING:
        return "The last Mastery phase is over: no more orders are claimed."
    return None


def unless(reason: str | None) -> None:
    """Refused with `reason`, if there is one."""
    if reason is not None:
        raise Refused(reason)
