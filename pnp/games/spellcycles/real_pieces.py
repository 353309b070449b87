"""Spellcycles played with real pieces on a real board (a `Way` of pnp.rules.flow): the companion
keeps what is tedious or secret, essence, the spell line and its moon crescents, the knucklebone
and the prestige certificates, dealt face down; the board, the pieces and the apothecaries are the
table's own. Contribute is made on the board, so Renew leads to Reap; a cast is recorded by hand
(the companion pays, enacts the effects off the board and deals the certificates). The cauldron's
large pieces are tracked (anyone corrects their counts) or not (the wizard asks for another roll
when the colour rolled has none left). Anyone at the table changes anyone's essence."""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.spellcycles import by_hand, cast_offers, casts, turn
from pnp.games.spellcycles.actions import ByHand, Cauldron, Essence, Renew, Reroll
from pnp.games.spellcycles.engine import book, engine_move, piece_of, player_of
from pnp.games.spellcycles.field import LARGE
from pnp.games.spellcycles.rulebook import Book
from pnp.games.spellcycles.rules import REAP, RENEW, Game
from pnp.rules.flow import TABLE, Move, Way
from pnp.rules.offers import offer, one_of, whole_number
from pnp.rules.table import Refused


@engine_move
def renew(the_book: Book, state: dict, game: Game, _mover: str, action: Renew) -> dict:
    if not state["cauldron_tracked"]:
        game._expect(RENEW, "Renew")  # the engine's words for a move out of its step
        if not action.faces:
            raise Refused("The knucklebone has not been rolled.")
        colour = the_book.knucklebone[action.faces[0] - 1]
        game.step = REAP  # Contribute is made on the board
        return {"last_roll": turn.roll_record(the_book, player_of(state, game), action.faces, colour, game.turn)}
    taken, update = turn.renew_taken(the_book, state, game, action.faces)
    game.step = REAP
    if taken is not None:
        game.wizard.apothecary.remove(taken)  # taken from the box onto the real board
    return update


@engine_move
def reroll(the_book: Book, state: dict, game: Game, _mover: str, action: Reroll) -> dict:
    roll = state["last_roll"]
    if state["cauldron_tracked"]:
        raise Refused("The companion rolls again by itself when the colour has no large piece left.")
    if game.step != REAP or roll is None or roll["turn"] != game.turn or game.cast_this_turn:
        raise Refused("Roll again only after Renew, when the colour rolled has no large piece left.")
    if not action.faces:
        raise Refused("The knucklebone has not been rolled.")
    faces = [*roll["faces"], *action.faces]
    colour = the_book.knucklebone[action.faces[0] - 1]
    return {"last_roll": turn.roll_record(the_book, player_of(state, game), faces, colour, game.turn)}


@engine_move
def cauldron(the_book: Book, state: dict, game: Game, _mover: str, action: Cauldron) -> dict:
    if not state["cauldron_tracked"]:
        raise Refused("This table does not track the cauldron.")
    if action.large > the_book.stash[LARGE]:
        raise Refused(f"The cauldron holds at most {the_book.stash[LARGE]} large pieces of a colour.")
    game.cauldron[piece_of(the_book, (action.colour, "large")).colour][LARGE] = action.large
    return {}


def cauldron_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    """How many large pieces of each colour the cauldron holds, when it is tracked."""
    if not state["cauldron_tracked"]:
        return []
    return [offer(pick=[one_of("colour", state["colours"]), whole_number("large", 0, book(content).stash[LARGE])])]


PIECES = Way(
    title="real pieces on a real board",
    moves={
        "renew": Move(Renew, renew, draw=turn.draw_renew, final=True),
        "reroll": Move(Reroll, reroll, draw=turn.draw_reroll, final=True),
        "cast": casts.move(casts.on_the_board, cast_offers.board_offers),
        "by_hand": Move(ByHand, by_hand.by_hand, choices=by_hand.choices),
        "essence": Move(Essence, turn.essence, TABLE, choices=turn.every_essence_choices),
        "cauldron": Move(Cauldron, cauldron, TABLE, choices=cauldron_choices),
    },
)
