"""The rules engine's book: the content's models (pnp.games.spellcycles.kinds) as plain frozen
values the engine reads fast: colours by index, the set's numbers, and each spell with its pattern's
quarter turns made once for the field. The one place that knows both the content and the engine,
so the simulation and the companion build it the same way."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from pnp.content.loader import Content
from pnp.games.spellcycles.pattern import Cell, Shape, shapes_of


@dataclass(frozen=True)
class Spell:
    name: str
    rows: tuple[tuple[Cell, ...], ...]  # as the card lays it: colour indexes, markers, stacks
    shapes: tuple[Shape, ...]  # its distinct quarter turns on this field
    essence: int | tuple[int, ...] | str  # a number, a choice of numbers, or "n" (any, at least 1)
    certificates: int  # prestige certificates paid
    prestige: int  # certificates a cast earns
    does: tuple[dict, ...] | None  # the effects as data, in order; None: resolved by the table
    duel: bool = False
    swift_time: int | tuple[int, ...] | str | None = None  # the essence the Swift Time variant asks
    once_a_game: bool = False
    rules: bool = True  # one of the rules' example spells (else one of ours)


@dataclass(frozen=True)
class Book:
    colours: tuple[str, ...]  # ids, in the content's order: a piece's colour is an index here
    knucklebone: tuple[int, ...]  # the colour of each face, 1 to 6
    field: int  # squares a side
    stash: tuple[int, int, int]  # pieces of one colour by size: small, medium, large
    start_large: int
    refresh: int
    recolour: int
    lines: dict[str, int]  # short, normal, long
    accelerando: int
    duel_essence: int
    points: tuple[int, int, int]  # Extra Credit: a 2-10, a royal (J Q K), an ace
    double_plus: int
    spells: tuple[Spell, ...]

    def colour(self, colour_id: str) -> int:
        return self.colours.index(colour_id)

    def spell(self, name: str) -> Spell:
        return next(s for s in self.spells if s.name == name)

    @cached_property
    def swift(self) -> Book:
        """The book as the Swift Time variant plays it: our retuned costs in place of the rules'."""
        spells = tuple(s if s.swift_time is None else replace(s, essence=s.swift_time) for s in self.spells)
        return replace(self, spells=spells)

    def played(self, swift_time: bool) -> Book:
        return self.swift if swift_time else self


def book_of(content: Content) -> Book:
    setup = content["spellcycles-set"]
    colours = tuple(c.id for c in setup.colours)

    def cell(value) -> Cell:
        if isinstance(value, list):
            return tuple(colours.index(c) for c in value)
        return colours.index(value) if value in colours else value

    spells = []
    for card in content["spell-cards"].cards:
        rows = tuple(tuple(cell(v) for v in row) for row in card.pattern)
        essence = card.cost.essence
        swift = None if card.swift_time is None else card.swift_time.essence
        spells.append(
            Spell(
                name=card.name,
                rows=rows,
                shapes=shapes_of(rows, setup.field),
                essence=tuple(essence) if isinstance(essence, list) else essence,
                certificates=card.cost.certificates,
                prestige=card.earns(),
                does=None if card.does is None else tuple(e.model_dump() for e in card.does),
                duel=card.duel,
                swift_time=tuple(swift) if isinstance(swift, list) else swift,
                once_a_game=card.once_a_game,
                rules=card.source == "rules",
            )
        )
    credit = setup.extra_credit
    return Book(
        colours=colours,
        knucklebone=tuple(colours.index(setup.knucklebone[face]) for face in range(1, 7)),
        field=setup.field,
        stash=(setup.stash.small, setup.stash.medium, setup.stash.large),
        start_large=setup.start_large,
        refresh=setup.refresh,
        recolour=setup.recolour,
        lines={"short": setup.lines.short, "normal": setup.lines.normal, "long": setup.lines.long},
        accelerando=setup.accelerando,
        duel_essence=setup.duel_essence,
        points=(credit.number, credit.royal, credit.ace),
        double_plus=setup.double_plus,
        spells=tuple(spells),
    )
