"""Spells and Potions tournaments: who sits where and partners whom in each of the three duels.

Seats run clockwise North, East, South, West. After each duel the wizards of West, East and
South move one seat clockwise, skipping North, whose wizard (or the Wizard's Companion when
three play) never moves; so over three duels every wizard partners every other seat once.
Two wizards never move: each partners their own Companion in all three duels.

Seats and players here are identities, not words: what a seat, a wizard or a Companion is
called on paper is the content's (the score-pad kind), so a translated pad needs no code.
"""

from __future__ import annotations

from dataclasses import dataclass

SEATS = ("north", "east", "south", "west")  # clockwise


@dataclass(frozen=True)
class Player:
    """Someone at the table: wizard `number` (0, 1, ...), or a Companion, who plays a hand but
    scores nothing. A Companion's `number` is the wizard whose own Companion it is (two wizards);
    None is the table's one shared Companion (three wizards)."""

    number: int | None
    companion: bool = False


SHARED_COMPANION = Player(None, companion=True)


def wizards(count: int) -> list[Player]:
    return [Player(i) for i in range(count)]


@dataclass(frozen=True)
class Scoring:
    """How a duel scores, from the content (pnp.games.spells_and_potions.kinds.scoring): the
    numbers live there once, and the printed score pad and these functions both read them."""

    tricks: int  # in a duel: one per card in a hand
    points_per_trick: float


@dataclass(frozen=True)
class Duel:
    number: int
    seating: tuple[tuple[str, Player], ...]  # (seat, who) in clockwise order
    partnerships: tuple[tuple[Player, Player], tuple[Player, Player]]
    leader: Player | None  # who leads the first trick; None: the players choose

    def seat_of(self, who: Player) -> str:
        return next(seat for seat, person in self.seating if person == who)


def _rotate(seating: dict[str, Player]) -> dict[str, Player]:
    """West to East, East to South, South to West: one seat clockwise, North stays."""
    return {"north": seating["north"], "east": seating["west"], "south": seating["east"], "west": seating["south"]}


def tournament(count: int, duels: int = 3) -> list[Duel]:
    """The duels of a tournament for 2, 3 or 4 wizards (three, as the rules play it)."""
    if count not in (2, 3, 4):
        raise ValueError(f"a tournament is for 2, 3 or 4 wizards, not {count}")
    players = wizards(count)
    if count == 2:
        a, b = players
        pairs = ((a, Player(a.number, companion=True)), (b, Player(b.number, companion=True)))
        seating = (("north", a), ("east", b), ("south", pairs[0][1]), ("west", pairs[1][1]))
        # the Arranger picks the first leader, then each duel's loser picks: written on the pad
        return [Duel(n, seating, pairs, None) for n in range(1, duels + 1)]
    seats = dict(zip(SEATS, [SHARED_COMPANION, *players] if count == 3 else players, strict=True))
    played = []
    for n in range(1, duels + 1):
        ordered = tuple((seat, seats[seat]) for seat in SEATS)
        pairs = ((seats["north"], seats["south"]), (seats["east"], seats["west"]))
        played.append(Duel(n, ordered, pairs, seats["west"]))
        seats = _rotate(seats)
    return played


def team_of(seat: str) -> int:
    """The partnership a seat plays for: partners sit opposite, team 0 North and South, team 1
    East and West (every duel's partnerships above pair those seats)."""
    return SEATS.index(seat) % 2


def order_of_play(seating: tuple[tuple[str, Player], ...], leader: str) -> tuple[str, ...]:
    """The seats in the order they play a trick `leader` leads.

    Three or four wizards: "In clockwise order, everyone takes turns laying a card." Two wizards:
    "If a wizard leads, the next player is the other wizard, then the Companions"; which Companion
    first is our two-wizard-order ruling: the leader's partner, so the partnerships play turn about.
    """
    seats = [seat for seat, _ in seating]
    at = seats.index(leader)
    clockwise = (*seats[at:], *seats[:at])
    who = dict(seating)
    if not any(p.companion and p.number is not None for p in who.values()):  # no one's own Companion
        return clockwise
    # the other of the leader's kind (wizard or Companion), then each one's partner, leader's first
    other = next(s for s in clockwise[1:] if who[s].companion == who[leader].companion)
    partner = {s: next(t for t in seats if t != s and who[t].number == who[s].number) for s in (leader, other)}
    return (leader, other, partner[leader], partner[other])


def trick_value(rules: Scoring, potions=()) -> float:
    """What a trick is worth to its winner: the points a trick scores, plus each potion card's
    potion points (`points` on the card: positive for a reward, negative for a penalty)."""
    return rules.points_per_trick + sum(card.points for card in potions)


def duel_score(tricks_won: int, rules: Scoring, potion_points: float = 0) -> float:
    """A partnership's score for one duel: the points of each trick won, plus or minus potion points."""
    if not 0 <= tricks_won <= rules.tricks:
        raise ValueError(f"tricks won must be 0 to {rules.tricks}, not {tricks_won}")
    return tricks_won * rules.points_per_trick + potion_points


def individual_totals(duels: list[Duel], partnership_scores: list[tuple[float, float]]) -> dict[Player, float]:
    """Each wizard's tournament score: the sum of their partnership's scores (Companions score nothing)."""
    totals: dict[Player, float] = {}
    for duel, scores in zip(duels, partnership_scores, strict=True):
        for pair, score in zip(duel.partnerships, scores, strict=True):
            for who in pair:
                if not who.companion:
                    totals[who] = totals.get(who, 0) + score
    return totals
