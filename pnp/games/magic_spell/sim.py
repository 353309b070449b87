"""Magic Spell played by simple students, to see whether a tile pool lets every homework be done.

Pure and seeded: the same content, players, games and seed give the same figures. The students
play by the table's own rules: every move that counts (spirit paid and gained, a spell completed,
the end of a turn, grading and the last turns, a trade's timing) is the tracker's move, made on a
tracker state (pnp.games.magic_spell.moves); the simulation keeps only what the tracker leaves on
the table (tiles, hands, the laboratory, what each student remembers) and the students' choices.
The rule numbers come from the content's set, the tile mix from `tile_mix` over the deck's words,
each spell's credits by the credit rule in that mix. Simple students never cast; the always-on
effects the tracker follows (PROCRASTINATE's last turns, ZENITH's credit) count as at the table.

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
pair of students the rules let trade then (neither taking a turn; two students, both) makes at
most one one-for-one trade, when each gives a tile it does not need (a spare cabinet tile, or one
taken off a locked spell for its spirit) for one it does.

Definitions the figures use:
  spell-turn  a student's turn that starts with at least one incomplete homework spell.
  locked      a spell is locked when some letter it still needs has no copy the student can reach:
              none in the laboratory, none in their cabinet, none on their other spells (every
              copy is in other students' cabinets or woven on their spells). A spell-turn is
              locked when at least one of its homework spells is locked.
  finishes    the semester ends (grading called, every last turn played) within `TURN_CAP` rounds
              (every student one turn).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Set
from dataclasses import dataclass, field
from operator import attrgetter
from statistics import fmean

from pnp.content.loader import Content
from pnp.games.magic_spell import rules
from pnp.games.magic_spell.actions import (
    Action,
    CompleteSpell,
    EndTurn,
    Research,
    Rest,
    Scrounge,
    Start,
    TradeRemove,
    Weave,
    WeaveAgain,
)
from pnp.games.magic_spell.checks import credit_rule, spells
from pnp.games.magic_spell.moves import traders, turn_of
from pnp.games.magic_spell.tracker import TRACKER
from pnp.rules.flow import PLAYING
from pnp.rules.table import HOST, Refused
from pnp.sim.pool import WORKERS, play_seeded

TURN_CAP = 200  # rounds; a game still going then never finishes
# the moves without choices, made once: a body is never changed
REST, RESEARCH, WEAVE, WEAVE_AGAIN = Rest(), Research(), Weave(), WeaveAgain()
END_TURN, TRADE_REMOVE = EndTurn(), TradeRemove()
KEPT, WOVEN = Scrounge(woven=False), Scrounge(woven=True)


@dataclass
class Homework:
    word: str
    woven: Counter = field(default_factory=Counter)
    missing: Counter = field(init=False)  # letters still to weave, kept as it changes (the hot path)
    left: int = field(init=False)  # how many: the nearest spell to completion is the fewest left

    def __post_init__(self):
        self.missing = Counter(self.word.upper())
        if self.woven:  # a spell dealt with nothing woven (nearly all) needs no subtraction
            self.missing -= self.woven
        self.left = sum(self.missing.values())

    def add(self, letter: str) -> None:
        self.woven[letter] += 1
        self.left -= 1
        take(self.missing, letter)

    def take_off(self, letter: str) -> None:
        take(self.woven, letter)
        self.missing[letter] += 1
        self.left += 1


@dataclass
class Student:
    """A student's cabinet and homework, changed only through its methods: what the homework
    wants, needs and leaves spare is worked out once for each change, not for each question (a
    table asks after every turn, for every student, whether they would trade)."""

    id: str  # their player id at the tracker's table, which keeps their spirit and spellbook
    cabinet: Counter
    homework: list[Homework]
    known: Counter = field(default_factory=Counter)  # laboratory tiles they looked at and put back
    _worked_out: dict = field(default_factory=dict, repr=False, compare=False)

    # --- what changes it ---------------------------------------------------------------------

    def changed(self) -> None:
        self._worked_out.clear()

    def take(self, letter: str) -> None:
        """One `letter` out of the cabinet."""
        take(self.cabinet, letter)
        self.changed()

    def receive(self, letter: str) -> None:
        self.cabinet[letter] += 1
        self.changed()

    def weave(self, spell: Homework, letter: str) -> None:
        spell.add(letter)
        self.changed()

    def take_off(self, spell: Homework, letter: str) -> None:
        spell.take_off(letter)
        self.changed()

    def draw(self, word: str) -> None:
        self.homework.append(Homework(word))
        self.changed()

    def drop(self, spell: Homework) -> None:
        """A spell out of the homework (completed or sent back)."""
        self.homework.remove(spell)
        self.changed()

    # --- what it asks ------------------------------------------------------------------------

    # wanted, needs and spare are plain dicts, each letter held a positive count: a Counter built
    # for each (thousands a game) was most of a simulation's time. Callers only read them.
    def wanted(self) -> dict[str, int]:
        """Every letter the homework still needs, in the order the spells first name them."""
        if "wanted" not in self._worked_out:
            total: dict[str, int] = {}
            for spell in self.homework:
                for letter, n in spell.missing.items():
                    total[letter] = total.get(letter, 0) + n
            self._worked_out["wanted"] = total
        return self._worked_out["wanted"]

    def needs(self) -> dict[str, int]:
        """Every letter the homework still needs, beyond what the cabinet holds."""
        if "needs" not in self._worked_out:
            held = self.cabinet.get  # get: no Counter.__missing__ call
            needs = {letter: n - held(letter, 0) for letter, n in self.wanted().items() if n > held(letter, 0)}
            self._worked_out["needs"] = needs
        return self._worked_out["needs"]

    def spare(self) -> dict[str, int]:
        """Cabinet tiles no homework spell wants, in the cabinet's order."""
        if "spare" not in self._worked_out:
            wanted = self.wanted().get
            spare = {letter: n - wanted(letter, 0) for letter, n in self.cabinet.items() if n > wanted(letter, 0)}
            self._worked_out["spare"] = spare
        return self._worked_out["spare"]

    def locked(self, table: Table) -> list[Homework]:
        """The homework spells that are locked (is_locked), found from the letters the laboratory
        has none of (Table.out_of_lab, a few at most, and seldom changed): when the cabinet holds
        each that the homework wants, none is locked and no spell is looked at."""
        key = ("locked", table.out_of_lab_changes)
        if key not in self._worked_out:
            cabinet, wanted = self.cabinet, self.wanted()
            out_of_reach = [letter for letter in table.out_of_lab if letter in wanted and not cabinet.get(letter)]
            locked = [spell for spell in self.homework if _locked_by(spell, self, out_of_reach)] if out_of_reach else []
            self._worked_out[key] = locked
        return self._worked_out[key]


@dataclass
class Table:
    laboratory: Counter
    seen: Counter  # laboratory tiles returned face up: every student remembers them
    deck: list[str]  # magic words, top first
    students: list[Student]
    out_of_lab: set[str] = field(init=False)  # letters of the game's words the laboratory has none of
    # how often out_of_lab has changed: what a student worked out of their locked spells holds till then
    out_of_lab_changes: int = field(init=False, default=0)

    def __post_init__(self):
        words = self.deck + [spell.word for student in self.students for spell in student.homework]
        self.out_of_lab = {letter for word in words for letter in word.upper()} - set(self.laboratory)

    def take(self, letter: str) -> None:
        """One tile out of the laboratory."""
        take(self.laboratory, letter)
        if letter not in self.laboratory:
            self.out_of_lab.add(letter)
            self.out_of_lab_changes += 1

    def put_back(self, tiles: Counter) -> None:
        """Returned face up, so every student remembers them."""
        self.laboratory += tiles
        self.seen += tiles
        if not self.out_of_lab.isdisjoint(tiles):
            self.out_of_lab -= tiles.keys()
            self.out_of_lab_changes += 1


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


def take(tiles: Counter, letter: str) -> None:
    """One `letter` fewer in `tiles`, which keeps only letters it holds. (In place: the Counter
    arithmetic that does the same builds a new Counter, most of a simulation's time.)"""
    tiles[letter] -= 1
    if tiles[letter] <= 0:
        del tiles[letter]


def is_locked(spell: Homework, student: Student, laboratory: Counter) -> bool:
    """Some letter the spell still needs has no copy in the laboratory, the student's cabinet or
    their other spells: every copy is with other students."""
    cabinet = student.cabinet
    return _locked_by(spell, student, [l for l in spell.missing if not laboratory.get(l) and not cabinet.get(l)])


def _locked_by(spell: Homework, student: Student, out_of_reach: list[str]) -> bool:
    """Whether a letter `spell` needs, of those out of the student's reach in the laboratory and
    cabinet, is on none of their other spells either."""
    others = [other.woven for other in student.homework if other is not spell]
    return any(spell.missing.get(letter) and not any(woven.get(letter) for woven in others) for letter in out_of_reach)


@dataclass(frozen=True)
class Semester:
    """What every game of a run starts from, worked out once for the run: the tile pool, the
    deck's words, and the tracker's table with the students seated and the semester begun (the
    tracker's states are never changed, only replaced, so games share it)."""

    players: int
    pool: Counter
    words: list[str]
    state: dict

    @classmethod
    def of(cls, content: Content, players: int, tiles: int) -> Semester:
        cards = spells(content)
        pool = rules.tile_mix([card.word for card in cards], tiles)
        rule = credit_rule(content)
        # By the credit rule in this pool: what a set of `tiles` would print (the check holds the
        # shipped cards to it), as more tiles make fewer letters rare and so fewer credits.
        credits = {card.word: rules.credits(card.word, pool, rule) for card in cards}
        # the table's numbers, kept and moved by the tracker: this set's deck, the students in seat order
        state = TRACKER.setup(content, TRACKER.Options())
        state = {**state, "deck": [{**card, "credits": credits[card["spell"]]} for card in state["deck"]]}
        for n in range(players):
            state = TRACKER.join(state, student_id(n), student_id(n))
        state = TRACKER.apply(content, state, HOST, Start())
        return cls(players, pool, [card.word for card in cards], state)


def student_id(n: int) -> str:
    """The player id of the student in seat `n` (from 0)."""
    return f"s{n + 1}"


class Game:
    def __init__(self, content: Content, semester: Semester, rng: random.Random):
        setup = content["magic-spell-set"]
        self.content, self.setup, self.rng = content, setup, rng
        deck = list(semester.words)
        rng.shuffle(deck)
        bag = list(semester.pool.elements())
        rng.shuffle(bag)
        students = []
        for n in range(semester.players):
            cabinet = Counter(bag.pop() for _ in range(setup.start.ingredients))
            hand = [Homework(deck.pop(0)) for _ in range(setup.start.homework)]
            students.append(Student(student_id(n), cabinet, hand))
        self.table = Table(Counter(bag), Counter(), deck, students)
        self.state = semester.state

    # --- the tracker's moves ---------------------------------------------------------------

    def move(self, student: Student, action: Action) -> None:
        """`student`'s move, by the table's rules (Refused when they forbid it)."""
        self.state = TRACKER.apply(self.content, self.state, student.id, action)

    def moved(self, student: Student, action: Action) -> bool:
        """`student`'s move if the rules allow it now (spirit enough): whether it was made."""
        try:
            self.move(student, action)
        except Refused:
            return False
        return True

    def allows(self, student: Student, action: Action) -> bool:
        """Whether the rules would let `student` make the move now (it is only tried)."""
        try:
            TRACKER.apply(self.content, self.state, student.id, action, trial=True)
        except Refused:
            return False
        return True

    # --- a game -------------------------------------------------------------------------------

    def play(self) -> GameResult:
        spell_turns = locked = turns = 0
        by_id = {student.id: student for student in self.table.students}
        cap = TURN_CAP * len(by_id)
        while self.state["phase"] == PLAYING and turns < cap:
            student = by_id[turn_of(self.state)]
            if student.homework:
                spell_turns += 1
                locked += self.any_locked(student)
            self.turn(student)
            turns += 1
            if self.state["phase"] == PLAYING:
                self.trade()
        finished = self.state["phase"] != PLAYING
        rounds = -(-turns // len(by_id)) if finished else TURN_CAP
        return GameResult(finished, rounds, spell_turns, locked)

    def any_locked(self, student: Student) -> bool:
        return bool(student.locked(self.table))

    def all_locked(self, student: Student) -> bool:
        return len(student.locked(self.table)) == len(student.homework)

    def turn(self, student: Student) -> None:
        weavable = self.weavable(student)
        if weavable:
            self.move(student, WEAVE)
            self.weave_from_cabinet(student, *weavable)
            while (weavable := self.weavable(student)) and self.moved(student, WEAVE_AGAIN):
                self.weave_from_cabinet(student, *weavable)
        elif self.wants_research(student):
            if self.moved(student, RESEARCH):
                student.draw(self.table.deck.pop(0))
            else:
                self.move(student, REST)
        elif self.all_locked(student) or not self.scrounge(student):
            self.move(student, REST)
        self.end_of_turn(student)

    def wants_research(self, student: Student) -> bool:
        short = len(student.homework) < self.setup.start.homework
        return bool(self.table.deck) and (short or self.any_locked(student))

    @staticmethod
    def nearest_first(student: Student) -> list[Homework]:
        return sorted(student.homework, key=attrgetter("left"))

    def weavable(self, student: Student) -> tuple[Homework, str] | None:
        """The (spell, letter) the cabinet weaves now: onto the spell nearest completion that it
        can weave onto (None: it can weave nothing)."""
        cabinet = student.cabinet
        for spell in self.nearest_first(student):
            for letter in spell.missing:
                if cabinet.get(letter):
                    return spell, letter
        return None

    def weave_from_cabinet(self, student: Student, spell: Homework, letter: str) -> None:
        student.take(letter)
        self.weave(student, spell, letter)

    def weave(self, student: Student, spell: Homework, letter: str) -> None:
        student.weave(spell, letter)
        if not spell.missing:
            self.table.put_back(spell.woven)
            student.drop(spell)
            self.move(student, CompleteSpell(spell=spell.word))

    def scrounge(self, student: Student) -> bool:
        """A remembered tile some homework needs, else an unknown one; False when there is neither."""
        table = self.table
        remembered = [letter for letter in student.needs() if table.seen.get(letter) or student.known.get(letter)]
        if remembered:
            letter = min(remembered)
            take(table.seen if table.seen[letter] else student.known, letter)
        else:
            letter = self.any_unknown(student)
            if letter is None:
                return False
        spell = next((s for s in self.nearest_first(student) if s.missing.get(letter)), None)
        if spell is None:  # put back, and remembered by whoever looked
            self.move(student, KEPT)
            student.known[letter] += 1
            return True
        self.move(student, WOVEN)
        self.take_from_laboratory(letter)
        self.weave(student, spell, letter)
        return True

    def any_unknown(self, student: Student) -> str | None:
        """A laboratory tile `student` knows nothing of, drawn at random (None: they know them all):
        the tile at a random place of the unknown ones in letter order, found by counting, not
        by listing them."""
        seen, known = self.table.seen.get, student.known.get
        # the laboratory less what anyone saw and what they know (a Counter's a - b - c, in one pass)
        unknown = {
            letter: left
            for letter, n in self.table.laboratory.items()
            if (left := n - seen(letter, 0) - known(letter, 0)) > 0
        }
        if not unknown:
            return None
        place = self.rng.choice(range(sum(unknown.values())))  # as a choice from the listed tiles draws
        for letter in sorted(unknown):
            place -= unknown[letter]
            if place < 0:
                break
        return letter

    def take_from_laboratory(self, letter: str) -> None:
        """One tile leaves the laboratory; what anyone remembers of it cannot exceed what is left."""
        table = self.table
        table.take(letter)
        left = table.laboratory[letter] - table.seen[letter]
        for other in table.students:
            if other.known[letter] > left:
                other.known[letter] = left
                if left <= 0:
                    del other.known[letter]

    def end_of_turn(self, student: Student) -> None:
        """The tracker's end of the turn (spirit recovered, grading, the next turn), then the
        limits on what the student keeps, which the tracker leaves on the table."""
        setup, table = self.setup, self.table
        self.move(student, END_TURN)
        for _ in range(rules.over_limit(sum(student.cabinet.values()), setup.limits.cabinet)):
            spare = student.spare()
            letter = next(iter(spare)) if spare else next(iter(student.cabinet))
            student.take(letter)
            self.table.put_back(Counter(letter))
        for _ in range(rules.over_limit(len(student.homework), setup.limits.homework)):
            # A locked spell first: its woven tiles go back for whoever can use them.
            dropped = max(
                student.homework,
                key=lambda s: (is_locked(s, student, table.laboratory), s.left),
            )
            student.drop(dropped)
            self.table.put_back(dropped.woven)
            table.deck.append(dropped.word)

    def offers(self, student: Student) -> Set[str]:
        """The letters a student would trade away: spare cabinet tiles, and (if the rules let them
        pay to take them off) tiles woven on their locked spells, which are going nowhere."""
        locked = student.locked(self.table)
        if not (locked and self.allows(student, TRADE_REMOVE)):
            return student.spare().keys()
        offers = set(student.spare())
        for spell in locked:
            offers.update(spell.woven)
        return offers

    def give(self, giver: Student, taker: Student, letter: str) -> None:
        if giver.spare().get(letter):
            giver.take(letter)
        else:
            spell = next(s for s in giver.homework if s.woven.get(letter))
            self.move(giver, TRADE_REMOVE)
            giver.take_off(spell, letter)
        taker.receive(letter)

    def trade(self) -> None:
        """Each pair the rules let trade now swaps one offered tile for one wanted tile, when both
        gain. Only students with something to offer can (half the time, no more than one has)."""
        students, offers = [], []
        may = traders(self.state)
        for student in self.table.students:
            if student.id not in may:
                continue
            offered = self.offers(student)
            if offered:
                students.append(student)
                offers.append(offered)
        for a in range(len(students)):
            for b in range(a + 1, len(students)):
                if not (offers[a] and offers[b]):  # a trade can leave one with nothing more
                    continue
                gives = min(offers[a] & students[b].needs().keys(), default=None)
                takes = min(offers[b] & students[a].needs().keys(), default=None)
                if gives and takes and gives != takes:
                    self.give(students[a], students[b], gives)
                    self.give(students[b], students[a], takes)
                    offers[a], offers[b] = self.offers(students[a]), self.offers(students[b])


def play(content: Content, semester: Semester, rng: random.Random) -> GameResult:
    return Game(content, semester, rng).play()


def play_games(
    content: Content, players: int, games: int, seed: int, tiles: int | None = None, workers: int = WORKERS
) -> Iterator[GameResult]:
    """Each game's result in turn (so a caller can show progress), played side by side in
    `workers` processes; game `i` is seeded by (seed, i) (pnp.sim.pool)."""
    semester = Semester.of(content, players, tiles or content["magic-spell-set"].letter_tiles)
    yield from play_seeded(play, (content, semester), games, seed, workers)


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
