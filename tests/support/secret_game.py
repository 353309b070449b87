"""A small tracker with secrets, for the tests: the host deals each seated player a hand from a
deck, a player draws a card or discards one face down, and only the hand's holder sees its cards.

Every card's name is distinctive ("~card07~"), so a test can search any response's raw bytes for
another player's cards. Registered for a test as the game "secret-deck" by tests/test_secrets.py.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pnp.rules.chance import draw_from
from pnp.rules.table import HOST, Entry, GameTracker, NotYours, Refused

DECK = tuple(f"~card{n:02d}~" for n in range(1, 31))


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


actions = {"deal": Deal, "draw": Draw, "discard": Discard, "pass": Pass}


def setup(content, options: Options) -> dict:
    return {"hand": options.hand, "deck": list(DECK), "players": {}, "dealt": False}


def join(state: dict, player_id: str, name: str) -> dict:
    return {**state, "players": {**state["players"], player_id: {"name": name, "hand": []}}}


def draw(content, state: dict, actor: str, action: BaseModel, chance) -> BaseModel:
    """The cards come from the server's chance, at random from what is left in the deck."""
    if isinstance(action, Deal):
        deck, hands = state["deck"], {}
        for player in state["players"]:
            hands[player], deck = draw_from(deck, min(state["hand"], len(deck)), chance.rng)
        return Deal(hands=hands)
    if isinstance(action, Draw):
        return Draw(cards=draw_from(state["deck"], min(1, len(state["deck"])), chance.rng)[0])
    return action


def apply(content, state: dict, actor: str, action: BaseModel) -> dict:
    if isinstance(action, Deal):
        if actor != HOST:
            raise NotYours("Only the host deals.")
        if state["dealt"]:
            raise Refused("The cards are dealt.")
        state = {**state, "dealt": True}
        for player, cards in action.hands.items():
            state = _taken(state, player, cards)
        return state
    if actor not in state["players"]:
        raise NotYours("Only a player holds cards.")
    if isinstance(action, Draw):
        if not action.cards:
            raise Refused("The deck is empty.")
        return _taken(state, actor, action.cards)
    if isinstance(action, Discard):
        hand = state["players"][actor]["hand"]
        if action.card not in hand:
            raise Refused("You do not hold that card.")
        seat = {**state["players"][actor], "hand": [c for c in hand if c != action.card]}
        return {**state, "deck": [*state["deck"], action.card], "players": {**state["players"], actor: seat}}
    return state


def _taken(state: dict, player: str, cards: list[str]) -> dict:
    """`player` takes `cards` from the deck; Refused if one is not in it (a replay that no longer fits)."""
    if player not in state["players"] or not set(cards) <= set(state["deck"]):
        raise Refused("Those cards are not in the deck.")
    seat = {**state["players"][player], "hand": [*state["players"][player]["hand"], *cards]}
    return {
        **state,
        "deck": [c for c in state["deck"] if c not in cards],
        "players": {**state["players"], player: seat},
    }


def view(state: dict, viewer: str | None) -> dict:
    """Everyone sees how many cards each hand and the deck hold; a player sees their own cards."""
    players = {p: {"name": s["name"], "cards": len(s["hand"])} for p, s in state["players"].items()}
    mine = state["players"][viewer]["hand"] if viewer in state["players"] else []
    return {"players": players, "deck": len(state["deck"]), "dealt": state["dealt"], "hand": mine}


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
    return [{"name": s["name"], "cards": len(s["hand"])} for s in state["players"].values()]


TRACKER = GameTracker(
    "secret-deck",
    Options,
    actions,
    setup,
    join,
    apply,
    view,
    results,
    draw=draw,
    final=frozenset({"deal", "draw"}),
    redact=redact,
)
