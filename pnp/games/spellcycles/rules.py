"""Spellcycles' rules as pure code over the book (pnp.games.spellcycles.rulebook): no content
models, no drawing, so the simulation and the companion share them.

A `Game` is the table: the casting field, the cauldron, each wizard's apothecary, essence and
prestige certificates (playing cards, drawn from a shuffled pile), the spell line and its moon
crescents. Its moves are the turn's steps, made in order by the wizard whose turn it is:
`refresh`, `renew`, `contribute` (or `skip_contribute`), then in Reap `accelerate` (the
variant) and any number of `cast`s, then `progress`, which ends the turn. Moves take plain data
(pieces, spaces, line positions, a dict of choices per effect) and any chance from the
random.Random they are handed, so a log of moves can be folded through them again. A move the rules
forbid raises `RuleError` saying why, and changes nothing.

Decisions the rules leave open, taken here (the first two are also printed rulings, in
content/spellcycles/rulings.yaml, with the others the engine follows):
  - a cast's pieces all go back to the cauldron before the smaller ones come out (the order of the
    rules' sentences), so a small piece going back may replace a medium of its colour;
  - a marked space's piece is needed by the pattern (it counts for prestige) but is not reduced:
    the effect acts on that very piece;
  - a cost of "n" essence is at least 1; only an effect the card words as optional ("up to",
    "may") may be left undone by choosing nothing; every other happens as far as it can;
  - certificates paid as a cost leave the game, the caster's least valuable first;
  - in a Duel a wizard may not pay their own last essence (it would put them out).
"""

from __future__ import annotations

from bisect import insort
from dataclasses import asdict, dataclass, field
from random import Random

from pnp.games.spellcycles.casting import Casting, RuleError
from pnp.games.spellcycles.effects import OFF_THE_BOARD, enact
from pnp.games.spellcycles.field import LARGE, SMALL, Field, Piece
from pnp.games.spellcycles.pattern import find, recolours_at
from pnp.games.spellcycles.rulebook import Book, Spell

REFRESH, RENEW, CONTRIBUTE, REAP, OVER = "refresh", "renew", "contribute", "reap", "over"
ACE, JACK = 1, 11
Card = tuple[int, int]  # a prestige certificate: (rank 1-13, ace 1; suit 0-3)


@dataclass(frozen=True)
class Variants:
    stackers: bool = False  # SpellStackers: pieces may share a space
    accelerando: bool = False  # an extra piece for essence, once a turn
    duel: bool = False  # prestige is awarded as essence; a wizard with none is out
    extra_credit: bool = False  # certificates count by rank
    double_plus: bool = False  # Extra Credit, and a marker's suit counts over
    swift_time: bool = False  # ours: the retuned costs of content's `swift_time`, not the rules'


def deck() -> list[Card]:
    return [(rank, suit) for suit in range(4) for rank in range(1, 14)]


@dataclass
class Wizard:
    apothecary: list[Piece] = field(default_factory=list)
    essence: int = 0
    certificates: list[Card] = field(default_factory=list)  # latest last
    out: bool = False  # Duel: no essence left


@dataclass(frozen=True)
class Cast:
    """What a cast did."""

    position: int  # the spell's place in the line
    spell: str
    paid: int  # essence for the spell's cost (recolours apart)
    recolours: int
    prestige: int
    rolled: tuple[int, ...] = ()  # knucklebone rolls its effects made


class Game:
    def __init__(self, book: Book, players: int, line: list[int], variants: Variants = Variants()):
        self.book = book.played(variants.swift_time)
        self.variants = variants
        self.field = Field(book.field, len(book.colours))
        # pieces of each colour and size in the cauldron
        self.cauldron = [list(book.stash) for _ in book.colours]
        start = book.duel_essence if variants.duel else 0
        self.wizards = [Wizard(essence=start) for _ in range(players)]
        self.line = list(line)  # indexes into book.spells
        self.crescents = [0] * players  # each crescent's place in the line, in order
        self.pile: list[Card] = []  # the certificates' draw pile, top last
        self.player = 0
        self.step = REFRESH
        self.turn = 1
        self.cast_this_turn: set[int] = set()  # line positions
        self.spent: set[int] = set()  # line positions of once-a-game spells cast already
        self.accelerated = False
        self.marker: Card | None = None  # Double-Plus: the suit that counts over

    # --- the turn ---------------------------------------------------------------------------

    @property
    def wizard(self) -> Wizard:
        return self.wizards[self.player]

    def _expect(self, step: str, move: str) -> None:
        if self.step == OVER:
            raise RuleError("the game is over")
        if self.step != step:
            raise RuleError(f"{move} comes at {step.capitalize()}; this is {self.step.capitalize()}")

    def refresh(self) -> None:
        """Refresh: take essence from the pool."""
        self._expect(REFRESH, "Refresh")
        self.wizard.essence += self.book.refresh
        self.step = RENEW

    def renew(self, rng: Random) -> Piece | None:
        """Renew: the knucklebone picks the colour of a large piece from the cauldron, rolled again
        while that colour has none; skipped when no large piece is left."""
        self._expect(RENEW, "Renew")
        self.step = CONTRIBUTE
        if not any(self.cauldron[colour][LARGE] for colour in self.book.knucklebone):
            return None  # (a die naming only some colours: none of those has a large piece left)
        while True:
            colour = self.book.knucklebone[rng.randint(1, 6) - 1]
            if self.cauldron[colour][LARGE]:
                break
        self.cauldron[colour][LARGE] -= 1
        piece = Piece(colour, LARGE)
        self.wizard.apothecary.append(piece)
        return piece

    def _place(self, piece: Piece, space: int, move: str) -> None:
        piece = Piece(*piece)  # a log's [colour, size] too
        if piece not in self.wizard.apothecary:
            raise RuleError(f"{move}: your apothecary holds no {self.describe(piece)}")
        self.check_space(space, move)
        self.wizard.apothecary.remove(piece)
        self.field.put(space, piece)

    def check_space(self, space: int, move: str) -> None:
        if not 0 <= space < len(self.field.stacks):
            raise RuleError(f"{move}: the field has no space {space}")
        if not self.variants.stackers and not self.field.empty(space):
            raise RuleError(f"{move}: that space is taken (pieces share a space only in SpellStackers)")

    def contribute(self, piece: Piece, space: int) -> None:
        """Contribute: a piece from your apothecary onto an unoccupied space of the field."""
        self._expect(CONTRIBUTE, "Contribute")
        self._place(piece, space, "Contribute")
        self.step = REAP

    def skip_contribute(self) -> None:
        """Our ruling: with an empty apothecary (or no space to put a piece), skip Contribute."""
        self._expect(CONTRIBUTE, "Contribute")
        if self.wizard.apothecary and (self.variants.stackers or self.field.empties()):
            raise RuleError("Contribute: you must place a piece from your apothecary")
        self.step = REAP

    def accelerate(self, piece: Piece, space: int) -> None:
        """Accelerando: at the end of Contribute, an extra piece for essence, once a turn."""
        cost = self.book.accelerando
        if not self.variants.accelerando:
            raise RuleError("Accelerando is not played at this table")
        self._expect(REAP, "Accelerando")
        if self.accelerated or self.cast_this_turn:
            raise RuleError("Accelerando comes once a turn, at the end of Contribute")
        self._check_pay("Accelerando", cost, 0)
        self._place(piece, space, "Accelerando")
        self.wizard.essence -= cost
        self.accelerated = True

    def progress(self, position: int | None = None) -> None:
        """Progress: move a moon crescent from the spell at `position` to the next; off the last
        spell it leaves the game. Ends the turn (and the game when no crescent is left)."""
        self._expect(REAP, "Progress")
        if self.crescents:
            if position is None and len(set(self.crescents)) == 1:
                position = self.crescents[0]
            if position is None:
                raise RuleError("Progress: name the spell whose moon crescent moves")
            if position not in self.crescents:
                raise RuleError(f"Progress: no moon crescent is on spell {position + 1} of the line")
            self._move_crescent(position, position + 1)
        self._end_turn()

    def _end_turn(self) -> None:
        alive = sum(not w.out for w in self.wizards)
        if not self.crescents or (self.variants.duel and alive <= 1):
            self._end_game()
            return
        n = len(self.wizards)
        self.player = next(q % n for q in range(self.player + 1, self.player + n + 1) if not self.wizards[q % n].out)
        self.step = REFRESH
        self.turn += 1
        self.cast_this_turn = set()
        self.accelerated = False

    def _end_game(self) -> None:
        self.step = OVER
        if self.variants.double_plus:
            self.marker = self.pile[-1]  # flipped from the pile, which is never left empty

    # --- the spell line ---------------------------------------------------------------------

    def active(self) -> list[int]:
        """Line positions of the active spells: those with a moon crescent on them."""
        return sorted(set(self.crescents))

    def _move_crescent(self, source: int, to: int) -> None:
        self.crescents.remove(source)
        if to < len(self.line):  # moved off the last spell, it leaves the game
            insort(self.crescents, max(0, to))

    # --- casting ----------------------------------------------------------------------------

    def spell_at(self, position: int) -> Spell:
        if not 0 <= position < len(self.line):
            raise RuleError(f"the spell line has {len(self.line)} spells")
        return self.book.spells[self.line[position]]

    def price(self, spell: Spell, paid: int | None) -> int:
        """The essence a spell's cost asks, given what the caster chose to pay."""
        cost = spell.essence
        if cost == "n":
            if not isinstance(paid, int) or paid < 1:
                raise RuleError(f"{spell.name} costs any essence you choose: say how much (1 or more)")
            return paid
        if isinstance(cost, tuple):
            if paid not in cost:
                raise RuleError(f"{spell.name} costs {' or '.join(str(c) for c in cost)} essence: choose one")
            return paid
        if paid not in (None, cost):
            raise RuleError(f"{spell.name} costs {cost} essence, not {paid}")
        return cost

    def least_price(self, spell: Spell) -> int:
        cost = spell.essence
        return 1 if cost == "n" else cost[0] if isinstance(cost, tuple) else cost

    def _check_pay(self, what: str, essence: int, certificates: int) -> None:
        """`what` (a spell's name, Accelerando) may be paid for, or a RuleError naming it."""
        w = self.wizard
        if essence > w.essence:
            raise RuleError(f"{what} needs {essence} essence; you have {w.essence}")
        if self.variants.duel and essence and essence == w.essence:
            raise RuleError(f"{what} needs all your {w.essence} essence, and a wizard with none is out of the Duel")
        if certificates > len(w.certificates):
            raise RuleError(f"{what} needs {certificates} certificates; you have {len(w.certificates)}")

    def spendable(self) -> int:
        """The most essence the wizard whose turn it is may pay at once (in a Duel never their last)."""
        held = self.wizard.essence
        return held - 1 if self.variants.duel and held else held

    def affordable_recolours(self, spell: Spell) -> int | None:
        """The most recolours the wizard could pay beside the spell's least cost; None when even
        that cost is out of reach."""
        spare = self.spendable() - self.least_price(spell)
        if spare < 0 or spell.certificates > len(self.wizard.certificates):
            return None
        return spare // self.book.recolour

    def matches(self, position: int) -> list[tuple[int, int, int]]:
        """Every (shape, origin, recolours) where the spell at `position` is on the field with the
        recolours its caster could pay for; empty when it is not active, already cast this turn, or
        its cost is more than the caster holds."""
        if position in self.cast_this_turn or position in self.spent or position not in self.crescents:
            return []
        spell = self.spell_at(position)
        most = self.affordable_recolours(spell)
        if most is None:
            return []
        return [(s, origin, k) for s, shape in enumerate(spell.shapes) for origin, k in find(shape, self.field, most)]

    def castable(self, position: int) -> Spell:
        """The spell at line `position`, if it may be cast now wherever it is found; else a
        RuleError saying why not (not Reap, no moon crescent, cast already this turn)."""
        self._expect(REAP, "Casting")
        spell = self.spell_at(position)
        if position not in self.crescents:
            raise RuleError(f"{spell.name} has no moon crescent: only active spells are cast")
        if position in self.cast_this_turn:
            raise RuleError(f"{spell.name} was cast this turn already: never the same spell twice a turn")
        if position in self.spent:
            raise RuleError(f"{spell.name} is cast once a game, and has been")
        return spell

    def cast(
        self,
        position: int,
        shape: int,
        origin: int,
        rng: Random,
        paid: int | None = None,
        choices: list[dict] | tuple = (),
    ) -> Cast:
        """Reap: cast the active spell at line `position`, its pattern found as its `shape`-th
        quarter turn with the top-left cell at space `origin`, every piece of the wrong colour
        recoloured for essence. Pay, reduce, enact each effect with its choice, take prestige."""
        spell = self.castable(position)
        if not 0 <= shape < len(spell.shapes):
            raise RuleError(f"{spell.name}'s pattern has {len(spell.shapes)} distinct quarter turns")
        the_shape = spell.shapes[shape]
        if not 0 <= origin < len(self.field.stacks):
            raise RuleError(f"the field has no space {origin}")
        recolours = recolours_at(the_shape, self.field, origin)
        if recolours is None:
            raise RuleError(f"{spell.name}'s pattern is not on the field there")
        price = self.price(spell, paid)
        self._check_pay(spell.name, price + recolours * self.book.recolour, spell.certificates)
        saved = self.snapshot()
        try:
            return self._cast(position, spell, shape, origin, price, recolours, rng, list(choices))
        except RuleError:
            self.restore(saved)
            raise

    def _cast(self, position, spell, shape, origin, price, recolours, rng, choices) -> Cast:
        casting = self.begin(spell, shape, origin, price, recolours)
        for i, effect in enumerate(spell.does or ()):
            enact(self, casting, effect, choices[i] if i < len(choices) else {}, rng)
        self.award(self.player, spell.prestige, rng)
        self.done(position, spell)
        return Cast(position, spell.name, price, recolours, spell.prestige, tuple(casting.rolled))

    def done(self, position: int, spell: Spell) -> None:
        """A cast made: its spell is not cast again this turn, nor ever when it is once a game."""
        self.cast_this_turn.add(position)
        if spell.once_a_game:
            self.spent.add(position)

    def begin(self, spell: Spell, shape: int, origin: int, price: int, recolours: int) -> Casting:
        """A cast's first steps, checked already: pay its cost and recolours, and reduce its pieces.
        The cast as its effects will see it (what a caster may choose for them is seen here too)."""
        the_shape = spell.shapes[shape]
        self.pay(spell, price, recolours)
        pieces = the_shape.pieces(origin)
        replaced = self.reduce(pieces, plain=len(the_shape.colours))
        marked = tuple(origin + off for off in the_shape.marked)
        return Casting(self.player, spell, shape, origin, price, pieces, marked, replaced)

    def pay(self, spell: Spell, price: int, recolours: int) -> None:
        """A spell's cost (`price` in essence, and its certificates) and its recolours, checked already."""
        self.wizard.essence -= price + recolours * self.book.recolour
        self._pay_certificates(spell.certificates)

    def _pay_certificates(self, count: int) -> None:
        if not count:
            return
        w = self.wizard
        cheapest = sorted(range(len(w.certificates)), key=lambda i: (self.points(w.certificates[i]), -i))[:count]
        w.certificates = [c for i, c in enumerate(w.certificates) if i not in cheapest]

    def reduce(self, spaces: tuple[int, ...], plain: int) -> dict[int, int]:
        """The spell's pieces all go back to the cauldron, then for each one of its colour a size
        smaller comes out onto its space, if the cauldron has one; a small piece is not replaced.
        The first `plain` spaces are plain cells (only the top piece); the rest are stacks (every
        piece). Returns how many pieces went back onto each space."""
        field, cauldron = self.field, self.cauldron
        lifted = []
        for i, space in enumerate(spaces):
            count = 1 if i < plain else len(field.stacks[space])
            lifted.append([field.take(space) for _ in range(count)][::-1])  # bottom first
        for pieces in lifted:
            for piece in pieces:
                cauldron[piece.colour][piece.size] += 1
        replaced = {}
        for space, pieces in zip(spaces, lifted, strict=True):
            put = 0
            for piece in pieces:
                smaller = piece.size - 1
                if piece.size > SMALL and cauldron[piece.colour][smaller]:
                    cauldron[piece.colour][smaller] -= 1
                    field.put(space, Piece(piece.colour, smaller))
                    put += 1
            replaced[space] = put
        return replaced

    # --- prestige, essence and the end ------------------------------------------------------

    def draw_certificate(self, rng: Random) -> Card:
        card = self.pile.pop()
        if not self.pile:  # our ruling: when the certificates run out, shuffle in another deck
            self.pile = deck()
            rng.shuffle(self.pile)
        return card

    def award(self, player: int, prestige: int, rng: Random) -> None:
        """Prestige certificates for a cast; in a Duel, essence instead."""
        w = self.wizards[player]
        if self.variants.duel:
            w.essence += prestige
            return
        for _ in range(prestige):
            w.certificates.append(self.draw_certificate(rng))

    def check_out(self, player: int) -> None:
        """Duel: a wizard whose essence reaches zero is out at once."""
        w = self.wizards[player]
        if self.variants.duel and w.essence <= 0 and not w.out:
            w.out = True
            if sum(not x.out for x in self.wizards) <= 1:
                self._end_game()

    def points(self, card: Card) -> int:
        """A certificate's worth: one, or by Extra Credit its rank's (and its suit's, Double-Plus)."""
        if not (self.variants.extra_credit or self.variants.double_plus):
            return 1
        rank, suit = card
        number, royal, ace = self.book.points
        worth = ace if rank == ACE else royal if rank >= JACK else number
        if self.marker is not None and suit == self.marker[1]:
            worth *= self.book.double_plus
        return worth

    def score(self, player: int) -> int:
        w = self.wizards[player]
        if self.variants.duel:
            return 0 if w.out else w.essence
        return sum(self.points(card) for card in w.certificates)

    def winners(self) -> list[int]:
        """The players sharing the win (our ruling: tied players share it)."""
        scores = [self.score(p) for p in range(len(self.wizards))]
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]

    def cast_by_hand(
        self, position: int, rng: Random, paid: int | None, recolours: int, prestige: int, choices=()
    ) -> Cast:
        """Reap at a table with real pieces: the pattern was found and reduced on the board, so
        this pays (the cost and `recolours`), enacts only the effects off the board (essence,
        certificates, crescents: the board's are done by hand) and takes `prestige`."""
        spell = self.castable(position)
        price = self.price(spell, paid)
        self._check_pay(spell.name, price + recolours * self.book.recolour, spell.certificates)
        saved = self.snapshot()
        try:
            self.pay(spell, price, recolours)
            casting = self.off_the_board(spell, price)
            for i, effect in enumerate(spell.does or ()):
                if effect["do"] in OFF_THE_BOARD:
                    enact(self, casting, effect, choices[i] if i < len(choices) else {}, rng)
            self.award(self.player, prestige, rng)
        except RuleError:
            self.restore(saved)
            raise
        self.done(position, spell)
        return Cast(position, spell.name, price, recolours, prestige, tuple(casting.rolled))

    def off_the_board(self, spell: Spell, price: int) -> Casting:
        """A cast with real pieces as its effects off the board see it: no field of the companion's."""
        return Casting(self.player, spell, 0, 0, price, (), (), {})

    # --- a table's record: the game as JSON-ready data, and back ----------------------------

    def to_data(self) -> dict:
        """Everything that changes in play, as plain lists and numbers (the pile included: a
        tracker keeps it and shows it to no one)."""
        return {
            "field": [[list(p) for p in stack] for stack in self.field.stacks],
            "cauldron": [list(c) for c in self.cauldron],
            "wizards": [
                {
                    "apothecary": [list(p) for p in w.apothecary],
                    "essence": w.essence,
                    "certificates": [list(c) for c in w.certificates],
                    "out": w.out,
                }
                for w in self.wizards
            ],
            "line": list(self.line),
            "crescents": list(self.crescents),
            "pile": [list(c) for c in self.pile],
            "player": self.player,
            "step": self.step,
            "turn": self.turn,
            "cast_this_turn": sorted(self.cast_this_turn),
            "spent": sorted(self.spent),
            "accelerated": self.accelerated,
            "marker": None if self.marker is None else list(self.marker),
            "variants": asdict(self.variants),
        }

    @classmethod
    def from_data(cls, book: Book, data: dict) -> Game:
        game = cls(book, len(data["wizards"]), data["line"], Variants(**data["variants"]))
        for space, stack in enumerate(data["field"]):
            for piece in stack:
                game.field.put(space, Piece(*piece))
        game.cauldron = [list(c) for c in data["cauldron"]]
        for w, d in zip(game.wizards, data["wizards"], strict=True):
            w.apothecary = [Piece(*p) for p in d["apothecary"]]
            w.essence, w.out = d["essence"], d["out"]
            w.certificates = [tuple(c) for c in d["certificates"]]
        game.crescents = list(data["crescents"])
        game.pile = [tuple(c) for c in data["pile"]]
        game.player, game.step, game.turn = data["player"], data["step"], data["turn"]
        game.cast_this_turn = set(data["cast_this_turn"])
        game.spent = set(data.get("spent", ()))
        game.accelerated = data["accelerated"]
        game.marker = None if data["marker"] is None else tuple(data["marker"])
        return game

    # --- helpers ----------------------------------------------------------------------------

    def describe(self, piece: Piece) -> str:
        colour, size = piece
        if not (0 <= colour < len(self.book.colours) and SMALL <= size <= LARGE):
            return f"piece {list(piece)} (no such colour or size)"
        return f"{('small', 'medium', 'large')[size]} {self.book.colours[colour]}"

    def snapshot(self) -> tuple:
        """The table's changing parts, copied, for `restore` (a refused cast leaves no trace)."""
        f = self.field
        return (
            [list(s) for s in f.stacks],
            list(f.tops),
            f.occupied,
            [list(c) for c in self.cauldron],
            [(list(w.apothecary), w.essence, list(w.certificates), w.out) for w in self.wizards],
            list(self.pile),
            list(self.crescents),
            self.step,
            self.marker,
        )

    def restore(self, saved: tuple) -> None:
        f = self.field
        f.stacks, f.tops, f.occupied, self.cauldron, wizards, self.pile, self.crescents, self.step, self.marker = saved
        for w, (apothecary, essence, certificates, out) in zip(self.wizards, wizards, strict=True):
            w.apothecary, w.essence, w.certificates, w.out = apothecary, essence, certificates, out


def deal(book: Book, players: int, rng: Random, line: int | None = None, variants: Variants = Variants()) -> Game:
    """Setup: shuffle the spell deck and deal the line (the normal length unless told), all moon
    crescents on its first spell; shuffle the certificates; each wizard takes random large pieces."""
    length = book.lines["normal"] if line is None else line
    if length > len(book.spells):
        raise RuleError(f"a line of {length} spells needs {length} spell cards; the deck has {len(book.spells)}")
    order = list(range(len(book.spells)))
    rng.shuffle(order)
    game = Game(book, players, order[:length], variants)
    game.pile = deck()
    rng.shuffle(game.pile)
    for w in game.wizards:
        for _ in range(book.start_large):
            large = [c for c, sizes in enumerate(game.cauldron) for _ in range(sizes[LARGE])]
            if large:
                colour = large[rng.randrange(len(large))]
                game.cauldron[colour][LARGE] -= 1
                w.apothecary.append(Piece(colour, LARGE))
    return game
