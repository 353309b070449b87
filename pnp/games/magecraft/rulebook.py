"""The rules engine's book: Magecraft's content models (pnp.games.magecraft.kinds) as plain frozen
values the engine reads fast: gem colours by index, the set's numbers, each spell's costs as colour
indexes and its effects as icon counts. The one place that knows both the content and the engine,
so the simulation and the companion build it the same way."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pnp.content.loader import Content
from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.kinds import WILD as WILD_ID

WILD = -1  # a cost slot any colour pays
DRAW, ATTACK, HEAL, SHIELD, VANISH = range(len(ICONS))  # an effect's place in Spell.effects


@dataclass(frozen=True)
class Spell:
    name: str
    learn: tuple[int, ...]  # colour indexes or WILD, discarded from hand to learn it
    cast: tuple[int, ...]  # ... paid left to right onto the card; mastered, the first is golden
    effects: tuple[int, ...]  # how many of each icon, in ICONS order (DRAW ... VANISH)
    special: str | None = None  # one of kinds.SPECIALS
    beyond_hand: bool = False  # a cast cost over a hand: paid with Draws earlier in its book


@dataclass(frozen=True)
class Cantrip:
    name: str
    gem: int  # a colour index or WILD
    effects: tuple[int, ...]


@dataclass(frozen=True)
class Character:
    name: str
    cantrip: Cantrip


@dataclass(frozen=True)
class Book:
    colours: tuple[str, ...]  # gem ids in the content's order: a gem's colour is an index here
    names: tuple[str, ...]  # the colours' printed names, for a refusal's words
    basic: tuple[int, ...]  # colours of the starting bag and HP Area (not Darkness)
    hp_each: int
    bag_each: int
    score_to_win: int
    hand: int
    revision: int
    spellbooks: int
    copies: int  # cards of each spell at a 2-player table
    starting: tuple[str, ...]  # spellbook 1, 2, 3
    academy_basic: tuple[str, ...]  # in every Academy
    random_sets: int
    academy_gems: int  # of each colour at a 2-player table
    seats: tuple[tuple[int, int], ...]  # (draw, discard) for the first to the fourth seat
    melee: dict[int, tuple[int, int]]  # players -> (cards per spell, gems per colour)
    spells: tuple[Spell, ...]
    characters: tuple[Character, ...]

    @property
    def hp(self) -> int:
        """A full HP Area."""
        return self.hp_each * len(self.basic)

    def colour(self, colour_id: str) -> int:
        return self.colours.index(colour_id)

    def spell_index(self, name: str) -> int:
        """The spell's index in `spells`; KeyError for a name no spell has."""
        return self._indexes[name]

    @cached_property
    def _indexes(self) -> dict[str, int]:
        return {s.name: i for i, s in enumerate(self.spells)}

    def spell(self, name: str) -> Spell:
        return self.spells[self.spell_index(name)]


def _effects(effects) -> tuple[int, ...]:
    return tuple(getattr(effects, icon) for icon in ICONS)


def book_of(content: Content) -> Book:
    setup = content["magecraft-set"]
    colours = tuple(g.id for g in setup.gems)

    def gems(cost: list[str]) -> tuple[int, ...]:
        return tuple(WILD if gem == WILD_ID else colours.index(gem) for gem in cost)

    spells = tuple(
        Spell(
            name=card.name,
            learn=gems(card.learn),
            cast=gems(card.cast),
            effects=_effects(card.effects),
            special=card.special,
            beyond_hand=card.beyond_hand,
        )
        for card in content["spell-cards"].cards
    )
    characters = tuple(
        Character(c.name, Cantrip(c.cantrip.name, gems([c.cantrip.gem])[0], _effects(c.cantrip.effects)))
        for c in content["characters"].characters
    )
    return Book(
        colours=colours,
        names=tuple(g.name for g in setup.gems),
        basic=tuple(i for i, g in enumerate(setup.gems) if g.basic),
        hp_each=setup.hp_each,
        bag_each=setup.bag_each,
        score_to_win=setup.score_to_win,
        hand=setup.hand,
        revision=setup.revision,
        spellbooks=setup.spellbooks,
        copies=setup.copies,
        starting=tuple(setup.starting),
        academy_basic=tuple(setup.basic),
        random_sets=setup.random_sets,
        academy_gems=setup.academy_gems,
        seats=tuple((s.draw, s.discard) for s in setup.seats),
        melee={n: (m.cards_per_spell, m.gems_per_colour) for n, m in setup.melee.items()},
        spells=spells,
        characters=characters,
    )
