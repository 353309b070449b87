"""What a phone sends for each Magecraft move (the bodies of pnp.games.magecraft.tracker's moves).

Colours are the content's gem ids ("fire", ... "darkness"); spellbooks and the spells in them are
numbered from 0, left to right. ByServer fields are filled in by the server's chance (the `draw`
of the move) and kept in the log, so a replay repeats them; a phone's body may not carry them.
Stored logs hold these bodies: a field may be added (optional), never taken away or renamed.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from pnp.content.validate import Strict
from pnp.rules.bodies import ByServer

Colour = str
GEMS_MOST = 99  # more gems than any table has: the most an area holds, or a count changes by
PLACES_MOST = 99  # more spellbooks or spells in one than any table has
Place = Annotated[int, Field(ge=0, le=PLACES_MOST)]  # a spellbook, or a spell's place in one


class Start(Strict):
    """Seat the wizards in a random order and deal (host), once every wizard has joined."""

    deal: ByServer[dict | None] = None


class Count(Strict):
    """Printed gems: a change to one wizard's HP, Shield or Score, as counted on the printed board."""

    player: str
    area: Literal["hp", "shield", "score"]
    change: int = Field(ge=-GEMS_MOST, le=GEMS_MOST)


class NextPhase(Strict):
    """Printed gems: the turn's next phase; after Refresh, the next wizard's turn."""


class PhoneMove(Strict):
    """A move on the phones: the gems it drew and what it did are the server's, and so is the
    rules' reason when the move, made with the server's draws, is refused (a refusal after a Draw
    icon: the replay has no recorded gems to draw again, so it says the reason found then)."""

    drawn: ByServer[list[Colour]] = []
    done: ByServer[dict | None] = None
    refused: ByServer[str | None] = None


class OpeningDiscard(PhoneMove):
    gems: list[Colour]
    player: str | None = None  # the host, for a seat without a phone


class DiscardShield(PhoneMove):
    gems: list[Colour]


class Strike(Strict):
    """An Attack's choice: the rival it strikes (needed with more than one) and the colour of the
    gem it takes (of their shield, or of their HP when the shield is empty)."""

    player: str | None = None
    colour: Colour | None = None


class _From(Strict):
    model_config = ConfigDict(**Strict.model_config, serialize_by_alias=True)


class ShieldFrom(_From):
    """A Shield's choice: where its gem comes from, and its colour."""

    source: Literal["academy", "discard"] | None = Field(None, alias="from")
    colour: Colour | None = None


class VanishFrom(_From):
    """A Vanish's choice: where its gem comes from, and its colour."""

    source: Literal["hand", "hp"] | None = Field(None, alias="from")
    colour: Colour | None = None


class Choices(Strict):
    """A spell's choices, one per icon of each kind (missing ones: the engine's default)."""

    attack: list[Strike] = []
    heal: list[Colour | None] = []  # the colour taken
    shield: list[ShieldFrom] = []
    vanish: list[VanishFrom] = []


class Cast(PhoneMove):
    spellbook: Place
    payment: list[Colour | None] | None = None  # a colour per cost slot (None: the golden gem's); None: the engine pays
    choices: Choices = Choices()  # all the icons at once (older phones); with `one_by_one` none
    one_by_one: bool = False  # each icon waits for its own `resolve`, in the caster's order


class Cantrip(PhoneMove):
    gem: Colour | None = None
    choices: Choices = Choices()
    one_by_one: bool = False


class Resolve(PhoneMove):
    """One waiting icon of the spell being cast, the one the caster resolves next, with its
    choice: an Attack's rival and the colour it takes, a Heal's colour, a Shield's or a Vanish's
    source and colour (an unnamed colour: the source's most plentiful)."""

    model_config = _From.model_config

    icon: Literal["draw", "attack", "heal", "shield", "vanish"]
    rival: str | None = None  # (not "player": that field names the seat a move is made for)
    source: Literal["academy", "discard", "hand", "hp"] | None = Field(None, alias="from")
    colour: Colour | None = None


class Learn(PhoneMove):
    spell: str
    spellbook: Place
    payment: list[Colour | None] | None = None


class Revise(PhoneMove):
    gems: list[Colour]
    arrangement: list[list[tuple[Place, Place]]] | None = None  # each spellbook's spells by their places now
    master: tuple[Place, Place] | None = None  # its place in the new arrangement


class Refresh(PhoneMove):
    pass
