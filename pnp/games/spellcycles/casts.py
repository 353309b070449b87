"""Reap's casts at the table: on the phones, a spell found on the field the server holds (one of its
matches, or a quarter turn and a top-left square); with real pieces, a spell cast on the board, the
companion paying, enacting what is off the board and taking the prestige. The cast's own chance
(a roll, a random piece, a fresh deck when the pile runs out) is a seed the server draws, with the
certificates it gave the caster, so a replay repeats it all."""

from __future__ import annotations

import random
from collections.abc import Callable

from pnp.content.loader import Content
from pnp.games.spellcycles.actions import Cast, Choice
from pnp.games.spellcycles.engine import book, engine_move, game_of, piece_of, player_of
from pnp.games.spellcycles.rulebook import Book
from pnp.games.spellcycles.rules import Cast as Done
from pnp.games.spellcycles.rules import Game, RuleError
from pnp.rules.flow import Move
from pnp.rules.table import Refused

# effects that move one piece take one space from and to; the others, lists of spaces
ONE_SPACE = frozenset({"move-piece"})


Made = Callable[[Book, dict, Game, Cast], Done]  # a way's cast, made on the game


def move(made: Made, choices) -> Move:
    """A way's Reap cast as the flow's move: never taken back (it drew certificates), its chance the server's."""
    return Move(Cast, handled(made), draw=drawn(made), final=True, choices=choices)


def drawn(made: Made):
    """The flow's `draw` of a way's cast: its seed, and what it gave (the caster's new
    certificates, the knucklebone's rolls), found by making it on a copy of the game."""

    def draw(content: Content, state: dict, actor: str, action: Cast, chance) -> Cast:
        seed = chance.rng.getrandbits(63)
        the_book = book(content)
        game = game_of(content, state)
        held = len(game.wizard.certificates)
        try:
            done = made(the_book, state, game, action.model_copy(update={"seed": seed}))
        except (RuleError, Refused):
            return action.model_copy(update={"seed": seed, "cards": [], "rolled": []})  # the move says why
        kept = held - min(held, game.spell_at(action.position).certificates)
        gained = [tuple(card) for card in game.wizard.certificates[kept:]] if not game.variants.duel else []
        return action.model_copy(update={"seed": seed, "cards": gained, "rolled": list(done.rolled)})

    return draw


def handled(made: Made):
    """The flow's handler of a way's cast: made, and recorded as the table's last cast."""

    @engine_move
    def cast(the_book: Book, state: dict, game: Game, _mover: str, action: Cast) -> dict:
        if action.seed is None:
            raise Refused("The cast has not been made on the server.")
        done = made(the_book, state, game, action)
        last = {"player": player_of(state, game), "position": action.position, "spell": done.spell}
        last |= {"paid": done.paid, "recolours": done.recolours, "prestige": done.prestige}
        spell = game.spell_at(action.position)  # what else it paid: the recolours' essence, certificates
        last |= {"recolour_essence": done.recolours * the_book.recolour, "certificates": spell.certificates}
        return {"last_cast": last | {"rolled": list(done.rolled)}}

    return cast


def on_the_field(the_book: Book, state: dict, game: Game, action: Cast) -> Done:
    """On the phones: the spell found at one of its matches, or at a quarter turn and top-left square."""
    shape, origin = action.shape, action.origin
    if action.match is not None:
        found = game.matches(action.position)
        if action.match >= len(found):
            spell = game.castable(action.position)  # the rules' reason first, when there is one
            raise Refused(
                f"{spell.name} matches the field in {len(found)} ways now; there is no match {action.match + 1}."
            )
        shape, origin, _ = found[action.match]
    if shape is None or origin is None:
        raise Refused("Say where the spell is: one of its matches, or its turn and top-left square.")
    choices = engine_choices(the_book, state, game, action)
    return game.cast(action.position, shape, origin, random.Random(action.seed), action.paid, choices)


def on_the_board(the_book: Book, state: dict, game: Game, action: Cast) -> Done:
    """With real pieces: cast on the board; the prestige taken is the spell's unless told."""
    spell = game.spell_at(action.position)
    prestige = spell.prestige if action.prestige is None else action.prestige
    choices = engine_choices(the_book, state, game, action)
    rng = random.Random(action.seed)
    return game.cast_by_hand(action.position, rng, action.paid, action.recolours, prestige, choices)


def engine_choices(the_book: Book, state: dict, game: Game, action: Cast) -> list[dict]:
    """The cast's choices as the engine's effects read them, one for each effect of the spell."""
    effects = game.spell_at(action.position).does or ()
    return [engine_choice(the_book, state, c, e) for c, e in zip(action.choices, effects, strict=False)]


def engine_choice(the_book: Book, state: dict, choice: Choice, effect: dict) -> dict:
    """A phone's choice as the engine's effect `effect` reads it."""
    one = effect["do"] in ONE_SPACE
    for value in (choice.take, choice.to):
        if value is not None and isinstance(value, int) != one:
            raise Refused(f"Choose {'one space' if one else 'a list of spaces'} for this spell's pieces.")
    made = {}
    if choice.player is not None:
        if choice.player not in state["players"]:
            raise Refused("No such wizard at this table.")
        made["player"] = state["players"].index(choice.player)
    if choice.pieces is not None:
        made["pieces"] = [list(piece_of(the_book, p)) for p in choice.pieces]
    for name, key in (("take", "from"), ("to", "to"), ("spaces", "spaces"), ("crescent", "crescent")):
        value = getattr(choice, name)
        if value is not None:
            made[key] = value
    return made
