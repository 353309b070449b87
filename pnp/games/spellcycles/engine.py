"""The rules' Game kept in a table's state (pnp.rules.flow's engine convention): `state[ENGINE]` is
`Game.to_data()`, and each move rebuilds the game, makes its move on it and keeps the result. A
move the rules forbid is Refused with the engine's words; a turn's Refresh, which asks nothing of
the wizard, is made as the turn begins; the end of the game sets the flow's phase and the scores."""

from __future__ import annotations

from collections.abc import Callable

from pnp.content.loader import Content
from pnp.games.spellcycles.actions import PieceOf
from pnp.games.spellcycles.casting import RuleError
from pnp.games.spellcycles.field import Piece
from pnp.games.spellcycles.kinds import SIZES
from pnp.games.spellcycles.rulebook import Book, book_of
from pnp.games.spellcycles.rules import OVER, REFRESH, Game
from pnp.rules.flow import ENGINE, per_content
from pnp.rules.flow import OVER as PHASE_OVER
from pnp.rules.table import Refused

book = per_content(book_of)  # the rules' book of this content, built once

# (book, state, game, mover, action) -> what else the state records of the move, made on `game`
EngineMove = Callable[[Book, dict, Game, str, object], dict]


def game_of(content: Content, state: dict) -> Game:
    return Game.from_data(book(content), state[ENGINE])


def engine_move(move: EngineMove):
    """A flow handler making `move` on the state's game, in the rules' words when they refuse it."""

    def handler(content: Content, state: dict, mover: str, action) -> dict:
        the_book = book(content)
        game = Game.from_data(the_book, state[ENGINE])
        try:
            update = move(the_book, state, game, mover, action)
        except RuleError as error:
            raise Refused(said(error)) from None
        return kept({**state, **update}, game)

    return handler


def kept(state: dict, game: Game) -> dict:
    """`state` holding `game`, a new turn refreshed; at the end of the game, the scores and winners
    the engine tallies."""
    if game.step == REFRESH:
        game.refresh()
    state = {**state, ENGINE: game.to_data()}
    if game.step != OVER:
        return state
    scores = {pid: game.score(p) for p, pid in enumerate(state["players"])}
    winners = [state["players"][p] for p in game.winners()]
    return {**state, "phase": PHASE_OVER, "scores": scores, "winners": winners}


def said(error: Exception) -> str:
    """The engine's reason as a sentence."""
    text = str(error)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def piece_of(the_book: Book, piece: PieceOf) -> Piece:
    colour, size = piece
    if colour not in the_book.colours:
        raise Refused(f"There is no {colour} piece in this game.")
    return Piece(the_book.colours.index(colour), SIZES.index(size))


def shown_piece(the_book: Book, piece) -> list[str]:
    """A piece as a phone shows and sends it: [colour id, size]."""
    colour, size = piece
    return [the_book.colours[colour], SIZES[size]]


def player_of(state: dict, game: Game) -> str:
    """The player id of the wizard whose turn it is."""
    return state["players"][game.player]
