"""A small game with secrets, for the tests: the host deals each seated player a hand from a deck
(the start), a player draws a card or discards one face down, and only the hand's holder sees its
cards. A Rules (pnp.rules.flow) like every game's.

Every card's name is distinctive ("~card07~"), so a test can search any response's raw bytes for
another player's cards. It has no content and prints nothing: a test registers it with the
companion (create_app's GAMES) as the game "secret-deck" and lends it no content.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pnp.gamedef import GameDef
from pnp.rules.chance import draw_from
from pnp.rules.flow import HOST_ONLY, JOINING, PLAYING, SEAT, Move, Rules
from pnp.rules.offers import offer, one_of
from pnp.rules.table import Entry, Refused

DECK = tuple(f"~card{n:02d}~" for n in range(1, 31))
NOTHING = "tests.support.secret_game:NOTHING"  # what a game that prints nothing names for its printed side
GAME = GameDef(
    id="secret-deck",
    title="Secret deck",
    kinds=NOTHING,
    numbers=NOTHING,
    check=NOTHING,
    printed=NOTHING,
    players=(1, len(DECK)),
    tracker="tests.support.secret_game:TRACKER",
)


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hand: int = Field(3, ge=1, le=5)


class Deal(BaseModel):
    hands: dict[str, list[str]] = {}  # player id -> their cards: the server's, whatever a phone sends


class Draw(BaseModel):
    cards: list[str] = []  # the server's, whatever a phone sends


class Discard(BaseModel):
    card: str  # back into the deck, face down


class Pass(BaseModel):
    pass


def setup(content, options: Options) -> dict:
    return {"hand": options.hand, "deck": list(DECK), "hands": {}}


def joined(state: dict, player: str) -> dict:
    return {**state, "hands": {**state["hands"], player: []}}


def dealt(content, state: dict, actor: str, action: Deal, chance) -> Deal:
    """The hands come from the server's chance, at random from what is left in the deck."""
    deck, hands = state["deck"], {}
    for player in state["players"]:
        hands[player], deck = draw_from(deck, min(state["hand"], len(deck)), chance.rng)
    return Deal(hands=hands)


def drawn(content, state: dict, actor: str, action: Draw, chance) -> Draw:
    return Draw(cards=draw_from(state["deck"], min(1, len(state["deck"])), chance.rng)[0])


def deal(content, state: dict, _host: str, action: Deal) -> dict:
    state = {**state, "phase": PLAYING}
    for player, cards in action.hands.items():
        state = _taken(state, player, cards)
    return state


def draw(content, state: dict, player: str, action: Draw) -> dict:
    if not action.cards:
        raise Refused("The deck is empty.")
    return _taken(state, player, action.cards)


def discard(content, state: dict, player: str, action: Discard) -> dict:
    hand = state["hands"][player]
    if action.card not in hand:
        raise Refused("You do not hold that card.")
    hands = {**state["hands"], player: [c for c in hand if c != action.card]}
    return {**state, "deck": [*state["deck"], action.card], "hands": hands}


def _taken(state: dict, player: str, cards: list[str]) -> dict:
    """`player` takes `cards` from the deck; Refused if one is not in it (a replay that no longer fits)."""
    if player not in state["hands"] or not set(cards) <= set(state["deck"]):
        raise Refused("Those cards are not in the deck.")
    hands = {**state["hands"], player: [*state["hands"][player], *cards]}
    return {**state, "deck": [c for c in state["deck"] if c not in cards], "hands": hands}


def discards(content, state: dict, player: str) -> list[dict]:
    hand = state["hands"][player]
    return [offer(pick=[one_of("card", hand)])] if hand else []


def view(state: dict, viewer: str | None) -> dict:
    """Everyone sees how many cards each hand and the deck hold; a player sees their own cards."""
    players = {p: {"name": state["names"][p], "cards": len(state["hands"][p])} for p in state["players"]}
    mine = state["hands"].get(viewer, [])
    return {"players": players, "deck": len(state["deck"]), "dealt": state["phase"] != JOINING, "hand": mine}


def redact(entry: Entry, viewer: str | None) -> dict:
    """A deal shows each viewer their own hand and everyone's count; a draw or discard shows its
    card to whoever made it, and that it happened to everyone else."""
    if entry.type == "deal":
        hands = entry.payload["hands"]
        mine = {p: cards for p, cards in hands.items() if p == viewer}
        return {"hands": mine, "counts": {p: len(cards) for p, cards in hands.items()}}
    if entry.type == "draw" and viewer != entry.actor:
        return {"count": len(entry.payload["cards"])}
    if entry.type == "discard" and viewer != entry.actor:
        return {}  # that a card went back, not which
    return dict(entry.payload)


def results(state: dict) -> list[dict]:
    return [{"name": state["names"][p], "cards": len(state["hands"][p])} for p in state["players"]]


TRACKER = Rules(
    game=GAME,
    players_are="players",
    Options=Options,
    moves={
        "deal": Move(Deal, deal, HOST_ONLY, stage=JOINING, final=True, draw=dealt),
        "draw": Move(Draw, draw, SEAT, final=True, draw=drawn),
        "discard": Move(Discard, discard, SEAT, choices=discards),
        "pass": Move(Pass, lambda content, state, player, action: state, SEAT),
    },
    setup_game=setup,
    view=view,
    results=results,
    joined=joined,
    redact=redact,
)
