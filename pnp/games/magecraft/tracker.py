"""Magecraft at the table (pnp.rules.table.Tracker), in one of two modes:

- `gems`: printed gems and boards; the companion is a duel dashboard one phone can run for the
  whole table: HP, Shield and Score per wizard, whose turn and which phase, defeats and the winner,
  and the seat table's opening draws and discards said for each seat. The host or any seated
  player changes the counts (`count`) and moves the turn on (`next_phase`);
- `phones` (the default): the whole game on the phones. The server holds every bag, hand, area,
  spellbook and the Academy as the engine's game (pnp.games.magecraft.rules, `Game.to_data`);
  each move rebuilds it, makes the move and keeps the result. A move the rules forbid is Refused
  with the engine's words ("Fireball needs Fire, Fire and one more; your hand has one Fire.").

Chance is the server's (`draw`): the seats' order (the rules: "Determine the starting player
randomly"), the characters (no two alike), the Academy's random sets and every gem drawn from a bag
are written into the action's payload, so a replay draws the gems the log recorded, never new ones,
and a move whose recorded draw no longer fits (an undo before it) is Refused. A move that drew is
final (`final_entry`); any other may be undone as in the other games.

Colours are the content's gem ids ("fire", "water", "earth", "light", "darkness"); gem counts are
dicts colour -> count, every colour present. Player ids are the table's. Spellbooks and the spells
in them are numbered from 0, left to right.

View (`view(state, viewer)`), for every viewer; in phones mode nobody sees another's hand, and a
bag's contents only its owner at a table with `bag_odds` on:

    {
      "mode": "gems" | "phones", "bag_odds": bool,
      "phase": "joining" | "playing" | "over",
      "you": viewer (a player id, "host", or null for the projector / a follower),
      "colours": [colour id, ...],            # the content's order
      "gems": [{"id", "name", "letter"}, ...], # each colour's printed name and letter
      "words": {"phases": {"discard-shield": "Discard Shield", "casting": ..., "learning": ...,
                "refresh": ...}, "hp", "shield", "score", "discard", "cantrip", "spellbook",
                "mastered", "learn", "cast": the board's words; "wild": a Wild cost's letter},
      "score_to_win": 20, "hp_full": 12,
      "seat_table": [{"draw": 4, "discard": 2}, ...],  # the opening hand by seat, first seat first
      "rulings": {key: text (markdown **bold**)},
      "players": [                           # join order while joining; seat order once started
        # both modes:
        {"id", "name", "seat": 0-based or null before the start, "out": bool (defeated),
         "opening": {"draw": n, "discard": n} or null before the start,
         # gems mode: counts by hand
         "hp": n, "shield": n, "score": n,
         # phones mode, instead:
         "hp": {colour: n}, "shield": {colour: n}, "score": {colour: n}, "discard": {colour: n},
         "hp_total": n, "shield_total": n, "score_total": n,
         "bag": n (its size), "hand": n (its size), "to_discard": n (opening gems still to discard),
         "character": name or null, "cantrip": {"name", "gem": colour id or "wild",
                     "effects": {icon: n}} or null,
         "spellbooks": [[{"spell": name, "mastered": bool, "paid": [colour id, ...]}, ...] x 3],
         "golden": colour id or null (the golden gem waiting for the next spell),
         "cantrip_paid": colour id or null (the gem on the Cantrip this turn)}
      ],
      "turn": null (joining, over, or phones' opening discards) or
        gems:   {"player": id, "phase": "discard-shield" | "casting" | "learning" | "refresh", "number": n}
        phones: {"player": id, "phase": "discard-shield" | "casting" | "studied" (learned or
                 revised: only Refresh is left), "number": n, "spellbook": n or null (chosen this
                 turn), "next_spell": n (its next spell to cast), "cantrip_cast": bool,
                 "closed": bool (the Cantrip came after a spell: no more spells)},
      "winner": id or null, "ended": "hp" | "score" | null, "defeated": [id, ...],
      # phones mode only:
      "hand": {colour: n} (the viewer's own; {} for the host, the projector and followers),
      "bag_contents": {colour: n} or null (the viewer's own bag, only with bag_odds on),
      "academy": {"spells": [{"name", "cards": n}, ...] (as dealt: the basic ones first),
                  "gems": {colour: n}} (null before the start),
      "spells": {name: {"learn": [colour id or "wild"], "cast": [...], "effects": {icon: n}, "text",
                        "special": id or null}},   # every spell that can be in play
      "last": the latest move's "done" (see Payloads) or null,
      "last_cast": the latest cast's or Cantrip's "done" (it stays after a Refresh) or null,
      "can": null, or for the wizard whose turn it is alone (their hand decides it), what they can
             pay for now, each a payment the engine would make (the golden gem's slot null; a
             payment null: the hand cannot pay it or the rules forbid it now):
             {"spellbooks": [{"spell": its next spell's name or null, "position": n or null,
                              "payment": [colour or null, ...] or null} x 3],
              "cantrip": [colour] or null, "learn": {spell name: payment} (only those payable),
              "revise": bool}
    }

Payloads (what a phone sends; fields marked "server" are the server's, whatever a phone sends):

    start            {"deal": server}  gems: {"order": [id, ...]}; phones: {"order": [id, ...],
                     "characters": [name, ...] (by seat), "academy": [name, ...] (the random sets),
                     "drawn": [[colour, ...] per seat]}
    count            gems: {"player": id, "area": "hp" | "shield" | "score", "change": int}
    next_phase       gems: {}  the next phase; after Refresh, the next wizard's turn
    opening_discard  {"gems": [colour, ...], "player": id (the host, for a seat)}
    discard_shield   {"gems": [colour, ...]}
    cast             {"spellbook": n, "payment": [colour or null per cost slot] or null (null: the
                     engine pays), "choices": {"attack": [{"player": id, "colour": c}], "heal": [c],
                     "shield": [{"from": "academy" | "discard", "colour": c}],
                     "vanish": [{"from": "hand" | "hp", "colour": c}]}}
    cantrip          {"gem": colour or null, "choices": as for cast}
    learn            {"spell": name, "spellbook": n, "payment": [...] or null}
    revise           {"gems": [four colours], "arrangement": [[[book, position], ...] x 3] or null,
                     "master": [book, position] (in the new arrangement) or null}
    refresh          {}  ends the turn
    every phones move, server: "drawn": [colour, ...] (the gems it drew, in order) and "done":
                     {"player": id, "move": type, "spell": name or null (a cast's or learning's
                      spell, or the Cantrip's name), "spellbook": n or null, "position": n or null
                      (the spell's place in it), "paid": [colour, ...] (a cast's, Cantrip's or
                      learning's payment, slot by slot, the golden gem's too), "reshuffled": bool
                      (the bag ran out and the Discard Area went back into it),
                      "changes": {id: {area: {colour: change}}}}
                     ("changes": what the move did to the public areas (hp, shield, score, discard)
                      and the Academy ("academy": {"gems": {...}}), never a hand or a bag)

`redact(entry, viewer)`: a draw's gems only to the wizard who drew them (anyone else: how many, as
"drawn": n), the opening hands likewise, seeds never (none are recorded).
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import ConfigDict, Field

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.magecraft import GAME
from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.rulebook import WILD, Book, book_of
from pnp.games.magecraft.rules import OPENING, OVER, STUDIED, Game, RuleError, payment_for
from pnp.rules.table import (
    HOST_ONLY,
    HOST_OR_PLAYER,
    TURN,
    Entry,
    GameTracker,
    Refused,
    Who,
    join_wizards,
    moved_for,
    option,
    per_content,
)

GEMS, PHONES = "gems", "phones"
PHASES = ("discard-shield", "casting", "learning", "refresh")  # a turn's, in gems mode
AREAS = ("hp", "shield", "score", "discard")  # a board's public areas, by gem colour
Colour = str


class Options(Strict):
    mode: Literal["gems", "phones"] = option(
        PHONES,
        "Gems",
        {GEMS: "Printed gems and boards", PHONES: "Everything on the phones"},
        "With printed gems the companion keeps HP, Shield, Score, the turn and its phase.",
    )
    bag_odds: bool = option(
        False, "Bag odds", description="On the phones: each wizard sees what is left in their own bag."
    )


class Start(Strict):
    """Seat the wizards in a random order and deal (host), once every wizard has joined."""

    deal: dict | None = None  # the server's


class Count(Strict):
    """Gems mode: a change to one wizard's HP, Shield or Score, as counted on the printed board."""

    player: str
    area: Literal["hp", "shield", "score"]
    change: int


class NextPhase(Strict):
    """Gems mode: the turn's next phase; after Refresh, the next wizard's turn."""


class _Move(Strict):
    """A move on the phones: the gems it drew and what it did are the server's, and so is the
    rules' reason when the move, made with the server's draws, is refused (a refusal after a Draw
    icon: the replay has no recorded gems to draw again, so it says the reason found then)."""

    drawn: list[Colour] = []
    done: dict | None = None
    refused: str | None = None


class OpeningDiscard(_Move):
    gems: list[Colour]
    player: str | None = None  # the host, for a seat without a phone


class DiscardShield(_Move):
    gems: list[Colour]


class Strike(Strict):
    """An Attack's choice: the rival it strikes (needed with more than one) and the colour of the
    gem it takes (of their shield, or of their HP when the shield is empty)."""

    player: str | None = None
    colour: Colour | None = None


class _From(Strict):
    model_config = ConfigDict(**Strict.model_config, serialize_by_alias=True)


class ShieldFrom(_From):
    """A Shield's choice: where its gem comes from, and its colour."""

    source: Literal["academy", "discard"] | None = Field(None, alias="from")
    colour: Colour | None = None


class VanishFrom(_From):
    """A Vanish's choice: where its gem comes from, and its colour."""

    source: Literal["hand", "hp"] | None = Field(None, alias="from")
    colour: Colour | None = None


class Choices(Strict):
    """A spell's choices, one per icon of each kind (missing ones: the engine's default)."""

    attack: list[Strike] = []
    heal: list[Colour | None] = []  # the colour taken
    shield: list[ShieldFrom] = []
    vanish: list[VanishFrom] = []


class Cast(_Move):
    spellbook: int = Field(ge=0)
    payment: list[Colour | None] | None = None
    choices: Choices = Choices()


class Cantrip(_Move):
    gem: Colour | None = None
    choices: Choices = Choices()


class Learn(_Move):
    spell: str
    spellbook: int = Field(ge=0)
    payment: list[Colour | None] | None = None


class Revise(_Move):
    gems: list[Colour]
    arrangement: list[list[tuple[int, int]]] | None = None
    master: tuple[int, int] | None = None


class Refresh(_Move):
    pass


actions: dict[str, type[Strict]] = {
    "start": Start,
    "count": Count,
    "next_phase": NextPhase,
    "opening_discard": OpeningDiscard,
    "discard_shield": DiscardShield,
    "cast": Cast,
    "cantrip": Cantrip,
    "learn": Learn,
    "revise": Revise,
    "refresh": Refresh,
}
MOVES = (OpeningDiscard, DiscardShield, Cast, Cantrip, Learn, Revise, Refresh)  # the phones' game moves

_book = per_content(book_of)  # the rules' book of this content, built once


def setup(content: Content, options: Options) -> dict:
    book = _book(content)
    return {
        "mode": options.mode,
        "bag_odds": options.bag_odds,
        "shown": _shown(content, book),  # what the view tells of the content: colours, words, spells
        "phase": "joining",  # then "playing", then "over"
        "players": [],  # join order; seat order once started (the engine's wizards 0, 1, ...)
        "names": {},
        "rulings": dict(content["rulings"].rulings),
        "game": None,  # phones: the engine's game as data (Game.to_data): every bag and hand
        "board": None,  # gems: {"seats": [{"hp", "shield", "score", "out"}], "player", "phase", "turn"}
        "winner": None,
        "ended": None,
        "last": None,  # phones: the latest move's "done"
        "last_cast": None,  # phones: the latest cast's or Cantrip's "done", whoever's turn it is now
        "can": None,  # phones: what the wizard whose turn it is can pay for now (only they see it)
    }


def join(state: dict, player_id: str, name: str) -> dict:
    return join_wizards(state, player_id, name, GAME.title, GAME.players[1])


# --- the engine's game, its draws written down or replayed ---------------------------------


class _TableGame(Game):
    """The engine's game whose draws are the log's: `recorded` (a replay: each draw gives the
    next recorded gem, Refused when it no longer fits the bag) or, with `recorded` None, the
    server's chance, each gem written down in `drawn`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.recorded: list[int] | None = None
        self.drawn: list[int] = []

    def drawn_gem(self, bag: list[int], total: int, rng: random.Random) -> int:
        if self.recorded is None:
            colour = super().drawn_gem(bag, total, rng)
            self.drawn.append(colour)
            return colour
        if not self.recorded or not bag[self.recorded[0]]:
            raise Refused("This move's recorded draw no longer fits the bag.")
        self.drawn.append(self.recorded[0])
        return self.recorded.pop(0)


def _game(book: Book, state: dict, recorded: list[Colour] | None = None) -> _TableGame:
    """The state's game; its draws the `recorded` gems (a logged move), else the server's chance."""
    game = _TableGame.from_data(book, state["game"])
    game.names = [state["names"][pid] for pid in state["players"]]
    if recorded is not None:
        game.recorded = _colours(book, recorded)
    return game


def _colour(book: Book, colour: Colour) -> int:
    if colour not in book.colours:
        raise Refused(f"There is no {colour!r} gem in Magecraft.")
    return book.colours.index(colour)


def _colours(book: Book, colours: list[Colour]) -> list[int]:
    return [_colour(book, c) for c in colours]


def _said(error: Exception) -> str:
    """The engine's reason as a sentence."""
    text = str(error)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# --- what the server's chance adds --------------------------------------------------------


def draw(content: Content, state: dict, actor: str, action: Strict, chance) -> Strict:
    """The seats, characters, Academy and opening hands at the start, and the gems each move
    draws: the server's, never a phone's. A move the rules refuse records no gem, only the
    reason apply gives."""
    book = _book(content)
    rng = random.Random(chance.rng.getrandbits(63))  # never recorded: the gems it gave are
    if isinstance(action, Start):
        if state["phase"] != "joining" or len(state["players"]) < GAME.players[0]:
            return action.model_copy(update={"deal": None})
        order = list(state["players"])
        rng.shuffle(order)
        if state["mode"] == GEMS:
            return action.model_copy(update={"deal": {"order": order}})
        characters = rng.sample(range(len(book.characters)), len(order))
        game = _TableGame.new(book, len(order), rng, characters)
        dealt = {
            "order": order,
            "characters": [book.characters[c].name for c in characters],
            "academy": [book.spells[i].name for i in game.academy_order[len(book.academy_basic) :]],
            "drawn": [[book.colours[c] for c, n in enumerate(w.hand) for _ in range(n)] for w in game.wizards],
        }
        return action.model_copy(update={"deal": dealt})
    if not isinstance(action, MOVES) or state["mode"] != PHONES or state["phase"] != "playing":
        return action
    game = _game(book, state)
    blank = action.model_copy(update={"drawn": [], "done": None, "refused": None})
    try:
        done = _move(book, state, game, actor, blank, rng)
    except Refused as refusal:
        return blank.model_copy(update={"refused": str(refusal)})
    return blank.model_copy(update={"drawn": [book.colours[c] for c in game.drawn], "done": done})


# --- the rules ----------------------------------------------------------------------------


def apply(content: Content, state: dict, actor: str, action: Strict) -> dict:
    book = _book(content)
    if isinstance(action, Start):
        return _start(book, state, action)
    if state["phase"] != "playing":
        raise Refused("The game has not begun yet." if state["phase"] == "joining" else "The game is over.")
    gems = state["mode"] == GEMS
    if isinstance(action, Count | NextPhase):
        if not gems:
            raise Refused("On the phones the companion keeps every count and phase itself.")
        return _counted(book, state, action) if isinstance(action, Count) else _next_phase(state)
    if gems:
        raise Refused("This table plays with printed gems: moves are made on the boards.")
    if action.refused:
        raise Refused(action.refused)
    game = _game(book, state, action.drawn)
    done = _move(book, state, game, actor, action, random.Random(0))  # a replay: the recorded gems
    if game.recorded:
        raise Refused("This move's recorded draw no longer fits the bag.")
    return _settled(book, state, game, done)


def _start(book: Book, state: dict, action: Start) -> dict:
    if state["phase"] != "joining":
        raise Refused("The game has already begun.")
    if len(state["players"]) < GAME.players[0]:
        raise Refused(f"Magecraft needs at least {GAME.players[0]} wizards; {len(state['players'])} have joined.")
    dealt = action.deal
    if dealt is None:
        raise Refused("The seats have not been drawn.")
    order = list(dealt["order"])
    if sorted(order) != sorted(state["players"]):
        raise Refused("The seats drawn are not this table's wizards.")
    state = {**state, "phase": "playing", "players": order}
    if state["mode"] == GEMS:
        seats = [{"hp": book.hp, "shield": 0, "score": 0, "out": False} for _ in order]
        return {**state, "board": {"seats": seats, "player": 0, "phase": 0, "turn": 1}}
    names = [c.name for c in book.characters]
    characters = [names.index(name) for name in dealt["characters"]]
    academy = [book.spell_index(name) for name in dealt["academy"]]
    game = _TableGame.new(book, len(order), random.Random(0), characters, academy)
    for w, hand in zip(game.wizards, dealt["drawn"], strict=True):  # the recorded opening hands
        for c, n in enumerate(w.hand):
            w.bag[c] += n
            w.hand[c] = 0
        for c in _colours(book, hand):
            if not w.bag[c]:
                raise Refused("The recorded opening hand does not fit the bag.")
            w.bag[c] -= 1
            w.hand[c] += 1
    return _settled(book, state, game, None)


def _counted(book: Book, state: dict, action: Count) -> dict:
    """A count changed by hand; then who is defeated, and whether someone has won."""
    if action.player not in state["players"]:
        raise Refused("No such wizard at this table.")
    board = state["board"]
    p = state["players"].index(action.player)
    seat = dict(board["seats"][p])
    value = seat[action.area] + action.change
    name = state["names"][action.player]
    if value < 0:
        raise Refused(f"{name}'s {_AREA_WORDS[action.area]} holds {seat[action.area]} gems, not {-action.change}.")
    if action.area == "hp" and value > book.hp:
        raise Refused(f"An HP Area holds at most {book.hp} gems; a Heal beyond that scores instead.")
    seat[action.area] = value
    seat["out"] = seat["hp"] == 0
    seats = [seat if q == p else s for q, s in enumerate(board["seats"])]
    state = {**state, "board": {**board, "seats": seats}}
    scorer = next((q for q, s in enumerate(seats) if s["score"] >= book.score_to_win), None)
    alive = [q for q, s in enumerate(seats) if not s["out"]]
    if scorer is not None:
        return {**state, "phase": "over", "winner": state["players"][scorer], "ended": "score"}
    if len(alive) == 1:
        return {**state, "phase": "over", "winner": state["players"][alive[0]], "ended": "hp"}
    if seats[board["player"]]["out"]:  # the wizard whose turn it is fell: the next one's turn
        return _next_phase({**state, "board": {**state["board"], "phase": len(PHASES) - 1}})
    return state


_AREA_WORDS = {"hp": "HP Area", "shield": "Shield Area", "score": "Score Area"}


def _next_phase(state: dict) -> dict:
    board = state["board"]
    if board["phase"] + 1 < len(PHASES):
        return {**state, "board": {**board, "phase": board["phase"] + 1}}
    seats, n = board["seats"], len(board["seats"])
    following = next(q % n for q in range(board["player"] + 1, board["player"] + n + 1) if not seats[q % n]["out"])
    return {**state, "board": {**board, "player": following, "phase": 0, "turn": board["turn"] + 1}}


def _move(book: Book, state: dict, game: _TableGame, actor: str, action: Strict, rng: random.Random) -> dict:
    """Makes `action` on `game` for the wizard it is for; returns what it did (the payload's "done")."""
    players = state["players"]
    if isinstance(action, OpeningDiscard):
        mover = moved_for(actor, action, None)
        if mover not in players:
            raise Refused("Name the wizard whose opening hand this is.")
    else:
        mover = players[game.player]
    before, bag = _public(game), sum(game.wizards[players.index(mover)].bag)
    spell = spellbook = position = None
    game.last_paid = []
    try:
        if isinstance(action, OpeningDiscard):
            game.opening_discard(players.index(mover), _colours(book, action.gems))
        elif isinstance(action, DiscardShield):
            game.discard_shield(_colours(book, action.gems))
        elif isinstance(action, Cast):
            position = game.next_spell if game.spellbook == action.spellbook else 0
            spellbook = action.spellbook
            spell = game.cast(
                action.spellbook, rng, _payment(book, action.payment), _choices(book, state, action.choices)
            )
        elif isinstance(action, Cantrip):
            gem = None if action.gem is None else _colour(book, action.gem)
            spell = game.cantrip(rng, gem, _choices(book, state, action.choices))
        elif isinstance(action, Learn):
            spell, spellbook, position = action.spell, action.spellbook, 0
            game.learn(action.spell, action.spellbook, _payment(book, action.payment))
        elif isinstance(action, Revise):
            arrangement = None if action.arrangement is None else [list(cards) for cards in action.arrangement]
            game.revise(_colours(book, action.gems), arrangement, action.master)
        elif isinstance(action, Refresh):
            game.refresh(rng)
    except RuleError as error:
        raise Refused(_said(error)) from None
    changes = _changes(book, players, before, _public(game))
    return {
        "player": mover,
        "move": next(name for name, model in actions.items() if isinstance(action, model)),
        "spell": spell,
        "spellbook": spellbook,
        "position": position,
        "paid": [book.colours[c] for c in game.last_paid],
        "reshuffled": len(game.drawn) > bag,  # the bag ran out: the Discard Area went back into it
        "changes": changes,
    }


def _payment(book: Book, payment: list[Colour | None] | None) -> list[int | None] | None:
    if payment is None:
        return None
    return [None if c is None else _colour(book, c) for c in payment]


def _choices(book: Book, state: dict, choices: Choices) -> dict:
    """A phone's choices as the engine reads them: colour ids to indexes, player ids to seats."""

    def colour(c: Colour | None) -> dict:
        return {} if c is None else {"colour": _colour(book, c)}

    def source(choice: _From) -> dict:
        return {} if choice.source is None else {"from": choice.source}

    strikes = []
    for strike in choices.attack:
        made = colour(strike.colour)
        if strike.player is not None:
            if strike.player not in state["players"]:
                raise Refused("No such wizard at this table.")
            made["player"] = state["players"].index(strike.player)
        strikes.append(made)
    return {
        "attack": strikes,
        "heal": [None if c is None else _colour(book, c) for c in choices.heal],
        "shield": [source(c) | colour(c.colour) for c in choices.shield],
        "vanish": [source(c) | colour(c.colour) for c in choices.vanish],
    }


def _public(game: Game) -> list:
    """What every viewer sees of the areas a move changes: each board's public areas and the
    Academy's gems."""
    return [[list(getattr(w, area)) for area in AREAS] for w in game.wizards] + [list(game.academy_gems)]


def _changes(book: Book, players: list[str], before: list, after: list) -> dict:
    """{player id or "academy": {area: {colour: change}}}, only what changed."""
    owners = [*players, "academy"]
    changes = {}
    for owner, was, now in zip(owners, before, after, strict=True):
        areas = AREAS if owner != "academy" else ("gems",)
        if owner == "academy":
            was, now = [was], [now]
        changed = {}
        for area, a, b in zip(areas, was, now, strict=True):
            moved = {book.colours[c]: y - x for c, (x, y) in enumerate(zip(a, b, strict=True)) if y != x}
            if moved:
                changed[area] = moved
        if changed:
            changes[owner] = changed
    return changes


def _settled(book: Book, state: dict, game: Game, done: dict | None) -> dict:
    """The state holding `game`: its data, what the wizard whose turn it is can pay for now, and
    at the end the winner."""
    state = {**state, "game": game.to_data(), "last": done, "can": None}
    if done is not None and done["move"] in ("cast", "cantrip"):
        state["last_cast"] = done
    if game.phase == OVER:
        return {**state, "phase": "over", "winner": state["players"][game.winner], "ended": game.ended}
    if game.phase != OPENING:
        state["can"] = _can(book, game)
    return state


def _can(book: Book, game: Game) -> dict:
    """What the wizard whose turn it is can pay for with the hand they hold (the engine's own
    payment, the golden gem's slot null; null: the hand cannot pay it, or the rules forbid it now)."""
    w, colours = game.wizard, book.colours
    casting = game.phase != STUDIED

    def paying(cost: tuple[int, ...], golden: int = -1) -> list | None:
        pay = payment_for(cost, w.hand, golden) if casting else None
        return None if pay is None else [None if c is None else colours[c] for c in pay]

    spellbooks = []
    for b, cards in enumerate(w.books):
        position = game.next_spell if game.spellbook == b else 0
        open_ = game.spellbook in (-1, b) and not game.closed and position < len(cards)
        spell = book.spells[cards[position].spell] if open_ else None
        spellbooks.append(
            {
                "spell": spell and spell.name,
                "position": position if open_ else None,
                "payment": spell and paying(spell.cast, w.golden),
            }
        )
    cantrip = None
    if w.character is not None and not game.cantrip_cast:
        cantrip = paying((book.characters[w.character].cantrip.gem,))
    learn = {book.spells[i].name: paying(book.spells[i].learn) for i in game.academy_order if game.academy_spells[i]}
    return {
        "spellbooks": spellbooks,
        "cantrip": cantrip,
        "learn": {name: pay for name, pay in learn.items() if pay is not None},
        "revise": casting and sum(w.hand) >= book.revision,
    }


# --- what each viewer sees ----------------------------------------------------------------


def _counts(book_colours: list[str], gems: list[int]) -> dict[str, int]:
    return dict(zip(book_colours, gems, strict=True))


def _gem(colours: list[str], c: int) -> str | None:
    return colours[c] if c >= 0 else None


def view(state: dict, viewer: str | None) -> dict:
    """The table as a phone or the projector shows it (the module's text gives its shape)."""
    book = state["shown"]
    colours = book["colours"]
    shown = {
        "mode": state["mode"],
        "bag_odds": state["bag_odds"],
        "phase": state["phase"],
        "you": viewer,
        "colours": colours,
        "gems": book["gems"],
        "words": book["words"],
        "score_to_win": book["score_to_win"],
        "hp_full": book["hp_full"],
        "seat_table": book["seat_table"],
        "rulings": state["rulings"],
        "winner": state["winner"],
        "ended": state["ended"],
    }
    names = state["names"]
    started = state["phase"] != "joining"
    players = [
        {
            "id": pid,
            "name": names[pid],
            "seat": p if started else None,
            "opening": book["seat_table"][p] if started else None,
            "out": False,
        }
        for p, pid in enumerate(state["players"])
    ]
    if state["mode"] == GEMS:
        board = state["board"]
        if board is not None:
            for seat, counts in zip(players, board["seats"], strict=True):
                seat |= counts
        turn = None
        if board is not None and state["phase"] == "playing":
            player = state["players"][board["player"]]
            turn = {"player": player, "phase": PHASES[board["phase"]], "number": board["turn"]}
        defeated = [s["id"] for s in players if s["out"]]
        return shown | {"players": players, "turn": turn, "defeated": defeated}
    shown |= {
        "spells": book["spells"],
        "hand": {},
        "bag_contents": None,
        "can": None,
        "last": state["last"],
        "last_cast": state["last_cast"],
    }
    game = state["game"]
    if game is None:
        return shown | {"players": players, "turn": None, "defeated": [], "academy": None}
    for seat, w in zip(players, game["wizards"], strict=True):
        seat |= _board(book, w, game["opening"][seat["seat"]])
    if viewer in state["players"]:
        mine = game["wizards"][state["players"].index(viewer)]
        shown["hand"] = _counts(colours, mine["hand"])
        if viewer == _turn(state):
            shown["can"] = state["can"]
        if state["bag_odds"]:
            shown["bag_contents"] = _counts(colours, mine["bag"])
    turn = None
    if state["phase"] == "playing" and game["phase"] != OPENING:
        turn = {
            "player": state["players"][game["player"]],
            "phase": game["phase"],
            "number": game["turn"],
            "spellbook": None if game["spellbook"] < 0 else game["spellbook"],
            "next_spell": game["next_spell"],
            "cantrip_cast": game["cantrip_cast"],
            "closed": game["closed"],
        }
    academy = {
        "spells": [{"name": name, "cards": cards} for name, cards in game["academy"]],
        "gems": _counts(colours, game["academy_gems"]),
    }
    defeated = [s["id"] for s in players if s["out"]]
    return shown | {"players": players, "turn": turn, "defeated": defeated, "academy": academy}


def _board(book: dict, w: dict, to_discard: int) -> dict:
    """A wizard's board as everyone sees it: no hand, no bag, only their sizes."""
    colours = book["colours"]
    character = None if w["character"] is None else book["characters"][w["character"]]
    seat = {area: _counts(colours, w[area]) for area in AREAS}
    seat |= {f"{area}_total": sum(w[area]) for area in ("hp", "shield", "score")}
    seat |= {"bag": sum(w["bag"]), "hand": sum(w["hand"]), "to_discard": to_discard, "out": w["out"]}
    seat |= {
        "character": None if character is None else character["name"],
        "cantrip": None if character is None else character["cantrip"],
        "spellbooks": [
            [
                {"spell": name, "mastered": mastered, "paid": [colours[c] for c in paid]}
                for name, mastered, paid in cards
            ]
            for cards in w["books"]
        ],
        "golden": _gem(colours, w["golden"]),
        "cantrip_paid": _gem(colours, w["cantrip_paid"]),
    }
    return seat


def _shown(content: Content, book: Book) -> dict:
    """What the view tells of the content, as JSON-ready data."""
    words = content["words"]

    def cost(gems: tuple[int, ...]) -> list[str]:
        return ["wild" if c == WILD else book.colours[c] for c in gems]

    def icons(effects: tuple[int, ...]) -> dict[str, int]:
        return {icon: n for icon, n in zip(ICONS, effects, strict=True) if n}

    return {
        "colours": list(book.colours),
        "gems": [{"id": g.id, "name": g.name, "letter": g.letter} for g in content["magecraft-set"].gems],
        "words": {
            "phases": dict(zip(PHASES, words.phases, strict=True)),
            **{key: getattr(words, key) for key in (*AREAS, "cantrip", "spellbook", "mastered", "learn", "cast")},
            "wild": words.wild_letter,
        },
        "score_to_win": book.score_to_win,
        "hp_full": book.hp,
        "seat_table": [{"draw": d, "discard": x} for d, x in book.seats],
        "spells": {
            s.name: {
                "learn": cost(s.learn),
                "cast": cost(s.cast),
                "effects": icons(s.effects),
                "special": s.special,
                "text": card.text,  # what the icons cannot say (rich text), "" for most
            }
            for s, card in zip(book.spells, content["spell-cards"].cards, strict=True)
        },
        "characters": [
            {
                "name": c.name,
                "cantrip": {
                    "name": c.cantrip.name,
                    "gem": cost((c.cantrip.gem,))[0],
                    "effects": icons(c.cantrip.effects),
                },
            }
            for c in book.characters
        ],
    }


def redact(entry: Entry, viewer: str | None) -> dict:
    """A draw's gems only to the wizard who drew them; anyone else learns how many."""
    payload = dict(entry.payload)
    if entry.type == "start" and payload.get("deal") and "drawn" in payload["deal"]:
        deal = payload["deal"]
        hands = [hand if pid == viewer else len(hand) for pid, hand in zip(deal["order"], deal["drawn"], strict=True)]
        payload["deal"] = {**deal, "drawn": hands}
    elif "drawn" in payload:
        done = payload.get("done") or {}
        if viewer != done.get("player", entry.actor):
            payload["drawn"] = len(payload["drawn"])
    return payload


def final_entry(entry: Entry) -> str | None:
    """Why an entry can never be taken back: the start deals, and a draw is never redrawn."""
    if entry.type == "start":
        return "The start cannot be taken back."
    if entry.payload.get("drawn"):
        return "That move drew gems from a bag: a draw is never taken back."
    return None


def results(state: dict) -> list[dict]:
    """Each wizard's Score and HP (totals) in seat order, and who won."""
    rows = []
    for p, pid in enumerate(state["players"]):
        if state["mode"] == GEMS and state["board"] is not None:
            seat = state["board"]["seats"][p]
            score, hp = seat["score"], seat["hp"]
        elif state["game"] is not None:
            w = state["game"]["wizards"][p]
            score, hp = sum(w["score"]), sum(w["hp"])
        else:
            score = hp = ""
        rows.append({"name": state["names"][pid], "score": score, "hp": hp, "winner": pid == state["winner"]})
    return rows


def _turn(state: dict) -> str | None:
    if state["phase"] != "playing":
        return None
    if state["mode"] == GEMS:
        return state["players"][state["board"]["player"]]
    if state["game"]["phase"] == OPENING:
        return None  # every seat discards from its opening hand, in any order
    return state["players"][state["game"]["player"]]


def _not_your_turn(state: dict) -> str:
    current = _turn(state)
    return f"It is {state['names'][current]}'s turn." if current else "It is no one's turn."


_TURN = Who(TURN, _not_your_turn)
_AT_TABLE = Who(HOST_OR_PLAYER, "Only the wizards at this table and the host do that.")
who = {
    "start": Who(HOST_ONLY, "Only the host starts the game."),
    "count": _AT_TABLE,
    "next_phase": _AT_TABLE,
    "opening_discard": _AT_TABLE,
    **dict.fromkeys(("discard_shield", "cast", "cantrip", "learn", "revise", "refresh"), _TURN),
}

TRACKER = GameTracker(
    "magecraft",
    Options,
    actions,
    setup,
    join,
    apply,
    view,
    results,
    draw=draw,
    final_entry=final_entry,
    who=who,
    seated=lambda state: state["names"],
    turn=_turn,
    redact=redact,
)
