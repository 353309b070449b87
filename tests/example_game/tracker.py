"""Lantern Charms at the table (pnp.rules.flow.Rules): the host's Start deals each player a hidden
hand from the server's chance; then, in seat order, each lays one charm face up, kindling their
own lantern or dousing another's on a card of its suit, until every hand is empty.

A card is its content's name, suit and number; a phone plays it by name. The state holds every
hand and the charms set aside; `view` and `redact` let a hand reach only its holder: in the
table, its history, the exports and the live stream. A charm laid on a lantern is face up for all.
"""

from __future__ import annotations

from pydantic import Field

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.rules.bodies import ByServer
from pnp.rules.chance import draw_from
from pnp.rules.flow import HOST_ONLY, JOINING, OVER, PLAYING, START, TURN, Move, Rules
from pnp.rules.offers import offer, one_of, option
from pnp.rules.standings import top_scorers
from pnp.rules.table import Entry, Refused
from tests.example_game import GAME


class Options(Strict):
    """A table of Lantern Charms has no options: the content says how many charms a hand holds."""


class Start(Strict):
    """Deal the hands and begin (the host). The server's chance deals them: a phone may not send them."""

    hands: ByServer[dict[str, list[str]]] = Field(default_factory=dict)  # player id -> the names of their charms


class Kindle(Strict):
    """Lay a charm of your hand on your own lantern: its number counts for you."""

    card: str


class Douse(Strict):
    """Lay a charm of your hand on another player's lantern, on a card of its suit: its number
    counts against them."""

    card: str
    target: str  # their player id


def setup(content: Content, options: Options) -> dict:
    """The game's keys (the flow adds phase, players in seat order, names and room)."""
    rules = content["charm-rules"]
    return {
        "suits": [{"id": suit.id, "name": suit.name} for suit in rules.suits],  # how a phone names a card's suit
        "deal": rules.hand,  # charms dealt to each player
        # the charms not in a hand: all of them until the deal, then those set aside unseen
        "deck": [card.model_dump() for card in content["charm-cards"].cards],
        "hands": {},  # player id -> their charms
        "lanterns": {},  # player id -> the charms laid on it, in order, each with who laid it ("by")
        "turn": 0,  # the index in players of the one whose turn it is
        "winners": [],
    }


def joined(state: dict, player: str) -> dict:
    return {**state, "hands": {**state["hands"], player: []}, "lanterns": {**state["lanterns"], player: []}}


def left(state: dict, player: str) -> dict:
    """A computer player's seat taken off before the start: its hand and lantern go with it."""
    hands, lanterns = dict(state["hands"]), dict(state["lanterns"])
    del hands[player], lanterns[player]
    return {**state, "hands": hands, "lanterns": lanterns}


def dealt(content: Content, state: dict, _host: str, action: Start, chance) -> Start:
    """Each player's hand, drawn at random from the deck by the server's chance. A draw runs before
    the flow's checks: once the game has begun it deals nothing, and the flow refuses the start."""
    if state["phase"] != JOINING:
        return action
    names, hands = [card["name"] for card in state["deck"]], {}
    for player in state["players"]:
        hands[player], names = draw_from(names, state["deal"], chance.rng)
    return Start(hands=hands)


def start(content: Content, state: dict, _host: str, action: Start) -> dict:
    dealt_names = [name for hand in action.hands.values() for name in hand]
    by_name = {card["name"]: card for card in state["deck"]}
    # a replay repeats the logged deal: it must still fit this table and this deck
    if set(action.hands) != set(state["players"]) or not set(dealt_names) <= set(by_name):
        raise Refused("That deal does not fit this table's players and deck.")
    hands = {player: [by_name[name] for name in names] for player, names in action.hands.items()}
    deck = [card for card in state["deck"] if card["name"] not in set(dealt_names)]
    return {**state, "phase": PLAYING, "hands": hands, "deck": deck}


def kindle(content: Content, state: dict, mover: str, action: Kindle) -> dict:
    return _laid(state, mover, _held(state, mover, action.card), mover)


def douse(content: Content, state: dict, mover: str, action: Douse) -> dict:
    card = _held(state, mover, action.card)
    if action.target == mover:
        raise Refused("Kindle your own lantern; douse another player's.")
    if action.target not in state["lanterns"]:
        raise Refused("No such player at this table.")
    name, top = state["names"][action.target], _top_suit(state, action.target)
    if top is None:
        raise Refused(f"{name}'s lantern is dark: there is nothing to douse.")
    if top != card["suit"]:
        suit = _suit_name(state, top)
        raise Refused(f"{name}'s lantern shows {suit}: only a {suit} charm douses it.")
    return _laid(state, mover, card, action.target)


def _held(state: dict, player: str, name: str) -> dict:
    card = next((card for card in state["hands"][player] if card["name"] == name), None)
    if card is None:
        raise Refused(f"You do not hold {name}.")
    return card


def _laid(state: dict, mover: str, card: dict, owner: str) -> dict:
    """`mover` lays `card` on `owner`'s lantern; the turn passes, and the game ends once every
    hand is empty (every hand is dealt alike and each turn lays one card: they empty together)."""
    hands = {**state["hands"], mover: [c for c in state["hands"][mover] if c["name"] != card["name"]]}
    lanterns = {**state["lanterns"], owner: [*state["lanterns"][owner], {**card, "by": mover}]}
    turn = (state["turn"] + 1) % len(state["players"])
    state = {**state, "hands": hands, "lanterns": lanterns, "turn": turn}
    if any(hands.values()):
        return state
    return {**state, "phase": OVER, "winners": top_scorers(scores(state))}


def _top_suit(state: dict, player: str) -> str | None:
    """The suit of the card laid last on `player`'s lantern (None: it is dark)."""
    lantern = state["lanterns"][player]
    return lantern[-1]["suit"] if lantern else None


def _suit_name(state: dict, suit: str) -> str:
    return next(s["name"] for s in state["suits"] if s["id"] == suit)


def scores(state: dict) -> dict[str, int]:
    """Each player's score: what they kindled, minus what others doused on them."""
    return {
        player: sum(card["number"] if card["by"] == player else -card["number"] for card in lantern)
        for player, lantern in state["lanterns"].items()
    }


# --- the choices each move offers now -----------------------------------------------------


def _card_label(state: dict, card: dict) -> str:
    return f"{card['name']} ({_suit_name(state, card['suit'])} {card['number']})"


def kindles(content: Content, state: dict, mover: str) -> list[dict]:
    """Any charm of the mover's hand."""
    hand = state["hands"].get(mover, [])
    return [offer(pick=[one_of("card", [option(c["name"], _card_label(state, c)) for c in hand])])] if hand else []


def douses(content: Content, state: dict, mover: str) -> list[dict]:
    """Each charm of the mover's hand that matches another lantern's last card, and those lanterns."""
    cards = []
    for card in state["hands"].get(mover, []):
        targets = [p for p in state["players"] if p != mover and _top_suit(state, p) == card["suit"]]
        if targets:
            cards.append(option(card["name"], _card_label(state, card), [one_of("target", targets, state["names"])]))
    return [offer(pick=[one_of("card", cards)])] if cards else []


# --- what each viewer sees ----------------------------------------------------------------


def view(state: dict, viewer: str | None) -> dict:
    """The lanterns, the scores and how many charms each hand holds, for everyone; a player's own
    hand for that player alone. The charms set aside are no one's to see."""
    public = ("phase", "players", "names", "suits", "lanterns", "winners")
    return {
        **{key: state[key] for key in public},
        "scores": scores(state),
        "held": {player: len(hand) for player, hand in state["hands"].items()},
        "unseen": len(state["deck"]),  # the charms in no hand
        "hand": state["hands"].get(viewer, []),
    }


def redact(entry: Entry, viewer: str | None) -> dict:
    """The deal as `viewer` may see it: their own hand and how many charms each was dealt. A charm
    laid on a lantern is face up: a kindle or a douse is everyone's to see."""
    if entry.type != START:
        return dict(entry.payload)
    hands = entry.payload["hands"]
    return {
        "hands": {p: cards for p, cards in hands.items() if p == viewer},
        "counts": {p: len(c) for p, c in hands.items()},
    }


def results(state: dict) -> list[dict]:
    totals = scores(state)
    return [{"name": state["names"][p], "score": totals[p], "winner": p in state["winners"]} for p in state["players"]]


TRACKER = Rules(
    game=GAME,
    players_are="players",
    Options=Options,
    moves={
        # the deal is the start: final, as taking it back would be a redeal
        START: Move(Start, start, HOST_ONLY, stage=JOINING, final=True, draw=dealt),
        "kindle": Move(Kindle, kindle, TURN, choices=kindles),
        "douse": Move(Douse, douse, TURN, choices=douses),
    },
    setup_game=setup,
    view=view,
    results=results,
    turn=lambda state: state["players"][state["turn"]] if state["phase"] == PLAYING else None,
    joined=joined,
    left=left,
    redact=redact,
    computers=True,  # every hand is the server's: a computer player sees its own, as a phone does
)
