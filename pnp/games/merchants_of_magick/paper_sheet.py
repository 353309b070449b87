"""A paper sheet: marked with a pencil at the table. Its player enters the score box's lines, the
fulfilled orders and the potions (the tie-breaks), says which Masteries the sheet reached (so the
cards flip), and claims dealt orders on their word. The host may put a score box right (a
correction: the host's, for any seat). Its moves, the choices each offers now, and what its phone
shows of it."""

from __future__ import annotations

from pnp.games.merchants_of_magick import ways
from pnp.games.merchants_of_magick.actions import MOST, ScoreMastery, Scores
from pnp.games.merchants_of_magick.kinds import SCORE_LINES
from pnp.games.merchants_of_magick.rules import Merchant, Table
from pnp.rules.flow import SEAT, Move
from pnp.rules.offers import offer, one_of, whole_number
from pnp.rules.table import Refused

KIND = "paper"
BLANK = {"lines": {}, "fulfilled": 0, "potions": 0}  # a score box before anything is entered


def _score_mastery(_content, state: dict, mover: str, action: ScoreMastery) -> dict:
    if state["round_phase"] != "mastery":
        raise Refused("Masteries are scored in the Mastery phase.")
    if state["sheets"][mover] != KIND:
        raise Refused("Your digital sheet scores its Masteries itself.")
    if action.card not in [card["name"] for card in state["masteries"]]:
        raise Refused(f"{action.card} is not a Mastery in play.")
    if action.card in state["mastered"][mover]:
        raise Refused(f"You have already scored {action.card}; each merchant scores each Mastery once.")
    return {
        **state,
        "mastered": {**state["mastered"], mover: [*state["mastered"][mover], action.card]},
        "claimed_now": sorted({*state["claimed_now"], action.card}),
    }


def _mastery_choices(_content, state: dict, mover: str) -> list[dict]:
    """The Masteries in play this sheet has not scored, in the Mastery phase, with their coins now."""
    if state["sheets"][mover] != KIND or state["round_phase"] != "mastery":
        return []
    apprentice = set(state["apprentice"]) if len(state["players"]) > 1 else {c["name"] for c in state["masteries"]}
    coins = {c["name"]: c["apprentice" if c["name"] in apprentice else "master"] for c in state["masteries"]}
    cards = [name for name in coins if name not in state["mastered"][mover]]
    labels = {name: f"{coins[name]} coins" for name in cards}
    return [offer(pick=[one_of("card", cards, labels)])] if cards else []


def _scores(_content, state: dict, mover: str, action: Scores) -> dict:
    if state["sheets"][mover] != KIND:
        raise Refused("A digital sheet fills its score box itself.")
    paper = {"lines": dict(action.lines), "fulfilled": action.fulfilled, "potions": action.potions}
    return {**state, "papers": {**state["papers"], mover: paper}}


def _scores_choices(_content, state: dict, mover: str) -> list[dict]:
    """Each line's coins, the orders fulfilled and the potions left: whole numbers the box holds."""
    if state["sheets"][mover] != KIND:
        return []
    fields = [f"lines.{line}" for line in SCORE_LINES] + ["fulfilled", "potions"]
    return [offer(pick=[whole_number(name, 0, MOST) for name in fields])]


def claimable(state: dict, m: Merchant) -> list[int]:
    """Dealt orders, on the player's word; printed ones are claimed on the table."""
    return [] if state["way"] == "printed" else list(range(len(m.shop)))


def claim(state: dict, table: Table, m: Merchant, slot: int) -> None:
    if state["way"] == "printed":
        raise Refused("Your orders are printed cards; claim them on the table.")
    ways.of(state).claim(table, m, slot, checked=False)


def seat(state: dict, pid: str) -> dict:
    """What the sheet's phone shows of it: the score box as entered, and the Masteries reached."""
    paper = state["papers"][pid]
    lines = {line: paper["lines"].get(line, 0) for line in SCORE_LINES}
    return {
        "lines": lines,
        "total": sum(lines.values()),
        "fulfilled": paper["fulfilled"],
        "potions": paper["potions"],
        "mastered": state["mastered"][pid],
    }


MOVES = {
    "mastery": Move(ScoreMastery, _score_mastery, SEAT, choices=_mastery_choices),
    # the nearest to a score put right: the host may enter any paper sheet's box
    "scores": Move(Scores, _scores, SEAT, correction="player", choices=_scores_choices),
}
