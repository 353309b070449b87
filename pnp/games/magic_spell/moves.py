"""Magic Spell's moves: what each does to a table's numbers, and when the rules refuse it. The
handlers (content, state, mover, action) -> state of pnp.rules.flow: the flow has checked the
table's stage and that `mover` may make the move (whose turn it is; a student's own numbers); the
rest is the rules', here. The simulation (pnp.games.magic_spell.sim) plays by these same handlers.

Every number is the content's (pnp.games.magic_spell.kinds.SetRules), and a spell's credits and
cost are its card's, as the state's deck holds them.
"""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.magic_spell import rules
from pnp.games.magic_spell.actions import (
    Action,
    Cast,
    CompleteSpell,
    GiveSpell,
    MoveIngredient,
    Scrounge,
    SpiritChange,
    Start,
    StoneChange,
)
from pnp.games.magic_spell.kinds import SetRules
from pnp.rules.flow import OVER, PLAYING
from pnp.rules.standings import top_scorers
from pnp.rules.table import Refused

# PROCRASTINATE: "When another student calls for grading, you take two last turns in a row instead
# of one." ZENITH: "While you have 10 or more spirit, this spell counts as 1 extra credit."
PROCRASTINATE, LAST_TURNS = "procrastinate", 2
ZENITH, ZENITH_SPIRIT, ZENITH_CREDIT = "zenith", 10, 1
PARLEY = "parley"  # "Make a trade with any other student now, in the middle of your turn."


def numbers(content: Content) -> SetRules:
    return content["magic-spell-set"]


def start(content: Content, state: dict, _host: str, action: Start) -> dict:
    """Everyone gets their starting spirit; the turns go round from `first` in join order."""
    players = state["players"]
    if action.first and action.first not in players:
        raise Refused("The student to go first has not joined.")
    at = players.index(action.first) if action.first else 0
    spirit = numbers(content).spirit.start
    students = {pid: {**student, "spirit": spirit} for pid, student in state["students"].items()}
    return {**state, "phase": PLAYING, "players": players[at:] + players[:at], "students": students, "turn": 0}


# --- the turn's action: one of rest, research, weave, scrounge or cast -----------------------


def _paid(content: Content, state: dict, mover: str, spend) -> dict:
    """`mover`'s spirit after one of the rules' payments; Refused (its RuleError) when short."""
    try:
        spirit = spend(state["students"][mover]["spirit"], numbers(content).spirit)
    except rules.RuleError as err:
        raise Refused(f"{err}.") from None
    return with_student(state, mover, spirit=spirit)


def _action(name: str, then=None, weaves=lambda action: False):
    """The turn's one action, refused after another; `then` does what it does, and `weaves` says
    whether it wove (only a weave lets the student weave again, or complete a spell)."""

    def move(content: Content, state: dict, mover: str, action: Action) -> dict:
        if state["acted"]:
            raise Refused(f"You have already taken this turn's action ({state['acted']}).")
        state = then(content, state, mover, action) if then else state
        return {**state, "acted": name, "woven": weaves(action), "between": False}

    return move


def _cast(content: Content, state: dict, mover: str, action: Cast) -> dict:
    card = card_of(state, action.spell)
    word = card["spell"].upper()
    if card["spell"] not in words(state["students"][mover]):
        raise Refused(f"{word} is not in your spellbook.")
    if card["mode"] != "cast":
        raise Refused(f"{word} works by itself; it is never cast.")
    spirit = state["students"][mover]["spirit"]
    if spirit < card["cost"]:
        raise Refused(f"Casting {word} costs {card['cost']} spirit; you have {spirit}.")
    return {**with_student(state, mover, spirit=spirit - card["cost"]), "cast": card["spell"]}


rest = _action("rest", lambda content, state, mover, _action: _paid(content, state, mover, rules.rest))
research = _action("research", lambda content, state, mover, _action: _paid(content, state, mover, rules.research))
weave = _action("weave", weaves=lambda action: True)
scrounge = _action("scrounge", weaves=lambda action: isinstance(action, Scrounge) and action.woven)
cast = _action("cast", _cast)


# --- weaving -----------------------------------------------------------------------------------


def weave_again(content: Content, state: dict, mover: str, _action: Action) -> dict:
    """ "Once you've finished weaving, you may immediately spend a point of spirit to take another
    weave action": only after a weave, not after a scrounge kept or put back."""
    if not state["woven"]:
        raise Refused("Weaving again is part of weaving: weave first this turn.")
    return {**_paid(content, state, mover, rules.weave_again), "between": False}


def move_ingredient(content: Content, state: dict, mover: str, _action: MoveIngredient) -> dict:
    """A move is a weave: the turn's Weave action when nothing was done yet, else a weave again."""
    if state["acted"] is not None and not state["woven"]:
        raise Refused("Moving an ingredient is part of weaving: weave first this turn.")
    first = state["acted"] is None
    state = _paid(content, state, mover, lambda have, spirit: rules.move_ingredient(have, spirit, first))
    return {**state, "acted": "weave" if first else state["acted"], "woven": True, "between": False}


def card_refusal(state: dict, mover: str, word: str) -> str | None:
    """Why the card `word` of `mover`'s does not let them complete a spell now, outside weaving
    (None: it does, by the effect its content declares in `weaves_when`)."""
    card = card_of(state, word)
    name, needs = card["spell"].upper(), card["weaves_when"]
    if needs is None:
        return f"{name} does not let you weave, scrounge or complete a spell."
    if card["spell"] not in words(state["students"][mover]):
        return f"{name} is not in your spellbook."
    if needs == "rest" and state["acted"] != "rest":
        return f"{name} works when you rest: rest first this turn."
    if needs == "cast" and state["cast"] != card["spell"]:
        return f"{name} works when you cast it: cast it first this turn."
    return None


def stones_free(content: Content, state: dict) -> int:
    """Philosopher's stones no student holds and none woven away: in the laboratory or on spells."""
    held = sum(s["stones"] for s in state["students"].values())
    return len(numbers(content).philosophers_stones) - held - state["stones_gone"]


def complete(content: Content, state: dict, mover: str, action: CompleteSpell) -> dict:
    """While weaving, or by a card's effect: the spell goes into the spellbook with its credits."""
    if not state["woven"]:
        if not action.by_card:
            raise Refused(
                "Completing a spell is part of weaving: weave first this turn, or name the card that wove it."
            )
        refusal = card_refusal(state, mover, action.by_card)
        if refusal:
            raise Refused(refusal)
    card = card_of(state, action.spell)
    holder = next((pid for pid, s in state["students"].items() if card["spell"] in words(s)), None)
    if holder is not None:
        raise Refused(f"{card['spell'].upper()} is already in {state['names'][holder]}'s spellbook.")
    # "When a philosopher's stone would be returned to the laboratory, remove it from the game instead."
    if action.stone and stones_free(content, state) < 1:
        raise Refused(f"The set has only {len(numbers(content).philosophers_stones)} philosopher's stones.")
    book = [*state["students"][mover]["spellbook"], {"spell": card["spell"], "credits": card["credits"]}]
    return {**with_student(state, mover, spellbook=book), "stones_gone": state["stones_gone"] + action.stone}


# --- the end of a turn, and of the semester ----------------------------------------------------


def end_turn(content: Content, state: dict, mover: str, _action: Action) -> dict:
    """Recover, call for grading with a full courseload, pass the turn; after everyone else's
    last turn, the semester is over."""
    student = state["students"][mover]
    state = with_student(state, mover, spirit=rules.end_of_turn(student["spirit"], numbers(content).spirit))
    grading, order = state["grading"], state["players"]
    if grading is not None:
        last = list(grading["last_turns"])
        last.remove(mover)  # one of theirs: PROCRASTINATE's holder has two
        grading = {**grading, "last_turns": last}
    elif rules.calls_for_grading(spell_credits(student), state["courseload"]):
        at = order.index(mover)
        last = [
            pid
            for pid in order[at + 1 :] + order[:at]
            for _ in range(LAST_TURNS if PROCRASTINATE in words(state["students"][pid]) else 1)
        ]
        grading = {"called_by": mover, "last_turns": last}
    # the next turn: the next student's, or during the last turns the next last turn's (in a row)
    last = grading["last_turns"] if grading else []
    turn = order.index(last[0]) if last else (state["turn"] + 1) % len(order)
    state = {**state, "grading": grading, "acted": None, "cast": None, "woven": False, "between": True, "turn": turn}
    if grading is not None and not last:
        totals = {pid: credits(s) for pid, s in state["students"].items()}
        return {**state, "phase": OVER, "turn": None, "winners": top_scorers(totals)}
    return state


# --- trades, between turns -----------------------------------------------------------------------


def trading_with_turn(state: dict) -> bool:
    """Whether the student whose turn it is may trade now: with two students, between turns (our
    ruling); or after casting PARLEY."""
    return (len(state["players"]) == 2 and state["between"]) or state["cast"] == PARLEY


def may_trade(state: dict, student: str) -> bool:
    """Whether `student` may trade now: "When it is not your turn", or when the turn's student may."""
    return student != turn_of(state) or trading_with_turn(state)


def traders(state: dict) -> set[str]:
    """The students who may trade now (may_trade of each, the turn looked up once)."""
    if trading_with_turn(state):
        return set(state["players"])
    turn = turn_of(state)
    return {pid for pid in state["players"] if pid != turn}


def _trade_refused(content: Content, state: dict, words_: str) -> Refused:
    """A trade refused at a table of two says our ruling on when two students trade."""
    if len(state["players"]) != 2:
        return Refused(words_)
    return Refused(f"{words_} {low_enrollment(content)}")


def _trading(content: Content, state: dict, mover: str) -> None:
    if not may_trade(state, mover):
        raise _trade_refused(content, state, "Trades happen between turns, not during your own.")


def partners(state: dict, mover: str) -> list[str]:
    """The students `mover` could trade with now (each may trade, and so may `mover`)."""
    if not may_trade(state, mover):
        return []
    return [pid for pid in state["players"] if pid != mover and may_trade(state, pid)]


def trade_remove(content: Content, state: dict, mover: str, _action: Action) -> dict:
    """Taking an ingredient off a partly woven spell, to trade it: "You may spend 1 spirit to remove
    an ingredient from a partially woven spell to swap that ingredient", so only for a trade someone
    can make now."""
    _trading(content, state, mover)
    if not partners(state, mover):
        raise _trade_refused(content, state, "No one can trade with you now: the other student is taking their turn.")
    return _paid(content, state, mover, rules.trade_remove)


def give_spell(content: Content, state: dict, mover: str, action: GiveSpell) -> dict:
    _trading(content, state, mover)
    card = card_of(state, action.spell)
    book = state["students"][mover]["spellbook"]
    if card["spell"] not in words(state["students"][mover]):
        raise Refused(f"{card['spell'].upper()} is not in your spellbook.")
    if action.to not in state["students"] or action.to == mover:
        raise Refused("Give it to another student at this table.")
    if not may_trade(state, action.to):
        raise _trade_refused(content, state, "Trades happen between turns: that student is taking theirs.")
    entry = next(e for e in book if e["spell"] == card["spell"])
    state = with_student(state, mover, spellbook=[e for e in book if e is not entry])
    return with_student(state, action.to, spellbook=[*state["students"][action.to]["spellbook"], entry])


def low_enrollment(content: Content) -> str:
    """Low Enrollment: "You can play with two players. You may swap with each other in between
    turns." Our ruling says when that is."""
    return content["rulings"].rulings["low-enrollment-trades"].replace("**", "")


# --- a spell's effect on a student's numbers, any time in play ---------------------------------


def spirit(content: Content, state: dict, mover: str, action: SpiritChange) -> dict:
    have = state["students"][mover]["spirit"]
    if have + action.delta < 0:
        raise Refused(f"{state['names'][mover]} has {have} spirit; they cannot lose more.")
    return with_student(state, mover, spirit=have + action.delta)


def stone(content: Content, state: dict, mover: str, action: StoneChange) -> dict:
    held = state["students"][mover]["stones"]
    if held + action.delta < 0:
        raise Refused(f"{state['names'][mover]} holds {held} philosopher's stones.")
    if action.delta > stones_free(content, state):  # stones woven away never return
        raise Refused(f"The set has only {len(numbers(content).philosophers_stones)} philosopher's stones.")
    if action.in_play and action.delta >= 0:
        raise Refused("Only a stone given up goes onto a spell or into a trade.")
    # "When a philosopher's stone would be returned to the laboratory, remove it from the game instead."
    gone = 0 if action.in_play else max(-action.delta, 0)
    return {**with_student(state, mover, stones=held + action.delta), "stones_gone": state["stones_gone"] + gone}


# --- what the moves read of the state ----------------------------------------------------------


def turn_of(state: dict) -> str | None:
    """The student whose turn it is, while the semester is played."""
    return state["players"][state["turn"]] if state["phase"] == PLAYING else None


def card_of(state: dict, word: str) -> dict:
    """The deck's entry for a magic word, however it is capitalised (API clients type it)."""
    card = next((c for c in state["deck"] if c["spell"].lower() == word.strip().lower()), None)
    if card is None:
        raise Refused(f"There is no spell {word.upper()} in the deck.")
    return card


def words(student: dict) -> list[str]:
    return [entry["spell"] for entry in student["spellbook"]]


def spell_credits(student: dict) -> int:
    """The spellbook's credits, ZENITH's extra one included while its holder's spirit is high."""
    zenith = ZENITH in words(student) and (student["spirit"] or 0) >= ZENITH_SPIRIT
    return sum(entry["credits"] for entry in student["spellbook"]) + (ZENITH_CREDIT if zenith else 0)


def credits(student: dict) -> int:
    """A student's credits at the end: their spellbook's, and one for each philosopher's stone held."""
    return spell_credits(student) + student["stones"]


def with_student(state: dict, pid: str, **changes) -> dict:
    return {**state, "students": {**state["students"], pid: {**state["students"][pid], **changes}}}
