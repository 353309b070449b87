"""Magic Spell at the table: each student's spirit, spellbook and philosopher's stones, whose turn
it is, and the end of the semester (pnp.rules.flow.Rules).

Who may do what:
- a turn's own moves (rest, research, weave, scrounge, weave_again, move_ingredient, cast,
  complete_spell, end_turn) belong to the student whose turn it is;
- trading moves (trade_remove, give_spell) are each student's own, and the rules say when: between
  turns; with two students, both trade from a turn's end to the next one's first move (our ruling,
  content/magic-spell/rulings.yaml), and PARLEY's caster trades during their turn;
- a spell's effect on someone's spirit or stones (spirit, stone) may be recorded any time in play,
  as effects fire on other students' turns too (VICARIOUS, EXTORT): by the student, or by the host
  for anyone (a correction).

What the tracker does not follow: the tiles and the cards in hand (they stay on the table); it
keeps the numbers a student would otherwise keep with beads. The state holds the deck (overlays
included), so a phone offers spells to pick rather than words to type. The moves are
pnp.games.magic_spell.moves, their choices pnp.games.magic_spell.choices.
"""

from __future__ import annotations

from typing import Literal

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.magic_spell import GAME, choices, moves
from pnp.games.magic_spell.actions import (
    Cast,
    CompleteSpell,
    EndTurn,
    GiveSpell,
    MoveIngredient,
    Research,
    Rest,
    Scrounge,
    SpiritChange,
    Start,
    StoneChange,
    TradeRemove,
    Weave,
    WeaveAgain,
)
from pnp.games.magic_spell.checks import printed_credits, spells
from pnp.games.magic_spell.moves import credits, low_enrollment, numbers, turn_of
from pnp.rules.flow import HOST_ONLY, JOINING, SEAT, TURN, Move, Rules, option

COURSELOADS = ("normal", "heavy", "heaviest")  # the content's courseload list, in order


class Options(Strict):
    courseload: Literal[COURSELOADS] = option(  # type: ignore[valid-type]
        "normal",
        "Courseload",
        {"normal": "Normal semester", "heavy": "Heavy Courseload", "heaviest": "Heaviest Courseload"},
        "Heavy Courseload, a variant: grading is called at more credits (heaviest: the most), a longer semester.",
    )


def deck(content: Content) -> list[dict]:
    """The spell cards as the tracker uses them, in the content's order: each word with its
    printed credits, its mode (always or cast), its spirit cost and when its effect weaves."""
    return [
        {"spell": card.word, "credits": credits, "mode": card.mode, "cost": card.cost, "weaves_when": card.weaves_when}
        for card, credits in zip(spells(content), printed_credits(content), strict=True)
    ]


def setup(content: Content, options: Options) -> dict:
    """The game's keys (the flow's: phase, players in join order until the start seats them in
    turn order, and names)."""
    return {
        # credits that call for grading
        "courseload": numbers(content).courseload[COURSELOADS.index(options.courseload)],
        "deck": deck(content),  # [{spell, credits, mode, cost, weaves_when}]: what may be completed and cast
        "students": {},  # player id -> {spirit, spellbook: [{spell, credits}], stones}
        "turn": None,  # index into players of the student whose turn it is
        "acted": None,  # this turn's action so far: rest, research, weave, scrounge, cast
        "cast": None,  # the spell cast this turn, if that was the action
        "woven": False,  # whether this turn has woven (a weave, a move, a scrounge woven in)
        "between": False,  # from a turn's end to the next student's first move (two students trade then)
        # the Low Enrollment variant, which two students play by, as our ruling words it
        "low_enrollment": low_enrollment(content),
        # philosopher's stones out of the game: woven into completed spells, or returned to the laboratory
        "stones_gone": 0,
        "grading": None,  # once called: {called_by, last_turns: [ids still to play]}
        "winners": [],
    }


def joined(state: dict, player_id: str) -> dict:
    student = {"spirit": None, "spellbook": [], "stones": 0}
    return {**state, "students": {**state["students"], player_id: student}}


def view(state: dict, viewer: str | None) -> dict:
    """Everything (Magic Spell hides nothing the tracker holds), plus each student's credits."""
    return {
        **state,
        "you": viewer,
        "credits": {pid: credits(student) for pid, student in state["students"].items()},
        # two students play by Low Enrollment (the rules seat two only with it): the phones say so
        "low_enrollment": state["low_enrollment"] if len(state["players"]) == 2 else None,
    }


def results(state: dict) -> list[dict]:
    """Each student's numbers, in turn order (join order before the semester starts)."""
    return [
        {
            "name": state["names"][pid],
            "credits": credits(student),
            "spells": len(student["spellbook"]),
            "stones": student["stones"],
            "spirit": student["spirit"],
            "winner": pid in state["winners"],
        }
        for pid, student in ((pid, state["students"][pid]) for pid in state["players"])
    ]


TRACKER = Rules(
    game=GAME,
    players_are="students",
    Options=Options,
    moves={
        "start": Move(Start, moves.start, HOST_ONLY, stage=JOINING, choices=choices.first),
        "rest": Move(Rest, moves.rest, TURN),
        "research": Move(Research, moves.research, TURN),
        "weave": Move(Weave, moves.weave, TURN),
        "scrounge": Move(Scrounge, moves.scrounge, TURN, choices=choices.scrounge),
        "weave_again": Move(WeaveAgain, moves.weave_again, TURN),
        "move_ingredient": Move(MoveIngredient, moves.move_ingredient, TURN),
        "cast": Move(Cast, moves.cast, TURN, choices=choices.cast),
        "complete_spell": Move(CompleteSpell, moves.complete, TURN, choices=choices.complete),
        "end_turn": Move(EndTurn, moves.end_turn, TURN),
        "trade_remove": Move(TradeRemove, moves.trade_remove, SEAT),
        "give_spell": Move(GiveSpell, moves.give_spell, SEAT, choices=choices.give_spell),
        "spirit": Move(SpiritChange, moves.spirit, SEAT, correction="player", choices=choices.spirit),
        "stone": Move(StoneChange, moves.stone, SEAT, correction="player", choices=choices.stone),
    },
    setup_game=setup,
    view=view,
    results=results,
    turn=turn_of,
    joined=joined,
)
