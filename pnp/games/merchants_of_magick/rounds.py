"""A Merchants of Magick round: the host (or, at a table in an event, the event's organiser) rolls;
the Resource phase shows the dice; in the Crafting and Research phase players spend them; the
Mastery phase scores the Masteries; the Customer phase moves the orders on (solo: shifts the line),
except after the last round, which ends the game (a table with paper sheets first has their final
scores entered). Players tap Ready; the host sees how many are and advances. A roll for the next
round finishes what is left of this one, so an event's organiser sets the pace of every table.

The round's phase is the state's `round_phase` (the flow's `phase` is the table's: joining,
playing, over)."""

from __future__ import annotations

from pnp.games.merchants_of_magick import digital_sheet, paper_sheet, ways
from pnp.games.merchants_of_magick.actions import PHASES, SCORING, Advance, Ready, Roll
from pnp.games.merchants_of_magick.rules import Table
from pnp.games.merchants_of_magick.shoppe import PHASE_NAMES, book, engine, in_words, kept, phase_name, rolled
from pnp.rules.flow import HOST_ONLY, HOST_OR_EVENT, JOINING, OVER, SEAT, Move
from pnp.rules.offers import offer
from pnp.rules.table import Refused


def _due(state: dict) -> int:
    """The round the next roll is for."""
    return state["round"] + 1 if rolled(state) else state["round"]


def _roll(content, state: dict, _actor: str, action: Roll) -> dict:
    due = _due(state)
    if action.round < due:
        raise Refused(f"Round {action.round} is already rolled.")
    if due > state["rounds"]:
        raise Refused(f"Round {state['rounds']} was the last.")
    if action.round > due:
        raise Refused(f"This table is at round {due}; it cannot take round {action.round}'s roll yet.")
    faces = dict(book(content).sheet.dice)
    if action.dice is None or set(action.dice) != set(faces):
        raise Refused("The roll needs a result for each die.")  # the server always draws them
    for die, result in action.dice.items():
        if not 1 <= result <= faces[die]:
            raise Refused(f"A {die} shows 1 to {faces[die]}, not {result}.")
    table = engine(content, state)  # one table for every phase the roll moves through
    while rolled(state):  # what is left of the round before: its Mastery and Customer phases
        state = _after(state, table)
    table.start_round(action.dice)
    rolls = [*state["rolls"], {"round": action.round, "dice": dict(action.dice)}]
    return kept({**state, "dice": dict(action.dice), "rolls": rolls, "ready": []}, table)


def _dice(content, _state: dict, _actor: str, action: Roll, chance) -> Roll:
    """The roll's dice, from the server's chance (at an event's table: the event's), never a phone's."""
    return action.model_copy(update={"dice": chance.dice(action.round, book(content).sheet.dice)})


def _roll_choices(_content, state: dict, _host: str) -> list[dict]:
    return [offer({"round": _due(state)})] if _due(state) <= state["rounds"] else []


def _advance(content, state: dict, _host: str, action: Advance) -> dict:
    _now(state, action.phase)
    if not rolled(state):
        raise Refused(f"Roll the dice for round {state['round']} first.")
    table = engine(content, state)
    return kept(_after(state, table), table)


def _advance_choices(_content, state: dict, _host: str) -> list[dict]:
    return [offer({"phase": state["round_phase"]})] if rolled(state) else []


def _ready(_content, state: dict, mover: str, action: Ready) -> dict:
    _now(state, action.phase)
    if not rolled(state):
        raise Refused(f"Round {state['round']} is not rolled yet.")
    if mover in state["ready"]:
        raise Refused("You are ready already.")  # a second tap counts once
    return {**state, "ready": [*state["ready"], mover]}


def _ready_choices(_content, state: dict, mover: str) -> list[dict]:
    return [offer({"phase": state["round_phase"]})] if rolled(state) and mover not in state["ready"] else []


def _now(state: dict, phase: str) -> None:
    """Refused unless `phase` is the round's phase now (a tap meant for one already over)."""
    if phase != state["round_phase"]:
        raise Refused(f"The {PHASE_NAMES[phase]} phase is over; this is the {phase_name(state)} phase.")


def _after(state: dict, table: Table) -> dict:
    """The phase after this one, doing on `table` what ending this one does (the caller keeps it)."""
    phase = state["round_phase"]
    state = {**state, "ready": []}
    if phase == "resource":
        return {**state, "round_phase": "crafting"}
    if phase == "crafting":
        table.mastery_phase()
        return {**state, "round_phase": "mastery", "claimed_now": []}
    if phase == "mastery":
        digital_sheet.close_mastery(state, table)
        # the cards scored in this phase flip at its end, whoever scored them: digital or paper
        table.flipped.update(state["claimed_now"])
        state = {**state, "apprentice": sorted(table.flipped), "claimed_now": []}
        if state["round"] < state["rounds"]:
            return {**state, "round_phase": "customer"}
        return {**state, "round_phase": SCORING} if _on_paper(state) else {**state, "phase": OVER}
    if phase == SCORING:
        return {**state, "phase": OVER}
    # Customer: the orders move one space clockwise, and the next round awaits its roll
    ways.of(state).customer_phase(state, table)
    return {**state, "round_phase": PHASES[0], "round": state["round"] + 1, "dice": {}}


def _on_paper(state: dict) -> bool:
    return any(kind == paper_sheet.KIND for kind in state["sheets"].values())


def phases(state: dict) -> list[str]:
    """This round's phases: no Customer phase after the last, whose end asks for the paper sheets'
    final scores."""
    if state["round"] < state["rounds"]:
        return list(PHASES)
    return [*PHASES[:3], *([SCORING] if _on_paper(state) else [])]


def round_done(state: dict) -> int | None:
    """The last round this table has played to its end: its Crafting and Research phase over, or
    every merchant Ready in it (what is left of a round, the next roll finishes). None before the
    start."""
    if state["phase"] == JOINING:
        return None
    if state["phase"] == OVER:
        return state["rounds"]
    crafted = state["round_phase"] in ("mastery", "customer", SCORING) or (
        state["round_phase"] == "crafting" and set(state["players"]) <= set(state["ready"])
    )
    return state["round"] if rolled(state) and crafted else state["round"] - 1


MOVES = {
    "roll": Move(Roll, in_words(_roll), HOST_OR_EVENT, final=True, choices=_roll_choices, draw=_dice),
    "advance": Move(Advance, in_words(_advance), HOST_ONLY, choices=_advance_choices),
    "ready": Move(Ready, _ready, SEAT, choices=_ready_choices),
}
