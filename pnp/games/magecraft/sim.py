"""Magecraft played by simple greedy wizards, to see whether the spells and characters are balanced.

Pure and seeded: game `i` of a run with seed `s` draws everything from random.Random(f"{s}:{i}"),
so the same content, players, games and seed give the same figures, however many worker processes
play them. Every move goes through the rules engine (`pnp.games.magecraft.rules`), so a move the
rules forbid would raise. Characters are dealt at random, no two alike at a table.

A wizard's turn:
  Opening       discards the gems its hand has most of (keeping a spread of colours), as it
                does whenever it chooses gems to give up;
  Casting       the spellbook whose payable prefix (as the hand stands) is worth most, cast left to
                right while the next spell is payable (its Draws may pay what follows); the
                Cantrip before the spellbook when it Draws (it replaces its gem), else after it;
  Learning      with the gems left, the Academy spell worth most for its cast cost, if it is worth
                enough and the wizard has room for it, on the left of its shortest spellbook;
  Revision      else, with enough gems left, when it changes something: each spellbook's spells
                that Draw first and those a hand cannot pay last, and the first unmastered spell
                whose golden gem the next spell can use mastered;
  Shield        at the start of the turn, gems beyond SHIELD_KEEP back to the Discard Area;
  Targets       (3-4 wizards) a rival the Attacks can put out, else one close to the score to win,
                else the rival with the fewest HP and shield gems;
  Icons         in the engine's order (Draw, Attack, Heal, Shield, Vanish) but a Heal from the
                Discard Area first; each gem the engine's default (the source's most plentiful).
What a spell is worth: an Attack on an empty shield scores and wounds (on a shield it only breaks
a gem), a Heal heals (or scores on a full HP Area), a Vanish scores, a Draw and a Shield help.
A game still going after LONGEST turns is stopped and counted unfinished.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.rulebook import ATTACK, DRAW, HEAL, SHIELD, VANISH, Book, Spell
from pnp.games.magecraft.rules import DISCARD_SHIELD, OPENING, OVER, STUDIED, Game, golden_slot, payment_for
from pnp.sim.pool import WORKERS, play_seeded
from pnp.sim.spread import spread

LONGEST = 400  # turns, all wizards': a game still going then is stopped
# What one icon is worth to the greedy wizard (an Attack's worth depends on the rival's shield).
WORTH = {DRAW: 0.8, HEAL: 0.9, SHIELD: 1.1, VANISH: 1.0}
ATTACK_HP, ATTACK_SHIELD = 2.0, 0.7  # an Attack that scores and wounds; one a shield gem takes
LEARN_AT = 0.8  # the least a spell's worth for each gem of its cast cost, to be learned
MOST_SPELLS = 3  # a spellbook's most spells before the wizard stops learning into it
SHIELD_KEEP = 4  # shield gems the wizard keeps at the start of its turn
BEYOND_HAND = 0.6  # a spell a hand cannot pay is worth this share: it waits for Draws before it
BARE = 0.7  # the share of a learned spell's Attacks expected to find no shield


@dataclass(frozen=True)
class GameResult:
    winner: int | None  # the winning seat; None when stopped unfinished
    ended: str  # "hp", "score" or "unfinished"
    turns: int  # all wizards' turns
    characters: tuple[str, ...]  # by seat
    dealt: tuple[str, ...]  # the Academy's spells
    learned: tuple[tuple[str, ...], ...]  # by seat: the spells it learned, each once


@dataclass(frozen=True)
class Figures:
    players: int
    games: int
    seed: int
    first_player_wins: float  # share of games the first seat wins
    seat_wins: tuple[float, ...]  # share of games each seat wins, first seat first
    fair_share: float  # 1 / players
    turns: dict  # median, quartiles: a game's turns, all wizards'
    ends: dict  # "hp", "score", "unfinished": share of games ending so
    spells: dict[str, dict]  # name -> dealt (games), learners (wizards who learned it), learned, wins
    characters: dict[str, dict]  # name -> games, wins (share)

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


class Greedy:
    """The wizards' choices over one game."""

    def __init__(self, game: Game, rng: random.Random):
        self.game = game
        self.book = game.book
        self.rng = rng
        self.learned: list[set[str]] = [set() for _ in game.wizards]

    # --- worth ------------------------------------------------------------------------------

    def worth(self, effects: tuple[int, ...], special: str | None = None) -> float:
        """What resolving `effects` is worth to the wizard whose turn it is, now."""
        g = self.game
        value = sum(WORTH[icon] * effects[icon] for icon in WORTH)
        if effects[ATTACK]:
            rivals = g.rivals()
            struck = rivals if special == "attack-each" else rivals[:1] if len(rivals) == 1 else [self.target()]
            for p in struck:
                shield = sum(g.wizards[p].shield)
                hits = effects[ATTACK]
                value += ATTACK_SHIELD * min(hits, shield) + ATTACK_HP * max(0, hits - shield)
                if special == "steal-shield":
                    value += WORTH[SHIELD] * min(hits, shield)
        return value

    def spell_worth(self, spell: Spell) -> float:
        """A spell's worth in the abstract (for learning): its icons, as if against a bare rival."""
        e = spell.effects
        rivals = max(1, len(self.game.rivals())) if spell.special == "attack-each" else 1
        worth = sum(WORTH[icon] * e[icon] for icon in WORTH) + ATTACK_HP * BARE * e[ATTACK] * rivals
        return worth * BEYOND_HAND if spell.beyond_hand else worth

    # --- the turn ---------------------------------------------------------------------------

    def opening(self) -> None:
        g = self.game
        for seat, due in enumerate(list(g.opening)):
            if due:
                g.opening_discard(seat, most_plentiful(g.wizards[seat].hand, due))

    def turn(self) -> None:
        """The rest of the turn of the wizard whose turn it is, from wherever it stands (at its
        start in a simulated game; after a computer player's move in its playouts)."""
        g, rng = self.game, self.rng
        self.resolve_waiting()
        if g.phase == OVER:
            return
        if g.phase == DISCARD_SHIELD:
            self.discard_shield()
        if g.casting_open:
            self.cast_turn()
            if g.phase == OVER:
                return
        if g.phase != STUDIED:
            self.study()
        g.refresh(rng)

    def cast_turn(self) -> None:
        """The casting phase, from where it stands: the Cantrip early when it Draws, the spellbook
        being cast (else the best) while its next spell is payable, the Cantrip after it."""
        g, rng = self.game, self.rng
        w = g.wizard
        cantrip = None if w.character is None or g.cantrip_cast else self.book.characters[w.character].cantrip
        # a Cantrip that Draws replaces its gem: cast first, it may pay for more of a spellbook
        if cantrip is not None and cantrip.effects[DRAW] and payment_for((cantrip.gem,), w.hand) is not None:
            g.cantrip(rng, choices=self.choices(cantrip.effects, None))
            if g.phase == OVER:
                return
        spellbook = g.spellbook if g.spellbook >= 0 else self.best_spellbook()
        if spellbook is not None:
            cards = w.books[spellbook]
            for position in range(g.next_spell if g.spellbook == spellbook else 0, len(cards)):
                spell = self.book.spells[cards[position].spell]
                if payment_for(spell.cast, w.hand, w.golden) is None:
                    break
                g.cast(spellbook, rng, choices=self.choices(spell.effects, spell.special))
                if g.phase == OVER:
                    return
        if cantrip is not None and not g.cantrip_cast and payment_for((cantrip.gem,), w.hand) is not None:
            g.cantrip(rng, choices=self.choices(cantrip.effects, None))

    def resolve_waiting(self) -> None:
        """The icons of a spell cast one by one (on the phones) still waiting, in the engine's
        order, each Attack at the greedy target."""
        g = self.game
        while g.resolving and g.phase != OVER:
            icon = next(i for i, n in enumerate(g.pending) if n)
            named = icon == ATTACK and g.pending_special != "attack-each" and len(g.rivals()) > 1
            g.resolve(icon, self.rng, {"player": self.target()} if named else None)

    def discard_shield(self) -> None:
        """Shield gems beyond SHIELD_KEEP back to the Discard Area (fewer while the bag, hand and
        Discard Area run short: gems in a shield pay no spells)."""
        w = self.game.wizard
        cycle = sum(w.bag) + sum(w.discard) + sum(w.hand)
        keep = SHIELD_KEEP if cycle >= 2 * self.book.hand else 1
        excess = sum(w.shield) - keep
        if excess > 0:
            self.game.discard_shield(most_plentiful(w.shield, excess))

    def best_spellbook(self) -> int | None:
        """The spellbook whose payable prefix (as the hand stands) is worth most."""
        w = self.game.wizard
        best, best_worth = None, 0.0
        for b, cards in enumerate(w.books):
            hand, golden, worth = list(w.hand), -1, 0.0
            for i, card in enumerate(cards):
                spell = self.book.spells[card.spell]
                pay = payment_for(spell.cast, hand, golden)
                if pay is None:
                    break
                for c in pay:
                    if c is not None:
                        hand[c] -= 1
                worth += self.worth(spell.effects, spell.special)
                first = golden if pay[0] is None else pay[0]  # the gem on the first slot
                golden = -1
                if (
                    card.mastered
                    and i + 1 < len(cards)
                    and golden_slot(self.book.spells[cards[i + 1].spell].cast, first) >= 0
                ):
                    golden = first
            if worth > best_worth:
                best, best_worth = b, worth
        return best

    def choices(self, effects: tuple[int, ...], special: str | None) -> dict | None:
        """The icons' order and choices: a Heal from the Discard Area before the Draws (which may
        reshuffle that area into the bag), else the engine's order; Attack targets when there is a
        choice of rival (3-4 wizards); every gem's colour and source the engine's default (the most
        plentiful; a Shield from the Academy first, a Vanish from the hand first)."""
        g = self.game
        made: dict = {}
        if special == "heal-from-discard" and effects[DRAW] and effects[HEAL]:
            made["order"] = [
                icon for i, icon in sorted(enumerate(ICONS), key=lambda e: e[0] != HEAL) for _ in range(effects[i])
            ]
        if not effects[ATTACK] or special == "attack-each" or len(g.rivals()) < 2:
            return made or None
        # each Attack takes one shield or HP gem: a rival put out is no target for the next
        toughness = {p: sum(g.wizards[p].hp) + sum(g.wizards[p].shield) for p in g.rivals()}
        targets = []
        for _ in range(effects[ATTACK]):
            if toughness:  # (once every rival is out the game is over: the rest never strike)
                p = self.target(toughness)
                toughness[p] -= 1
                if toughness[p] <= 0:
                    del toughness[p]
            targets.append({"player": p})
        return made | {"attack": targets}

    def target(self, toughness: dict[int, int] | None = None) -> int:
        """A rival the Attacks can put out, else one close to the score to win, else the weakest."""
        g = self.game
        if toughness is None:
            toughness = {p: sum(g.wizards[p].hp) + sum(g.wizards[p].shield) for p in g.rivals()}
        # ties go to the higher score, then by lot: never to a seat for its place at the table
        order = {p: (sum(g.wizards[p].score), self.rng.random()) for p in toughness}
        weakest = min(toughness, key=lambda p: (toughness[p], -order[p][0], order[p][1]))
        leader = max(toughness, key=order.__getitem__)
        if toughness[weakest] > 3 and sum(g.wizards[leader].score) >= self.book.score_to_win - 5:
            return leader
        return weakest

    def study(self) -> None:
        """Learn the Academy spell worth most for its cast cost, if payable and worth it; else
        revise and master one when enough gems are left."""
        g, book = self.game, self.book
        w = g.wizard
        room = [b for b, cards in enumerate(w.books) if len(cards) < MOST_SPELLS]
        best, best_worth = None, LEARN_AT
        if room:
            for i in g.academy_order:
                if not g.academy_spells[i]:
                    continue
                spell = book.spells[i]
                worth = self.spell_worth(spell) / len(spell.cast)
                if worth > best_worth and payment_for(spell.learn, w.hand) is not None:
                    best, best_worth = i, worth
        if best is not None:
            spellbook = min(
                room, key=lambda b: (len(w.books[b]), sum(len(book.spells[c.spell].cast) for c in w.books[b]))
            )
            g.learn(book.spells[best].name, spellbook)
            self.learned[g.player].add(book.spells[best].name)
            return
        if sum(w.hand) >= book.revision:
            arrangement = self.arrangement()
            new = [[w.books[b][p] for b, p in cards] for cards in arrangement]
            master = self.to_master(new)
            if master is not None or new != w.books:
                g.revise(most_plentiful(w.hand, book.revision), arrangement, master)

    def arrangement(self) -> list[list[tuple[int, int]]]:
        """Each spellbook's spells with those that Draw first and those a hand cannot pay last."""
        book = self.book

        def order(card) -> tuple[bool, int]:
            spell = book.spells[card.spell]
            return spell.beyond_hand, -spell.effects[DRAW]

        return [
            sorted(((b, p) for p in range(len(cards))), key=lambda place: order(cards[place[1]]))
            for b, cards in enumerate(self.game.wizard.books)
        ]

    def to_master(self, books) -> tuple[int, int] | None:
        """The first unmastered spell whose next spell has a slot its first gem could pay."""
        book = self.book
        for b, cards in enumerate(books):
            for p in range(len(cards) - 1):
                if cards[p].mastered:
                    continue
                first = book.spells[cards[p].spell].cast[0]
                after = book.spells[cards[p + 1].spell].cast
                if first < 0 or golden_slot(after, first) >= 0:
                    return b, p
        return None


def most_plentiful(gems: list[int], count: int) -> list[int]:
    """`count` gems to give up from an area, each of the colour it has most of at that moment."""
    left, chosen = list(gems), []
    for _ in range(count):
        most = max(range(len(left)), key=left.__getitem__)
        left[most] -= 1
        chosen.append(most)
    return chosen


def play(book: Book, players: int, rng: random.Random) -> GameResult:
    characters = rng.sample(range(len(book.characters)), players)
    game = Game.new(book, players, rng, characters)
    greedy = Greedy(game, rng)
    if game.phase == OPENING:
        greedy.opening()
    while game.phase != OVER and game.turn <= LONGEST:
        greedy.turn()
    return GameResult(
        winner=game.winner,
        ended=game.ended or "unfinished",
        turns=game.turn,
        characters=tuple(book.characters[c].name for c in characters),
        dealt=tuple(book.spells[i].name for i in game.academy_order),
        learned=tuple(tuple(sorted(names)) for names in greedy.learned),
    )


def play_games(book: Book, players: int, games: int, seed: int, workers: int = WORKERS) -> Iterator[GameResult]:
    """Each game's result in order; game `i` is seeded by (seed, i), whichever process plays it."""
    return play_seeded(play, (book, players), games, seed, workers)


def figures(book: Book, results: list[GameResult], players: int, seed: int) -> Figures:
    dealt: dict[str, int] = defaultdict(int)
    learners: dict[str, int] = defaultdict(int)
    learner_wins: dict[str, int] = defaultdict(int)
    seated: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    for r in results:
        for name in r.dealt:
            dealt[name] += 1
        for seat, names in enumerate(r.learned):
            for name in names:
                learners[name] += 1
                learner_wins[name] += r.winner == seat
        for seat, name in enumerate(r.characters):
            seated[name] += 1
            won[name] += r.winner == seat
    games = len(results)
    spells = {
        s.name: {
            "dealt": dealt[s.name],
            "learners": learners[s.name],
            "learned": learners[s.name] / (dealt[s.name] * players) if dealt[s.name] else 0.0,
            "wins": learner_wins[s.name] / learners[s.name] if learners[s.name] else 0.0,
        }
        for s in book.spells
        if s.name not in book.starting
    }
    characters = {
        c.name: {"games": seated[c.name], "wins": won[c.name] / seated[c.name] if seated[c.name] else 0.0}
        for c in book.characters
    }
    return Figures(
        players=players,
        games=games,
        seed=seed,
        first_player_wins=sum(r.winner == 0 for r in results) / games,
        seat_wins=tuple(sum(r.winner == seat for r in results) / games for seat in range(players)),
        fair_share=1 / players,
        turns=spread([r.turns for r in results]),
        ends={end: sum(r.ended == end for r in results) / games for end in ("hp", "score", "unfinished")},
        spells=spells,
        characters=characters,
    )
