"""Magecraft's rules as pure code over the book (pnp.games.magecraft.rulebook): no content models,
no drawing, so the simulation and the companion share them.

A `Game` is the Arena for 2-4 wizards: each wizard's bag, hand, HP, Shield, Score and Discard Areas
as gem counts by colour, their spellbooks (cards left to right, each mastered or not, with the gems
paid onto it this turn), the Academy's spells and gems. Its moves are the turn's phases, made in
order by the wizard whose turn it is: `discard_shield`, then casting (`cast` the chosen spellbook's
spells left to right, and the `cantrip` before, between or after them), then `learn` or
`revise`, then `refresh`, which ends the turn. Before the first turn each seat that must discard
makes its `opening_discard`. Moves take plain data (colour indexes, spellbook numbers from 0, a
dict of choices) and any chance from the random.Random they are handed, so a log of moves folds
again. A move the rules forbid raises `RuleError` saying why, and changes nothing. The companion's
table (pnp.games.magecraft.tracker) draws through `drawn_gem` to write each gem down and replay it,
names the wizards in refusals (`names`) and tells what a payment paid (`last_paid`).

Payments name one colour per cost slot, left to right (None: pay it for me, see `payment_for`);
the slot the golden gem pays is None. Choices for a spell's icons, each a list with one entry per
icon (missing entries: the engine's default, the first sensible one):
  attack  [{"player": p, "colour": c}, ...]  the rival (needed when more than one is in the Arena;
          our ruling "targets") and the colour of their shield gem, or of their HP gem when the
          shield is empty
  heal    [c, ...]  the colour taken from the Academy (or the Discard Area: heal-from-discard)
  shield  [{"from": "academy" | "discard", "colour": c}, ...]
  vanish  [{"from": "hand" | "hp", "colour": c}, ...]
The icons resolve "in any order"; the engine takes the order that serves the caster best, the
same every time: Draw (drawn gems may then pay a Vanish), Attack, Heal, Shield, Vanish (a Heal on
a full HP Area scores, and a Vanish from HP after it then does not undo it).

Our rulings (content/magecraft/rulings.yaml) are followed where the code meets them, each cited by
its key: learn-gems, cast-gems, golden-match, golden-end, cantrip, heal-empty, shield-empty,
bag-empty, targets, wild.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from random import Random

from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.rulebook import ATTACK, DRAW, HEAL, SHIELD, WILD, Book, Cantrip

OPENING, DISCARD_SHIELD, CASTING, STUDIED, OVER = "opening", "discard-shield", "casting", "studied", "over"
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


class RuleError(ValueError):
    """A move the rules do not allow now, with the reason in words."""


class Card:
    """A spell card in a spellbook, and the gems paid onto it this turn (colours, left to right)."""

    __slots__ = ("spell", "mastered", "paid")

    def __init__(self, spell: int, mastered: bool = False, paid: list[int] | None = None):
        self.spell = spell  # index into book.spells
        self.mastered = mastered
        self.paid = paid or []


class Wizard:
    """A wizard's board: every area a list of gem counts by colour."""

    __slots__ = (
        "character",
        "bag",
        "hand",
        "hp",
        "shield",
        "score",
        "discard",
        "books",
        "golden",
        "cantrip_paid",
        "out",
    )

    def __init__(self, colours: int, spellbooks: int, character: int | None = None):
        self.character = character  # index into book.characters; None: no Cantrip
        self.bag = [0] * colours
        self.hand = [0] * colours
        self.hp = [0] * colours
        self.shield = [0] * colours
        self.score = [0] * colours
        self.discard = [0] * colours
        self.books: list[list[Card]] = [[] for _ in range(spellbooks)]  # index 0: leftmost
        self.golden = -1  # the golden gem's colour while it waits to pay the next spell
        self.cantrip_paid = -1  # the gem on the Cantrip this turn
        self.out = False  # no HP left: no more turns, not a target


def count_words(counts: dict[int, int], names: tuple[str, ...]) -> str:
    """ "one Fire", "two Fire and no Water"."""
    said = [f"{NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else n} {names[c]}" for c, n in counts.items()]
    return " and ".join(said) if len(said) < 3 else ", ".join(said[:-1]) + " and " + said[-1]


class Game:
    def __init__(self, book: Book, players: int, characters: list[int | None] | None = None):
        self.book = book
        colours = len(book.colours)
        characters = characters or [None] * players
        self.wizards = [Wizard(colours, book.spellbooks, characters[p]) for p in range(players)]
        self.academy_gems = [0] * colours
        self.academy_spells = [0] * len(book.spells)  # cards of each spell in the Academy
        self.academy_order: list[int] = []  # the Academy's spells as dealt: basic ones first
        self.opening = [0] * players  # gems each seat has still to discard from its opening hand
        self.player = 0
        self.phase = OPENING
        self.turn = 1
        self.spellbook = -1  # the spellbook chosen this turn
        self.next_spell = 0  # its next spell to cast
        self.cantrip_cast = False
        self.pending = [0] * len(ICONS)  # the icons of the spell being cast still to resolve, by kind
        self.pending_special: str | None = None  # that spell's special
        self.pending_spell: str | None = None  # and its name
        self.pending_mastered = False  # a mastered spell is being cast: its golden gem moves on after
        self.winner: int | None = None
        self.ended: str | None = None  # "hp" (the last wizard standing) or "score"
        self.names: list[str] | None = None  # the wizards' names for a refusal's words (None: "wizard 1")
        self.last_paid: list[int] = []  # the colours the latest cast, Cantrip or learning paid, slot by slot

    # --- setup -------------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        book: Book,
        players: int,
        rng: Random,
        characters: list[int | None] | None = None,
        academy: list[int] | None = None,
    ) -> Game:
        """Setup for `players` wizards, seat 0 first (the caller seats them at random): bags and
        HP Areas, the Academy (its random sets `academy`, spell indexes, when already dealt: a
        replay), the starting spells, and the opening hands of the seat table."""
        if players < 2 or players > len(book.seats):
            raise RuleError(f"Magecraft is for 2 to {len(book.seats)} wizards, not {players}")
        if characters is not None and len(characters) != players:
            raise RuleError(f"name a character for each of the {players} wizards")
        if any(c is not None and not 0 <= c < len(book.characters) for c in characters or ()):
            raise RuleError(f"the characters are numbered 0 to {len(book.characters) - 1}")
        game = cls(book, players, characters)
        cards, gems = (book.copies, book.academy_gems) if players == 2 else book.melee[players]
        game.academy_gems = [gems] * len(book.colours)
        fixed = set(book.starting) | set(book.academy_basic)
        others = [i for i, s in enumerate(book.spells) if s.name not in fixed]
        if academy is None:
            academy = rng.sample(others, book.random_sets)
        elif len(academy) != book.random_sets or not set(academy) <= set(others):
            raise RuleError(f"the Academy deals {book.random_sets} sets beyond the basic and starting spells")
        dealt = [book.spell_index(n) for n in book.academy_basic] + list(academy)
        for i in dealt:
            game.academy_spells[i] = cards
        game.academy_order = dealt
        starting = [book.spell_index(n) for n in book.starting]
        for seat, w in enumerate(game.wizards):
            for c in book.basic:
                w.bag[c] = book.bag_each
                w.hp[c] = book.hp_each
            w.books = [[Card(s)] for s in starting]
            draw, discard = book.seats[seat]
            for _ in range(draw):
                game._draw(w, rng)
            game.opening[seat] = discard
        if not any(game.opening):
            game.phase = DISCARD_SHIELD
        return game

    def opening_discard(self, player: int, gems: list[int]) -> None:
        """The seat table: after drawing an opening hand, a seat discards this many gems."""
        if self.phase != OPENING:
            raise RuleError("the opening hands are settled")
        if not 0 <= player < len(self.wizards):
            raise RuleError(f"there is no wizard {player + 1}")
        due = self.opening[player]
        if len(gems) != due:
            raise RuleError(f"{self.name(player)} discards {due} gems from the opening hand, not {len(gems)}")
        w = self.wizards[player]
        self._take_from(w.hand, gems, "your hand")
        for c in gems:
            w.discard[c] += 1
        self.opening[player] = 0
        if not any(self.opening):
            self.phase = DISCARD_SHIELD

    # --- the turn ----------------------------------------------------------------------------

    @property
    def wizard(self) -> Wizard:
        return self.wizards[self.player]

    def _in_turn(self, move: str) -> Wizard:
        if self.phase == OVER:
            raise RuleError("the game is over")
        if self.phase == OPENING:
            raise RuleError(f"{move} waits until every opening hand has discarded")
        if self.resolving:
            raise RuleError(f"{move} waits: first resolve the icons of {self.pending_spell}")
        return self.wizards[self.player]

    def discard_shield(self, gems: list[int]) -> None:
        """Discard Shield phase: any gems of your Shield Area to your Discard Area."""
        w = self._in_turn("Discarding shield gems")
        if self.phase != DISCARD_SHIELD:
            raise RuleError("shield gems are discarded at the start of the turn, before casting")
        self._take_from(w.shield, gems, "your Shield Area")
        for c in gems:
            w.discard[c] += 1

    def _casting(self, what: str) -> Wizard:
        w = self._in_turn(what)
        if self.phase == STUDIED:
            raise RuleError(f"{what}: the casting phase is over once you learn or revise")
        return w

    @property
    def casting_open(self) -> bool:
        """Whether the wizard whose turn it is may still cast, learn or revise: their turn has begun,
        and no learning or revision has closed its casting phase."""
        return self.phase in (DISCARD_SHIELD, CASTING)

    def next_to_cast(self, spellbook: int) -> tuple[Card, int]:
        """The card `spellbook` casts next this turn and its place in it; a RuleError saying why
        when it casts none now."""
        w = self._casting("Casting")
        books = self.book.spellbooks
        if not 0 <= spellbook < books:
            raise RuleError(f"you have spellbooks 1 to {books}")
        if self.spellbook not in (-1, spellbook):
            raise RuleError(
                f"you are casting Spellbook {self.spellbook + 1} this turn: spells of another spellbook "
                "are never cast in the same casting phase"
            )
        cards = w.books[spellbook]
        if self.spellbook == -1 and not cards:
            raise RuleError(f"Spellbook {spellbook + 1} is empty")
        position = self.next_spell if self.spellbook == spellbook else 0
        if position >= len(cards):
            raise RuleError(f"Spellbook {spellbook + 1} has no spell left to cast this turn")
        return cards[position], position

    def cast(
        self,
        spellbook: int,
        rng: Random,
        payment: list[int | None] | None = None,
        choices: dict | None = None,
        one_by_one: bool = False,
    ) -> str:
        """Cast the next spell of `spellbook` (the one chosen this turn: never two a turn), left to
        right: pay its cost from your hand onto the card, then resolve its icons: all at once by
        `choices` (see the module's text), or, `one_by_one`, each by its own `resolve`. Returns its name."""
        card, position = self.next_to_cast(spellbook)
        w = self.wizard
        spell = self.book.spells[card.spell]
        golden = w.golden
        slot = golden_slot(spell.cast, golden) if golden >= 0 else -1
        paid = self._payment(spell.name, spell.cast, payment, w.hand, golden, slot)
        order = self._check_choices(spell.name, spell.effects, spell.special, choices, one_by_one)
        saved = self._save(rng) if choices else None
        for i, c in enumerate(paid):
            if i != slot:
                w.hand[c] -= 1
        # cast-gems: paid gems stay on the card until Refresh; the golden gem pays one slot (golden-match)
        card.paid = paid
        w.golden = -1
        self.spellbook, self.next_spell, self.phase = spellbook, position + 1, CASTING
        self._begin(spell.name, spell.effects, spell.special, choices or {}, order, rng, saved, card.mastered)
        return spell.name

    def _golden_moves(self, w: Wizard, card: Card, after: Card | None) -> None:
        """A mastered spell's first paid gem is golden: it moves on to pay one slot of the next
        spell (golden-match); with no next spell, or none it can pay, to the Discard Area (golden-end)."""
        gem = card.paid.pop(0)
        if after is not None and golden_slot(self.book.spells[after.spell].cast, gem) >= 0:
            w.golden = gem
        else:
            w.discard[gem] += 1

    def cantrip(
        self, rng: Random, gem: int | None = None, choices: dict | None = None, one_by_one: bool = False
    ) -> str:
        """Your character's Cantrip: one gem, at most once a turn, in the casting phase before the
        spellbook's first spell, between two of its spells or after its last (our ruling "cantrip"); its
        icons as a spell's."""
        cantrip = self.ready_cantrip()
        w = self.wizard
        [paid] = self._payment(cantrip.name, (cantrip.gem,), None if gem is None else [gem], w.hand, -1, -1)
        order = self._check_choices(cantrip.name, cantrip.effects, None, choices, one_by_one)
        saved = self._save(rng) if choices else None
        w.hand[paid] -= 1
        w.cantrip_paid = paid
        self.cantrip_cast, self.phase = True, CASTING
        self._begin(cantrip.name, cantrip.effects, None, choices or {}, order, rng, saved, False)
        return cantrip.name

    def ready_cantrip(self) -> Cantrip:
        """The Cantrip of the wizard whose turn it is, when they may cast it now; else a RuleError."""
        w = self._casting("Your Cantrip")
        if w.character is None:
            raise RuleError("your wizard has no character, so no Cantrip")
        if self.cantrip_cast:
            raise RuleError("your Cantrip is cast at most once a turn (our ruling)")
        return self.book.characters[w.character].cantrip

    def learn(self, spell: str, spellbook: int, payment: list[int | None] | None = None) -> None:
        """Learning: pay a spell's learn cost from your hand (to your Discard Area, our ruling
        "learn-gems") and place it on the LEFT of one of your spellbooks."""
        w = self._casting("Learning")
        try:
            index = self.book.spell_index(spell)
        except KeyError:
            raise RuleError(f"there is no spell called {spell!r}") from None
        if not self.academy_spells[index]:
            raise RuleError(f"the Academy has no {spell} card to learn")
        if not 0 <= spellbook < self.book.spellbooks:
            raise RuleError(f"you have spellbooks 1 to {self.book.spellbooks}")
        paid = self._payment(f"Learning {spell}", self.book.spells[index].learn, payment, w.hand, -1, -1)
        for c in paid:
            w.hand[c] -= 1
            w.discard[c] += 1
        self.academy_spells[index] -= 1
        w.books[spellbook].insert(0, Card(index))
        self.phase = STUDIED

    def revise(
        self,
        gems: list[int],
        arrangement: list[list[tuple[int, int]]] | None = None,
        master: tuple[int, int] | None = None,
    ) -> None:
        """Revision: discard the rules' number of gems from your hand, rearrange your spells freely
        over all your spellbooks (each named by its place now: (spellbook, position)), then master at
        most one (its place in the new arrangement)."""
        w = self._casting("Revision")
        need = self.book.revision
        if sum(w.hand) < need:
            raise RuleError(f"revision needs {need} gems in your hand; you have {sum(w.hand)}")
        if len(gems) != need:
            raise RuleError(f"revision discards {need} gems from your hand, not {len(gems)}")
        books = w.books
        if arrangement is None:
            new = [list(cards) for cards in books]
        else:
            if len(arrangement) != self.book.spellbooks:
                raise RuleError(f"arrange your spells into your {self.book.spellbooks} spellbooks")
            places = [(b, p) for b, cards in enumerate(books) for p in range(len(cards))]
            named = [tuple(place) for cards in arrangement for place in cards]
            if sorted(named) != places:
                raise RuleError("a new arrangement places each of your spells once, and only yours")
            new = [[books[b][p] for b, p in cards] for cards in arrangement]
        if master is not None:
            b, p = master
            if not (0 <= b < len(new) and 0 <= p < len(new[b])):
                raise RuleError(f"Spellbook {b + 1} has no spell {p + 1} to master")
            if new[b][p].mastered:
                raise RuleError(f"{self.book.spells[new[b][p].spell].name} is mastered already")
        self._take_from(w.hand, gems, "your hand")
        for c in gems:
            w.discard[c] += 1
        w.books = new
        if master is not None:
            new[master[0]][master[1]].mastered = True
        self.phase = STUDIED

    def refresh(self, rng: Random) -> None:
        """Refresh: your hand and every gem on your spell cards to your Discard Area (cast-gems),
        then draw a new hand; the turn passes to the next wizard still in the Arena."""
        w = self._in_turn("Refresh")
        discard, hand = w.discard, w.hand
        for c, n in enumerate(hand):
            discard[c] += n
            hand[c] = 0
        for cards in w.books:
            for card in cards:
                for c in card.paid:
                    discard[c] += 1
                card.paid = []
        for gem in (w.golden, w.cantrip_paid):  # golden-end: a golden gem still waiting
            if gem >= 0:
                discard[gem] += 1
        w.golden = w.cantrip_paid = -1
        for _ in range(self.book.hand):
            self._draw(w, rng)
        self._next_turn()

    def _next_turn(self) -> None:
        n = len(self.wizards)
        self.player = next(q % n for q in range(self.player + 1, self.player + n + 1) if not self.wizards[q % n].out)
        self.phase = DISCARD_SHIELD
        self.turn += 1
        self.spellbook, self.next_spell, self.cantrip_cast = -1, 0, False
        self.pending, self.pending_special, self.pending_spell = [0] * len(ICONS), None, None
        self.pending_mastered = False

    # --- the icons ---------------------------------------------------------------------------

    def _begin(
        self,
        name: str,
        effects: tuple[int, ...],
        special: str | None,
        choices: dict,
        order,
        rng: Random,
        saved,
        mastered: bool,
    ) -> None:
        """A spell's cost is paid: its icons wait (`pending`) to be resolved, in the caster's order.
        `order` None: one by one, each by its `resolve`; else all now, in that order, each icon with
        its own choice from `choices` (a refusal leaves no trace of the cast)."""
        self.pending, self.pending_special, self.pending_spell = list(effects), special, name
        self.pending_mastered = mastered
        if not any(effects):
            self._resolved()
        if order is None:
            return
        seen = [0] * len(ICONS)
        try:
            for icon in order:
                if not self.pending[icon]:  # the game ended, or the caster fell, before this icon
                    break
                self._resolve_one(icon, _choice(choices, icon, seen[icon]), rng, seen[icon])
                seen[icon] += 1
        except RuleError:
            self._restore(saved, rng)
            raise

    def resolve(self, icon: int, rng: Random, choice: dict | None = None) -> None:
        """One icon of the spell being cast, whichever the caster resolves next ("in any order"),
        with its own choice: {"player", "colour"} for an Attack, {"colour"} for a Heal, {"from",
        "colour"} for a Shield or a Vanish; an unnamed colour is the source's most plentiful."""
        if self.phase == OVER:
            raise RuleError("the game is over")
        if not self.resolving:
            raise RuleError("no spell's icons are waiting to be resolved")
        if not (isinstance(icon, int) and 0 <= icon < len(ICONS)) or not self.pending[icon]:
            named = ICONS[icon] if icon in range(len(ICONS)) else icon
            raise RuleError(f"{self.pending_spell} has no {named} icon left to resolve")
        choice = choice or {}
        targets = icon == ATTACK and self.pending_special != "attack-each" and len(self.rivals()) > 1
        if targets and "player" not in choice:
            raise RuleError(f"{self.pending_spell}: name the rival this Attack strikes")
        self._resolve_one(icon, choice, rng)

    @property
    def resolving(self) -> bool:
        """Whether a spell's icons are still waiting to be resolved."""
        return any(self.pending)

    def _resolve_one(self, icon: int, choice: dict, rng: Random, nth: int | None = None) -> None:
        """Resolves one waiting icon; the game ends at once when a score reaches the score to win
        or one wizard is left, whatever icons still wait ("The game ends immediately")."""
        w, special = self.wizards[self.player], self.pending_special
        self.pending[icon] -= 1  # first: an icon that ends the game, or the caster's turn, clears them all
        try:
            self._apply(w, icon, choice, special, rng, nth)
        except RuleError:
            self.pending[icon] += 1
            raise
        self._check_end()
        if self.phase == OVER:
            self.pending = [0] * len(ICONS)
        elif not self.resolving and self.wizards[self.player] is w:
            self._resolved()

    def _apply(self, w: Wizard, icon: int, choice: dict, special: str | None, rng: Random, nth: int | None) -> None:
        if icon == DRAW:
            self._draw(w, rng)
        elif icon == ATTACK and special == "attack-each":
            for p in self.rivals():
                if self.phase != OVER:
                    self._attack(w, p, None, special)
        elif icon == ATTACK:
            self._attack(w, self._target(choice, nth), choice.get("colour"), special)
        elif icon == HEAL:
            self._heal(w, choice.get("colour"), special)
        elif icon == SHIELD:
            self._shield(w, choice)
        else:
            self._vanish(w, choice)

    def _resolved(self) -> None:
        """The spell's last icon is resolved: a mastered spell's golden gem moves on."""
        if self.pending_mastered and not self.wizard.out:
            cards = self.wizard.books[self.spellbook]
            after = cards[self.next_spell] if self.next_spell < len(cards) else None
            self._golden_moves(self.wizard, cards[self.next_spell - 1], after)
        self.pending_mastered = False

    def name(self, p: int) -> str:
        """How a refusal names wizard `p`."""
        return self.names[p] if self.names else f"wizard {p + 1}"

    def strikes_borne(self, p: int) -> int:
        """How many Attacks wizard `p` stands before falling: each takes one of their shield gems, or
        one of their HP gems once the shield is empty."""
        w = self.wizards[p]
        return sum(w.shield) + sum(w.hp)

    def rivals(self) -> list[int]:
        """The other wizards still in the Arena: the ones an Attack may strike."""
        return [p for p, x in enumerate(self.wizards) if p != self.player and not x.out]

    def _check_choices(
        self, name: str, effects: tuple[int, ...], special: str | None, choices: dict | None, one_by_one: bool
    ) -> list[int] | None:
        """The order a spell's icons resolve in all at once (None: `one_by_one`): the choices'
        "order" (icon names, each icon once), by default Draw, Attack, Heal, Shield, Vanish.
        Our ruling "targets": with more than one rival, each Attack names its own target."""
        if self.resolving:
            raise RuleError(f"first resolve the icons of {self.pending_spell}")
        if one_by_one:
            if choices:
                raise RuleError(f"{name}: choices come icon by icon when its icons resolve one by one")
            return None
        choices = choices or {}
        if effects[ATTACK] and special != "attack-each" and len(self.rivals()) > 1:
            named = choices.get("attack", [])
            if len(named) < effects[ATTACK] or any(not isinstance(c, dict) or "player" not in c for c in named):
                raise RuleError(f"{name}: name the rival each Attack strikes ({effects[ATTACK]} in all)")
        usual = [icon for icon, n in enumerate(effects) for _ in range(n)]
        named = choices.get("order")
        if named is None:
            return usual
        if not isinstance(named, list) or any(n not in ICONS for n in named):
            raise RuleError(f"{name}: an order names icons, each one of {', '.join(ICONS)}")
        order = [ICONS.index(n) for n in named]
        if sorted(order) != usual:
            raise RuleError(f"{name}: the order names each of its icons once ({', '.join(ICONS[i] for i in usual)})")
        return order

    def _target(self, choice: dict, nth: int | None) -> int:
        rivals = self.rivals()
        p = choice.get("player", rivals[0] if len(rivals) == 1 else None)
        if p not in rivals:
            attack = "an Attack" if nth is None else f"Attack {nth + 1}"
            named = " or ".join(self.name(r) for r in rivals)
            raise RuleError(f"{attack} strikes a rival still in the Arena: {named}")
        return p

    def _attack(self, w: Wizard, p: int, colour: int | None, special: str | None) -> None:
        """Discard a gem from a rival's Shield Area; no shield: one of their HP gems to your Score."""
        rival = self.wizards[p]
        if sum(rival.shield):
            c = self._colour_in(rival.shield, colour, f"{self.name(p)}'s Shield Area")
            rival.shield[c] -= 1
            if special == "steal-shield":
                w.shield[c] += 1
            else:
                rival.discard[c] += 1
            return
        c = self._colour_in(rival.hp, colour, f"{self.name(p)}'s HP Area")
        rival.hp[c] -= 1
        w.score[c] += 1
        self._check_end()

    def _heal(self, w: Wizard, colour: int | None, special: str | None) -> None:
        """A gem from the Academy (heal-from-discard: your Discard Area) to your HP Area; HP full:
        to your Score Area. None of any colour left there: the Heal does nothing (heal-empty)."""
        source = w.discard if special == "heal-from-discard" else self.academy_gems
        if not sum(source):
            return
        where = "your Discard Area" if source is w.discard else "the Academy"
        c = self._colour_in(source, colour, where)
        source[c] -= 1
        if sum(w.hp) >= self.book.hp:
            w.score[c] += 1
        else:
            w.hp[c] += 1

    def _shield(self, w: Wizard, choice: dict) -> None:
        """A gem from the Academy or your Discard Area to your Shield Area; neither has one: the
        Shield does nothing (shield-empty)."""
        sources = {"academy": (self.academy_gems, "the Academy"), "discard": (w.discard, "your Discard Area")}
        self._gem_to(w.shield, sources, choice, "a Shield takes its gem from the academy or your discard")

    def _vanish(self, w: Wizard, choice: dict) -> None:
        """A gem from your hand or your HP Area to your Score Area."""
        sources = {"hand": (w.hand, "your hand"), "hp": (w.hp, "your HP Area")}
        self._gem_to(w.score, sources, choice, "a Vanish takes its gem from your hand or your HP")
        self._check_end()

    def _gem_to(self, to: list[int], sources: dict, choice: dict, refusal: str) -> None:
        """One gem moved to `to` from the source `choice` names ("from"; unnamed: the first of
        `sources` holding one), of its "colour" (unnamed: the source's most plentiful); nothing
        when that source is empty."""
        named = choice.get("from")
        if named is not None and named not in sources:
            raise RuleError(refusal)
        if named is None:
            first, second = sources
            named = first if sum(sources[first][0]) else second
        gems, words = sources[named]
        if not sum(gems):
            return
        c = self._colour_in(gems, choice.get("colour"), words)
        gems[c] -= 1
        to[c] += 1

    def _draw(self, w: Wizard, rng: Random) -> int:
        """A random gem from the bag to the hand; bag empty: the Discard Area becomes the bag first.
        Both empty: nothing (bag-empty). Returns the colour, or -1."""
        bag = w.bag
        total = sum(bag)
        if not total:
            total = sum(w.discard)
            if not total:
                return -1
            w.bag, w.discard = w.discard, bag  # the emptied bag's list becomes the empty Discard Area
            bag = w.bag
        c = self.drawn_gem(bag, total, rng)
        bag[c] -= 1
        w.hand[c] += 1
        return c

    def drawn_gem(self, bag: list[int], total: int, rng: Random) -> int:
        """The colour of a gem drawn at random from `bag` (holding `total`). The companion's table
        overrides it to write each draw down, and to replay the draws a log recorded."""
        r = rng.randrange(total)
        for c, n in enumerate(bag):
            if r < n:
                return c
            r -= n
        raise AssertionError("a bag's counts and total disagree")

    def _colour_in(self, gems: list[int], colour: int | None, where: str) -> int:
        """The chosen colour, if `where` holds one; unchosen, its most plentiful."""
        if colour is None:
            return max(range(len(gems)), key=gems.__getitem__)
        if not (isinstance(colour, int) and 0 <= colour < len(gems)):
            raise RuleError(f"there is no gem colour {colour!r}")
        if not gems[colour]:
            raise RuleError(f"{where} has no {self.book.names[colour]} gem")
        return colour

    # --- the end -----------------------------------------------------------------------------

    def _check_end(self) -> None:
        """A wizard with no HP is out, their board as it stands; the game ends at once when one
        wizard is left, or any wizard holds the score to win."""
        for p, x in enumerate(self.wizards):
            if sum(x.score) >= self.book.score_to_win:
                self.winner, self.ended, self.phase = p, "score", OVER
                return
        for x in self.wizards:
            if not x.out and not sum(x.hp):
                x.out = True
        alive = [p for p, x in enumerate(self.wizards) if not x.out]
        if len(alive) == 1:
            self.winner, self.ended, self.phase = alive[0], "hp", OVER
        elif self.wizards[self.player].out:  # a Vanish took the caster's own last HP
            self._next_turn()

    # --- payments ----------------------------------------------------------------------------

    def _payment(self, what: str, cost: tuple[int, ...], payment, hand: list[int], golden: int, slot: int) -> list[int]:
        """The colours paying each slot of `cost` (the golden gem's slot included), checked against
        the hand; a RuleError naming the cost and what the hand holds when it cannot."""
        if payment is None:
            payment = payment_for(cost, hand, golden)
            if payment is None:
                raise RuleError(self._short(what, cost, hand, golden))
        if len(payment) != len(cost):
            raise RuleError(f"{what} costs {len(cost)} gems; the payment names {len(payment)}")
        paid, need = [], [0] * len(hand)
        for i, (wanted, c) in enumerate(zip(cost, payment, strict=True)):
            if i == slot:
                paid.append(golden)
                continue
            if not (isinstance(c, int) and 0 <= c < len(hand)):
                raise RuleError(f"{what}: gem {i + 1} of the payment is no gem colour ({c!r})")
            if wanted != WILD and c != wanted:  # wild: any colour, Darkness too, pays a Wild
                raise RuleError(
                    f"{what}: gem {i + 1} of the cost is {self.book.names[wanted]}; {self.book.names[c]} cannot pay it."
                )
            paid.append(c)
            need[c] += 1
        if any(n > h for n, h in zip(need, hand, strict=True)):
            raise RuleError(self._short(what, cost, hand, golden))
        self.last_paid = paid
        return paid

    def _short(self, what: str, cost: tuple[int, ...], hand: list[int], golden: int) -> str:
        """ "Fireball needs Fire, Fire and one more; your hand has one Fire.\""""
        names = self.book.names
        wilds = cost.count(WILD)
        said = [names[c] for c in cost if c != WILD]
        if wilds:
            more = NUMBER_WORDS[wilds] if wilds < len(NUMBER_WORDS) else str(wilds)
            said.append(f"{more} more" if said else f"{more} {'gem' if wilds == 1 else 'gems'} of any colour")
        needed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        colours = [c for c in dict.fromkeys(cost) if c != WILD] or [c for c in range(len(hand)) if hand[c]]
        has = count_words({c: hand[c] for c in colours}, names) if colours else "no gems"
        with_golden = f" and the golden gem is {names[golden]}" if golden >= 0 else ""
        return f"{what} needs {needed}; your hand has {has}{with_golden}."

    # --- a table's record: the game as JSON-ready data, and back -----------------------------

    def to_data(self) -> dict:
        spells = self.book.spells
        return {
            "wizards": [
                {
                    "character": w.character,
                    **{area: list(getattr(w, area)) for area in ("bag", "hand", "hp", "shield", "score", "discard")},
                    "books": [[[spells[c.spell].name, c.mastered, list(c.paid)] for c in cards] for cards in w.books],
                    "golden": w.golden,
                    "cantrip_paid": w.cantrip_paid,
                    "out": w.out,
                }
                for w in self.wizards
            ],
            "academy_gems": list(self.academy_gems),
            "academy": [[spells[i].name, self.academy_spells[i]] for i in self.academy_order],
            "opening": list(self.opening),
            "player": self.player,
            "phase": self.phase,
            "turn": self.turn,
            "spellbook": self.spellbook,
            "next_spell": self.next_spell,
            "cantrip_cast": self.cantrip_cast,
            "pending": list(self.pending),
            "pending_special": self.pending_special,
            "pending_spell": self.pending_spell,
            "pending_mastered": self.pending_mastered,
            "winner": self.winner,
            "ended": self.ended,
        }

    @classmethod
    def from_data(cls, book: Book, data: dict) -> Game:
        game = cls(book, len(data["wizards"]))
        game._load(data)
        return game

    def _load(self, data: dict) -> None:
        book = self.book
        for w, d in zip(self.wizards, data["wizards"], strict=True):
            w.character = d["character"]
            for area in ("bag", "hand", "hp", "shield", "score", "discard"):
                setattr(w, area, list(d[area]))
            w.books = [
                [Card(book.spell_index(name), mastered, list(paid)) for name, mastered, paid in cards]
                for cards in d["books"]
            ]
            w.golden, w.cantrip_paid, w.out = d["golden"], d["cantrip_paid"], d["out"]
        self.academy_gems = list(data["academy_gems"])
        self.academy_spells = [0] * len(book.spells)
        self.academy_order = []
        for name, count in data["academy"]:
            i = book.spell_index(name)
            self.academy_spells[i] = count
            self.academy_order.append(i)
        self.opening = list(data["opening"])
        self.player, self.phase, self.turn = data["player"], data["phase"], data["turn"]
        self.spellbook, self.next_spell = data["spellbook"], data["next_spell"]
        self.cantrip_cast = data["cantrip_cast"]  # (older records' "closed": the Cantrip no longer ends a spellbook)
        self.pending = list(data.get("pending", [0] * len(ICONS)))  # older records: no spell waits
        self.pending_special, self.pending_spell = data.get("pending_special"), data.get("pending_spell")
        self.pending_mastered = data.get("pending_mastered", False)
        self.winner, self.ended = data["winner"], data["ended"]

    def _save(self, rng: Random) -> tuple:
        """The table and the generator's state, for `_restore` (a refused move leaves no trace)."""
        return self.to_data(), rng.getstate()

    def _restore(self, saved: tuple | None, rng: Random) -> None:
        if saved is None:  # no choices: the engine's own choices are never refused
            return
        data, state = saved
        self._load(data)
        rng.setstate(state)

    def _take_from(self, gems: list[int], chosen: list[int], where: str) -> None:
        """Remove the chosen gems (colours) from an area, or a RuleError naming what it holds."""
        want = [0] * len(gems)
        for c in chosen:
            if not (isinstance(c, int) and 0 <= c < len(gems)):
                raise RuleError(f"there is no gem colour {c!r}")
            want[c] += 1
        short = {c: gems[c] for c in range(len(gems)) if want[c] > gems[c]}
        if short:
            raise RuleError(f"{where} has {count_words(short, self.book.names)}")
        for c, n in enumerate(want):
            gems[c] -= n


def _choice(choices: dict, icon: int, k: int) -> dict:
    """The choice `choices` gives the `k`-th icon of its kind (none given: the engine's default);
    a Heal's is its colour alone."""
    given = list(choices.get(ICONS[icon], ()))
    if k >= len(given) or given[k] is None:
        return {}
    return {"colour": given[k]} if icon == HEAL else given[k]


def golden_slot(cost: tuple[int, ...], gem: int) -> int:
    """The slot of `cost` a golden gem pays: one of its own colour, else a Wild (golden-match);
    -1 when it pays none."""
    if gem in cost:
        return cost.index(gem)
    return cost.index(WILD) if WILD in cost else -1


def payments(cost: tuple[int, ...], hand: list[int], golden: int = -1) -> list[list[int | None]]:
    """Every way `hand` pays `cost` (the golden gem's slot None), each once (Wild slots paid with the
    same colours in another order are the same payment): the one `payment_for` makes first, then
    those paying the Wilds with the colours held most. None at all when the hand cannot pay."""
    made = payment_for(cost, hand, golden)
    if made is None:
        return []
    slot = golden_slot(cost, golden) if golden >= 0 else -1
    wilds = [i for i, c in enumerate(cost) if c == WILD and i != slot]
    left = list(hand)
    for i, c in enumerate(cost):
        if c != WILD and i != slot:
            left[c] -= 1
    usual = sorted(made[i] for i in wilds)
    found = []
    for colours in combinations_with_replacement(range(len(hand)), len(wilds)):
        if all(colours.count(c) <= left[c] for c in colours):
            pay = list(made)
            for i, c in zip(wilds, colours, strict=True):
                pay[i] = c
            found.append((list(colours) != usual, sorted(-left[c] for c in colours), pay))
    return [pay for *_, pay in sorted(found, key=lambda f: f[:2])]


def payment_for(cost: tuple[int, ...], hand: list[int], golden: int = -1) -> list[int | None] | None:
    """A payment of `cost` from `hand` (the golden gem's slot None), Wilds paid with the colour the
    hand has most of after the named slots; None when the hand cannot pay."""
    slot = golden_slot(cost, golden) if golden >= 0 else -1
    left = list(hand)
    pay: list[int | None] = [None] * len(cost)
    for i, c in enumerate(cost):
        if c != WILD and i != slot:
            if not left[c]:
                return None
            left[c] -= 1
            pay[i] = c
    for i, c in enumerate(cost):
        if c == WILD and i != slot:
            most = max(range(len(left)), key=left.__getitem__)
            if not left[most]:
                return None
            left[most] -= 1
            pay[i] = most
    return pay
