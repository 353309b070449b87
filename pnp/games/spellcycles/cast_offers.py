"""The offers of a cast (pnp.rules.offers), made from the engine's own moves: on the phones, each
active spell the caster could cast now, by its matches on the field (each with the squares it
covers), what to pay where the cost is a choice, and what its effects let the caster choose; with
real pieces, each active spell the caster could pay for, what to pay and how many pieces were
recoloured, and the choices of its effects off the board.

Every completion of an offer is a cast the server accepts (the promise of pnp.rules.flow). An
effect's choices are read off the game as the effect will find it: the cast is begun on the game
(paid for, its pieces reduced) and the effects before it made, then all of it is put back. Where an
effect's choices hang on an earlier choice they are nested under it (whom an earlier drain put out
of a Duel, where an earlier effect moved a crescent); where they cannot be stated exactly (pieces
an earlier choice or chance moved) the effect is left to the engine's default, which is to leave it
undone ("up to", "may"). Where not even that is sure (a crescent to name after one moved by a
roll), the match is not offered."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pnp.content.loader import Content
from pnp.games.spellcycles.casting import Casting, RuleError
from pnp.games.spellcycles.effects import OFF_THE_BOARD, enact, fits, movable, moves_of_piece
from pnp.games.spellcycles.engine import game_of, shown_piece
from pnp.games.spellcycles.field import Piece
from pnp.games.spellcycles.pattern import GAP, Shape
from pnp.games.spellcycles.rulebook import Spell
from pnp.games.spellcycles.rules import REAP, Game
from pnp.rules.offers import offer, one_of, option, some_of, whole_number

# what an effect's choices read of the game, and what it writes when made
FIELD, POOLS, CRESCENTS, PLAYERS = "field", "pools", "crescents", "players"
RIVAL = frozenset({"drain-essence", "take-certificates"})  # effects choosing another wizard
CRESCENT = frozenset({"move-crescent", "remove-crescent"})
# the most matches of one spell offered, the fewest recolours first: a phone lists them, and each
# carries the choices its cast leaves (a list of fifty ways helps no one and weighs on every view)
MOST_MATCHES = 12


# --- on the phones --------------------------------------------------------------------------


def field_offers(content: Content, state: dict, _mover: str) -> list[dict]:
    """A cast of each active spell found on the field that the caster can pay for, by its matches
    (the MOST_MATCHES needing the fewest recolours)."""
    return _at_reap(content, state, _on_the_field)


def _at_reap(content: Content, state: dict, offer_of) -> list[dict]:
    """At Reap, the offer of each active spell that may be cast (`offer_of(game, state, position)`)."""
    game = game_of(content, state)
    if game.step != REAP:
        return []
    found = (offer_of(game, state, position) for position in game.active())
    return [made for made in found if made is not None]


def _on_the_field(game: Game, state: dict, position: int) -> dict | None:
    spell = game.spell_at(position)
    matches = sorted(enumerate(game.matches(position)), key=lambda m: (m[1][2], m[0]))[:MOST_MATCHES]
    options = []
    for n, (shape, origin, recolours) in matches:

        def begin(price: int, shape=shape, origin=origin, recolours=recolours) -> Casting:
            return game.begin(spell, shape, origin, price, recolours)

        picks = _costed(game, state, spell, recolours * game.book.recolour, begin, on_the_field=True)
        if picks is not None:
            the_shape = spell.shapes[shape]
            options.append(
                {
                    "value": n,  # the Cast's `match`
                    "label": way_label(recolours, recolours * game.book.recolour),
                    "squares": squares(the_shape, origin),
                    "recolour": to_recolour(game, the_shape, origin),
                    "pick": picks,
                }
            )
    return offer({"position": position}, _hoisted("match", options), label=spell.name) if options else None


def way_label(recolours: int, essence: int) -> str:
    """A way to cast a spell in words, with what it costs beyond the spell: the ways are listed
    cheapest first."""
    if not recolours:
        return "No recolour"
    return f"{recolours} recolour{'' if recolours == 1 else 's'} (+{essence} essence)"


def squares(shape: Shape, origin: int) -> list[int]:
    """Every space the pattern looks at (not its gaps), for highlighting."""
    size = shape.size
    return sorted(
        origin + r * size + c for r, row in enumerate(shape.rows) for c, cell in enumerate(row) if cell != GAP
    )


def to_recolour(game: Game, shape: Shape, origin: int) -> list[int]:
    """The spaces whose pieces the match recolours."""
    found = [origin + off for off, colour in shape.colours if game.field.top(origin + off).colour != colour]
    for off, want in shape.stacks:
        stack = game.field.stacks[origin + off]
        if any(piece.colour != colour for piece, colour in zip(stack, want, strict=True)):
            found.append(origin + off)
    return sorted(found)


def _hoisted(name: str, options: list[dict]) -> list[dict]:
    """The pick of one of `options`, their own picks put after it when they are all the same."""
    picks = [o.get("pick", []) for o in options]
    if all(p == picks[0] for p in picks):
        return [one_of(name, [{k: v for k, v in o.items() if k != "pick"} for o in options]), *picks[0]]
    return [one_of(name, options)]


# --- with real pieces -----------------------------------------------------------------------


def board_offers(content: Content, state: dict, _mover: str) -> list[dict]:
    """A cast of each active spell the caster can pay for: what to pay, how many pieces were
    recoloured on the board, and the choices of its effects off the board."""
    return _at_reap(content, state, _on_the_board)


def _on_the_board(game: Game, state: dict, position: int) -> dict | None:
    spell = game.spell_at(position)
    if position in game.cast_this_turn or position in game.spent or game.affordable_recolours(spell) is None:
        return None

    def begin(price: int) -> Casting:
        game.pay(spell, price, 0)
        return game.off_the_board(spell, price)

    picks = _costed(game, state, spell, None, begin, on_the_field=False)
    return None if picks is None else offer({"position": position}, picks, label=spell.name)


# --- what to pay ----------------------------------------------------------------------------


def _costed(game: Game, state: dict, spell: Spell, extra: int | None, begin, on_the_field: bool) -> list[dict] | None:
    """The picks of what to pay and of the effects, `extra` essence spent on recolours (None: the
    recolours are a choice of their own); None when no way to cast it is sure."""
    budget = game.spendable()
    cost = spell.essence
    values = list(range(1, budget + 1)) if cost == "n" else list(cost) if isinstance(cost, tuple) else [cost]
    values = [v for v in values if v + (extra or 0) <= budget]
    if not values or spell.certificates > len(game.wizard.certificates):
        return None
    recolour = game.book.recolour

    def recolours(price: int) -> list[dict]:
        return [] if extra is not None else [whole_number("recolours", 0, (budget - price) // recolour)]

    effects = _Effects(game, state, spell, begin, on_the_field)
    fixed = not isinstance(cost, tuple) and cost != "n"
    if fixed or (cost == "n" and extra is None):  # one price, or the price and recolours chosen together
        rest = effects.picks(values[0], paid_known=fixed)
        if rest is None:
            return None
        if fixed:
            return recolours(values[0]) + rest
        return [one_of("paid", [option(v, pick=recolours(v)) for v in values]), *rest]
    if cost == "n":  # on the phones: any price from 1, which a move of a piece may hang on
        if effects.paid_reach:
            return effects.picks(values[-1], paid_known=False, paid_open=(values[0], values[-1]))
        rest = effects.picks(values[-1], paid_known=False)
        return None if rest is None else [whole_number("paid", values[0], values[-1]), *rest]
    options = []  # a choice of prices: the effects under each when they hang on it
    for v in values:
        rest = effects.picks(v, paid_known=True) if effects.on_paid or not options else options[0]["rest"]
        if rest is not None:
            options.append({"value": v, "pick": recolours(v), "rest": rest})
    if not options:
        return None
    if effects.on_paid:
        return [one_of("paid", [option(o["value"], pick=o["pick"] + o["rest"]) for o in options])]
    return [one_of("paid", [option(o["value"], pick=o["pick"]) for o in options]), *options[0]["rest"]]


# --- what the effects let the caster choose -------------------------------------------------


@dataclass(frozen=True)
class _Path:
    """How far the effects' picks have come: what the effects before may have changed in ways not
    followed here (`dirty`), whether the price is known, and the prices still open (to be picked)."""

    dirty: frozenset = frozenset()
    paid_known: bool = True
    paid_open: tuple[int, int] | None = None


@dataclass
class _Effects:
    """The choices of a spell's effects, read off the game with the cast begun on it (`begin(price)`)."""

    game: Game
    state: dict
    spell: Spell
    begin: Callable[[int], Casting]
    on_the_field: bool
    effects: list[dict | None] = field(init=False)  # None: an effect the companion does not make
    vacant_before: list[int] = field(init=False)  # the spaces a piece may be put on before the cast

    def __post_init__(self):
        f = self.game.field
        self.vacant_before = [s for s in range(len(f.stacks)) if self.game.variants.stackers or f.empty(s)]
        every = list(self.spell.does or ())
        self.effects = [e if self.on_the_field or e["do"] in OFF_THE_BOARD else None for e in every]

    @property
    def on_paid(self) -> bool:
        """Whether an effect hangs on the price paid (a reach, or an effect only for a price)."""
        return any(e is not None and (e.get("if_paid") or e.get("spaces") == "paid") for e in self.effects)

    @property
    def paid_reach(self) -> bool:
        return any(e is not None and e["do"] == "move-piece" and e["spaces"] == "paid" for e in self.effects)

    def picks(self, price: int, paid_known: bool, paid_open: tuple[int, int] | None = None) -> list[dict] | None:
        """The effects' picks with the cast begun at `price` (the most the caster may pay when the
        price is still open); None when no choice of them is sure to be accepted."""
        saved = self.game.snapshot()
        try:
            return self._from(self.begin(price), 0, _Path(paid_known=paid_known, paid_open=paid_open))
        except RuleError:
            return None
        finally:
            self.game.restore(saved)

    def _from(self, cast: Casting, i: int, path: _Path) -> list[dict] | None:
        """The picks of the effects from the `i`-th on, the game as the effects before left it."""
        if i == len(self.effects):
            return [whole_number("paid", *path.paid_open)] if path.paid_open else []
        effect = self.effects[i]
        if effect is None or (effect.get("if_paid") and path.paid_known and cast.paid < effect["if_paid"]):
            return self._from(cast, i + 1, path)
        do, at = effect["do"], f"choices.{i}"
        if do in RIVAL and (do == "drain-essence" and not effect.get("each") or effect.get("source") == "player"):
            rivals = [p for p, w in enumerate(self.game.wizards) if p != cast.player and not w.out]
            names = self.state["names"]
            choices = [(p, self.state["players"][p], names[self.state["players"][p]]) for p in rivals]
            return self._nested(cast, i, path, "player", choices, PLAYERS)
        if do in CRESCENT:
            if CRESCENTS in path.dirty:
                return None  # where the crescents are is chance's: not even the default is sure
            held = [(p, p, self.game.spell_at(p).name) for p in sorted(set(self.game.crescents))]
            if len(held) > 1:
                return self._nested(cast, i, path, "crescent", held, CRESCENTS)
        if do == "move-piece":
            here, paid_open = self._move_piece(cast, effect, at, path)
            after = replace(path, dirty=path.dirty | {FIELD}, paid_open=paid_open)
            return _joined(here, self._from(cast, i + 1, after))
        here = self._chosen(cast, effect, at, path.dirty)
        unsure = (
            (effect.get("if_paid") and not path.paid_known) or effect.get("random") or effect.get("spaces") == "roll"
        )
        if here or unsure:  # what it changes is the caster's to choose, or chance's: not followed
            written = {CRESCENTS} if do in CRESCENT else {FIELD, POOLS}
            return _joined(here, self._from(cast, i + 1, replace(path, dirty=path.dirty | written)))
        self._enact(cast, effect, {})  # made as the engine will make it, nothing chosen
        return self._from(cast, i + 1, path)

    def _nested(self, cast: Casting, i: int, path: _Path, key: str, choices: list[tuple], group: str):
        """A pick of one of `choices` (the engine's value, the body's, a label) for the `i`-th
        effect's `key`: the later effects' picks under each when one of them reads what this one
        writes (`group`), else after it."""
        field_ = f"choices.{i}.{key}"
        if not choices:
            return None
        if not any(_reads(e, group) for e in self.effects[i + 1 :] if e is not None):
            rest = self._from(cast, i + 1, path)
            return _joined([one_of(field_, [option(sent, label) for _, sent, label in choices])], rest)
        if self.effects[i].get("spaces") == "roll":  # where it goes is chance's: not followed
            path = replace(path, dirty=path.dirty | {group})
        options = []
        for value, sent, label in choices:
            saved = self.game.snapshot()
            try:
                self._enact(cast, self.effects[i], {key: value})
                rest = self._from(cast, i + 1, path)
            except RuleError:
                rest = None
            finally:
                self.game.restore(saved)
            if rest is not None:
                options.append(option(sent, label, rest))
        return [one_of(field_, options)] if options else None

    def _enact(self, cast: Casting, effect: dict, choice: dict) -> None:
        enact(self.game, cast, effect, choice, random.Random(0))  # chance's own effects are `dirty`

    def _move_piece(self, cast: Casting, effect: dict, at: str, path: _Path):
        """One piece beside the spell's piece of a colour to a vacant space in reach: each piece
        that has such a space, then each space (and, when the price is open, a price that reaches
        it); with the prices still open after it."""
        if FIELD in path.dirty:  # it must move a piece when one can, and which can is unsure
            raise RuleError("an earlier effect leaves this one's choices unsure")
        f = self.game.field
        by_paid = effect["spaces"] == "paid"
        options = []
        for s, spaces in moves_of_piece(self.game, cast, effect).items():
            to = [self._target(t, f.distance(s, t), by_paid, path) for t in spaces]
            options.append(option(s, pick=[one_of(f"{at}.to", to)]))
        if not options:
            return [], path.paid_open
        return [one_of(f"{at}.take", options)], None if by_paid else path.paid_open

    @staticmethod
    def _target(space: int, distance: int, by_paid: bool, path: _Path) -> dict:
        """A space a piece may move to; the prices that reach it, when the price is open."""
        if not (by_paid and path.paid_open):
            return option(space)
        low, high = path.paid_open
        return option(space, pick=[whole_number("paid", max(low, distance), high)])

    def _chosen(self, cast: Casting, effect: dict, at: str, dirty: frozenset) -> list[dict]:
        """The picks of an effect choosing pieces or spaces (some of them), if any. An effect the
        card does not word as optional asks for as many as it can move; where an earlier effect
        made that unsure (`dirty`), no pick is sure, and a RuleError says so."""
        game, f = self.game, self.game.field
        do = effect["do"]
        occupied = [s for s in range(len(f.stacks)) if not f.empty(s)]
        optional = effect.get("up_to", False)
        blind = effect.get("random") and effect.get("to") != "field"  # chance's alone: nothing to pick
        if FIELD in dirty and do in ("swap-pieces", "return-pieces", "move-pieces"):
            if optional or do == "swap-pieces" or blind or (do == "return-pieces" and effect["which"] != "any"):
                return []
            raise RuleError("an earlier effect leaves this one's choices unsure")
        if do == "swap-pieces":
            return [some_of(f"{at}.spaces", {s: 1 for s in occupied}, 2)] if len(occupied) >= 2 else []
        if do == "return-pieces" and effect["which"] == "any":
            most = effect.get("count", 1)
            least = 0 if optional else min(most, len(occupied))
            return [some_of(f"{at}.spaces", {s: 1 for s in occupied}, least, most)] if occupied else []
        if do != "move-pieces":
            return []
        count, source = effect["count"], effect["source"]
        least = 0 if optional else min(count, len(movable(game, cast, effect)))
        # spaces empty before the cast stay empty whichever match it is: the same picks for each;
        # an effect that must fill them is offered every space it may fill
        vacant = [s for s in self.vacant_before if f.empty(s) or game.variants.stackers]
        if not optional:
            vacant = [s for s in range(len(f.stacks)) if f.empty(s) or game.variants.stackers]
        if effect.get("random"):
            if effect["to"] != "field" or not vacant:
                return []
            return [some_of(f"{at}.to", {s: 1 for s in vacant}, least, count)]
        if effect["to"] == "field":  # as many spaces as may be filled, the pieces no more than those
            count = min(count, len(vacant))
        if not count:
            return []
        if source == "field":
            tops = [s for s in occupied if fits(game.book, effect, f.top(s))]
            chosen = [some_of(f"{at}.take", {s: 1 for s in tops}, least, count)] if tops else []
        elif POOLS in dirty:
            if not optional:
                raise RuleError("an earlier effect leaves this one's choices unsure")
            return []
        else:
            pool = self._pool(cast, effect)
            pieces = [(shown_piece(game.book, p), n) for p, n in pool.items()]
            chosen = [some_of(f"{at}.pieces", pieces, min(least, count), count)] if pool else []
        if chosen and effect["to"] == "field":
            return [some_of(f"{at}.to", {s: 1 for s in vacant}, count), *chosen]
        return chosen

    def _pool(self, cast: Casting, effect: dict) -> Counter:
        """The pieces of the cauldron or the caster's apothecary this effect may move, by how many."""
        game = self.game
        if effect["source"] == "cauldron":
            held = Counter({Piece(c, s): n for c, sizes in enumerate(game.cauldron) for s, n in enumerate(sizes) if n})
        else:
            held = Counter(game.wizards[cast.player].apothecary)
        return Counter({p: n for p, n in sorted(held.items()) if fits(game.book, effect, p)})


def _reads(effect: dict, group: str) -> bool:
    """Whether an effect's choices hang on `group` in a way its default cannot follow."""
    if group == PLAYERS:
        return effect["do"] in RIVAL and not effect.get("each") and effect.get("source", "player") == "player"
    return effect["do"] in CRESCENT


def _joined(here: list[dict], rest: list[dict] | None) -> list[dict] | None:
    return None if rest is None else [*here, *rest]
