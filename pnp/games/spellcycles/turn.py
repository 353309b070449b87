"""The moves of Spellcycles that both ways of playing share: the deal and the start, the
knucklebone's rolls at Renew, Progress, which ends the turn, and essence put right by hand; with
the offers of each (pnp.rules.offers)."""

from __future__ import annotations

import random

from pnp.content.loader import Content
from pnp.games.spellcycles.actions import COUNT_MOST, Essence, Progress, Renew, Reroll, Start
from pnp.games.spellcycles.engine import book, engine_move, game_of, kept, player_of
from pnp.games.spellcycles.field import LARGE, Piece
from pnp.games.spellcycles.rulebook import Book
from pnp.games.spellcycles.rules import REAP, Game, RuleError, Variants, deal
from pnp.rules.flow import JOINING, PLAYING
from pnp.rules.offers import offer, one_of, option, whole_number
from pnp.rules.table import Refused

PIECES, PHONES = "pieces", "phones"  # the ways of playing: real pieces on a real board, or all on the phones
DRAWN = "drawn"  # the `first` option: the server draws who goes first (else the host chooses)
ESSENCE_MOST = 5  # the most essence a change by hand offers to add at once


def variants(state: dict) -> Variants:
    return Variants(**state["variants"])


# --- the start ------------------------------------------------------------------------------


def draw_deal(content: Content, state: dict, actor: str, action: Start, chance) -> Start:
    """The spell line, the certificate pile and each wizard's starting pieces, from the server."""
    if state["phase"] != JOINING or not state["players"]:
        return action  # the flow says why not
    game = deal(book(content), len(state["players"]), chance.rng, state["line_length"], variants(state))
    record = {
        "line": game.line,
        "pile": [list(card) for card in game.pile],
        "pieces": [[p.colour for p in w.apothecary] for w in game.wizards],
    }
    if state["first"] == DRAWN:  # the table asked the server to draw who goes first
        record["first"] = chance.rng.randrange(len(state["players"]))
    return action.model_copy(update={"deal": record})


def first_seat(state: dict, action: Start) -> int:
    """The wizard who goes first: the host's choice (the rules: "Choose a player to go first"),
    or the server's draw when the table asked for it."""
    if state["first"] == DRAWN:
        if action.first is not None:
            raise Refused("At this table the server draws who goes first: send no `first`.")
        return action.deal["first"]
    if action.first not in state["players"]:
        raise Refused("Choose who goes first: `first` is a wizard at this table.")
    return state["players"].index(action.first)


def start_choices(content: Content, state: dict, _host: str) -> list[dict]:
    """Start: with the host choosing, which wizard goes first; the server's draw asks nothing."""
    if state["first"] == DRAWN:
        return [offer()]
    names = {pid: state["names"][pid] for pid in state["players"]}
    return [offer(pick=[one_of("first", list(state["players"]), names)])] if state["players"] else []


def start(content: Content, state: dict, _host: str, action: Start) -> dict:
    the_book = book(content)
    dealt = action.deal
    if dealt is None:
        raise Refused("The cards have not been dealt.")
    first = first_seat(state, action)
    game = Game(the_book, len(state["players"]), dealt["line"], variants(state))
    game.player = first
    game.pile = [tuple(card) for card in dealt["pile"]]
    for w, colours in zip(game.wizards, dealt["pieces"], strict=True):
        for colour in colours:
            game.cauldron[colour][LARGE] -= 1
            w.apothecary.append(Piece(colour, LARGE))
    start_pieces = {
        pid: [the_book.colours[c] for c in colours]
        for pid, colours in zip(state["players"], dealt["pieces"], strict=True)
    }
    if state["way"] == PIECES:  # the wizards take them from the box: the board's apothecaries are theirs
        for w in game.wizards:
            w.apothecary = []
    line = [spell_shown(content, game.book, i, game.variants.swift_time) for i in game.line]
    begun = {"phase": PLAYING, "line": line, "start_pieces": start_pieces, "first_player": state["players"][first]}
    return kept({**state, **begun}, game)


def spell_shown(content: Content, the_book: Book, index: int, swift_time: bool) -> dict:
    """A dealt spell as a phone shows it: with its effect in the card's words (a phones-only table
    has no card to read), and its cost as this table plays it (`swift_time`: our variant's)."""
    spell = the_book.spells[index]
    card = content["spell-cards"].cards[index]
    return {
        "name": spell.name,
        "effect": card.effect_words(),
        "swift_time": swift_time and card.swift_time is not None,  # the cost is our variant's, not the rules'
        "once_a_game": spell.once_a_game,
        "essence": list(spell.essence) if isinstance(spell.essence, tuple) else spell.essence,
        "certificates": spell.certificates,
        "prestige": spell.prestige,
        "pattern": [[_cell(the_book, cell) for cell in row] for row in spell.rows],
        "effects": None if spell.does is None else [dict(e) for e in spell.does],
    }


def _cell(the_book: Book, cell) -> str | list[str]:
    if isinstance(cell, int):
        return the_book.colours[cell]
    if isinstance(cell, tuple):
        return [the_book.colours[c] for c in cell]
    return cell  # vacant, marked, gap


# --- the knucklebone ------------------------------------------------------------------------


class Faces(random.Random):
    """The knucklebone as a log recorded it: each roll the next face (a replay rolls nothing)."""

    def __init__(self, faces: list[int]):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise Refused("The knucklebone has not been rolled.")
        return self.faces.pop(0)


class _Recording(random.Random):
    """The server's chance, writing down each knucklebone roll it makes."""

    def __init__(self, rng: random.Random):
        super().__init__(0)
        self.rng, self.faces = rng, []

    def randint(self, a: int, b: int) -> int:
        face = self.rng.randint(a, b)
        self.faces.append(face)
        return face


def draw_renew(content: Content, state: dict, actor: str, action: Renew, chance) -> Renew:
    """Renew's rolls: as many as the engine makes (again while the colour has no large piece left);
    one when the cauldron is not tracked (the wizard asks for another if need be)."""
    if state["phase"] != PLAYING:
        return action
    if not state["cauldron_tracked"]:
        return action.model_copy(update={"faces": [chance.rng.randint(1, 6)]})
    rolls = _Recording(chance.rng)
    try:
        game_of(content, state).renew(rolls)
    except RuleError:
        pass  # the move says why
    return action.model_copy(update={"faces": rolls.faces})


def draw_reroll(content: Content, state: dict, actor: str, action: Reroll, chance) -> Reroll:
    return action.model_copy(update={"faces": [chance.rng.randint(1, 6)]})


def renew_taken(the_book: Book, state: dict, game: Game, faces: list[int]) -> tuple[Piece | None, dict]:
    """Renew made on the engine: the large piece taken, and the roll as the state records it."""
    taken = game.renew(Faces(faces))
    colour = None if taken is None else taken.colour
    return taken, {"last_roll": roll_record(the_book, player_of(state, game), faces, colour, game.turn)}


def roll_record(the_book: Book, player: str, faces: list[int], colour: int | None, turn: int) -> dict:
    return {
        "player": player,
        "faces": list(faces),
        "colours": [the_book.colours[the_book.knucklebone[f - 1]] for f in faces],
        "piece": None if colour is None else the_book.colours[colour],  # the large piece taken
        "turn": turn,
    }


# --- Progress -------------------------------------------------------------------------------


@engine_move
def progress(the_book: Book, state: dict, game: Game, _mover: str, action: Progress) -> dict:
    game.progress(action.position)
    return {}


def progress_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    """From which spell a moon crescent moves on: each spell holding one (none left: no choice)."""
    game = game_of(content, state)
    if game.step != REAP:
        return []
    held = sorted(set(game.crescents))
    names = {p: game.spell_at(p).name for p in held}
    return [offer(pick=[one_of("position", held, names)])] if held else [offer()]


# --- essence by hand ------------------------------------------------------------------------


@engine_move
def essence(the_book: Book, state: dict, game: Game, _mover: str, action: Essence) -> dict:
    if action.wizard not in state["players"]:
        raise Refused("No such wizard at this table.")
    p = state["players"].index(action.wizard)
    w = game.wizards[p]
    if w.essence + action.change < 0:
        raise Refused(f"{state['names'][action.wizard]} has only {w.essence} essence.")
    if w.essence + action.change > COUNT_MOST:
        raise Refused(f"No set has {w.essence + action.change} essence for one wizard.")
    w.essence += action.change
    game.check_out(p)
    return {}


def _change(game: Game, state: dict, pid: str) -> list[dict]:
    """How much a wizard's essence may change: down to none, or up."""
    return [whole_number("change", -game.wizards[state["players"].index(pid)].essence, ESSENCE_MOST)]


def every_essence_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    """Any wizard's essence, changed by hand: by anyone at the table with real pieces, by the host on the phones."""
    game = game_of(content, state)
    wizards = [option(pid, state["names"][pid], _change(game, state, pid)) for pid in state["players"]]
    return [offer(pick=[one_of("wizard", wizards)])]
