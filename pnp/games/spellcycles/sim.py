"""Spellcycles played by simple greedy wizards, to see whether a spell deck is balanced.

Pure and seeded: game `i` of a run with seed `s` draws everything from random.Random(f"{s}:{i}"),
so the same content, players, line, games and seed give the same figures, however many worker
processes play them. Every move goes through the rules engine (`pnp.games.spellcycles.rules`), so a
move the rules forbid would raise.

A wizard's turn:
  Refresh, Renew   as the rules say;
  Contribute       the piece and space that complete the most valuable active spell exactly; else
                   one that extends a partial exact match of an active spell; else a random space;
                   its largest piece of the chosen colour (large pieces survive more reductions);
  Reap             again and again, the castable active spell (recolours included, while essence
                   allows) of the best value, if positive: the prestige it earns plus what its
                   effects are worth, less essence paid (ESSENCE a point, nothing in the wizard's
                   last turn) and certificates paid; it pays the least a choice of cost allows,
                   drains and takes from the wizard holding most, leaves swaps and moves of the
                   field undone, and moves or removes the crescent that brings the end nearer
                   when ahead (the most certificates), that puts it off when behind;
  Who goes first   drawn at random, as a table asking the server would (the rules: "Choose a
                   player to go first");
  Progress         the moon crescent whose move leaves the most spells active, of equals the
                   rearmost: the crescents walk the line together, and every spell dealt becomes
                   active in turn (always the rearmost would leave the first wizard one active
                   spell a turn, and the win to the last: the crescents would meet again after
                   each round).
A game still going after LONGEST times the crescents' walk (players x line turns) is stopped,
scored as it stands and counted unfinished: spells that send crescents back could make it endless
(our own are cast once a game, so that they cannot; the figures say whether the rules' can).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from pnp.games.spellcycles.effects import fits, moves_of_piece
from pnp.games.spellcycles.field import Piece
from pnp.games.spellcycles.pattern import Shape
from pnp.games.spellcycles.rulebook import Book, Spell
from pnp.games.spellcycles.rules import CONTRIBUTE, OVER, REFRESH, RENEW, Game, Variants, deal
from pnp.sim.pool import WORKERS, play_seeded
from pnp.sim.spread import spread

ESSENCE = 0.6  # prestige an essence is worth to the greedy wizard while it has turns to spend it
# A game whose crescents keep being sent back is stopped after this many times the turns their
# walk down the line takes, and scored as it stands (the figures count such games apart).
LONGEST = 5
PLAIN = Variants()  # the rules without a variant


@dataclass(frozen=True)
class GameResult:
    scores: tuple[int, ...]  # per player
    first: int  # the player drawn to go first
    winners: tuple[int, ...]  # the players sharing the win
    turns: int
    finished: bool  # False: stopped after LONGEST times the crescents' walk, and scored as it stood
    dealt: tuple[str, ...]  # the spells of the line
    cast: tuple[str, ...]  # spells cast at least once
    castable: tuple[tuple[str, int, int], ...]  # (spell, turns it was castable, of which not cast)


@dataclass(frozen=True)
class Figures:
    players: int
    games: int
    seed: int
    line: int
    prestige: dict  # median, quartiles: each player's final prestige
    turns: dict  # median, quartiles: a game's turns, all players'
    first_player_wins: float  # share of games the player who went first wins (a shared win counts its share)
    fair_share: float  # 1 / players
    nothing_cast: float  # share of games in which no spell is cast
    unfinished: float  # share of games stopped at LONGEST times the crescents' walk
    spells: dict[str, dict]  # name -> dealt (games), cast (share of those), passed (share of castable turns not cast)

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


class Greedy:
    """The wizards' choices over one game."""

    def __init__(self, game: Game, rng: random.Random):
        self.game = game
        self.rng = rng
        self.castable: dict[int, int] = defaultdict(int)  # line position -> turns castable
        self.passed: dict[int, int] = defaultdict(int)
        self.cast: set[int] = set()  # spells cast (indexes into the book)

    def turns_left(self) -> int:
        """The wizard's own turns left, at most: crescent moves left over the players."""
        g = self.game
        return -(-sum(len(g.line) - p for p in g.crescents) // len(g.wizards))

    def value(self, spell: Spell, essence: int) -> float:
        """What casting `spell` for `essence` (cost and recolours) is worth to the caster now."""
        g, w = self.game, self.game.wizard
        worth = ESSENCE if self.turns_left() > 1 else 0.0
        gain = float(spell.prestige)
        others = [x for x in g.wizards if x is not w and not x.out]
        for effect in spell.does or ():
            do = effect["do"]
            if do == "gain-essence":
                amount = effect["amount"]
                if effect.get("at_most_held"):
                    amount = min(amount, w.essence - essence)
                gain += worth * amount
            elif do == "drain-essence":
                held = sorted((x.essence for x in others), reverse=True)
                victims = held if effect.get("each") else held[:1]
                gain += (worth + 0.3) * sum(min(effect["amount"], e) for e in victims)
            elif do == "take-certificates" and effect["source"] == "pile":
                gain += effect["amount"]
            elif do == "take-certificates":
                gain += 1.5 * min(effect["amount"], max((len(x.certificates) for x in others), default=0))
            elif do == "move-pieces" and effect["to"] == "apothecary":
                gain += 0.2 * effect["count"]
        return gain - worth * essence - spell.certificates

    # --- Contribute -------------------------------------------------------------------------

    def contribute(self) -> None:
        g = self.game
        w = g.wizard
        if not w.apothecary or not g.field.empties():
            g.skip_contribute()
            return
        colours = {p.colour for p in w.apothecary}
        space, colour = self.target(colours)
        if space is None:
            empties = g.field.empties()
            space = empties[self.rng.randrange(len(empties))]
            colour = w.apothecary[self.rng.randrange(len(w.apothecary))].colour
        piece = max(p for p in w.apothecary if p.colour == colour)
        g.contribute(piece, space)

    def target(self, colours: set[int]) -> tuple[int | None, int | None]:
        """The (space, colour) completing the most valuable active spell exactly, else one
        extending a partial exact match; (None, None) when neither."""
        g = self.game
        occupied, tops = g.field.occupied, g.field.tops
        free = ~occupied
        best, best_value, near = (None, None), 0.0, (None, None)
        for position in g.active():
            spell = g.spell_at(position)
            if g.least_price(spell) > g.wizard.essence or spell.certificates > len(g.wizard.certificates):
                continue
            worth = self.value(spell, g.least_price(spell))
            for shape in spell.shapes:
                if shape.stacks:
                    continue
                base = shape.origins
                for off in shape.marked:
                    base &= occupied >> off
                for off in shape.vacant:
                    base &= free >> off
                for i, (off_i, colour) in enumerate(shape.colours):
                    if colour not in colours:
                        continue
                    complete = partial = base & (free >> off_i)
                    some = 0
                    for j, (off, c) in enumerate(shape.colours):
                        if j != i:
                            complete &= tops[c] >> off
                            partial &= (tops[c] | free) >> off
                            some |= tops[c] >> off
                    if complete and worth > best_value:
                        origin = (complete & -complete).bit_length() - 1
                        best, best_value = (origin + off_i, colour), worth
                    partial &= some
                    if partial and near[0] is None:
                        origin = (partial & -partial).bit_length() - 1
                        near = (origin + off_i, colour)
        return best if best[0] is not None else near

    # --- Reap -------------------------------------------------------------------------------

    def reap(self) -> None:
        g = self.game
        seen: set[int] = set()
        while g.step != OVER:
            best, best_value = None, 0.0
            for position in g.active():
                spell = g.spell_at(position)
                price = g.least_price(spell)
                found = g.matches(position)
                if not found:
                    continue
                seen.add(position)
                shape, origin, recolours = min(found, key=lambda match: match[2])  # the fewest recolours
                worth = self.value(spell, price + recolours * g.book.recolour)
                if worth > best_value:
                    best, best_value = (position, shape, origin, price, recolours), worth
            if best is None:
                break
            position, shape, origin, price, recolours = best
            spell = g.spell_at(position)
            chosen = self.choices(spell, shape, origin, price, recolours)
            g.cast(position, shape, origin, self.rng, paid=price, choices=chosen)
        self.cast.update(g.line[p] for p in g.cast_this_turn)
        for position in seen:
            self.castable[position] += 1
            if position not in g.cast_this_turn:
                self.passed[position] += 1

    def choices(self, spell: Spell, shape: int, origin: int, price: int, recolours: int) -> list[dict]:
        """The choices for each effect, made before the cast as a log would carry them."""
        g = self.game
        me = g.player
        others = [p for p, w in enumerate(g.wizards) if p != me and not w.out]
        chosen = []
        for effect in spell.does or ():
            do, choice = effect["do"], {}
            if do == "drain-essence" and others:
                choice["player"] = max(others, key=lambda p: g.wizards[p].essence)
            elif do == "take-certificates" and others:
                choice["player"] = max(others, key=lambda p: len(g.wizards[p].certificates))
            elif do in ("move-crescent", "remove-crescent") and g.crescents:
                choice["crescent"] = self.crescent_for(effect)
            elif do == "move-pieces":
                choice = self.move_choice(effect, spell.shapes[shape], origin)
            elif do == "move-piece":  # a piece must move when one can: the first that can, as far as it may
                choice = self.after_reduction(spell, shape, origin, price, recolours, self.piece_moved, effect)
            chosen.append(choice)
        return chosen

    def after_reduction(self, spell: Spell, shape: int, origin: int, price: int, recolours: int, chooser, effect):
        """`chooser(cast, effect)` with the cast begun (paid, reduced) on the game, then all put back."""
        g = self.game
        saved = g.snapshot()
        try:
            return chooser(g.begin(spell, shape, origin, price, recolours), effect)
        finally:
            g.restore(saved)

    def piece_moved(self, cast, effect: dict) -> dict:
        found = moves_of_piece(self.game, cast, effect)
        if not found:
            return {}
        source = min(found)
        return {"from": source, "to": max(found[source], key=lambda t: self.game.field.distance(source, t))}

    def crescent_for(self, effect: dict) -> int:
        """Which crescent an effect moves: the one that brings the end nearer for a wizard ahead
        (forward the foremost, back the rearmost, which stops on the first spell), the one that
        puts it off for a wizard behind."""
        g = self.game
        held = [len(w.certificates) for w in g.wizards]
        ahead = held[g.player] == max(held)
        sooner = effect["do"] == "remove-crescent" or effect["direction"] == "forward"
        return g.crescents[-1] if ahead == sooner else g.crescents[0]

    def move_choice(self, effect: dict, shape: Shape, origin: int) -> dict:
        """Pieces chosen from the cauldron (largest first, as the cast's reduction will leave it)
        or the apothecary; spaces at random."""
        g = self.game
        count = effect["count"]
        choice: dict = {}
        if effect["to"] == "field":
            empties = g.field.empties()
            self.rng.shuffle(empties)
            choice["to"] = empties[:count]
        if effect.get("random"):
            return choice
        if effect["source"] == "field":  # pieces that are on it once the cast's are reduced, at random
            held = [s for s in self.after_reduction_spaces(shape, origin) if fits(g.book, effect, g.field.top(s))]
            self.rng.shuffle(held)
            choice["from"] = held[: 0 if effect.get("up_to") else count]
            return choice
        if effect["source"] == "cauldron":
            saved = g.snapshot()
            g.reduce(shape.pieces(origin), plain=len(shape.colours))
            cauldron = [list(counts) for counts in g.cauldron]
            g.restore(saved)
            pool = [Piece(c, s) for c, counts in enumerate(cauldron) for s, n in enumerate(counts) for _ in range(n)]
        else:
            pool = list(g.wizard.apothecary)
        pool = sorted((p for p in pool if fits(g.book, effect, p)), key=lambda p: -p.size)
        choice["pieces"] = [list(p) for p in pool[: min(count, len(choice.get("to", pool)))]]
        return choice

    def after_reduction_spaces(self, shape: Shape, origin: int) -> list[int]:
        """The spaces holding a piece once the cast's pieces are reduced."""
        g = self.game
        saved = g.snapshot()
        g.reduce(shape.pieces(origin), plain=len(shape.colours))
        held = [s for s in range(len(g.field.stacks)) if not g.field.empty(s)]
        g.restore(saved)
        return held

    # --- the turn ---------------------------------------------------------------------------

    def turn(self) -> None:
        """The rest of the turn of the wizard whose turn it is, from wherever it stands (at its
        start in a simulated game; after a computer player's move in its playouts)."""
        g = self.game
        if g.step == REFRESH:  # a table's state has made it as the turn began (engine.kept)
            g.refresh()
        if g.step == RENEW:
            g.renew(self.rng)
        if g.step == CONTRIBUTE:
            self.contribute()
        self.reap()
        if g.step != OVER:
            g.progress(self.crescent_to_move())

    def crescent_to_move(self) -> int | None:
        """The crescent whose move leaves the most spells active (the next wizard has the most to
        cast from); of equals, the rearmost, so the crescents walk the line together."""
        crescents = self.game.crescents
        if not crescents:
            return None
        last = len(self.game.line)

        def spread(position: int) -> tuple[int, int]:
            after = set(crescents) - ({position} if crescents.count(position) == 1 else set())
            if position + 1 < last:
                after.add(position + 1)
            return len(after), -position

        return max(set(crescents), key=spread)


def play(book: Book, players: int, line: int | None, variants: Variants, rng: random.Random) -> GameResult:
    game = deal(book, players, rng, line, variants)
    game.player = first = rng.randrange(players)
    greedy = Greedy(game, rng)
    longest = LONGEST * players * len(game.line)
    while game.step != OVER and game.turn <= longest:
        greedy.turn()
    names = [book.spells[i].name for i in game.line]
    return GameResult(
        scores=tuple(game.score(p) for p in range(players)),
        first=first,
        winners=tuple(game.winners()),
        turns=game.turn,
        finished=game.step == OVER,
        dealt=tuple(names),
        cast=tuple(sorted(book.spells[i].name for i in greedy.cast)),
        castable=tuple((names[p], n, greedy.passed[p]) for p, n in sorted(greedy.castable.items())),
    )


def play_games(
    book: Book,
    players: int,
    games: int,
    seed: int,
    line: int | None = None,
    workers: int = WORKERS,
    variants: Variants = PLAIN,
) -> Iterator[GameResult]:
    """Each game's result in order; game `i` is seeded by (seed, i), whichever process plays it."""
    return play_seeded(play, (book, players, line, variants), games, seed, workers)


def figures(book: Book, results: list[GameResult], players: int, seed: int, line: int | None = None) -> Figures:
    dealt: dict[str, int] = defaultdict(int)
    cast: dict[str, int] = defaultdict(int)
    castable: dict[str, int] = defaultdict(int)
    passed: dict[str, int] = defaultdict(int)
    for r in results:
        for name in r.dealt:
            dealt[name] += 1
        for name in r.cast:
            cast[name] += 1
        for name, turns, not_cast in r.castable:
            castable[name] += turns
            passed[name] += not_cast
    spells = {
        s.name: {
            "dealt": dealt[s.name],
            "cast": cast[s.name] / dealt[s.name] if dealt[s.name] else 0.0,
            "passed": passed[s.name] / castable[s.name] if castable[s.name] else 0.0,
        }
        for s in book.spells
    }
    return Figures(
        players=players,
        games=len(results),
        seed=seed,
        line=book.lines["normal"] if line is None else line,
        prestige=spread([s for r in results for s in r.scores]),
        turns=spread([r.turns for r in results]),
        first_player_wins=sum(1 / len(r.winners) for r in results if r.first in r.winners) / len(results),
        fair_share=1 / players,
        nothing_cast=sum(not r.cast for r in results) / len(results),
        unfinished=sum(not r.finished for r in results) / len(results),
        spells=spells,
    )


def table_turn(content, state: dict, seat: str, rng: random.Random, memory: dict) -> dict:
    """The simulation's wizard plays `seat`'s whole turn now on a table's state (pnp.sim.levels:
    the strong computer against this player), on the rules engine as in a simulated game, and the
    state after it."""
    from pnp.games.spellcycles.engine import game_of, kept

    game = game_of(content, state)
    greedy = memory.setdefault(seat, Greedy(game, rng))
    greedy.game, greedy.rng = game, rng
    greedy.turn()
    return kept(state, game)
