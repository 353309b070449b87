"""Finding a spell's pattern on the casting field.

A pattern is rows of cells, top row first: a colour (an index into the book's colours), VACANT
(the space must be empty), MARKED (any piece; the effect acts on it), GAP (not looked at), or a
tuple of colours, a stack bottom first (SpellStackers). Our rulings (content/spellcycles/rulings.yaml):
it may be found turned by quarter turns, never mirrored; the whole pattern, gaps included, lies on
the field; a plain colour matches a space whose top piece has it; a stack matches a space holding
exactly those colours, bottom first.

Each distinct quarter turn is a `Shape`, made once per spell for the field's size: the offset of
each cell from the pattern's top-left space and the bitboard of the spaces that top-left may take.
`find` then tests every origin at once, a shift and an AND per cell (`field.Field`'s bitboards).

The recolour: while reaping, a piece may take another colour for one spell at a price, so a space
of the wrong colour still matches when the caster pays; `find` reports how many recolours each
match needs, up to the number asked for. A vacant or marked cell is never recoloured.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.games.spellcycles.field import Field

VACANT, MARKED, GAP = "vacant", "marked", "gap"
Cell = int | str | tuple[int, ...]


def turned(rows: tuple[tuple[Cell, ...], ...]) -> tuple[tuple[Cell, ...], ...]:
    """The pattern a quarter turn clockwise: the bottom row becomes the first column."""
    return tuple(tuple(rows[len(rows) - 1 - r][c] for r in range(len(rows))) for c in range(len(rows[0])))


def squared(rows) -> tuple[tuple[Cell, ...], ...]:
    """Rows padded with gaps to the longest (a short row ends in gaps)."""
    width = max(len(row) for row in rows)
    return tuple(tuple(row) + (GAP,) * (width - len(row)) for row in rows)


def quarter_turns(rows) -> list[tuple[tuple[Cell, ...], ...]]:
    """The pattern's distinct quarter turns, as laid (no turn) first. Never mirrored."""
    grid = squared(rows)
    distinct = [grid]
    for _ in range(3):
        grid = turned(grid)
        if grid not in distinct:  # a symmetric pattern repeats itself
            distinct.append(grid)
    return distinct


@dataclass(frozen=True)
class Shape:
    """One quarter turn of a pattern, placed on a field of `size` squares a side."""

    rows: tuple[tuple[Cell, ...], ...]
    size: int
    origins: int  # bitboard: the spaces the top-left cell may take with the whole shape on the field
    colours: tuple[tuple[int, int], ...]  # (offset, colour)
    stacks: tuple[tuple[int, tuple[int, ...]], ...]  # (offset, colours bottom first)
    marked: tuple[int, ...]  # offsets
    vacant: tuple[int, ...]  # offsets

    @classmethod
    def of(cls, rows, size: int) -> Shape:
        height, width = len(rows), len(rows[0])
        origins = 0
        for r in range(size - height + 1):
            for c in range(size - width + 1):
                origins |= 1 << (r * size + c)
        cells = [(r * size + c, cell) for r, row in enumerate(rows) for c, cell in enumerate(row)]
        return cls(
            rows=rows,
            size=size,
            origins=origins,
            colours=tuple((off, cell) for off, cell in cells if isinstance(cell, int)),
            stacks=tuple((off, cell) for off, cell in cells if isinstance(cell, tuple)),
            marked=tuple(off for off, cell in cells if cell == MARKED),
            vacant=tuple(off for off, cell in cells if cell == VACANT),
        )

    def pieces(self, origin: int) -> tuple[int, ...]:
        """The spaces of the pieces a cast reduces: its colours and stacks (not marked cells)."""
        return tuple(origin + off for off, _ in self.colours) + tuple(origin + off for off, _ in self.stacks)

    def space_of(self, origin: int, colour: int) -> int | None:
        """The space of the shape's first cell of `colour`."""
        return next((origin + off for off, c in self.colours if c == colour), None)


def shapes_of(rows, size: int) -> tuple[Shape, ...]:
    return tuple(Shape.of(grid, size) for grid in quarter_turns(rows))


def stack_recolours(stack: list, want: tuple[int, ...]) -> int | None:
    """Recolours a space's stack needs to be `want` (bottom first); None when its height differs."""
    if len(stack) != len(want):
        return None
    return sum(piece.colour != colour for piece, colour in zip(stack, want, strict=True))


def find(shape: Shape, field: Field, most: int = 0, within: int = -1) -> list[tuple[int, int]]:
    """Every (origin, recolours) where `shape` matches the field with at most `most` recolours,
    among the origins of the bitboard `within` (all of them by default)."""
    occupied, tops = field.occupied, field.tops
    cand = shape.origins & within
    if most:
        for off, _ in shape.colours:
            cand &= occupied >> off
    else:
        for off, colour in shape.colours:
            cand &= tops[colour] >> off
    for off, _ in shape.stacks:
        cand &= occupied >> off
    for off in shape.marked:
        cand &= occupied >> off
    for off in shape.vacant:
        cand &= ~(occupied >> off)
    found = []
    while cand:
        low = cand & -cand
        cand ^= low
        origin = low.bit_length() - 1
        need = 0
        if most:
            for off, colour in shape.colours:
                if not tops[colour] >> (origin + off) & 1:
                    need += 1
        for off, want in shape.stacks:
            more = stack_recolours(field.stacks[origin + off], want)
            if more is None:
                need = most + 1
                break
            need += more
        if need <= most:
            found.append((origin, need))
    return found


def recolours_at(shape: Shape, field: Field, origin: int) -> int | None:
    """The recolours `shape` needs to match with its top-left cell at `origin`; None if it cannot."""
    every = len(shape.colours) + sum(len(want) for _, want in shape.stacks)
    found = find(shape, field, most=every, within=1 << origin)
    return found[0][1] if found else None
