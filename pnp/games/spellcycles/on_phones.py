"""Spellcycles played on the phones (a `Way` of pnp.rules.flow): the server holds every piece, the
casting field, the cauldron and the apothecaries, and checks every move; a spell is cast where it
is found on the field. Essence is the server's to keep: only the host puts a wizard's right."""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.spellcycles import by_hand, cast_offers, casts, turn
from pnp.games.spellcycles.actions import Accelerate, ByHand, Contribute, Essence, Renew, SkipContribute
from pnp.games.spellcycles.engine import engine_move, game_of, piece_of, shown_piece
from pnp.games.spellcycles.kinds import SIZES
from pnp.games.spellcycles.rulebook import Book
from pnp.games.spellcycles.rules import CONTRIBUTE, REAP, Game
from pnp.games.spellcycles.strategy import STRATEGY
from pnp.rules.flow import ENGINE, HOST_ONLY, Move, Way
from pnp.rules.offers import offer, one_of


@engine_move
def renew(the_book: Book, state: dict, game: Game, _mover: str, action: Renew) -> dict:
    return turn.renew_taken(the_book, state, game, action.faces)[1]


@engine_move
def contribute(the_book: Book, state: dict, game: Game, _mover: str, action: Contribute) -> dict:
    game.contribute(piece_of(the_book, action.piece), action.space)
    return {}


@engine_move
def skip_contribute(the_book: Book, state: dict, game: Game, _mover: str, action: SkipContribute) -> dict:
    game.skip_contribute()
    return {}


@engine_move
def accelerate(the_book: Book, state: dict, game: Game, _mover: str, action: Accelerate) -> dict:
    game.accelerate(piece_of(the_book, action.piece), action.space)
    return {}


def _placing(game: Game) -> list[dict]:
    """A piece of the apothecary onto a space it may take: each an independent pick."""
    pieces = [shown_piece(game.book, p) for p in sorted(set(game.wizard.apothecary))]
    f = game.field
    spaces = [s for s in range(len(f.stacks)) if game.variants.stackers or f.empty(s)]
    return [offer(pick=[one_of("piece", pieces), one_of("space", spaces)])] if pieces and spaces else []


def contribute_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    game = game_of(content, state)
    return _placing(game) if game.step == CONTRIBUTE else []


def accelerate_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    game = game_of(content, state)
    return _placing(game) if game.step == REAP and game.variants.accelerando else []


def view(state: dict, viewer: str | None, shown: dict) -> dict:
    """The field and each apothecary, in plain sight."""
    game = state[ENGINE]
    if game is None:
        return shown
    colours = state["colours"]
    players = [
        {**seat, "apothecary": [[colours[c], SIZES[s]] for c, s in w["apothecary"]]}
        for seat, w in zip(shown["players"], game["wizards"], strict=True)
    ]
    field = [[[colours[c], SIZES[s]] for c, s in stack] for stack in game["field"]]
    return {**shown, "players": players, "field": field}


PHONES = Way(
    title="everything on the phones",
    moves={
        "renew": Move(Renew, renew, draw=turn.draw_renew, final=True),
        "contribute": Move(Contribute, contribute, choices=contribute_choices),
        "skip_contribute": Move(SkipContribute, skip_contribute),
        "accelerate": Move(Accelerate, accelerate, choices=accelerate_choices),
        "cast": casts.move(casts.on_the_field, cast_offers.field_offers),
        "by_hand": Move(ByHand, by_hand.by_hand, choices=by_hand.choices),
        # the companion keeps every wizard's essence: only the host puts one right, anyone's
        "essence": Move(Essence, turn.essence, HOST_ONLY, choices=turn.every_essence_choices),
    },
    view=view,
    computers=True,  # every gem, hand and piece is the server's: a computer sees what its seat may
    strategy=STRATEGY,
)
