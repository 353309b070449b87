"""A digital sheet: marked on the phone, every mark checked by the rules engine, which fills its
score box. Its moves (spend a result, mark a free circle, deliver to the adventurer; its claims
are checked), the choices each offers its player now, what the end of a Mastery phase asks of it,
and what its phone shows of it."""

from __future__ import annotations

from pnp.games.merchants_of_magick import ways
from pnp.games.merchants_of_magick.actions import MOVED_MOST, Deliver, Free, Spend
from pnp.games.merchants_of_magick.rules import Merchant, Table
from pnp.games.merchants_of_magick.shoppe import (
    book,
    claiming_now,
    digital,
    engine,
    in_words,
    kept,
    merchant,
    rolled,
    spending_now,
    unless,
)
from pnp.rules.flow import SEAT, Move
from pnp.rules.offers import offer, one_of, option, whole_number
from pnp.rules.table import Refused

KIND = "digital"


def _own(state: dict, mover: str) -> None:
    if state["sheets"][mover] != KIND:
        raise Refused("Your sheet is on paper; mark it there.")


def _mine(content, state: dict, mover: str) -> tuple[Table, Merchant]:
    table = engine(content, state)
    return table, merchant(state, table, mover)


def _spend(content, state: dict, mover: str, action: Spend) -> dict:
    _own(state, mover)
    unless(spending_now(state))
    table, m = _mine(content, state, mover)
    table.spend(m, action.die, action.row, action.circle, action.adjust)
    return kept(state, table)


def _spend_choices(content, state: dict, mover: str) -> list[dict]:
    """A die, a row, a circle of it the die may mark, and the potions' moves that let it (the
    engine's bounds), when any potion moves it at all."""
    if state["sheets"][mover] != KIND or spending_now(state):
        return []
    table, m = _mine(content, state, mover)
    rows = book(content).sheet.rows
    dice = []
    for die, bounds in table.spend_bounds(m).items():
        by_row: dict[int, list[dict]] = {}
        for (i, k), (low, high) in bounds.items():
            low, high = max(low, -MOVED_MOST), min(high, MOVED_MOST)
            if low <= high:
                potions = [whole_number("adjust", low, high)] if low or high else None  # none: no potion moves it
                by_row.setdefault(i, []).append(option(k, pick=potions))
        if by_row:
            marks = [option(rows[i].name, pick=[one_of("circle", circles)]) for i, circles in by_row.items()]
            dice.append(option(die, f"{die}: {table.results[die]}", pick=[one_of("row", marks)]))
    return [offer(pick=[one_of("die", dice)])] if dice else []


def _free(content, state: dict, mover: str, action: Free) -> dict:
    # owed at once, whatever the phase: a delivery in the Mastery phase (round 10's too) gives one
    _own(state, mover)
    if not rolled(state):
        raise Refused(f"Round {state['round']} is not rolled yet.")
    table, m = _mine(content, state, mover)
    table.mark_free(m, action.row, action.circle)
    return kept(state, table)


def _free_choices(content, state: dict, mover: str) -> list[dict]:
    """Any open circle, while an adventurer's reward owes one."""
    if state["sheets"][mover] != KIND or not rolled(state):
        return []
    _, m = _mine(content, state, mover)
    if not m.free_circles:
        return []
    rows = [
        option(row.name, pick=[one_of("circle", [k for k, marked in enumerate(m.marked[i]) if not marked])])
        for i, row in enumerate(book(content).sheet.rows)
        if not all(m.marked[i])
    ]
    return [offer(pick=[one_of("row", rows)])] if rows else []


def _deliver(content, state: dict, mover: str, action: Deliver) -> dict:
    _own(state, mover)
    unless(claiming_now(state))
    table, m = _mine(content, state, mover)
    table.deliver(m, action.category)
    return kept(state, table)


def _deliver_choices(content, state: dict, mover: str) -> list[dict]:
    if state["sheets"][mover] != KIND or claiming_now(state):
        return []
    due = _mine(content, state, mover)[1].deliverable()
    return [offer(pick=[one_of("category", due)])] if due else []


def claimable(_state: dict, m: Merchant) -> list[int]:
    return m.claimable()


def claim(state: dict, table: Table, m: Merchant, slot: int) -> None:
    """Checked: the item and every enchantment complete."""
    ways.of(state).claim(table, m, slot, checked=True)


def close_mastery(state: dict, table: Table) -> None:
    """What ending a Mastery phase asks of each digital sheet: the free circles owed marked and
    the deliveries it can make made first (a reward may be a free circle, the player's choice, so
    they are held, not made for them); then every order it can fill is claimed ("they
    immediately claim that Order"), before the orders move on or the game ends."""
    sheets = [(pid, merchant(state, table, pid)) for pid in digital(state)]
    for pid, m in sheets:
        if m.free_circles:
            raise Refused(f"{state['names'][pid]} has a free circle to mark first.")
    for pid, m in sheets:
        if due := m.deliverable():
            raise Refused(f"{state['names'][pid]} can deliver their adventurer's {due[0]} first.")
    for _, m in sheets:
        while slots := m.claimable():
            claim(state, table, m, slots[0])


def seat(table: Table, m: Merchant) -> dict:
    """What the sheet's phone shows of it: the score box, the marks and what they allow."""
    lines = m.score()
    return {
        "lines": lines,
        "total": sum(lines.values()),
        "fulfilled": m.fulfilled(),
        "potions": m.potions,
        "mastered": sorted(m.mastery),
        "marked": m.marked,
        "completed": m.completed,
        "extra_used": m.extra_used,
        "next_cost": table.slot_cost(m),
        "spent": m.spent,
        "used": sorted(m.used),
        "free_circles": m.free_circles,
        "delivered": m.delivered,
    }


MOVES = {
    "spend": Move(Spend, in_words(_spend), SEAT, choices=_spend_choices),
    "free": Move(Free, in_words(_free), SEAT, choices=_free_choices),
    "deliver": Move(Deliver, in_words(_deliver), SEAT, choices=_deliver_choices),
}
