"""The bodies of Spellcycles' moves at the table, as a phone sends them and a log keeps them (the
fields the server's chance fills in are the server's: whatever a phone sends there is replaced)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pnp.content.validate import Strict
from pnp.games.spellcycles.kinds import SIZES

Size = Literal[SIZES]  # type: ignore[valid-type]
Face = Annotated[int, Field(ge=1, le=6)]  # a knucklebone's
PieceOf = tuple[str, Size]  # colour id, size
Place = Literal["cauldron", "apothecary"]


class Start(Strict):
    """Deal and begin (host), once every wizard has joined; `first`: the wizard the host chose to
    go first (a table whose server draws it sends none)."""

    first: str | None = None  # a player id
    deal: dict | None = None  # the server's (and, when drawn, who goes first)


class Renew(Strict):
    """Renew: the knucklebone names the colour of the large piece the wizard takes."""

    faces: list[Face] = []  # the server's rolls, in order


class Reroll(Strict):
    """With real pieces and an untracked cauldron: the colour rolled has no large piece left."""

    faces: list[Face] = []  # the server's


class Contribute(Strict):
    """Contribute (on the phones): a piece of your apothecary onto a space."""

    piece: PieceOf
    space: int = Field(ge=0)


class SkipContribute(Strict):
    """An empty apothecary (or no space left) skips Contribute."""


class Accelerate(Strict):
    """Accelerando: an extra piece for essence at the end of Contribute, once a turn."""

    piece: PieceOf
    space: int = Field(ge=0)


class Choice(Strict):
    """What the caster chooses for one of the spell's effects (pnp.games.spellcycles.effects)."""

    player: str | None = None  # a player id: whom to drain or take certificates from
    pieces: list[PieceOf] | None = None
    take: int | list[int] | None = None  # the effects' "from": the space(s) a piece is taken from
    to: int | list[int] | None = None
    spaces: list[int] | None = None
    crescent: int | None = None  # the line position of the crescent to move or remove


class Cast(Strict):
    """Reap: cast the active spell at `position` of the line. On the phones: found as the
    `match`-th of its matches (the offers list them), or at `shape` (a quarter turn) and `origin`;
    with real pieces: cast on the board, the companion pays, enacts what is off the board and takes
    `prestige` (the spell's unless told) and `recolours`."""

    position: int = Field(ge=0)
    match: int | None = Field(None, ge=0)
    shape: int | None = Field(None, ge=0)
    origin: int | None = Field(None, ge=0)
    paid: int | None = Field(None, ge=0)  # a cost of a choice or "n": what the caster pays
    recolours: int = Field(0, ge=0)  # with real pieces
    prestige: int | None = Field(None, ge=0)  # with real pieces
    choices: list[Choice] = []
    seed: int | None = None  # the server's: the cast's own chance
    cards: list[tuple[int, int]] = []  # the server's: the certificates the cast gave the caster
    rolled: list[Face] = []  # the server's: knucklebone rolls its effects made


class Progress(Strict):
    """Progress: the moon crescent on the spell at `position` moves on; ends the turn."""

    position: int | None = Field(None, ge=0)  # needed when crescents sit on different spells


class ByHand(Strict):
    """A change a text-only spell (one of a group's own, its effect not given as data) asks for,
    made by its caster once it is cast: a piece moved between a space, the cauldron and the
    caster's apothecary (`piece` names it when it comes from either), or a moon crescent moved
    (`crescent_to` None: off the line). Essence changes are `essence`."""

    take: int | Place | None = None
    to: int | Place | None = None
    piece: PieceOf | None = None
    crescent: int | None = None
    crescent_to: int | None = Field(None, ge=0)


class Essence(Strict):
    """A change to a wizard's essence made by hand (a text-only spell, a correction)."""

    wizard: str  # player id
    change: int


class Cauldron(Strict):
    """With real pieces and a tracked cauldron: how many large pieces of a colour it holds."""

    colour: str
    large: int = Field(ge=0)
