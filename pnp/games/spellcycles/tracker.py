"""Spellcycles at the table (pnp.rules.table.Tracker), in one of two modes:

- `pieces`: the wizards play with owned or printed pieces on a real board; the companion keeps
  what is tedious or secret: essence, the spell line and its moon crescents, the knucklebone, and
  the prestige certificates, dealt face down from a shuffled deck on the server;
- `phones`: the whole game on the phones; the server holds every piece and checks every move.

Either way the rules are the engine's (pnp.games.spellcycles.rules), the one the simulation
plays: the state keeps the engine's game as data (`Game.to_data`), and each action rebuilds it,
makes its move and keeps the result. A move the rules forbid is Refused with the engine's words.

Chance is the server's (`draw`): the deal (the spell line, the certificate pile, the starting
pieces) and every knucklebone roll are written into the action's payload; a cast's own chance
(a roll, a random piece, a fresh deck when the pile runs out) is a seed in its payload, with the
certificates it gave the caster, so a replay repeats it all. The pile and the seeds are shown to
no one, a wizard's certificates only to that wizard (`view`, `redact`).

Refresh is made for the wizard as their turn begins (it asks no choice). With real pieces the
companion skips Contribute (it is made on the board) and a cast is recorded by hand (`cast` with
the prestige taken; the engine pays, enacts the effects off the board and deals the certificates);
the cauldron's large pieces are tracked (`cauldron` corrects them) or not (`reroll` asks for
another roll). A text-only spell's changes are made by hand once it is cast (`by_hand`, `essence`).
"""

from __future__ import annotations

import random
from typing import Annotated, Literal

from pydantic import Field

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.spellcycles import GAME
from pnp.games.spellcycles.field import LARGE, Piece
from pnp.games.spellcycles.kinds import SIZES
from pnp.games.spellcycles.pattern import GAP
from pnp.games.spellcycles.rulebook import Book, book_of
from pnp.games.spellcycles.rules import OVER, REAP, REFRESH, RENEW, Game, RuleError, Variants, deal
from pnp.rules.table import (
    HOST,
    HOST_ONLY,
    HOST_OR_PLAYER,
    TURN,
    Entry,
    GameTracker,
    Refused,
    Who,
    join_wizards,
    option,
    per_content,
)

Size = Literal[SIZES]  # type: ignore[valid-type]
Face = Annotated[int, Field(ge=1, le=6)]  # a knucklebone's
PIECES, PHONES = "pieces", "phones"


class Options(Strict):
    mode: Literal["pieces", "phones"] = option(
        PHONES,
        "Pieces",
        {PIECES: "Our own pieces on a real board", PHONES: "Everything on the phones"},
        "With real pieces the companion keeps essence, the spell line, the knucklebone and the certificates.",
    )
    line: Literal["short", "normal", "long"] = option(
        "normal", "Spell line", {"short": "Short", "normal": "Normal", "long": "Long"}
    )
    cauldron: bool = option(
        True,
        "Track the cauldron's large pieces",
        description="With real pieces: the knucklebone is rolled again for a colour with no large piece left.",
    )
    stackers: bool = option(False, "SpellStackers")
    accelerando: bool = option(False, "Accelerando")
    duel: bool = option(False, "Duel")
    extra_credit: bool = option(False, "Extra Credit")
    double_plus: bool = option(False, "Double-Plus")


class Start(Strict):
    """Deal and begin (host), once every wizard has joined."""

    deal: dict | None = None  # the server's: whatever a phone sends here is replaced


class Renew(Strict):
    """Renew: the knucklebone names the colour of the large piece the wizard takes."""

    faces: list[Face] = []  # the server's rolls, in order


class Reroll(Strict):
    """With real pieces and an untracked cauldron: the colour rolled has no large piece left."""

    faces: list[Face] = []  # the server's


class Contribute(Strict):
    """Contribute (on the phones): a piece of your apothecary onto a space."""

    piece: tuple[str, Size]  # colour id, size
    space: int = Field(ge=0)


class SkipContribute(Strict):
    """An empty apothecary (or no space left) skips Contribute."""


class Accelerate(Strict):
    """Accelerando: an extra piece for essence at the end of Contribute, once a turn."""

    piece: tuple[str, Size]
    space: int = Field(ge=0)


class Choice(Strict):
    """What the caster chooses for one of the spell's effects (pnp.games.spellcycles.effects)."""

    player: str | None = None  # a player id: whom to drain or take certificates from
    pieces: list[tuple[str, Size]] | None = None
    take: int | list[int] | None = None  # the effects' "from": the space(s) a piece is taken from
    to: int | list[int] | None = None
    spaces: list[int] | None = None
    crescent: int | None = None  # the line position of the crescent to move or remove


class Cast(Strict):
    """Reap: cast the active spell at `position` of the line. On the phones: found as the
    `match`-th of the view's matches, or at `shape` (a quarter turn) and `origin`; with real
    pieces: cast on the board, the companion pays, enacts what is off the board and takes
    `prestige` (the spell's unless told) and `recolours`."""

    position: int = Field(ge=0)
    match: int | None = Field(None, ge=0)
    shape: int | None = Field(None, ge=0)
    origin: int | None = Field(None, ge=0)
    paid: int | None = Field(None, ge=0)  # a cost of a choice or "n": what the caster pays
    recolours: int = Field(0, ge=0)  # with real pieces
    prestige: int | None = Field(None, ge=0)  # with real pieces
    choices: list[Choice] = []
    seed: int | None = None  # the server's: the cast's own chance
    cards: list[tuple[int, int]] = []  # the server's: the certificates the cast gave the caster
    rolled: list[Face] = []  # the server's: knucklebone rolls its effects made


class Progress(Strict):
    """Progress: the moon crescent on the spell at `position` moves on; ends the turn."""

    position: int | None = Field(None, ge=0)  # needed when crescents sit on different spells


Place = Literal["cauldron", "apothecary"]


class ByHand(Strict):
    """A change a text-only spell (one of a group's own, its effect not given as data) asks for,
    made by its caster once it is cast: a piece moved between a space, the cauldron and the
    caster's apothecary (`piece` names it when it comes from either), or a moon crescent moved
    (`crescent_to` None: off the line). Essence changes are `essence`."""

    take: int | Place | None = None
    to: int | Place | None = None
    piece: tuple[str, Size] | None = None
    crescent: int | None = None
    crescent_to: int | None = Field(None, ge=0)


class Essence(Strict):
    """A change to a wizard's essence made by hand (a text-only spell, a correction): with real
    pieces by anyone at the table, on the phones by the host only."""

    wizard: str  # player id
    change: int


class Cauldron(Strict):
    """With real pieces and a tracked cauldron: how many large pieces of a colour it holds."""

    colour: str
    large: int = Field(ge=0)


actions: dict[str, type[Strict]] = {
    "start": Start,
    "renew": Renew,
    "reroll": Reroll,
    "contribute": Contribute,
    "skip_contribute": SkipContribute,
    "accelerate": Accelerate,
    "cast": Cast,
    "progress": Progress,
    "by_hand": ByHand,
    "essence": Essence,
    "cauldron": Cauldron,
}

_book = per_content(book_of)  # the rules' book of this content, built once


def _variants(state: dict) -> Variants:
    return Variants(**state["variants"])


def setup(content: Content, options: Options) -> dict:
    book = _book(content)
    variants = {name: getattr(options, name) for name in Variants.__dataclass_fields__}
    return {
        "mode": options.mode,
        "line_length": book.lines[options.line],
        "cauldron_tracked": options.mode == PHONES or options.cauldron,
        "variants": variants,
        "phase": "joining",  # then "playing", then "over"
        "players": [],  # player ids in join order: the engine's wizards 0, 1, ...
        "names": {},
        "colours": list(book.colours),
        "field_size": book.field,
        "rulings": dict(content["rulings"].rulings),
        "game": None,  # the engine's game as data (Game.to_data): holds the pile and every card
        "line": [],  # the dealt spells as a phone shows them
        "start_pieces": {},  # player id -> the large pieces the deal gave them (colour ids)
        "matches": [],  # the active spells the wizard whose turn it is could cast now
        "last_roll": None,
        "last_cast": None,
        "scores": {},
        "winners": [],
    }


def join(state: dict, player_id: str, name: str) -> dict:
    return join_wizards(state, player_id, name, GAME.title, GAME.players[1])


# --- what the server's chance adds --------------------------------------------------------


class _Faces(random.Random):
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


def draw(content: Content, state: dict, actor: str, action: Strict, chance) -> Strict:
    """The deal, the knucklebone and a cast's chance, from the server, never a phone."""
    book = _book(content)
    if isinstance(action, Start):
        if state["phase"] != "joining" or len(state["players"]) < GAME.players[0]:
            return action.model_copy(update={"deal": None})  # apply says why
        game = deal(book, len(state["players"]), chance.rng, state["line_length"], _variants(state))
        record = {
            "line": game.line,
            "pile": [list(card) for card in game.pile],
            "pieces": [[p.colour for p in w.apothecary] for w in game.wizards],
        }
        return action.model_copy(update={"deal": record})
    if state["game"] is None:
        return action
    if isinstance(action, Renew | Reroll):
        if isinstance(action, Reroll) or not state["cauldron_tracked"]:
            return action.model_copy(update={"faces": [chance.rng.randint(1, 6)]})
        game, rolls = _game(book, state), _Recording(chance.rng)
        try:
            game.renew(rolls)
        except RuleError:
            pass  # apply says why
        return action.model_copy(update={"faces": rolls.faces})
    if isinstance(action, Cast):
        seed = chance.rng.getrandbits(63)
        game = _game(book, state)
        held = len(game.wizard.certificates)
        try:
            done = _cast(book, state, game, action.model_copy(update={"seed": seed}))
        except (RuleError, Refused):
            return action.model_copy(update={"seed": seed, "cards": [], "rolled": []})
        spell = game.spell_at(action.position)
        kept = held - min(held, spell.certificates)
        gained = [tuple(card) for card in game.wizard.certificates[kept:]] if not game.variants.duel else []
        return action.model_copy(update={"seed": seed, "cards": gained, "rolled": list(done.rolled)})
    return action


# --- the rules ----------------------------------------------------------------------------


def _game(book: Book, state: dict) -> Game:
    return Game.from_data(book, _variants(state), state["game"])


def _said(error: Exception) -> str:
    """The engine's reason as a sentence."""
    text = str(error)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _piece(book: Book, piece: tuple[str, str]) -> Piece:
    colour, size = piece
    if colour not in book.colours:
        raise Refused(f"There is no {colour} piece in this game.")
    return Piece(book.colours.index(colour), SIZES.index(size))


def apply(content: Content, state: dict, actor: str, action: Strict) -> dict:
    book = _book(content)
    if isinstance(action, Start):
        return _start(book, state, action)
    if state["phase"] != "playing":
        raise Refused("The game has not begun yet." if state["phase"] == "joining" else "The game is over.")
    game = _game(book, state)
    try:
        update = _move(book, state, game, actor, action)
    except RuleError as error:
        raise Refused(_said(error)) from None
    if game.step == REFRESH:  # a new turn: its Refresh asks nothing of the wizard
        game.refresh()
    return _settled(book, {**state, **update}, game)


def _start(book: Book, state: dict, action: Start) -> dict:
    if state["phase"] != "joining":
        raise Refused("The game has already begun.")
    if len(state["players"]) < GAME.players[0]:
        raise Refused(f"Spellcycles needs at least {GAME.players[0]} wizards; {len(state['players'])} have joined.")
    dealt = action.deal
    if dealt is None:
        raise Refused("The cards have not been dealt.")
    game = Game(book, len(state["players"]), dealt["line"], _variants(state))
    game.pile = [tuple(card) for card in dealt["pile"]]
    for w, colours in zip(game.wizards, dealt["pieces"], strict=True):
        for colour in colours:
            game.cauldron[colour][LARGE] -= 1
            w.apothecary.append(Piece(colour, LARGE))
    start_pieces = {
        pid: [book.colours[c] for c in colours] for pid, colours in zip(state["players"], dealt["pieces"], strict=True)
    }
    if state["mode"] == PIECES:  # the wizards take them from the box: the board's apothecaries are theirs
        for w in game.wizards:
            w.apothecary = []
    game.refresh()
    line = [_spell_shown(book, i) for i in game.line]
    return _settled(book, {**state, "phase": "playing", "line": line, "start_pieces": start_pieces}, game)


def _spell_shown(book: Book, index: int) -> dict:
    spell = book.spells[index]
    return {
        "name": spell.name,
        "essence": list(spell.essence) if isinstance(spell.essence, tuple) else spell.essence,
        "certificates": spell.certificates,
        "prestige": spell.prestige,
        "pattern": [[_cell(book, cell) for cell in row] for row in spell.rows],
        "effects": None if spell.does is None else [dict(e) for e in spell.does],
    }


def _cell(book: Book, cell) -> str | list[str]:
    if isinstance(cell, int):
        return book.colours[cell]
    if isinstance(cell, tuple):
        return [book.colours[c] for c in cell]
    return cell  # vacant, marked, gap


def _move(book: Book, state: dict, game: Game, actor: str, action: Strict) -> dict:
    """Makes `action` on `game`; returns what else the state records of it."""
    pieces = state["mode"] == PIECES
    player = state["players"][game.player]
    if isinstance(action, Essence):
        if not pieces and actor != HOST:  # on the phones the server keeps essence; the host corrects it
            raise Refused("On the phones the companion keeps essence; only the host corrects it.")
        if action.wizard not in state["players"]:
            raise Refused("No such wizard at this table.")
        w = game.wizards[state["players"].index(action.wizard)]
        if w.essence + action.change < 0:
            raise Refused(f"{state['names'][action.wizard]} has only {w.essence} essence.")
        w.essence += action.change
        game.check_out(state["players"].index(action.wizard))
        return {}
    if isinstance(action, Cauldron):
        if not (pieces and state["cauldron_tracked"]):
            raise Refused(
                "The companion keeps this cauldron itself." if not pieces else "This table does not track the cauldron."
            )
        if action.large > book.stash[LARGE]:
            raise Refused(f"The cauldron holds at most {book.stash[LARGE]} large pieces of a colour.")
        game.cauldron[_piece(book, (action.colour, "large")).colour][LARGE] = action.large
        return {}
    if isinstance(action, Renew):
        if pieces and not state["cauldron_tracked"]:
            game._expect(RENEW, "Renew")  # the engine's words for a move out of its step
            if not action.faces:
                raise Refused("The knucklebone has not been rolled.")
            colour = book.knucklebone[action.faces[0] - 1]
            game.step = REAP  # Contribute is made on the board
            return {"last_roll": _roll(book, player, action.faces, colour, game.turn)}
        taken = game.renew(_Faces(action.faces))
        if pieces:
            game.step = REAP
            if taken is not None:
                game.wizard.apothecary.remove(taken)  # taken from the box onto the real board
        return {"last_roll": _roll(book, player, action.faces, None if taken is None else taken.colour, game.turn)}
    if isinstance(action, Reroll):
        roll = state["last_roll"]
        if not (pieces and not state["cauldron_tracked"]):
            raise Refused("The companion rolls again by itself when the colour has no large piece left.")
        if game.step != REAP or roll is None or roll["turn"] != game.turn or game.cast_this_turn:
            raise Refused("Roll again only after Renew, when the colour rolled has no large piece left.")
        if not action.faces:
            raise Refused("The knucklebone has not been rolled.")
        faces = [*roll["faces"], *action.faces]
        return {"last_roll": _roll(book, player, faces, book.knucklebone[action.faces[0] - 1], game.turn)}
    if isinstance(action, Contribute | SkipContribute | Accelerate) and pieces:
        raise Refused("With real pieces, pieces are placed on the board; the companion does not track it.")
    if isinstance(action, Contribute):
        game.contribute(_piece(book, action.piece), action.space)
        return {}
    if isinstance(action, SkipContribute):
        game.skip_contribute()
        return {}
    if isinstance(action, Accelerate):
        game.accelerate(_piece(book, action.piece), action.space)
        return {}
    if isinstance(action, Cast):
        if action.seed is None:
            raise Refused("The cast has not been made on the server.")
        done = _cast(book, state, game, action)
        cast = {"player": player, "position": action.position, "spell": done.spell, "paid": done.paid}
        cast |= {"recolours": done.recolours, "prestige": done.prestige, "rolled": list(done.rolled)}
        return {"last_cast": cast}
    if isinstance(action, Progress):
        game.progress(action.position)
        return {}
    if isinstance(action, ByHand):
        if pieces and (action.take is not None or action.to is not None):
            raise Refused("With real pieces, pieces are moved on the board; the companion does not track it.")
        _by_hand(book, game, action)
        return {}
    raise AssertionError(action)


def _by_hand(book: Book, game: Game, action: ByHand) -> None:
    """Refused unless a text-only spell was cast this turn (a spell with data is the engine's)."""
    if game.step != REAP or not any(game.spell_at(p).does is None for p in game.cast_this_turn):
        raise Refused("Changes by hand follow a text-only spell cast this turn.")
    if action.crescent is not None:
        if action.crescent not in game.crescents:
            raise Refused(f"No moon crescent is on spell {action.crescent + 1} of the line.")
        game._move_crescent(action.crescent, len(game.line) if action.crescent_to is None else action.crescent_to)
    if action.take is None and action.to is None:
        return
    if action.take is None or action.to is None or action.take == action.to:
        raise Refused("Say where the piece comes from and where it goes.")
    w = game.wizard
    if isinstance(action.take, int):
        if not 0 <= action.take < len(game.field.stacks) or game.field.empty(action.take):
            raise Refused(f"Space {action.take} holds no piece.")
        piece = game.field.take(action.take)
    else:
        if action.piece is None:
            raise Refused(f"Name the piece taken from the {action.take}.")
        piece = _piece(book, action.piece)
        if action.take == "apothecary":
            if piece not in w.apothecary:
                raise Refused(f"Your apothecary holds no {game.describe(piece)}.")
            w.apothecary.remove(piece)
        elif not game.cauldron[piece.colour][piece.size]:
            raise Refused(f"The cauldron holds no {game.describe(piece)}.")
        else:
            game.cauldron[piece.colour][piece.size] -= 1
    if isinstance(action.to, int):
        game.check_space(action.to, "By hand")
        game.field.put(action.to, piece)
    elif action.to == "apothecary":
        w.apothecary.append(piece)
    else:
        game.cauldron[piece.colour][piece.size] += 1


def _roll(book: Book, player: str, faces: list[int], colour: int | None, turn: int) -> dict:
    return {
        "player": player,
        "faces": list(faces),
        "colours": [book.colours[book.knucklebone[f - 1]] for f in faces],
        "piece": None if colour is None else book.colours[colour],  # the large piece taken
        "turn": turn,
    }


def _cast(book: Book, state: dict, game: Game, action: Cast):
    """The cast made on `game` with the action's choices and seed."""
    effects = game.spell_at(action.position).does or ()
    choices = [_choice(book, state, c, e) for c, e in zip(action.choices, effects, strict=False)]
    rng = random.Random(action.seed)
    if state["mode"] == PIECES:
        spell = game.spell_at(action.position)
        prestige = spell.prestige if action.prestige is None else action.prestige
        return game.cast_by_hand(action.position, rng, action.paid, action.recolours, prestige, choices)
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
    return game.cast(action.position, shape, origin, rng, action.paid, choices)


# effects that move one piece take one space from and to; the others, lists of spaces
ONE_SPACE = frozenset({"move-piece"})


def _choice(book: Book, state: dict, choice: Choice, effect: dict) -> dict:
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
        made["pieces"] = [list(_piece(book, p)) for p in choice.pieces]
    for name, key in (("take", "from"), ("to", "to"), ("spaces", "spaces"), ("crescent", "crescent")):
        value = getattr(choice, name)
        if value is not None:
            made[key] = value
    return made


def _settled(book: Book, state: dict, game: Game) -> dict:
    """The state holding `game`: its data, what the wizard whose turn it is may cast now, and at
    the end the scores and winners, tallied by the engine."""
    state = {**state, "game": game.to_data(), "matches": []}
    if game.step == OVER:
        scores = {pid: game.score(p) for p, pid in enumerate(state["players"])}
        winners = [state["players"][p] for p in game.winners()]
        return {**state, "phase": "over", "scores": scores, "winners": winners}
    if state["mode"] == PHONES and game.step == REAP:
        state["matches"] = _matches(book, game)
    return state


def _matches(book: Book, game: Game) -> list[dict]:
    found = []
    for position in game.active():
        spell = game.spell_at(position)
        for n, (shape, origin, recolours) in enumerate(game.matches(position)):
            found.append(
                {
                    "position": position,
                    "spell": spell.name,
                    "match": n,  # the Cast action's `match`
                    "shape": shape,
                    "origin": origin,
                    "recolours": recolours,
                    "squares": _squares(spell.shapes[shape], origin),
                    "recolour_squares": _to_recolour(game, spell.shapes[shape], origin),
                }
            )
    return found


def _squares(shape, origin: int) -> list[int]:
    """Every space the pattern looks at (not its gaps), for highlighting."""
    size = shape.size
    return sorted(
        origin + r * size + c for r, row in enumerate(shape.rows) for c, cell in enumerate(row) if cell != GAP
    )


def _to_recolour(game: Game, shape, origin: int) -> list[int]:
    field = game.field
    spaces = [origin + off for off, colour in shape.colours if field.top(origin + off).colour != colour]
    for off, want in shape.stacks:
        stack = field.stacks[origin + off]
        if any(piece.colour != colour for piece, colour in zip(stack, want, strict=True)):
            spaces.append(origin + off)
    return sorted(spaces)


# --- what each viewer sees ----------------------------------------------------------------


def view(state: dict, viewer: str | None) -> dict:
    """The table as a phone or the projector shows it: everything public, and the viewer's own
    certificates (everyone else's only as counts; the pile never)."""
    shown = {
        key: state[key]
        for key in ("mode", "phase", "line_length", "cauldron_tracked", "variants", "colours", "field_size", "rulings")
    }
    shown |= {"you": viewer, "sizes": list(SIZES), "last_roll": state["last_roll"], "last_cast": state["last_cast"]}
    game = state["game"]
    names = state["names"]
    if game is None:
        return shown | {"players": [{"id": pid, "name": names[pid]} for pid in state["players"]], "hand": []}
    colours = state["colours"]
    phones = state["mode"] == PHONES
    over = state["phase"] == "over"
    players = []
    for pid, w in zip(state["players"], game["wizards"], strict=True):
        seat = {"id": pid, "name": names[pid], "essence": w["essence"], "certificates": len(w["certificates"])}
        seat |= {"out": w["out"], "start_pieces": state["start_pieces"][pid]}
        if phones:  # an apothecary's pieces are in plain sight
            seat["apothecary"] = [[colours[c], SIZES[s]] for c, s in w["apothecary"]]
        if over:
            seat["score"] = state["scores"][pid]
        players.append(seat)
    mine = game["wizards"][state["players"].index(viewer)]["certificates"] if viewer in state["players"] else []
    crescents = game["crescents"]
    line = [
        {
            **spell,
            "position": p,
            "crescents": crescents.count(p),
            "active": p in crescents,
            "cast": p in game["cast_this_turn"],
        }
        for p, spell in enumerate(state["line"])
    ]
    shown |= {
        "players": players,
        "hand": [list(c) for c in mine],
        "line": line,
        "crescents": list(crescents),
        "turn": None
        if over
        else {"player": state["players"][game["player"]], "step": game["step"], "number": game["turn"]},
        "pile": len(game["pile"]),
        "matches": state["matches"],
        "marker": list(game["marker"]) if over and game["marker"] is not None else None,
        "scores": state["scores"] if over else {},
        "winners": state["winners"],
    }
    if phones:
        shown["field"] = [[[colours[c], SIZES[s]] for c, s in stack] for stack in game["field"]]
    if state["cauldron_tracked"]:
        shown["cauldron"] = {colour: list(game["cauldron"][c]) for c, colour in enumerate(colours)}
    shown["accelerated"] = game["accelerated"]
    return shown


def redact(entry: Entry, viewer: str | None) -> dict:
    """The deal without the pile; a cast without its seed, and the certificates it gave only to
    the caster (everyone else: how many)."""
    payload = dict(entry.payload)
    if entry.type == "start" and payload.get("deal"):
        payload["deal"] = {k: v for k, v in payload["deal"].items() if k != "pile"}
    if entry.type == "cast":
        payload.pop("seed", None)
        if viewer != entry.actor:
            payload["cards"] = len(payload.get("cards") or [])
    return payload


def results(state: dict) -> list[dict]:
    """Each wizard's score (empty until the end), essence and certificates, in join order."""
    game = state["game"]
    rows = []
    for p, pid in enumerate(state["players"]):
        w = game["wizards"][p] if game else {"essence": "", "certificates": []}
        rows.append(
            {
                "name": state["names"][pid],
                "score": state["scores"].get(pid, ""),
                "essence": w["essence"],
                "certificates": len(w["certificates"]),
                "winner": pid in state["winners"],
            }
        )
    return rows


def _turn(state: dict) -> str | None:
    if state["phase"] != "playing":
        return None
    return state["players"][state["game"]["player"]]


def _not_your_turn(state: dict) -> str:
    current = _turn(state)
    return f"It is {state['names'][current]}'s turn." if current else "It is no one's turn."


_TURN = Who(TURN, _not_your_turn)
who = {
    "start": Who(HOST_ONLY, "Only the host starts the game."),
    **dict.fromkeys(
        ("renew", "reroll", "contribute", "skip_contribute", "accelerate", "cast", "progress", "by_hand"), _TURN
    ),
    **dict.fromkeys(
        ("essence", "cauldron"), Who(HOST_OR_PLAYER, "Only the wizards at this table and the host do that.")
    ),
}

TRACKER = GameTracker(
    "spellcycles",
    Options,
    actions,
    setup,
    join,
    apply,
    view,
    results,
    draw=draw,
    final=frozenset({"start", "renew", "reroll", "cast"}),
    who=who,
    seated=lambda state: state["names"],
    turn=_turn,
    redact=redact,
)
