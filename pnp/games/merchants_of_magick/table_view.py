"""What the phones show of a Merchants of Magick table: each player's seat (their summary, and the
whole sheet for their own phone) and the standings, derived after every move (`settle`, skipped
when a move is only tried), and the view each viewer gets of them; the results export."""

from __future__ import annotations

from functools import cache

from pnp.games.merchants_of_magick import digital_sheet, paper_sheet
from pnp.games.merchants_of_magick.kinds import SCORE_LINES
from pnp.games.merchants_of_magick.rounds import phases
from pnp.games.merchants_of_magick.rules import Merchant, OrderCard
from pnp.games.merchants_of_magick.shoppe import book, engine_to_read, phase_name
from pnp.rules.flow import ENGINE, JOINING
from pnp.rules.standings import numbered_places

SUMMARY = ("lines", "total", "fulfilled", "potions", "mastered")  # what every phone sees of each seat
SHARED = ("phase", "round", "rounds", "dice", "rolls", "round_phase")


def settle(content, state: dict) -> dict:
    """Every seat's summary and sheet, and the standings, from the engine and the paper boxes."""
    if state[ENGINE] is None:
        return {**state, "seats": {pid: paper_sheet.seat(state, pid) for pid in state["players"]}}
    table = engine_to_read(content, state)
    seats = {}
    for pid, m in zip(state["players"], table.merchants, strict=True):
        on_paper = state["sheets"][pid] == paper_sheet.KIND
        seats[pid] = (paper_sheet.seat(state, pid) if on_paper else digital_sheet.seat(table, m)) | _cards(m)
    places = numbered_places([ranking(seat) for seat in seats.values()])
    standings = [{"place": place, "id": state["players"][p]} for place, p in places]
    rating = book(content).rules.rating(seats[standings[0]["id"]]["total"]) if len(seats) == 1 else None
    waiting = [_order(order) for order in table.waiting]
    return {**state, "seats": seats, "standings": standings, "rating": rating, "waiting": waiting}


def _cards(m: Merchant) -> dict:
    hero = m.adventurer
    return {
        "adventurer": None
        if hero is None
        else {"name": hero.name, "items": dict(hero.items), "enchantment": hero.enchantment, "coins": hero.coins},
        "shop": [_order(order) for order in m.shop],
        "face_down": len(m.face_down),
        "claimed": [_order(order) for order in m.claimed],
    }


@cache  # one dict a card, shared by every state that shows it (none is changed in place): a roll shows every shop anew
def _order(order: OrderCard) -> dict:
    return {
        "label": str(order),
        "item": order.item,
        "prefix": order.prefix,
        "suffix": order.suffix,
        "coins": order.coins,
        "double": order.double,
    }


def ranking(row: dict) -> tuple:
    """Most coins, then most fulfilled orders, then most potions (equal: a shared place)."""
    return row["total"], row["fulfilled"], row["potions"]


def view(state: dict, viewer: str | None) -> dict:
    """The table as every phone sees it (its players' summaries), and the viewer's own seat whole."""
    ready, names, seats = set(state["ready"]), state["names"], state["seats"]
    players = [
        {
            "id": pid,
            "name": names[pid],
            "sheet": state["sheets"][pid],
            "ready": pid in ready,
            **{k: seats[pid][k] for k in SUMMARY if pid in seats},
        }
        for pid in state["players"]
    ]
    standings = [
        {**row, "name": names[row["id"]], **{k: seats[row["id"]][k] for k in ("total", "fulfilled", "potions")}}
        for row in state["standings"]
    ]
    apprentice = set(state["apprentice"])
    engine_data = state[ENGINE]
    begun = state["phase"] != JOINING
    mine = seats.get(viewer)
    if mine is not None:
        mine = {**mine, "id": viewer, "name": names[viewer], "sheet": state["sheets"][viewer]}
    return {
        **{k: state[k] for k in SHARED},
        "cards": state["way"],
        "round_phase_name": phase_name(state) if begun else None,
        "round_phases": phases(state) if begun else [],
        "masteries": [
            {**card, "side": "apprentice" if card["name"] in apprentice else "master"} for card in state["masteries"]
        ],
        "players": players,
        "standings": standings,
        "ready_count": len(ready),
        "solo": len(state["players"]) == 1,
        "rating": state["rating"],
        "waiting": state["waiting"],  # solo: the orders waiting to enter the shoppe
        "orders_left": None if engine_data is None else len(engine_data["deck"]),
        "you": viewer,
        "mine": mine,
    }


def results(state: dict) -> list[dict]:
    """One row per merchant, best first: the score box, the tie-breaks, the place (before the
    start: the names)."""
    seats, names = state["seats"], state["names"]
    if not state["standings"]:
        return [{"place": "", "player": p, "name": names[p], "sheet": state["sheets"][p]} for p in state["players"]]
    rows = []
    for standing in state["standings"]:
        pid = standing["id"]
        seat = seats[pid]
        row = {"place": standing["place"], "player": pid, "name": names[pid], "sheet": state["sheets"][pid]}
        row |= {line: seat["lines"][line] for line in SCORE_LINES}
        row |= {"total": seat["total"], "fulfilled": seat["fulfilled"], "potions": seat["potions"]}
        if len(state["players"]) == 1:
            row["rating"] = state["rating"] or ""
        rows.append(row)
    return rows
