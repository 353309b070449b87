"""Changes by hand: a text-only spell (one of a group's own, its effect given in words only) is
cast like any other, and its caster then makes what its words say, each change a logged move: a
piece moved between a space, the cauldron and their apothecary (on the phones; with real pieces the
board is theirs), or a moon crescent moved along the line or off it. Essence is `essence`'s."""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.spellcycles.actions import ByHand
from pnp.games.spellcycles.engine import engine_move, game_of, piece_of, shown_piece
from pnp.games.spellcycles.field import Piece
from pnp.games.spellcycles.rulebook import Book
from pnp.games.spellcycles.rules import REAP, Game
from pnp.games.spellcycles.turn import PIECES
from pnp.rules.offers import offer, one_of, option
from pnp.rules.table import Refused


def due(game: Game) -> bool:
    """Whether changes by hand may be made now: a text-only spell was cast this turn."""
    return game.step == REAP and any(game.spell_at(p).does is None for p in game.cast_this_turn)


@engine_move
def by_hand(the_book: Book, state: dict, game: Game, _mover: str, action: ByHand) -> dict:
    if state["way"] == PIECES and (action.take is not None or action.to is not None):
        raise Refused("With real pieces, pieces are moved on the board; the companion does not track it.")
    if not due(game):
        raise Refused("Changes by hand follow a text-only spell cast this turn.")
    if action.crescent is not None:
        if action.crescent not in game.crescents:
            raise Refused(f"No moon crescent is on spell {action.crescent + 1} of the line.")
        game._move_crescent(action.crescent, len(game.line) if action.crescent_to is None else action.crescent_to)
    if action.take is not None or action.to is not None:
        _move_piece(the_book, game, action)
    return {}


def _move_piece(the_book: Book, game: Game, action: ByHand) -> None:
    if action.take is None or action.to is None or action.take == action.to:
        raise Refused("Say where the piece comes from and where it goes.")
    piece = _taken(the_book, game, action)
    if isinstance(action.to, int):
        game.check_space(action.to, "By hand")
        game.field.put(action.to, piece)
    elif action.to == "apothecary":
        game.wizard.apothecary.append(piece)
    else:
        game.cauldron[piece.colour][piece.size] += 1


def _taken(the_book: Book, game: Game, action: ByHand) -> Piece:
    """The piece lifted from where the change takes it."""
    if isinstance(action.take, int):
        if not 0 <= action.take < len(game.field.stacks) or game.field.empty(action.take):
            raise Refused(f"Space {action.take} holds no piece.")
        return game.field.take(action.take)
    if action.piece is None:
        raise Refused(f"Name the piece taken from the {action.take}.")
    piece = piece_of(the_book, action.piece)
    if action.take == "apothecary":
        if piece not in game.wizard.apothecary:
            raise Refused(f"Your apothecary holds no {game.describe(piece)}.")
        game.wizard.apothecary.remove(piece)
    elif not game.cauldron[piece.colour][piece.size]:
        raise Refused(f"The cauldron holds no {game.describe(piece)}.")
    else:
        game.cauldron[piece.colour][piece.size] -= 1
    return piece


def choices(content: Content, state: dict, _mover: str) -> list[dict]:
    """A moon crescent moved from a spell holding one to any spell or off the line; on the phones
    also a piece moved: from a space to an empty one or off the field, or a piece of the cauldron
    or the apothecary to an empty space or the other."""
    game = game_of(content, state)
    if not due(game):
        return []
    found = []
    held = sorted(set(game.crescents))
    if held:
        names = {p: game.spell_at(p).name for p in range(len(game.line))}
        to = [option(p, names[p]) for p in range(len(game.line))] + [option(None, "Off the line")]
        found.append(offer(pick=[one_of("crescent", held, names), one_of("crescent_to", to)], label="crescent"))
    if state["way"] == PIECES:
        return found
    f = game.field
    empty = f.empties()
    occupied = [s for s in range(len(f.stacks)) if not f.empty(s)]
    if occupied:
        found.append(offer(pick=[one_of("take", occupied), one_of("to", [*empty, "cauldron", "apothecary"])]))
    pools = {
        "cauldron": [Piece(c, s) for c, sizes in enumerate(game.cauldron) for s, n in enumerate(sizes) if n],
        "apothecary": sorted(set(game.wizard.apothecary)),
    }
    for place, pieces in pools.items():
        other = "apothecary" if place == "cauldron" else "cauldron"
        if pieces:
            held_pieces = [shown_piece(game.book, p) for p in pieces]
            found.append(offer({"take": place}, [one_of("piece", held_pieces), one_of("to", [*empty, other])]))
    return found
