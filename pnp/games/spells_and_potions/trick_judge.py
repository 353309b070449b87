"""Spells and Potions: which card wins a trick, and what the trick is worth.

The cards are entered by seat, with the leader's seat: the order of play is rules.order_of_play
(clockwise, or with two wizards the content's two-wizard-order ruling), and each card's team is
its seat's partnership, never its place in the trick.

By the rules: only an element card wins; the first element card sets the element to follow;
the highest trump wins if a trump was played, else the highest card of the led element; a trick
of Spells and Potions cards only goes to its leader. A card's `changes` (content) turns the
ranking over or takes trump's power away; its `rank_bonus` adds to its team's ranks; its
`points` change the trick's value. Where the rules leave a combination open, the content's
rulings decide, and the verdict carries the words of each ruling it used.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field, model_validator

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.spells_and_potions.kinds import MagicCard, Suit, scoring
from pnp.games.spells_and_potions.rules import order_of_play, team_of, tournament, trick_value
from pnp.rules.table import Refused

FOUR_WIZARDS = tournament(4, 1)[0].seating  # three wizards play in the same clockwise order
DECIDERS = ("lowest-wins", "ignore-trump")  # the changes that say which card of the led element wins


class PlayedCard(Strict):
    """An element card (suit and rank) or a Spells and Potions card (name), as a phone sends it."""

    suit: str = ""
    rank: int = Field(0, ge=0, le=99)
    name: str = ""

    @model_validator(mode="after")
    def _one_kind(self):
        if bool(self.name) == bool(self.suit and self.rank):
            raise ValueError("either suit and rank (an element card) or name (a Spells and Potions card)")
        return self


@dataclass(frozen=True)
class Verdict:
    winner: int  # the winning card's place in the order of play (0: the leader's)
    seat: str  # the winning card's seat
    team: int  # the winning team, 0 or 1
    value: float  # what the trick is worth to that team
    potion_points: float  # the part of `value` potion cards added or took away
    winner_picks_leader: bool  # the winner chooses who leads next
    winner_picks_trump: bool  # the winner chooses the trump element for the rest of the duel
    rulings: tuple[str, ...]  # the words of each of our rulings this trick needed


def judge(content: Content, by_seat: dict[str, PlayedCard], trump: str, leader: str, seating=FOUR_WIZARDS) -> Verdict:
    """The verdict on a complete trick, each seat's card with the leader's seat, at a table seated
    as `seating` (a rules.Duel's); Refused when the cards cannot be a trick of this deck."""
    seats = [seat for seat, _ in seating]
    if leader not in seats or not set(by_seat) <= set(seats):
        raise Refused(f"The seats are {', '.join(seats)}; a trick's cards and leader are theirs.")
    order = order_of_play(seating, leader)
    # a missing seat leaves the trick short, which _checked refuses with the count
    cards, magic = _checked(content, [by_seat[seat] for seat in order if seat in by_seat])
    rulings = content["rulings"].rulings
    used: list[str] = []
    elements = [i for i, card in enumerate(cards) if card.suit]
    team = [team_of(seat) for seat in order]  # the seat's partnership, not the card's place
    if not elements:
        winner = 0
    else:
        if elements[0] != 0:
            used.append("magic-lead")
        led = cards[elements[0]].suit
        deciders = [card.changes for card in magic.values() if card.changes in DECIDERS]
        if len(set(deciders)) > 1:
            used.append("reverse-and-shield")
        decider = deciders[-1] if deciders else None
        # Only a Shield takes trump's power away ("regardless of whether a trump has been played");
        # a Reverse speaks of the lead suit alone, so a trump played on another element still wins.
        trumped = "ignore-trump" not in deciders and any(cards[i].suit == trump for i in elements)
        lowest = decider == "lowest-wins" and not (trumped and led != trump)
        if decider == "lowest-wins" and not lowest:
            used.append("reverse-and-trump")
        contenders = [i for i in elements if cards[i].suit == (trump if trumped else led)]
        bonus = [sum(c.rank_bonus for i, c in magic.items() if team[i] == side) for side in (0, 1)]
        blasts = sum(1 for card in magic.values() if card.rank_bonus)
        if blasts > 1:
            used.append("two-blasts")
        if lowest and blasts:
            used.append("blast-in-reverse")
        # Higher is better. A Blast adds to the rank as printed: under a Reverse that is a worse card.
        strength = {
            i: -(cards[i].rank + bonus[team[i]]) if lowest else cards[i].rank + bonus[team[i]] for i in contenders
        }
        best = max(strength.values())
        tied = [i for i in contenders if strength[i] == best]
        if len(tied) > 1:
            used.append("tie")
        winner = tied[0]
    value = trick_value(scoring(content), magic.values())
    changes = {card.changes for card in magic.values()}
    return Verdict(
        winner=winner,
        seat=order[winner],
        team=team[winner],
        value=value,
        potion_points=value - scoring(content).points_per_trick,
        winner_picks_leader="winner-picks-leader" in changes,
        winner_picks_trump="winner-picks-trump" in changes,
        rulings=tuple(rulings[name] for name in used),
    )


def _checked(content: Content, cards: list[PlayedCard]) -> tuple[list[PlayedCard], dict[int, MagicCard]]:
    """The cards with each element named by its suit id, and the Spells and Potions cards by
    place; Refused unless every card is one the deck holds, no more often than it holds it, in
    a trick of one card a hand."""
    hands = content["duel-rules"].hands
    if len(cards) != hands:
        raise Refused(f"A trick has {hands} cards, one from each hand; {len(cards)} were entered.")
    ranks = content["element-suits"].ranks
    magic: dict[int, MagicCard] = {}
    checked: list[PlayedCard] = []
    for i, played in enumerate(cards):
        if played.name:
            card = magic_card(content, played.name)
            if sum(1 for c in magic.values() if c is card) == card.count:
                raise Refused(f"The deck holds {card.count} {card.name}; this trick has more.")
            magic[i] = card
            checked.append(played)
            continue
        suit = element(content, played.suit)
        if played.rank > ranks:
            raise Refused(f"Element cards run 1 to {ranks}; {played.rank} is not one.")
        played = played.model_copy(update={"suit": suit.id})
        if played in checked:
            raise Refused(f"There is one {played.rank} of {suit.name}; it was entered twice.")
        checked.append(played)
    return checked, magic


def magic_card(content: Content, name: str) -> MagicCard:
    """The Spells and Potions card of that name (any case)."""
    card = next((c for c in content["magic-cards"].cards if c.name.lower() == name.strip().lower()), None)
    if card is None:
        raise Refused(f"There is no Spells and Potions card called {name!r}.")
    return card


def element(content: Content, name: str) -> Suit:
    """The element suit of that id or name (any case)."""
    suits = content["element-suits"].suits
    suit = next((s for s in suits if name.strip().lower() in (s.id, s.name.lower())), None)
    if suit is None:
        raise Refused(f"There is no {name} element; the elements are {', '.join(s.name for s in suits)}.")
    return suit
