"""What a phone sends to move at a Magic Spell table: each move's body (pnp.games.magic_spell.tracker
declares who makes it and when). Every body keeps the fields stored logs hold: `player` named the
student a move was for when the host made it for them, and a log holding it still replays."""

from __future__ import annotations

from pydantic import Field

from pnp.content.validate import Strict


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
    """Philosopher's stones gained, or given up: back to the laboratory, where the rules remove
    them from the game, unless `in_play` (woven onto a spell in progress, or handed over in a trade)."""

    delta: int = Field(ge=-99, le=99)
    in_play: bool = False
