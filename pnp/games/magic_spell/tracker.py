"""Magic Spell at the table: each student's spirit, spellbook and philosopher's stones, whose turn
it is, and the end of the semester (pnp.rules.table.Tracker).

Who may do what:
- a turn's own moves (rest, research, weave, scrounge, weave_again, move_ingredient, cast,
  complete_spell, end_turn) belong to the student whose turn it is;
- trading moves (trade_remove, give_spell) belong to students whose turn it is not, as trades
  happen between turns; with two students, both trade from a turn's end to the next one's first
  move (our ruling, content/magic-spell/rulings.yaml), and PARLEY's caster trades during their turn;
- a spell's effect on someone's spirit or stones (spirit, stone) may be recorded any time in play,
  as effects fire on other students' turns too (VICARIOUS, EXTORT);
- the host may make any of these for anyone, naming them in `player` (for a turn's move, the
  default is the student whose turn it is).

What the tracker does not follow: the tiles and the cards in hand (they stay on the table); it
keeps the numbers a student would otherwise keep with beads. Every number is the content's
(pnp.games.magic_spell.kinds.SetRules), and a spell's credits and cost are its card's: the state
holds the deck (overlays included), so a phone offers spells to pick rather than words to type.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.magic_spell import GAME, rules
from pnp.games.magic_spell.checks import printed_credits, spells
from pnp.games.magic_spell.kinds import SetRules
from pnp.rules.table import HOST, HOST_ONLY, TURN, GameTracker, Refused, Who, moved_for, option, top_scorers

COURSELOADS = ("normal", "heavy", "heaviest")  # the content's courseload list, in order
# PROCRASTINATE: "When another student calls for grading, you take two last turns in a row instead
# of one." ZENITH: "While you have 10 or more spirit, this spell counts as 1 extra credit."
PROCRASTINATE, LAST_TURNS = "procrastinate", 2
ZENITH, ZENITH_SPIRIT, ZENITH_CREDIT = "zenith", 10, 1
PARLEY = "parley"


class Options(Strict):
    courseload: Literal[COURSELOADS] = option(  # type: ignore[valid-type]
        "normal",
        "Courseload",
        {"normal": "Normal semester", "heavy": "Heavy Courseload", "heaviest": "Heaviest Courseload"},
        "Heavy Courseload, a variant: grading is called at more credits (heaviest: the most), a longer semester.",
    )


class Action(Strict):
    player: str = ""  # whom the move is for; only the host names someone other than themself


class Start(Action):
    """Begin the semester (host): everyone gets their starting spirit."""

    first: str = ""  # who goes first, then the join order around the table; "": the first to join


class Rest(Action):
    """The turn's action: gain spirit."""


class Research(Action):
    """The turn's action: pay spirit, draw a spell."""


class Weave(Action):
    """The turn's action: weave an ingredient from the cabinet (free)."""


class Scrounge(Action):
    """The turn's action: look at a laboratory ingredient (free), then weave it, keep it or put it back."""

    woven: bool = False  # woven straight into a homework spell: only then may you weave again


class WeaveAgain(Action):
    """After weaving or scrounging: pay for another weave."""


class MoveIngredient(Action):
    """A weave that moves an ingredient from one spell to another: the move's spirit, plus a weave
    again's unless it is the turn's first weave."""


class Cast(Action):
    """The turn's action: cast a spell from your spellbook, paying its card's cost."""

    spell: str = Field(min_length=1, max_length=40)  # the magic word


class CompleteSpell(Action):
    """While weaving: the last letter is woven; the spell goes into your spellbook. Outside the
    Weave and Scrounge actions, `by_card` names the card of yours whose effect wove it."""

    spell: str = Field(min_length=1, max_length=40)
    by_card: str = Field("", max_length=40)
    stone: bool = False  # a philosopher's stone was woven into it: it leaves the game


class EndTurn(Action):
    """End of your turn: recover spirit, maybe call for grading, pass the turn."""


class TradeRemove(Action):
    """Between turns: pay to take an ingredient off a partly woven spell to trade it."""


class GiveSpell(Action):
    """Between turns: a completed spell changes hands in a trade."""

    spell: str = Field(min_length=1, max_length=40)
    to: str = Field(min_length=1)


class SpiritChange(Action):
    """A spell's effect: gain or lose spirit."""

    delta: int = Field(ge=-99, le=99)


class StoneChange(Action):
    """A philosopher's stone gained or given up."""

    delta: int = Field(ge=-99, le=99)


actions: dict[str, type[Action]] = {
    "start": Start,
    "rest": Rest,
    "research": Research,
    "weave": Weave,
    "scrounge": Scrounge,
    "weave_again": WeaveAgain,
    "move_ingredient": MoveIngredient,
    "cast": Cast,
    "complete_spell": CompleteSpell,
    "end_turn": EndTurn,
    "trade_remove": TradeRemove,
    "give_spell": GiveSpell,
    "spirit": SpiritChange,
    "stone": StoneChange,
}
TURN_MOVES = (Rest, Research, Weave, Scrounge, WeaveAgain, MoveIngredient, Cast, CompleteSpell, EndTurn)
TRADE_MOVES = (TradeRemove, GiveSpell)


def _set(content: Content) -> SetRules:
    return content["magic-spell-set"]


def deck(content: Content) -> list[dict]:
    """The spell cards as the tracker uses them, in the content's order: each word with its
    printed credits, its mode (always or cast) and its spirit cost."""
    return [
        {"spell": card.word, "credits": credits, "mode": card.mode, "cost": card.cost, "weaves_when": card.weaves_when}
        for card, credits in zip(spells(content), printed_credits(content), strict=True)
    ]


def setup(content: Content, options: Options) -> dict:
    courseload = _set(content).courseload[COURSELOADS.index(options.courseload)]
    return {
        "phase": "joining",  # then "playing", then "over"
        "courseload": courseload,  # credits that call for grading
        "deck": deck(content),  # [{spell, credits, mode, cost}]: what may be completed and cast
        "order": [],  # player ids in turn order
        "students": {},  # player id -> {name, spirit, spellbook: [{spell, credits}], stones}
        "turn": None,  # index into order of the student whose turn it is
        "acted": None,  # this turn's action so far: rest, research, weave, scrounge, cast
        "cast": None,  # the spell cast this turn, if that was the action
        "woven": False,  # whether this turn has woven (a weave, a move, a scrounge woven in)
        "between": False,  # from a turn's end to the next student's first move (two students trade then)
        # the Low Enrollment variant, which two students play by, as our ruling words it
        "low_enrollment": _low_enrollment(content),
        "stones_gone": 0,  # philosopher's stones woven into completed spells: out of the game
        "grading": None,  # once called: {called_by, last_turns: [ids still to play]}
        "winners": [],
    }


def join(state: dict, player_id: str, name: str) -> dict:
    if state["phase"] != "joining":
        raise Refused("The semester has begun: no one can join now.")
    if player_id in state["students"]:  # a second join renames
        return _with_student(state, player_id, name=name)
    fewest, most = GAME.players
    if len(state["order"]) >= most:
        raise Refused(f"A Magic Spell table seats {fewest} to {most} students; this one is full.")
    student = {"name": name, "spirit": None, "spellbook": [], "stones": 0}
    return {**state, "order": [*state["order"], player_id], "students": {**state["students"], player_id: student}}


def apply(content: Content, state: dict, actor: str, action: Action) -> dict:
    try:
        who = _who(state, actor, action)
    except Refused as refusal:
        raise _with_ruling(content, state, refusal) from None
    state = _MOVES[type(action)](content, state, who, action)
    # between turns: from a turn's end to the next student's first move (two students trade then)
    if isinstance(action, TURN_MOVES) and state["phase"] == "playing":
        state = {**state, "between": isinstance(action, EndTurn)}
    # "Once you've finished weaving, you may immediately spend a point of spirit to take another
    # weave action": only after a weave, not after a scrounge kept or put back
    if isinstance(action, (Weave, WeaveAgain, MoveIngredient)) or (isinstance(action, Scrounge) and action.woven):
        state = {**state, "woven": True}
    elif isinstance(action, EndTurn):
        state = {**state, "woven": False}
    return state


def view(state: dict, actor: str) -> dict:
    """Everything (Magic Spell hides nothing the tracker holds), plus each student's credits."""
    credits = {pid: _credits(student) for pid, student in state["students"].items()}
    playing = state["phase"] == "playing"
    return {
        **state,
        "you": actor,
        "credits": credits,
        "by_card": _completing_card(state),
        "trade_with_turn": playing and _trading_with_turn(state),  # a phone offers the trade then
        # two students play by Low Enrollment (the rules seat two only with it): the phones say so
        "low_enrollment": state["low_enrollment"] if len(state["order"]) == 2 else None,
    }


def _completing_card(state: dict) -> str | None:
    """The card of the current student's that lets them complete a spell now outside weaving
    (a phone offers Complete with it), if any."""
    if state["phase"] != "playing" or state.get("woven"):
        return None
    if state["acted"] == "cast":
        return state["cast"] if _card(state, state["cast"])["weaves_when"] == "cast" else None
    book = _words(state["students"][_turn(state)])
    return next((w for w in book if state["acted"] and _card(state, w)["weaves_when"] == state["acted"]), None)


# --- who acts --------------------------------------------------------------------------------


def _who(state: dict, actor: str, action: Action) -> str:
    """The student a move is for, or Refused when the rules forbid it now (whose turn it is was
    checked before: `who` below)."""
    if isinstance(action, Start):
        return HOST
    if state["phase"] != "playing":
        raise Refused("The semester has not begun yet." if state["phase"] == "joining" else "The semester is over.")
    who = moved_for(actor, action, _turn(state))
    if who not in state["students"]:
        raise Refused("There is no such student at this table.")
    if isinstance(action, TRADE_MOVES) and who == _turn(state) and not _trading_with_turn(state):
        raise Refused("Trades happen between turns, not during your own.")
    return who


def _with_ruling(content: Content, state: dict, refusal: Refused) -> Refused:
    """A trade refused at a table of two says our ruling on when two students trade."""
    if len(state["order"]) != 2 or not str(refusal).startswith("Trades happen"):
        return refusal
    return Refused(f"{refusal} {_low_enrollment(content)}")


def _low_enrollment(content: Content) -> str:
    """Low Enrollment: "You can play with two players. You may swap with each other in between
    turns." Our ruling says when that is."""
    return content["rulings"].rulings["low-enrollment-trades"].replace("**", "")


def _trading_with_turn(state: dict) -> bool:
    """Whether the student whose turn it is may trade now: with two students, between turns (our
    ruling); or after casting PARLEY: "Make a trade with any other student now, in the middle of
    your turn." """
    return (len(state["order"]) == 2 and state.get("between", False)) or state.get("cast") == PARLEY


def _turn(state: dict) -> str | None:
    """The student whose turn it is, while the semester is played."""
    return state["order"][state["turn"]] if state["phase"] == "playing" else None


def _on_turn(state: dict) -> str:
    return f"It is {state['students'][_turn(state)]['name']}'s turn."


# --- the moves -------------------------------------------------------------------------------


def _start(content: Content, state: dict, _host: str, action: Start) -> dict:
    if state["phase"] != "joining":
        raise Refused("The semester has already begun.")
    order = state["order"]
    if len(order) < 2:
        raise Refused("A semester needs at least two students (two play by the Low Enrollment variant).")
    if action.first and action.first not in order:
        raise Refused("The student to go first has not joined.")
    first = order.index(action.first) if action.first else 0
    start = _set(content).spirit.start
    students = {pid: {**student, "spirit": start} for pid, student in state["students"].items()}
    return {**state, "phase": "playing", "order": order[first:] + order[:first], "students": students, "turn": 0}


def _paying(spend):
    """A move that pays spirit by one of the rules' functions; RuleError becomes Refused."""

    def move(content: Content, state: dict, who: str, _action: Action) -> dict:
        try:
            spirit = spend(state["students"][who]["spirit"], _set(content).spirit)
        except rules.RuleError as err:
            raise Refused(f"{err}.") from None
        return _with_student(state, who, spirit=spirit)

    return move


def _main_action(name: str, then=None):
    """The turn's one action (rest, research, weave, scrounge): refused after another."""

    def move(content: Content, state: dict, who: str, action: Action) -> dict:
        if state["acted"]:
            raise Refused(f"You have already taken this turn's action ({state['acted']}).")
        state = then(content, state, who, action) if then else state
        return {**state, "acted": name}

    return move


def _while_weaving(what: str, then):
    def move(content: Content, state: dict, who: str, action: Action) -> dict:
        if not state.get("woven"):
            raise Refused(f"{what} is part of weaving: weave first this turn.")
        return then(content, state, who, action)

    return move


def _move(content: Content, state: dict, who: str, action: MoveIngredient) -> dict:
    """A move is a weave: the turn's Weave action when nothing was done yet, else a weave again."""
    if state["acted"] is not None and not state.get("woven"):
        raise Refused("Moving an ingredient is part of weaving: weave first this turn.")
    first = state["acted"] is None
    try:
        spirit = rules.move_ingredient(state["students"][who]["spirit"], _set(content).spirit, first)
    except rules.RuleError as err:
        raise Refused(f"{err}.") from None
    return {**_with_student(state, who, spirit=spirit), "acted": "weave" if first else state["acted"]}


def _cast(content: Content, state: dict, who: str, action: Cast) -> dict:
    card = _card(state, action.spell)
    word = card["spell"].upper()
    if card["spell"] not in _words(state["students"][who]):
        raise Refused(f"{word} is not in your spellbook.")
    if card["mode"] != "cast":
        raise Refused(f"{word} works by itself; it is never cast.")
    spirit = state["students"][who]["spirit"]
    if spirit < card["cost"]:
        raise Refused(f"Casting {word} costs {card['cost']} spirit; you have {spirit}.")
    return {**_with_student(state, who, spirit=spirit - card["cost"]), "cast": card["spell"]}


def _by_card(state: dict, who: str, word: str) -> None:
    """Refused unless a card of `who`'s lets them complete a spell under this turn's action."""
    if not word:
        raise Refused("Completing a spell is part of weaving: weave first this turn, or name the card that wove it.")
    card = _card(state, word)
    name = card["spell"].upper()
    needs = card["weaves_when"]  # from the card's content: its effect, as data
    if needs is None:
        raise Refused(f"{name} does not let you weave, scrounge or complete a spell.")
    if card["spell"] not in _words(state["students"][who]):
        raise Refused(f"{name} is not in your spellbook.")
    if needs == "rest" and state["acted"] != "rest":
        raise Refused(f"{name} works when you rest: rest first this turn.")
    if needs == "cast" and state.get("cast") != card["spell"]:
        raise Refused(f"{name} works when you cast it: cast it first this turn.")


def _complete(content: Content, state: dict, who: str, action: CompleteSpell) -> dict:
    if not state.get("woven"):
        _by_card(state, who, action.by_card)
    card = _card(state, action.spell)
    holder = next((pid for pid, s in state["students"].items() if card["spell"] in _words(s)), None)
    if holder is not None:
        raise Refused(f"{card['spell'].upper()} is already in {state['students'][holder]['name']}'s spellbook.")
    book = [*state["students"][who]["spellbook"], {"spell": card["spell"], "credits": card["credits"]}]
    # "When a philosopher's stone would be returned to the laboratory, remove it from the game instead."
    gone = state.get("stones_gone", 0) + action.stone
    if _stones_held(state) + gone > len(_set(content).philosophers_stones):
        raise Refused(f"The set has only {len(_set(content).philosophers_stones)} philosopher's stones.")
    return {**_with_student(state, who, spellbook=book), "stones_gone": gone}


def _give_spell(content: Content, state: dict, who: str, action: GiveSpell) -> dict:
    card = _card(state, action.spell)
    book = state["students"][who]["spellbook"]
    if card["spell"] not in _words(state["students"][who]):
        raise Refused(f"{card['spell'].upper()} is not in your spellbook.")
    if action.to not in state["students"] or action.to == who:
        raise Refused("Give it to another student at this table.")
    if action.to == _turn(state) and not _trading_with_turn(state):
        raise _with_ruling(content, state, Refused("Trades happen between turns: that student is taking theirs."))
    entry = next(e for e in book if e["spell"] == card["spell"])
    state = _with_student(state, who, spellbook=[e for e in book if e is not entry])
    return _with_student(state, action.to, spellbook=[*state["students"][action.to]["spellbook"], entry])


def _spirit(content: Content, state: dict, who: str, action: SpiritChange) -> dict:
    spirit = state["students"][who]["spirit"] + action.delta
    if spirit < 0:
        raise Refused(f"{state['students'][who]['name']} has {spirit - action.delta} spirit; they cannot lose more.")
    return _with_student(state, who, spirit=spirit)


def _stone(content: Content, state: dict, who: str, action: StoneChange) -> dict:
    stones = state["students"][who]["stones"] + action.delta
    held = _stones_held(state) + state.get("stones_gone", 0) + action.delta  # gone stones never return
    if stones < 0:
        raise Refused(f"{state['students'][who]['name']} holds {stones - action.delta} philosopher's stones.")
    if held > len(_set(content).philosophers_stones):
        raise Refused(f"The set has only {len(_set(content).philosophers_stones)} philosopher's stones.")
    return _with_student(state, who, stones=stones)


def _end_turn(content: Content, state: dict, who: str, _action: Action) -> dict:
    """Recover, call for grading with a full courseload, pass the turn; after everyone else's
    last turn, the semester is over."""
    student = state["students"][who]
    state = _with_student(state, who, spirit=rules.end_of_turn(student["spirit"], _set(content).spirit))
    grading = state.get("grading")
    order = state["order"]
    if grading is not None:
        last = list(grading["last_turns"])
        if who in last:
            last.remove(who)  # one of theirs: PROCRASTINATE's holder has two
        grading = {**grading, "last_turns": last}
    elif rules.calls_for_grading(_spell_credits(student), state["courseload"]):
        at = order.index(who)
        last = [
            pid
            for pid in order[at + 1 :] + order[:at]
            for _ in range(LAST_TURNS if PROCRASTINATE in _words(state["students"][pid]) else 1)
        ]
        grading = {"called_by": who, "last_turns": last}
    # the next turn: the next student's, or during the last turns the next last turn's (in a row)
    last = grading["last_turns"] if grading else []
    turn = order.index(last[0]) if last else (state["turn"] + 1) % len(order)
    state = {**state, "grading": grading, "acted": None, "cast": None, "turn": turn}
    if grading is not None and not grading["last_turns"]:
        totals = {pid: _credits(s) for pid, s in state["students"].items()}
        return {**state, "phase": "over", "turn": None, "winners": top_scorers(totals)}
    return state


_MOVES = {
    Start: _start,
    Rest: _main_action("rest", _paying(rules.rest)),
    Research: _main_action("research", _paying(rules.research)),
    Weave: _main_action("weave"),
    Scrounge: _main_action("scrounge"),
    WeaveAgain: _while_weaving("Weaving again", _paying(rules.weave_again)),
    MoveIngredient: _move,
    Cast: _main_action("cast", _cast),
    CompleteSpell: _complete,  # while weaving, or by a card's effect (_by_card)
    EndTurn: _end_turn,
    TradeRemove: _paying(rules.trade_remove),
    GiveSpell: _give_spell,
    SpiritChange: _spirit,
    StoneChange: _stone,
}


def results(state: dict) -> list[dict]:
    """Each student's numbers, in turn order (join order before the semester starts)."""
    return [
        {
            "name": student["name"],
            "credits": _credits(student),
            "spells": len(student["spellbook"]),
            "stones": student["stones"],
            "spirit": student["spirit"],
            "winner": pid in state["winners"],
        }
        for pid, student in ((pid, state["students"][pid]) for pid in state["order"])
    ]


who = {
    "start": Who(HOST_ONLY, "Only the host starts the semester."),
    **{name: Who(TURN, _on_turn) for name, model in actions.items() if model in TURN_MOVES},
}
TRACKER = GameTracker("magic-spell", Options, actions, setup, join, apply, view, results, who=who, turn=_turn)


# --- helpers ---------------------------------------------------------------------------------


def _card(state: dict, word: str) -> dict:
    """The deck's entry for a magic word, however it is capitalised (API clients type it)."""
    card = next((c for c in state["deck"] if c["spell"].lower() == word.strip().lower()), None)
    if card is None:
        raise Refused(f"There is no spell {word.upper()} in the deck.")
    return card


def _stones_held(state: dict) -> int:
    return sum(s["stones"] for s in state["students"].values())


def _words(student: dict) -> list[str]:
    return [entry["spell"] for entry in student["spellbook"]]


def _spell_credits(student: dict) -> int:
    """The spellbook's credits, ZENITH's extra one included while its holder's spirit is high."""
    zenith = ZENITH in _words(student) and (student["spirit"] or 0) >= ZENITH_SPIRIT
    return sum(entry["credits"] for entry in student["spellbook"]) + (ZENITH_CREDIT if zenith else 0)


def _credits(student: dict) -> int:
    """A student's credits at the end: their spellbook's, and one for each philosopher's stone held."""
    return _spell_credits(student) + student["stones"]


def _with_student(state: dict, pid: str, **changes) -> dict:
    return {**state, "students": {**state["students"], pid: {**state["students"][pid], **changes}}}
