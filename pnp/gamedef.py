"""The registry: every game as a plain definition, one package per game under pnp.games, each with a GAME.

The ground floor: every layer may read it, and it imports no layer (the game packages are found
by name when first listed).

A game package's __init__ holds only its GameDef, so listing the games imports nothing heavy (a
no-change rebuild stays light). The definition names, as "module:attribute" references loaded
when first used, what each side needs:

- kinds: the content kinds the game reads (pydantic models; no drawing),
- numbers: its rule numbers by placeholder name, for printed text and the companion,
- check: its own rules over the loaded content (pure: the companion runs it too),
- printed: its print-and-play makers, the code of its printed set (pnp.components.set_list.Makers;
  reportlab; pnp only): each deck's faces, each sheet's drawing and each board's face, made from
  the content. Which decks, sheets and boards the set has, in what order, with which templates and
  backs, is data: its set template, templates/<game-id>/<game-id>-set.yaml,
- tracker: its table tracker for the companion (pnp.rules.table.Tracker; pure), or "" for a game
  the companion does not track yet,
- simulation: what `pnp sim GAME` plays and reports (pnp.sim.cli.Simulation), or "" for none.

It says how many play it: `players`, the fewest and the most at one table, as its rules say. The
companion's home page and `pnp sim --players` read it there, and a number content repeats (the
player count on the setup page) is checked against it.

It says what the companion offers for it: `events`, whether an event can run it (its tables share
the event's dice, its results rank on a leaderboard), and `projector`, whether a table of it has a
room view (the dice and who is ready, drawn by companion/static/games/<game-id>-projector.js).

It names the region kinds only it draws (`regions`: Magecraft's gems, a Spellcycles pattern),
which the templates then take as any other kind (pnp.regions.every_kind).

It also names its player sheets: the component of the printed set each player needs one of (a
player board, a score track), whose count `pnp build --sheets N` sets; "" for a game without one.
Its makers are then given that count (SetInputs.sheets), None for the game's default.
Its templates are its own folder's, templates/<game-id>/, and the shared ones at the top of
templates/ (page, poker-card, setup), so a build reads and checks only those.

Adding a game is adding its content folder (content/<game-id>/), its templates folder
(templates/<game-id>/, its set template among them), its package under pnp/games/ and, when it
has a tracker, its phone panel (companion/static/games/<game-id>.js, with .css and a
-projector.js when it has them); nothing else names it. docs/adding-a-game.md shows how, with
the tests' example game. A game kept outside these folders (that example, tests/example_game/)
is found by its package's name (`game_in`), and its folders are handed to the build
(pnp.build.open_game's `template_folders`) and the companion (create_app's GAMES, CONTENT and
GAME_PANELS) as configuration.
"""

from __future__ import annotations

import pkgutil
import re
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

GAMES_PACKAGE = "pnp.games"  # one subpackage per game, each with a GAME
_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_REF = re.compile(r"^[a-z_][a-z0-9_.]*:[A-Za-z_][A-Za-z0-9_]*$")


class GameDefError(Exception):
    """A game package whose definition is malformed: a programming error, named precisely."""


@dataclass(frozen=True)
class GameDef:
    id: str  # the content and templates folders' name and the command-line name
    title: str
    kinds: str  # "module:attribute" references, loaded on first use
    numbers: str
    check: str
    printed: str
    players: tuple[int, int]  # (fewest, most) at one table, as the game's rules say
    tracker: str = ""
    simulation: str = ""
    events: bool = False  # an event can run it: shared dice, a leaderboard
    projector: bool = False  # a table has a room view on a TV
    player_sheets: str = ""  # a component id of the printed set: one per player
    regions: str = ""  # its own region kinds ({type: module}, pnp.regions), if it draws any no other game does

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise GameDefError(f"game id {self.id!r}: expected lower-case words joined by hyphens")
        if not self.title.strip():
            raise GameDefError(f"game {self.id}: expected a title")
        for field in ("kinds", "numbers", "check", "printed", "tracker", "simulation", "regions"):
            optional = field in ("tracker", "simulation", "regions")
            if (getattr(self, field) or not optional) and not _REF.match(getattr(self, field)):
                raise GameDefError(f"game {self.id}: {field} must be a 'module:attribute' reference")
        if len(self.players) != 2 or not 1 <= self.players[0] <= self.players[1]:
            raise GameDefError(
                f"game {self.id}: players must be (fewest, most) with 1 <= fewest <= most, not {self.players!r}"
            )
        if (self.events or self.projector) and not self.tracker:
            raise GameDefError(f"game {self.id}: events and a projector need a tracker")

    def load(self, field: str) -> Any:
        """The object a reference names; GameDefError when it does not resolve."""
        module, _, attribute = getattr(self, field).partition(":")
        try:
            return getattr(import_module(module), attribute)
        except (ImportError, AttributeError) as err:
            raise GameDefError(f"game {self.id}: {field} {getattr(self, field)!r} does not resolve ({err})") from err


@cache
def games() -> dict[str, GameDef]:
    """Every game package's definition, by id, in id order."""
    found: dict[str, GameDef] = {}
    package = import_module(GAMES_PACKAGE)
    for info in pkgutil.iter_modules(package.__path__, prefix=f"{GAMES_PACKAGE}."):
        if not info.ispkg:
            continue
        game = game_in(info.name)
        if game.id in found:
            raise GameDefError(f"two game packages say they are {game.id}")
        found[game.id] = game
    return dict(sorted(found.items()))


def game(game_id: str) -> GameDef:
    return games()[game_id]


def game_in(package: str) -> GameDef:
    """The definition a game package holds (its GAME), by module name: one of pnp.games, or a game
    kept outside them (the tests' example game, tests.example_game)."""
    game = getattr(import_module(package), "GAME", None)
    if not isinstance(game, GameDef):
        raise GameDefError(f"{package} has no GAME = GameDef(...)")
    return game
