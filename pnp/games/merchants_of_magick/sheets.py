"""Each player's sheet, "paper" or "digital", chosen before the start (each kind's moves are in a
module of its own: paper_sheet, digital_sheet), and the claim of an order, which each kind makes
its own way."""

from __future__ import annotations

from types import ModuleType

from pnp.games.merchants_of_magick import digital_sheet, paper_sheet
from pnp.games.merchants_of_magick.actions import ChooseSheet, Claim
from pnp.games.merchants_of_magick.shoppe import book, claiming_now, engine, in_words, kept, merchant, unless
from pnp.rules.flow import ENGINE, JOINING, SEAT, Move, computers
from pnp.rules.offers import offer, one_of
from pnp.rules.table import Refused

SHEETS: dict[str, ModuleType] = {paper_sheet.KIND: paper_sheet, digital_sheet.KIND: digital_sheet}
LABELS = {paper_sheet.KIND: "Paper sheet", digital_sheet.KIND: "Digital sheet"}
SEATED = ("sheets", "papers", "mastered")  # what the state keeps of each seat from its joining


def joined(state: dict, pid: str) -> dict:
    """A new seat: on paper until its player chooses; a computer player's digital, for good (it
    marks no paper)."""
    kind = digital_sheet.KIND if pid in computers(state) else paper_sheet.KIND
    return {
        **state,
        "sheets": {**state["sheets"], pid: kind},
        "papers": {**state["papers"], pid: paper_sheet.BLANK},
        "mastered": {**state["mastered"], pid: []},
    }


def left(state: dict, pid: str) -> dict:
    """A computer player's seat, given up before the start."""
    return {
        **state,
        **{part: {seat: kept for seat, kept in state[part].items() if seat != pid} for part in SEATED},
    }


def _choose(_content, state: dict, mover: str, action: ChooseSheet) -> dict:
    if mover in computers(state):
        raise Refused("A computer player keeps a digital sheet.")
    if state["sheets"][mover] == action.kind:
        raise Refused(f"You are on a {action.kind} sheet already.")
    return {**state, "sheets": {**state["sheets"], mover: action.kind}}


def _choose_choices(_content, state: dict, mover: str) -> list[dict]:
    """The other kind (the one chosen is chosen); none for a computer player."""
    if mover in computers(state):
        return []
    other = [kind for kind in SHEETS if kind != state["sheets"][mover]]
    return [offer(pick=[one_of("kind", other, LABELS)])]


def _claim(content, state: dict, mover: str, action: Claim) -> dict:
    unless(claiming_now(state))
    table = engine(content, state)
    SHEETS[state["sheets"][mover]].claim(state, table, merchant(state, table, mover), action.slot)
    return kept(state, table)


def _claim_choices(content, state: dict, mover: str) -> list[dict]:
    if claiming_now(state):
        return []
    m = merchant(state, engine(content, state), mover)
    slots = SHEETS[state["sheets"][mover]].claimable(state, m)
    return [offer(pick=[one_of("slot", slots, {slot: str(m.shop[slot]) for slot in slots})])] if slots else []


def _name_the_order(content, state: dict, actor: str, action: Claim, _chance) -> Claim:
    """The order a claim takes, named in its entry so the history says what was claimed."""
    order = None
    if state.get(ENGINE) is not None and actor in state["players"]:
        shop = state[ENGINE]["merchants"][state["players"].index(actor)]["shop"]
        order = str(book(content).orders[shop[action.slot]]) if action.slot < len(shop) else None
    return action.model_copy(update={"order": order})


MOVES = {
    "sheet": Move(ChooseSheet, _choose, SEAT, stage=JOINING, choices=_choose_choices),
    "claim": Move(Claim, in_words(_claim), SEAT, choices=_claim_choices, draw=_name_the_order),
}
