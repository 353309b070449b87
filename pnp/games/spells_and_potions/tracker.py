"""Spells and Potions at the table: a Ritual Tournament's duels, tricks, trump and potion points,
and the individual totals at the end (pnp.rules.table.Tracker).

Wizards take their places in join order (the first to join is wizard A, and so on); seats and
partnerships in each duel are pnp.games.spells_and_potions.rules.tournament()'s. Team 0 is the
partnership North and South, team 1 East and West. Any wizard at the table, or the host, may
record for everyone: one phone in the middle of the table is enough. The state carries the
content's elements, ranks and Spells and Potions cards, so a phone enters a trick by taps.
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
from pnp.rules.table import HOST_ONLY, HOST_OR_PLAYER, GameTracker, Refused, Who, option, top_scorers

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


actions: dict[str, type[Strict]] = {
    "start": Start,
    "trick": Trick,
    "judge_trick": JudgeTrick,
    "set_trump": SetTrump,
    "end_duel": EndDuel,
}


def setup(content: Content, options: Options) -> dict:
    suits = content["element-suits"]
    return {
        "phase": "joining",  # then "playing", then "over"
        "wizards": options.wizards,
        "players": [],  # player ids in join order: wizard A, B, ...
        "names": {},  # player id -> name
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


def join(state: dict, player_id: str, name: str) -> dict:
    if player_id in state["names"]:  # a second join renames
        return {**state, "names": {**state["names"], player_id: name}}
    if state["phase"] != "joining" or len(state["players"]) == state["wizards"]:
        raise Refused(f"This tournament is for {state['wizards']} wizards, and they are all here.")
    return {**state, "players": [*state["players"], player_id], "names": {**state["names"], player_id: name}}


def apply(content: Content, state: dict, actor: str, action: Strict) -> dict:
    if isinstance(action, Start):
        return _start(content, state)
    if state["phase"] != "playing":
        raise Refused("The tournament has not begun yet." if state["phase"] == "joining" else "The tournament is over.")
    if isinstance(action, SetTrump):
        if not state["trump_choice_due"]:
            raise Refused("Trump changes only when a Trump Choice wins a trick; none is waiting.")
        return {**state, "trump": element(content, action.suit).id, "trump_choice_due": False}
    if state["trump_choice_due"]:
        # the choice is for the rest of the duel: the next trick is played under the trump picked
        raise Refused("The last trick's winner picks the trump before the next trick is recorded.")
    if isinstance(action, Trick):
        played = _dealt_once(content, state["played"], [PlayedCard(name=name) for name in action.potions])
        if len(action.potions) > state["hands"]:  # each within the deck's counts, but one card a hand
            raise Refused(
                f"A trick has {state['hands']} cards, one from each hand; {len(action.potions)} were entered."
            )
        points = sum(magic_card(content, name).points for name in action.potions)
        state = {**_won(content, state, action.team, points, last_trick=None), "played": played}
        picks = any(magic_card(content, name).changes == "winner-picks-trump" for name in action.potions)
        return {**state, "trump_choice_due": picks and _tricks_left(content, state)}
    if isinstance(action, JudgeTrick):
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
    return _end_duel(content, state)


def view(state: dict, actor: str) -> dict:
    """Everything: a trick-taking tracker holds no one's hand."""
    return {**state, "you": actor}


def _start(content: Content, state: dict) -> dict:
    if state["phase"] != "joining":
        raise Refused("The tournament has already begun.")
    if len(state["players"]) != state["wizards"]:
        raise Refused(f"{len(state['players'])} of {state['wizards']} wizards have joined.")
    return _seat(content, {**state, "phase": "playing"})


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


_RECORDER = Who(HOST_OR_PLAYER, "Only the wizards at this table and the host record its tricks.")
who = {
    "start": Who(HOST_ONLY, "Only the host starts the tournament."),
    **dict.fromkeys(("trick", "judge_trick", "set_trump", "end_duel"), _RECORDER),
}
TRACKER = GameTracker(
    "spells-and-potions", Options, actions, setup, join, apply, view, results, who=who, seated=lambda s: s["names"]
)
