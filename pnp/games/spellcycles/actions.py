"""The bodies of Spellcycles' moves at the table, as a phone sends them and a log keeps them (the
fields the server's chance fills in are ByServer: refused in a phone's body, kept in the log)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pnp.content.validate import Strict
from pnp.games.spellcycles.kinds import SIZES
from pnp.rules.bodies import ByServer

# The most a move's numbers may be: what the largest set the content allows holds (kinds.py), so the
# document says so; the rules then check what this table holds now.
SPACES_MOST = 12 * 12 - 1  # the last space of the largest casting field
LINE_MOST = 499  # the last place in a line of spells: a set has 500 spells at most
COUNT_MOST = 200  # essence (the largest printed pool), prestige, recolours or pieces at once
Space = Annotated[int, Field(ge=0, le=SPACES_MOST)]
LinePlace = Annotated[int, Field(ge=0, le=LINE_MOST)]
Amount = Annotated[int, Field(ge=0, le=COUNT_MOST)]
Size = Literal[SIZES]  # type: ignore[valid-type]
Face = Annotated[int, Field(ge=1, le=6)]  # a knucklebone's
PieceOf = tuple[str, Size]  # colour id, size
Place = Literal["cauldron", "apothecary"]


class Start(Strict):
    """Deal and begin (host), once every wizard has joined; `first`: the wizard the host chose to
    go first (a table whose server draws it sends none)."""

    first: str | None = None  # a player id
    deal: ByServer[dict | None] = None  # and, when drawn, who goes first


class Renew(Strict):
    """Renew: the knucklebone names the colour of the large piece the wizard takes."""

    faces: ByServer[list[Face]] = []  # rolls, in order


class Reroll(Strict):
    """With real pieces and an untracked cauldron: the colour rolled has no large piece left."""

    faces: ByServer[list[Face]] = []


class Contribute(Strict):
    """Contribute (on the phones): a piece of your apothecary onto a space."""

    piece: PieceOf
    space: Space


class SkipContribute(Strict):
    """An empty apothecary (or no space left) skips Contribute."""


class Accelerate(Strict):
    """Accelerando: an extra piece for essence at the end of Contribute, once a turn."""

    piece: PieceOf
    space: Space


class Choice(Strict):
    """What the caster chooses for one of the spell's effects (pnp.games.spellcycles.effects)."""

    player: str | None = None  # a player id: whom to drain or take certificates from
    pieces: list[PieceOf] | None = None
    take: Space | list[Space] | None = None  # the effects' "from": the space(s) a piece is taken from
    to: Space | list[Space] | None = None
    spaces: list[Space] | None = None
    crescent: LinePlace | None = None  # the line position of the crescent to move or remove


class Cast(Strict):
    """Reap: cast the active spell at `position` of the line. On the phones: found as the
    `match`-th of its matches (the offers list them), or at `shape` (a quarter turn) and `origin`;
    with real pieces: cast on the board, the companion pays, enacts what is off the board and takes
    `prestige` (the spell's unless told) and `recolours`."""

    position: LinePlace
    match: int | None = Field(None, ge=0, le=(SPACES_MOST + 1) * 4)  # of 4 quarter turns on each space
    shape: int | None = Field(None, ge=0, le=3)  # a quarter turn
    origin: Space | None = None
    paid: Amount | None = None  # a cost of a choice or "n": what the caster pays
    recolours: Amount = 0  # with real pieces
    prestige: Amount | None = None  # with real pieces
    choices: list[Choice] = []
    seed: ByServer[int | None] = None  # the cast's own chance
    cards: ByServer[list[tuple[int, int]]] = []  # the certificates the cast gave the caster
    rolled: ByServer[list[Face]] = []  # knucklebone rolls its effects made


class Progress(Strict):
    """Progress: the moon crescent on the spell at `position` moves on; ends the turn."""

    position: LinePlace | None = None  # needed when crescents sit on different spells


class ByHand(Strict):
    """A change a text-only spell (one of a group's own, its effect not given as data) asks for,
    made by its caster once it is cast: a piece moved between a space, the cauldron and the
    caster's apothecary (`piece` names it when it comes from either), or a moon crescent moved
    (`crescent_to` None: off the line). Essence changes are `essence`."""

    take: Space | Place | None = None
    to: Space | Place | None = None
    piece: PieceOf | None = None
    crescent: LinePlace | None = None
    crescent_to: LinePlace | None = None


class Essence(Strict):
    """A change to a wizard's essence made by hand (a text-only spell, a correction)."""

    wizard: str  # player id
    change: int = Field(ge=-COUNT_MOST, le=COUNT_MOST)


class Cauldron(Strict):
    """With real pieces and a tracked cauldron: how many large pieces of a colour it holds."""

    colour: str
    large: Amount
