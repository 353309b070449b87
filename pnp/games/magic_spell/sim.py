"""Magic Spell played by simple students, to see whether a tile pool lets every homework be done.

Pure and seeded: the same content, players, games and seed give the same figures. The rule numbers
(starting spirit and ingredients, costs, limits, courseload) come from the content's set, the tile
mix from `tile_mix` over the deck's words, each spell's credits by the credit rule in that mix.
Spell effects are not played: simple students never cast, and always-on spells do nothing.

A turn, for a student, in order of preference:
  weave  a cabinet ingredient onto the homework spell nearest completion, then weave again
         (paying spirit) while the cabinet still holds a letter some homework needs;
  research when homework is short (fewer than the starting hand) or a homework spell is locked
         and the deck has cards (resting first to pay for it), so that a locked spell can go
         back to the deck at the end of the turn;
  scrounge a laboratory tile they remember and need, else one they do not know, at random: weave
         it if a homework spell needs it, otherwise put it back and remember it (keeping it would
         only hoard a letter someone else needs). Every student remembers tiles returned face up;
  rest   when scrounging cannot help (nothing unknown left to look at, or every spell is locked).
End of turn as the rules say; over the cabinet limit, unneeded tiles go back first; over the
homework limit, locked spells go back first, then those furthest from done. Between turns every
pair of students makes at most one one-for-one trade, when each gives a tile it does not need
(a spare cabinet tile, or one taken off a locked spell for its spirit) for one it does.

Definitions the figures use:
  spell-turn  a student's turn that starts with at least one incomplete homework spell.
  locked      a spell is locked when some letter it still needs has no copy the student can reach:
              none in the laboratory, none in their cabinet, none on their other spells (every
              copy is in other students' cabinets or woven on their spells). A spell-turn is
              locked when at least one of its homework spells is locked.
  finishes    a student calls for grading within `TURN_CAP` rounds (every student one turn).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from statistics import fmean

from pnp.content.loader import Content
from pnp.games.magic_spell import rules
from pnp.games.magic_spell.checks import credit_rule, spells

TURN_CAP = 200  # rounds; a game still going then never finishes


@dataclass
class Homework:
    word: str
    credits: int
    woven: Counter = field(default_factory=Counter)
    missing: Counter = field(init=False)  # letters still to weave, kept as it changes (the hot path)

    def __post_init__(self):
        self.missing = Counter(self.word.upper()) - self.woven

    def needs(self) -> Counter:
        return self.missing

    def add(self, letter: str) -> None:
        self.woven[letter] += 1
        self.missing[letter] -= 1
        if not self.missing[letter]:
            del self.missing[letter]

    def take_off(self, letter: str) -> None:
        self.woven[letter] -= 1
        self.woven = +self.woven
        self.missing[letter] += 1


@dataclass
class Student:
    spirit: int
    cabinet: Counter
    homework: list[Homework]
    credits: int = 0
    known: Counter = field(default_factory=Counter)  # laboratory tiles they looked at and put back

    def needs(self) -> Counter:
        """Every letter the homework still needs, beyond what the cabinet holds."""
        total: Counter = Counter()
        for spell in self.homework:
            total += spell.needs()
        return total - self.cabinet

    def spare(self) -> Counter:
        """Cabinet tiles no homework spell wants."""
        wanted: Counter = Counter()
        for spell in self.homework:
            wanted += spell.needs()
        return self.cabinet - wanted


@dataclass
class Table:
    laboratory: Counter
    seen: Counter  # laboratory tiles returned face up: every student remembers them
    deck: list[tuple[str, int]]  # (word, credits), top first
    students: list[Student]


@dataclass(frozen=True)
class GameResult:
    finished: bool
    rounds: int  # played, up to the cap
    spell_turns: int
    locked_spell_turns: int


@dataclass(frozen=True)
class Figures:
    players: int
    tiles: int
    games: int
    seed: int
    finished: float  # share of games
    locked: float  # share of spell-turns
    mean_rounds: float  # rounds, over finished games

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def is_locked(spell: Homework, student: Student, laboratory: Counter) -> bool:
    """Some letter the spell still needs has no copy in the laboratory, the student's cabinet or
    their other spells: every copy is with other students."""
    for letter in spell.needs():
        if laboratory[letter] or student.cabinet[letter]:
            continue
        if not any(other.woven[letter] for other in student.homework if other is not spell):
            return True
    return False


class Game:
    def __init__(self, content: Content, players: int, tiles: int, rng: random.Random):
        setup = content["magic-spell-set"]
        self.setup, self.rng = setup, rng
        cards = spells(content)
        pool = rules.tile_mix([card.word for card in cards], tiles)
        rule = credit_rule(content)
        # By the credit rule in this pool: what a set of `tiles` would print (the check holds the
        # shipped cards to it), as more tiles make fewer letters rare and so fewer credits.
        deck = [(card.word, rules.credits(card.word, pool, rule)) for card in cards]
        rng.shuffle(deck)
        bag = list(pool.elements())
        rng.shuffle(bag)
        students = []
        for _ in range(players):
            cabinet = Counter(bag.pop() for _ in range(setup.start.ingredients))
            hand = [Homework(*deck.pop(0)) for _ in range(setup.start.homework)]
            students.append(Student(setup.spirit.start, cabinet, hand))
        self.table = Table(Counter(bag), Counter(), deck, students)

    def play(self) -> GameResult:
        spell_turns = locked = 0
        grading_by = None
        for round_ in range(1, TURN_CAP + 1):
            for i, student in enumerate(self.table.students):
                if grading_by == i:  # everyone else has had their last turn
                    return GameResult(True, round_, spell_turns, locked)
                if student.homework:
                    spell_turns += 1
                    locked += self.any_locked(student)
                self.turn(student)
                self.trade()
                if grading_by is None and rules.calls_for_grading(student.credits, self.setup.courseload[0]):
                    grading_by = i
        return GameResult(grading_by is not None, TURN_CAP, spell_turns, locked)

    def any_locked(self, student: Student) -> bool:
        return any(is_locked(spell, student, self.table.laboratory) for spell in student.homework)

    def all_locked(self, student: Student) -> bool:
        return all(is_locked(spell, student, self.table.laboratory) for spell in student.homework)

    def turn(self, student: Student) -> None:
        spirit, table = self.setup.spirit, self.table
        if self.weave_from_cabinet(student):
            while self.weavable(student) and student.spirit >= spirit.weave_again:
                student.spirit = rules.weave_again(student.spirit, spirit)
                self.weave_from_cabinet(student)
        elif self.wants_research(student):
            if student.spirit >= spirit.research:
                student.spirit = rules.research(student.spirit, spirit)
                student.homework.append(Homework(*table.deck.pop(0)))
            else:
                student.spirit = rules.rest(student.spirit, spirit)
        elif self.all_locked(student) or not self.scrounge(student):
            student.spirit = rules.rest(student.spirit, spirit)
        self.end_of_turn(student)

    def wants_research(self, student: Student) -> bool:
        short = len(student.homework) < self.setup.start.homework
        return bool(self.table.deck) and (short or self.any_locked(student))

    @staticmethod
    def nearest_first(student: Student) -> list[Homework]:
        return sorted(student.homework, key=lambda s: sum(s.needs().values()))

    def weavable(self, student: Student) -> list[tuple[Homework, str]]:
        """(spell, letter) pairs the cabinet can weave now, the spell nearest completion first."""
        cabinet = student.cabinet
        return [(spell, letter) for spell in self.nearest_first(student) for letter in spell.needs() if cabinet[letter]]

    def weave_from_cabinet(self, student: Student) -> bool:
        pairs = self.weavable(student)
        if not pairs:
            return False
        spell, letter = pairs[0]
        student.cabinet[letter] -= 1
        student.cabinet = +student.cabinet
        self.weave(student, spell, letter)
        return True

    def weave(self, student: Student, spell: Homework, letter: str) -> None:
        spell.add(letter)
        if not spell.needs():
            self.put_back(spell.woven)
            student.homework.remove(spell)
            student.credits += spell.credits

    def scrounge(self, student: Student) -> bool:
        """A remembered tile some homework needs, else an unknown one; False when there is neither."""
        table = self.table
        wanted = student.needs()
        remembered = (table.seen + student.known) & wanted
        if remembered:
            letter = min(remembered)
            known = table.seen if table.seen[letter] else student.known
            known[letter] -= 1
        else:
            unknown = sorted((table.laboratory - table.seen - student.known).elements())
            if not unknown:
                return False
            letter = self.rng.choice(unknown)
        spell = next((s for s in self.nearest_first(student) if s.needs()[letter]), None)
        if spell is None:  # put back, and remembered by whoever looked
            student.known[letter] += 1
            return True
        self.take_from_laboratory(letter)
        self.weave(student, spell, letter)
        return True

    def take_from_laboratory(self, letter: str) -> None:
        """One tile leaves the laboratory; what anyone remembers of it cannot exceed what is left."""
        table = self.table
        table.laboratory[letter] -= 1
        table.seen = +table.seen
        for other in table.students:
            other.known[letter] = min(other.known[letter], table.laboratory[letter] - table.seen[letter])
            other.known = +other.known
        table.laboratory = +table.laboratory

    def put_back(self, tiles: Counter) -> None:
        """Returned face up, so every student remembers them."""
        self.table.laboratory += tiles
        self.table.seen += tiles

    def end_of_turn(self, student: Student) -> None:
        setup, table = self.setup, self.table
        student.spirit = rules.end_of_turn(student.spirit, setup.spirit)
        for _ in range(rules.over_limit(sum(student.cabinet.values()), setup.limits.cabinet)):
            spare = student.spare()
            letter = next(iter(spare)) if spare else next(iter(student.cabinet))
            student.cabinet[letter] -= 1
            student.cabinet = +student.cabinet
            self.put_back(Counter(letter))
        for _ in range(rules.over_limit(len(student.homework), setup.limits.homework)):
            # A locked spell first: its woven tiles go back for whoever can use them.
            dropped = max(
                student.homework,
                key=lambda s: (is_locked(s, student, table.laboratory), sum(s.needs().values())),
            )
            student.homework.remove(dropped)
            self.put_back(dropped.woven)
            table.deck.append((dropped.word, dropped.credits))

    def offers(self, student: Student) -> Counter:
        """Tiles a student would trade away: spare cabinet tiles, and (if they can pay to take
        them off) tiles woven on their locked spells, which are going nowhere."""
        offers = student.spare()
        if student.spirit >= self.setup.spirit.trade_remove:
            for spell in student.homework:
                if is_locked(spell, student, self.table.laboratory):
                    offers |= spell.woven
        return offers

    def give(self, giver: Student, taker: Student, letter: str) -> None:
        if giver.spare()[letter]:
            giver.cabinet[letter] -= 1
            giver.cabinet = +giver.cabinet
        else:
            spell = next(s for s in giver.homework if s.woven[letter])
            giver.spirit = rules.trade_remove(giver.spirit, self.setup.spirit)
            spell.take_off(letter)
        taker.cabinet[letter] += 1

    def trade(self) -> None:
        """Each pair swaps one offered tile for one wanted tile, when both gain."""
        students = self.table.students
        offers = [self.offers(student) for student in students]
        needs = [student.needs() for student in students]
        for a in range(len(students)):
            for b in range(a + 1, len(students)):
                gives = sorted(offers[a] & needs[b])
                takes = sorted(offers[b] & needs[a])
                if gives and takes and gives[0] != takes[0]:
                    self.give(students[a], students[b], gives[0])
                    self.give(students[b], students[a], takes[0])
                    for i in (a, b):
                        offers[i], needs[i] = self.offers(students[i]), students[i].needs()


def play_games(content: Content, players: int, games: int, seed: int, tiles: int | None = None) -> Iterator[GameResult]:
    """Each game's result in turn (so a caller can show progress); game `i` is seeded by (seed, i)."""
    tiles = tiles or content["magic-spell-set"].letter_tiles
    for i in range(games):
        yield Game(content, players, tiles, random.Random(f"{seed}:{i}")).play()


def figures(results: list[GameResult], players: int, tiles: int, seed: int) -> Figures:
    spell_turns = sum(r.spell_turns for r in results)
    finished = [r for r in results if r.finished]
    return Figures(
        players=players,
        tiles=tiles,
        games=len(results),
        seed=seed,
        finished=len(finished) / len(results),
        locked=sum(r.locked_spell_turns for r in results) / spell_turns if spell_turns else 0.0,
        mean_rounds=fmean(r.rounds for r in finished) if finished else 0.0,
    )
