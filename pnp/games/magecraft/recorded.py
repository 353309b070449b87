"""The rules' game at a table on the phones: kept as data under the state's ENGINE key
(`Game.to_data`), rebuilt for each move, its draws written down when the server makes them and
taken from the log when a move is replayed; and the table's colour ids as the engine's indexes."""

from __future__ import annotations

import random

from pnp.games.magecraft.rulebook import Book, book_of
from pnp.games.magecraft.rules import Game
from pnp.rules.flow import ENGINE, per_content
from pnp.rules.table import Refused

Colour = str
rulebook = per_content(book_of)  # the rules' book of a content, built once: a replay applies hundreds of moves


class RecordedGame(Game):
    """The engine's game whose draws are the log's: `recorded` (a replay: each draw gives the
    next recorded gem, Refused when it no longer fits the bag) or, with `recorded` None, the
    server's chance, each gem written down in `drawn`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.recorded: list[int] | None = None
        self.drawn: list[int] = []

    def drawn_gem(self, bag: list[int], total: int, rng: random.Random) -> int:
        if self.recorded is None:
            colour = super().drawn_gem(bag, total, rng)
            self.drawn.append(colour)
            return colour
        if not self.recorded or not bag[self.recorded[0]]:
            raise Refused("This move's recorded draw no longer fits the bag.")
        self.drawn.append(self.recorded[0])
        return self.recorded.pop(0)


def game_of(book: Book, state: dict, recorded: list[Colour] | None = None) -> RecordedGame:
    """The state's game, its wizards named as at the table; its draws the `recorded` gems (a
    logged move), else the server's chance."""
    game = RecordedGame.from_data(book, state[ENGINE])
    game.names = [state["names"][pid] for pid in state["players"]]
    if recorded is not None:
        game.recorded = colours_of(book, recorded)
    return game


def colour_of(book: Book, colour: Colour) -> int:
    if colour not in book.colours:
        raise Refused(f"There is no {colour!r} gem in Magecraft.")
    return book.colours.index(colour)


def colours_of(book: Book, colours: list[Colour]) -> list[int]:
    return [colour_of(book, c) for c in colours]


def counts_of(colours: list[Colour] | tuple[Colour, ...], gems: list[int]) -> dict[Colour, int]:
    """An area's counts by colour index as {colour id: count}, every colour present."""
    return dict(zip(colours, gems, strict=True))
