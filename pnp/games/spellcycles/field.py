"""The casting field: a square of spaces, each holding a stack of pieces (one piece at most unless
SpellStackers lets them share), with a bitboard per colour of the spaces whose top piece has that
colour, so that a pattern is found by a few shifts and ANDs rather than by visiting every space.

Space `s` is row s // size, column s % size, row 0 at the top; its bit is 1 << s.
"""

from __future__ import annotations

from typing import NamedTuple

SMALL, MEDIUM, LARGE = 0, 1, 2  # a piece's size, smallest first: a cast reduces it by one


class Piece(NamedTuple):
    colour: int  # an index into the book's colours
    size: int  # SMALL, MEDIUM or LARGE


class Field:
    def __init__(self, size: int, colours: int):
        self.size = size
        self.stacks: list[list[Piece]] = [[] for _ in range(size * size)]
        self.tops = [0] * colours  # per colour: the spaces whose top piece has it
        self.occupied = 0  # the spaces holding any piece

    def top(self, space: int) -> Piece | None:
        stack = self.stacks[space]
        return stack[-1] if stack else None

    def empty(self, space: int) -> bool:
        return not self.occupied >> space & 1

    def put(self, space: int, piece: Piece) -> None:
        stack = self.stacks[space]
        bit = 1 << space
        if stack:
            self.tops[stack[-1].colour] &= ~bit
        stack.append(piece)
        self.tops[piece.colour] |= bit
        self.occupied |= bit

    def take(self, space: int) -> Piece:
        """The top piece, lifted off its space."""
        stack = self.stacks[space]
        piece = stack.pop()
        bit = 1 << space
        self.tops[piece.colour] &= ~bit
        if stack:
            self.tops[stack[-1].colour] |= bit
        else:
            self.occupied &= ~bit
        return piece

    def empties(self) -> list[int]:
        return [s for s, stack in enumerate(self.stacks) if not stack]

    def distance(self, a: int, b: int) -> int:
        """Spaces between two spaces counted as a king steps (diagonals count one)."""
        n = self.size
        return max(abs(a // n - b // n), abs(a % n - b % n))
