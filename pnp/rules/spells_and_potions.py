"""Spells and Potions tournaments: who sits where and partners whom in each of the three duels.

Seats run clockwise North, East, South, West. After each duel the wizards of West, East and
South move one seat clockwise, skipping North, whose wizard (or the Wizard's Companion when
three play) never moves; so over three duels every wizard partners every other seat once.
Two wizards never move: each partners their own Companion in all three duels.
"""

from __future__ import annotations

from dataclasses import dataclass

SEATS = ("North", "East", "South", "West")  # clockwise
COMPANION = "Companion"


@dataclass(frozen=True)
class Scoring:
    """How a duel scores, from the content (pnp.games.spells_and_potions.kinds.scoring): the
    numbers live there once, and the printed score pad and these functions both read them."""

    tricks: int  # in a duel: one per card in a hand
    points_per_trick: float


@dataclass(frozen=True)
class Duel:
    number: int
    seating: tuple[tuple[str, str], ...]  # (seat, who) in clockwise order
    partnerships: tuple[tuple[str, str], tuple[str, str]]
    leader: str | None  # who leads the first trick; None: the players choose

    def seat_of(self, who: str) -> str:
        return next(seat for seat, person in self.seating if person == who)


def wizard_names(wizards: int) -> list[str]:
    return [f"Wizard {chr(ord('A') + i)}" for i in range(wizards)]


def _rotate(seating: dict[str, str]) -> dict[str, str]:
    """West to East, East to South, South to West: one seat clockwise, North stays."""
    return {"North": seating["North"], "East": seating["West"], "South": seating["East"], "West": seating["South"]}


def tournament(wizards: int, duels: int = 3) -> list[Duel]:
    """The duels of a tournament for 2, 3 or 4 wizards (three, as the rules play it)."""
    if wizards not in (2, 3, 4):
        raise ValueError(f"a tournament is for 2, 3 or 4 wizards, not {wizards}")
    names = wizard_names(wizards)
    if wizards == 2:
        a, b = names
        pairs = ((a, f"{a}'s {COMPANION}"), (b, f"{b}'s {COMPANION}"))
        seating = (("North", a), ("East", b), ("South", pairs[0][1]), ("West", pairs[1][1]))
        # the Arranger picks the first leader, then each duel's loser picks: written on the pad
        return [Duel(n, seating, pairs, None) for n in range(1, duels + 1)]
    seats = dict(zip(("North", "East", "South", "West"), [COMPANION] + names if wizards == 3 else names, strict=True))
    played = []
    for n in range(1, duels + 1):
        ordered = tuple((seat, seats[seat]) for seat in SEATS)
        pairs = ((seats["North"], seats["South"]), (seats["East"], seats["West"]))
        played.append(Duel(n, ordered, pairs, seats["West"]))
        seats = _rotate(seats)
    return played


def trick_value(rules: Scoring, potions=()) -> float:
    """What a trick is worth to its winner: the points a trick scores, plus each potion card's
    potion points (`points` on the card: positive for a reward, negative for a penalty)."""
    return rules.points_per_trick + sum(card.points for card in potions)


def duel_score(tricks_won: int, rules: Scoring, potion_points: float = 0) -> float:
    """A partnership's score for one duel: the points of each trick won, plus or minus potion points."""
    if not 0 <= tricks_won <= rules.tricks:
        raise ValueError(f"tricks won must be 0 to {rules.tricks}, not {tricks_won}")
    return tricks_won * rules.points_per_trick + potion_points


def individual_totals(duels: list[Duel], partnership_scores: list[tuple[float, float]]) -> dict[str, float]:
    """Each wizard's tournament score: the sum of their partnership's scores (Companions score nothing)."""
    totals: dict[str, float] = {}
    for duel, scores in zip(duels, partnership_scores, strict=True):
        for pair, score in zip(duel.partnerships, scores, strict=True):
            for who in pair:
                if COMPANION not in who:
                    totals[who] = totals.get(who, 0) + score
    return totals
