"""Magecraft played on the phones (a `Way` of pnp.games.magecraft.tracker): the server holds every
bag, hand, area, spellbook and the Academy as the rules' game (pnp.games.magecraft.rules) under the
state's ENGINE key; each move rebuilds it, makes the move and keeps the result. A move the rules
forbid is Refused with the engine's words ("Fireball needs Fire, Fire and one more; your hand has
one Fire."), which only the wizard making it (or the host for a seat without a phone) ever reads.

Chance is the server's (each move's `draw`): the characters (no two alike), the Academy's random
sets, the opening hands and every gem drawn from a bag are written into the payload, so a replay
draws the gems the log recorded, never new ones, and a move whose recorded draw no longer fits (an
undo before it) is Refused.

State: ENGINE (the game as data, None before the start), "last" (the latest move's "done") and
"last_cast" (the latest cast's or Cantrip's, kept after the turn moves on).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pnp.content.loader import Content
from pnp.games.magecraft import offered
from pnp.games.magecraft.bodies import (
    Cantrip,
    Cast,
    Choices,
    DiscardShield,
    Learn,
    OpeningDiscard,
    PhoneMove,
    Refresh,
    Resolve,
    Revise,
    ShieldFrom,
    Start,
)
from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.phone_view import AREAS, view
from pnp.games.magecraft.recorded import RecordedGame, colour_of, colours_of, game_of, rulebook
from pnp.games.magecraft.rulebook import Book
from pnp.games.magecraft.rules import OPENING, Game, RuleError
from pnp.games.magecraft.start import dealing, order_drawn, seated
from pnp.games.magecraft.strategy import STRATEGY
from pnp.rules.flow import ENGINE, HOST_ONLY, JOINING, OVER, PLAYING, SEAT, TURN, Move, Way
from pnp.rules.table import Refused

# (book, state, game, the mover's seat, the move, the chance) -> what "done" says of it beyond the common keys
Maker = Callable[[Book, dict, RecordedGame, int, PhoneMove, random.Random], dict]


def setup(content: Content, state: dict) -> dict:
    return {**state, ENGINE: None, "last": None, "last_cast": None}


# --- the start ------------------------------------------------------------------------------


def _deal(content: Content, state: dict, actor: str, action: Start, chance) -> Start:
    """The seats, the characters, the Academy's random sets and the opening hands."""
    rng = dealing(state, chance)
    if rng is None:
        return action.model_copy(update={"deal": None})
    book = rulebook(content)
    order = order_drawn(state, rng)
    characters = rng.sample(range(len(book.characters)), len(order))
    game = Game.new(book, len(order), rng, characters)
    dealt = {
        "order": order,
        "characters": [book.characters[c].name for c in characters],
        "academy": [book.spells[i].name for i in game.academy_order[len(book.academy_basic) :]],
        "drawn": [[book.colours[c] for c, n in enumerate(w.hand) for _ in range(n)] for w in game.wizards],
    }
    return action.model_copy(update={"deal": dealt})


def _start(content: Content, state: dict, _host: str, action: Start) -> dict:
    state = seated(state, action.deal)
    book, dealt = rulebook(content), action.deal
    names = [c.name for c in book.characters]
    characters = [names.index(name) for name in dealt["characters"]]
    academy = [book.spell_index(name) for name in dealt["academy"]]
    game = RecordedGame.new(book, len(state["players"]), random.Random(0), characters, academy)
    for w, hand in zip(game.wizards, dealt["drawn"], strict=True):  # the recorded opening hands
        for c, n in enumerate(w.hand):
            w.bag[c] += n
            w.hand[c] = 0
        for c in colours_of(book, hand):
            if not w.bag[c]:
                raise Refused("The recorded opening hand does not fit the bag.")
            w.bag[c] -= 1
            w.hand[c] += 1
    return _kept(state, game, None)


# --- the moves, made on the engine ------------------------------------------------------------


def _opening_discard(book: Book, state: dict, game: RecordedGame, p: int, action: OpeningDiscard, rng) -> dict:
    game.opening_discard(p, colours_of(book, action.gems))
    return {}


def _discard_shield(book: Book, state: dict, game: RecordedGame, p: int, action: DiscardShield, rng) -> dict:
    game.discard_shield(colours_of(book, action.gems))
    return {}


def _cast(book: Book, state: dict, game: RecordedGame, p: int, action: Cast, rng) -> dict:
    position = game.next_spell if game.spellbook == action.spellbook else 0
    payment, choices = _payment(book, action.payment), _choices(book, state, action.choices)
    spell = game.cast(action.spellbook, rng, payment, choices, action.one_by_one)
    return {"spell": spell, "spellbook": action.spellbook, "position": position}


def _cantrip(book: Book, state: dict, game: RecordedGame, p: int, action: Cantrip, rng) -> dict:
    gem = None if action.gem is None else colour_of(book, action.gem)
    return {"spell": game.cantrip(rng, gem, _choices(book, state, action.choices), action.one_by_one)}


def _resolve(book: Book, state: dict, game: RecordedGame, p: int, action: Resolve, rng) -> dict:
    choice = {} if action.colour is None else {"colour": colour_of(book, action.colour)}
    if action.source is not None:
        choice["from"] = action.source
    if action.rival is not None:
        choice["player"] = _seat(state, action.rival)
    spell = game.pending_spell
    game.resolve(ICONS.index(action.icon), rng, choice)
    return {"spell": spell, "icon": action.icon}


def _learn(book: Book, state: dict, game: RecordedGame, p: int, action: Learn, rng) -> dict:
    game.learn(action.spell, action.spellbook, _payment(book, action.payment))
    return {"spell": action.spell, "spellbook": action.spellbook, "position": 0}


def _revise(book: Book, state: dict, game: RecordedGame, p: int, action: Revise, rng) -> dict:
    arrangement = None if action.arrangement is None else [list(cards) for cards in action.arrangement]
    game.revise(colours_of(book, action.gems), arrangement, action.master)
    return {}


def _refresh(book: Book, state: dict, game: RecordedGame, p: int, action: Refresh, rng) -> dict:
    game.refresh(rng)
    return {}


def _made(book: Book, state: dict, game: RecordedGame, type_: str, make: Maker, mover: str, action, rng) -> dict:
    """Makes `action` on `game` for `mover`; returns what it did (the payload's "done")."""
    if mover not in state["players"]:
        raise Refused("Name the player this move is for.")
    p = state["players"].index(mover)
    before, bag = _public(game), sum(game.wizards[p].bag)
    game.last_paid = []
    try:
        made = make(book, state, game, p, action, rng)
    except RuleError as error:
        raise Refused(_said(error)) from None
    return {
        "player": mover,
        "move": type_,
        "spell": None,
        "spellbook": None,
        "position": None,
        **made,
        "paid": [book.colours[c] for c in game.last_paid],
        "reshuffled": len(game.drawn) > bag,  # the bag ran out: the Discard Area went back into it
        "changes": _changes(book, state["players"], before, _public(game)),
    }


def _said(error: Exception) -> str:
    """The engine's reason as a sentence."""
    text = str(error)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _payment(book: Book, payment: list | None) -> list[int | None] | None:
    return None if payment is None else [None if c is None else colour_of(book, c) for c in payment]


def _seat(state: dict, player: str) -> int:
    if player not in state["players"]:
        raise Refused("No such wizard at this table.")
    return state["players"].index(player)


def _choices(book: Book, state: dict, choices: Choices) -> dict | None:
    """A phone's choices as the engine reads them: colour ids to indexes, player ids to seats;
    None when it makes none (the engine's own, or the icons one by one)."""
    if choices == Choices():
        return None

    def colour(c: str | None) -> dict:
        return {} if c is None else {"colour": colour_of(book, c)}

    def source(choice: ShieldFrom) -> dict:
        return {} if choice.source is None else {"from": choice.source}

    strikes = []
    for strike in choices.attack:
        made = colour(strike.colour)
        if strike.player is not None:
            made["player"] = _seat(state, strike.player)
        strikes.append(made)
    return {
        "attack": strikes,
        "heal": [None if c is None else colour_of(book, c) for c in choices.heal],
        "shield": [source(c) | colour(c.colour) for c in choices.shield],
        "vanish": [source(c) | colour(c.colour) for c in choices.vanish],
    }


def _public(game: Game) -> list:
    """What every viewer sees of the areas a move changes: each board's public areas and the
    Academy's gems."""
    return [[list(getattr(w, area)) for area in AREAS] for w in game.wizards] + [list(game.academy_gems)]


def _changes(book: Book, players: list[str], before: list, after: list) -> dict:
    """{player id or "academy": {area: {colour: change}}}, only what changed: never a hand or a bag."""
    changes = {}
    for owner, was, now in zip([*players, "academy"], before, after, strict=True):
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


def _added(changes: dict, more: dict) -> dict:
    """Two moves' changes (see `_changes`) as one."""
    made = {owner: {area: dict(moved) for area, moved in areas.items()} for owner, areas in changes.items()}
    for owner, areas in more.items():
        for area, moved in areas.items():
            into = made.setdefault(owner, {}).setdefault(area, {})
            for colour, n in moved.items():
                into[colour] = into.get(colour, 0) + n
                if not into[colour]:
                    del into[colour]
    return made


def _kept(state: dict, game: Game, done: dict | None) -> dict:
    """The state holding `game`, what the latest move did, and at the end the winner."""
    state = {**state, ENGINE: game.to_data(), "last": done}
    if done is not None and done["move"] in ("cast", "cantrip"):
        state["last_cast"] = done
    elif done is not None and done["move"] == "resolve" and state.get("last_cast"):  # the spell's icons add to it
        state["last_cast"] = {**state["last_cast"], "changes": _added(state["last_cast"]["changes"], done["changes"])}
    if game.winner is not None:
        return {**state, "phase": OVER, "winner": state["players"][game.winner], "ended": game.ended}
    return state


def kept_game(state: dict, game: Game) -> dict:
    """The state holding `game` after play outside the phones' moves (a simulated player's turn)."""
    return _kept(state, game, None)


def _phone_move(type_: str, body: type[PhoneMove], make: Maker, who: str, choices=None) -> Move:
    """A move of the game on the phones: drawn with the server's chance, then made again on the
    gems that draw recorded (a replay makes it the same way)."""

    def draw(content: Content, state: dict, actor: str, action: PhoneMove, chance) -> PhoneMove:
        blank = action.model_copy(update={"drawn": [], "done": None, "refused": None})
        if state["phase"] != PLAYING:
            return blank
        book = rulebook(content)
        game = game_of(book, state)
        rng = random.Random(chance.rng.getrandbits(63))  # never recorded: the gems it gave are
        # whom it is for, as the flow will find once it has checked the actor may make it: a seat's
        # own move is theirs (or the seat the host names, in older logs), a turn's the wizard's whose turn it is
        mover = (getattr(action, "player", None) or actor) if who == SEAT else state["players"][state[ENGINE]["player"]]
        try:
            done = _made(book, state, game, type_, make, mover, blank, rng)
        except Refused as refusal:
            return blank.model_copy(update={"refused": str(refusal)})
        return blank.model_copy(update={"drawn": [book.colours[c] for c in game.drawn], "done": done})

    def handler(content: Content, state: dict, mover: str, action: PhoneMove) -> dict:
        if action.refused:
            raise Refused(action.refused)
        book = rulebook(content)
        game = game_of(book, state, action.drawn)
        done = _made(book, state, game, type_, make, mover, action, random.Random(0))  # the recorded gems
        if game.recorded:
            raise Refused("This move's recorded draw no longer fits the bag.")
        return _kept(state, game, done)

    return Move(body, handler, who, choices=choices, draw=draw)


def turn(state: dict) -> str | None:
    """The wizard whose turn it is; no one's while the opening hands are discarded, in any order."""
    game = state[ENGINE]
    return None if game["phase"] == OPENING else state["players"][game["player"]]


def results(state: dict, p: int) -> tuple[int, int] | None:
    """Wizard `p`'s Score and HP (totals), once the game has begun."""
    if state[ENGINE] is None:
        return None
    w = state[ENGINE]["wizards"][p]
    return sum(w["score"]), sum(w["hp"])


WAY = Way(
    title="everything on the phones",
    moves={
        "start": Move(Start, _start, HOST_ONLY, stage=JOINING, draw=_deal),
        "opening_discard": _phone_move(
            "opening_discard", OpeningDiscard, _opening_discard, SEAT, offered.opening_discard
        ),
        "discard_shield": _phone_move("discard_shield", DiscardShield, _discard_shield, TURN, offered.discard_shield),
        "cast": _phone_move("cast", Cast, _cast, TURN, offered.cast),
        "cantrip": _phone_move("cantrip", Cantrip, _cantrip, TURN, offered.cantrip),
        "resolve": _phone_move("resolve", Resolve, _resolve, TURN, offered.resolve),
        "learn": _phone_move("learn", Learn, _learn, TURN, offered.learn),
        "revise": _phone_move("revise", Revise, _revise, TURN, offered.revise),
        "refresh": _phone_move("refresh", Refresh, _refresh, TURN),
    },
    setup=setup,
    view=view,
    computers=True,  # every gem, hand and piece is the server's: a computer sees what its seat may
    strategy=STRATEGY,
)
