"""Spells and Potions at the table: a Ritual Tournament's duels, tricks, trump and potion points,
and the individual totals at the end (pnp.rules.flow.Rules).

Wizards take their places in join order (the first to join is wizard A, and so on); seats and
partnerships in each duel are pnp.games.spells_and_potions.rules.tournament()'s. Team 0 is the
partnership North and South, team 1 East and West. Any wizard at the table, or the host, may
record for everyone (the flow's TABLE moves): one phone in the middle of the table is enough. The
state carries the content's elements, ranks and Spells and Potions cards, so a phone enters a trick
by taps, and the offers say which cards are still in the duel's hands.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Literal

from pydantic import Field, model_validator

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.spells_and_potions import GAME
from pnp.games.spells_and_potions.kinds import scoring
from pnp.games.spells_and_potions.rules import SEATS, Player, duel_score, individual_totals, order_of_play, tournament
from pnp.games.spells_and_potions.trick_judge import PlayedCard, element, judge, magic_card
from pnp.rules.flow import HOST_ONLY, JOINING, TABLE, Move, Rules, option
from pnp.rules.offers import offer, one_of, some_of
from pnp.rules.standings import top_scorers
from pnp.rules.table import Refused

Team = Literal[0, 1]
Seat = Literal[SEATS]
WIZARDS = tuple(range(GAME.players[0], GAME.players[1] + 1))  # every count the game declares, a choice each


def _table_of(wizards: int) -> str:
    """How many play, in words: the seats no wizard takes are the Wizard's Companion's."""
    empty = len(SEATS) - wizards
    return f"{wizards} wizards" + (f" and {empty} Wizard's Companion{'s' if empty > 1 else ''}" if empty else "")


class Options(Strict):
    # the basic game is the most the game declares
    wizards: Literal[WIZARDS] = option(WIZARDS[-1], "Wizards", {n: _table_of(n) for n in WIZARDS})  # type: ignore[valid-type]


class Start(Strict):
    """Begin the first duel once every wizard has joined (host)."""


class Trick(Strict):
    """A trick won by `team`; the Spells and Potions cards in it (their potion points count, and a
    Trump Choice among them asks for the trump)."""

    team: Team
    potions: list[str] = Field(default_factory=list, max_length=8)  # card names, e.g. a reward


class JudgeTrick(Strict):
    """The cards of a trick in the order played from the leader's seat: the judge says who won;
    the trick is recorded."""

    leader: Seat | None = None  # the seat that led
    # older phones name the team that led instead: North or East stands for it, whose order of play
    # gives every card the same team and place (partners sit opposite, the order alternates teams)
    lead: Team | None = None
    cards: list[PlayedCard] = Field(min_length=1, max_length=8)

    @model_validator(mode="after")
    def _one_leader(self):
        if (self.leader is None) == (self.lead is None):
            raise ValueError("either the leader's seat or the leading team")
        return self


class SetTrump(Strict):
    """After a Trump Choice won a trick: this element is trump for the rest of the duel (refused
    at any other time)."""

    suit: str = Field(min_length=1)


class EndDuel(Strict):
    """Score the duel once every trick is recorded; the next duel, or the tournament's end."""


def setup(content: Content, options: Options) -> dict:
    """The game's keys (the flow's: phase, players in join order, wizard A first, and names)."""
    suits = content["element-suits"]
    return {
        "wizards": options.wizards,
        "duel": 0,  # the current duel, from 0
        "seats": {},  # seat -> player id, "companion" (shared) or "companion:<player id>" (their own)
        "orders": {},  # leader's seat -> the seats in the order they play (rules.order_of_play), for the phone
        "teams": [],  # [[member, member], [member, member]]: team 0 (North, South), team 1 (East, West)
        "tricks": [0, 0],  # tricks each team has won this duel
        "potions": [0, 0],  # potion points each team has gained this duel
        "leader": None,  # who leads the duel's first trick, when the rules seat a leader
        "leader_chooser": None,  # when they do not: the wizard who lost the previous duel (None: the Arranger)
        "trump": suits.trump,
        "trump_choice_due": False,  # the latest judged trick's winner is yet to pick the trump
        "rulings": [],  # the words of our rulings on how this duel is played and led, when they apply
        "last_trick": None,  # the judge's verdict on the latest judged trick, with its cards
        "played": [],  # the cards recorded this duel: {"suit", "rank"} or {"name"}, each as often as played
        # What the phone offers to tap, from the content (overlays included): no card is typed.
        "elements": [{"id": suit.id, "name": suit.name, "letter": suit.letter} for suit in suits.suits],
        "ranks": list(range(1, suits.ranks + 1)),
        "magic_cards": [
            {"name": card.name, "count": card.count, "points": card.points} for card in content["magic-cards"].cards
        ],
        "hands": content["duel-rules"].hands,  # a trick has one card from each hand
        "tricks_per_duel": scoring(content).tricks,
        "duels": [],  # each finished duel: {tricks, potions, scores}
        "totals": {},  # player id -> tournament score, once it is over
        "winners": [],
    }


def _start(content: Content, state: dict, _host: str, _action: Start) -> dict:
    return _seat(content, {**state, "phase": "playing"})


def _set_trump(content: Content, state: dict, _mover: str, action: SetTrump) -> dict:
    if not state["trump_choice_due"]:
        raise Refused("Trump changes only when a Trump Choice wins a trick; none is waiting.")
    return {**state, "trump": element(content, action.suit).id, "trump_choice_due": False}


def _unpicked(state: dict) -> None:
    if state["trump_choice_due"]:
        # the choice is for the rest of the duel: the next trick is played under the trump picked
        raise Refused("The last trick's winner picks the trump before the next trick is recorded.")


def _trick(content: Content, state: dict, _mover: str, action: Trick) -> dict:
    _unpicked(state)
    played = _dealt_once(content, state["played"], [PlayedCard(name=name) for name in action.potions])
    if len(action.potions) > state["hands"]:  # each within the deck's counts, but one card a hand
        raise Refused(f"A trick has {state['hands']} cards, one from each hand; {len(action.potions)} were entered.")
    points = sum(magic_card(content, name).points for name in action.potions)
    state = {**_won(content, state, action.team, points, last_trick=None), "played": played}
    picks = any(magic_card(content, name).changes == "winner-picks-trump" for name in action.potions)
    return {**state, "trump_choice_due": picks and _tricks_left(content, state)}


def _judge_trick(content: Content, state: dict, _mover: str, action: JudgeTrick) -> dict:
    _unpicked(state)
    seating = _duels(content, state)[state["duel"]].seating
    leader = action.leader or SEATS[action.lead]  # team 0 North, team 1 East
    by_seat = dict(zip(order_of_play(seating, leader), action.cards, strict=False))
    if len(action.cards) > len(seating):  # fewer: the judge refuses a short trick
        raise Refused(f"{len(action.cards)} cards for {len(seating)} seats: one card a seat.")
    verdict = judge(content, by_seat, state["trump"], leader, seating)
    played = _dealt_once(content, state["played"], action.cards)
    cards = [card.model_dump(exclude_defaults=True) for card in action.cards]
    last_trick = {**asdict(verdict), "rulings": list(verdict.rulings), "cards": cards}
    state = _won(content, state, verdict.team, verdict.potion_points, last_trick)
    due = verdict.winner_picks_trump and _tricks_left(content, state)
    return {**state, "played": played, "trump_choice_due": due}


# --- the choices each move offers now -----------------------------------------------------


def _in_hands(state: dict) -> list[tuple[dict, int]]:
    """The cards not yet played this duel, each with how many of it are left: one of each element
    card, a Spells and Potions card as often as the deck holds it."""
    played = state["played"]
    elements = [
        ({"suit": e["id"], "rank": rank}, 1)
        for e in state["elements"]
        for rank in state["ranks"]
        if {"suit": e["id"], "rank": rank} not in played
    ]
    magic = [({"name": m["name"]}, m["count"] - played.count({"name": m["name"]})) for m in state["magic_cards"]]
    return elements + [(card, left) for card, left in magic if left > 0]


def _trick_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    """The team that won it, and the Spells and Potions cards in it (none to one a hand)."""
    potions = [(card["name"], left) for card, left in _in_hands(state) if "name" in card]
    return [offer(pick=[one_of("team", [0, 1]), some_of("potions", potions, 0, state["hands"])])]


def _judge_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    """The seat that led, and one card from each hand among those still in the hands."""
    return [offer(pick=[one_of("leader", list(state["seats"])), some_of("cards", _in_hands(state), state["hands"])])]


def _trump_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    return [offer(pick=[one_of("suit", [e["id"] for e in state["elements"]])])] if state["trump_choice_due"] else []


def view(state: dict, actor: str) -> dict:
    """Everything: a trick-taking tracker holds no one's hand."""
    return {**state, "you": actor}


def _won(content: Content, state: dict, team: int, potion_points: float, last_trick: dict | None) -> dict:
    tricks = scoring(content).tricks
    if sum(state["tricks"]) == tricks:
        raise Refused(f"All {tricks} tricks of this duel are recorded; end the duel.")
    won = [n + (side == team) for side, n in enumerate(state["tricks"])]
    potions = [p + (potion_points if side == team else 0) for side, p in enumerate(state["potions"])]
    return {**state, "tricks": won, "potions": potions, "last_trick": last_trick, "trump_choice_due": False}


def _tricks_left(content: Content, state: dict) -> bool:
    """Whether the duel has a trick still to play: a Trump Choice on its last trick picks nothing."""
    return sum(state["tricks"]) < scoring(content).tricks


def _dealt_once(content: Content, played: list[dict], cards) -> list[dict]:
    """`played` with `cards` added; Refused when the deck cannot hold them all: a card played earlier
    in this duel is in a trick's pile, not in anyone's hand (each element card is one of a kind, each
    Spells and Potions card is in the deck `count` times)."""
    played = list(played)
    for card in cards:
        if card.name:
            magic = magic_card(content, card.name)
            entry = {"name": magic.name}
            if played.count(entry) >= magic.count:
                raise Refused(f"{magic.name} was already played this duel: the deck holds {magic.count}.")
        else:
            suit = element(content, card.suit)
            entry = {"suit": suit.id, "rank": card.rank}
            if entry in played:
                raise Refused(f"The {card.rank} of {suit.name} was already played this duel.")
        played.append(entry)
    return played


def _end_duel(content: Content, state: dict) -> dict:
    rules = scoring(content)
    if sum(state["tricks"]) != rules.tricks:
        raise Refused(f"{sum(state['tricks'])} of {rules.tricks} tricks are recorded; the duel is not over.")
    scores = [duel_score(won, rules, points) for won, points in zip(state["tricks"], state["potions"], strict=True)]
    finished = [*state["duels"], {"tricks": state["tricks"], "potions": state["potions"], "scores": scores}]
    state = {**state, "duels": finished, "duel": state["duel"] + 1, "tricks": [0, 0], "potions": [0, 0]}
    state = {
        **state,
        "trump": content["element-suits"].trump,
        "trump_choice_due": False,
        "last_trick": None,
        "played": [],
    }
    duels = _duels(content, state)
    if state["duel"] < len(duels):
        return _seat(content, state)
    by_wizard = individual_totals(duels, [tuple(duel["scores"]) for duel in finished])
    totals = {pid: by_wizard[Player(number)] for number, pid in enumerate(state["players"])}
    return {**state, "phase": "over", "totals": totals, "winners": top_scorers(totals)}


def _duels(content: Content, state: dict):
    return tournament(state["wizards"], content["duel-rules"].duels)


def _seat(content: Content, state: dict) -> dict:
    """The current duel's seats, teams and leader (or who chooses the leader), by player id."""
    duels = _duels(content, state)
    duel = duels[state["duel"]]
    seats = {seat: _member(state, who) for seat, who in duel.seating}
    teams = [[_member(state, who) for who in pair] for pair in duel.partnerships]
    leader = None if duel.leader is None else _member(state, duel.leader)
    chooser = None
    rulings = content["rulings"].rulings
    # our readings of the two-wizard rules, shown on the phones as on the pad
    shown = [rulings["two-wizard-order"]] if state["wizards"] == 2 else []
    if duel.leader is None and state["duels"]:
        # The loser of the previous duel chooses; after a tie nobody lost, and the Arranger chooses again.
        low, high = sorted(state["duels"][-1]["scores"])
        if low < high:
            losers = duels[state["duel"] - 1].partnerships[state["duels"][-1]["scores"].index(low)]
            chooser = next(_member(state, who) for who in losers if not who.companion)
        else:
            shown.append(rulings["tied-duel-leader"])
    orders = {seat: list(order_of_play(duel.seating, seat)) for seat in seats}
    return {
        **state,
        "seats": seats,
        "orders": orders,
        "teams": teams,
        "leader": leader,
        "leader_chooser": chooser,
        "rulings": shown,
    }


def _member(state: dict, who: Player) -> str:
    if not who.companion:
        return state["players"][who.number]
    return "companion" if who.number is None else f"companion:{state['players'][who.number]}"


def results(state: dict) -> list[dict]:
    """Each wizard's tournament total (empty until the last duel is scored), in seat letter order."""
    return [
        {"name": state["names"][pid], "total": state["totals"].get(pid, ""), "winner": pid in state["winners"]}
        for pid in state["players"]
    ]


_RECORDED = {"trick": (Trick, _trick, _trick_choices), "judge_trick": (JudgeTrick, _judge_trick, _judge_choices)}
TRACKER = Rules(
    game=GAME,
    players_are="wizards",
    Options=Options,
    moves={
        "start": Move(Start, _start, HOST_ONLY, stage=JOINING),
        # any wizard at the table, or the host, records for everyone
        **{name: Move(body, handler, TABLE, choices=choices) for name, (body, handler, choices) in _RECORDED.items()},
        "set_trump": Move(SetTrump, _set_trump, TABLE, choices=_trump_choices),
        "end_duel": Move(EndDuel, lambda content, state, _mover, _action: _end_duel(content, state), TABLE),
    },
    setup_game=setup,
    view=view,
    results=results,
    room=lambda options: (options.wizards, options.wizards),
)
