"""What a phone may send: the request bodies, validated by the API and described by its OpenAPI."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from pnp.rules.computer import LEVELS

MAX_NAME = 40
HISTORY_PAGE = 100  # entries in a page of a table's history when the caller names no `limit`
MAX_HISTORY_PAGE = 500  # the most entries one page of a table's history holds


def _printable(name: str) -> str:
    if not name:  # spaces only: stripped to nothing
        raise ValueError("a name with at least one letter, number or sign besides spaces")
    if any(not c.isprintable() for c in name):
        raise ValueError("a name of printable characters, without line breaks or control characters")
    return name


Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, max_length=MAX_NAME),
    AfterValidator(_printable),
    Field(json_schema_extra={"minLength": 1, "pattern": r"\S"}),  # what _printable asks, for the document
]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewTable(Body):
    """Open a table for a game; `options` are the game's (see each game's Options schema)."""

    game: str = Field(description="the id of a game the companion tracks (the home page lists them)")
    options: dict[str, Any] = Field(default_factory=dict)


class NewPlayer(Body):
    """Sit down at a table: a name is all it takes."""

    name: Name


class NewComputer(Body):
    """Seat a computer player (the host, before the start): its name and how well it plays."""

    name: Name
    level: Literal[tuple(LEVELS)] = Field(
        description="how well it plays: easy, any move it may at random; strong, the move it judges best "
        "in a few worlds it cannot tell from the table (where its game has a strategy: the table's "
        "computer_players.levels)"
    )


class ActionBody(BaseModel):
    """An action: its `type` and the fields that action takes (see each game's actions)."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(min_length=1, max_length=40)

    def payload(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class NewEvent(Body):
    """Start an event: many tables, one roll sequence."""

    game: str = Field(description="the id of a game an event can run (its tables share the event's dice)")
    name: Name = "Spellpress event"


class NewEventTable(Body):
    """Open a table in an event; `options` are the game's."""

    options: dict[str, Any] = Field(default_factory=dict)


class EventRoll(Body):
    """Roll the event's next round (naming it makes a second organiser's tap harmless)."""

    round: int = Field(ge=1, le=99)
    # rolling while some tables are still playing the round before needs the organiser's "yes"
    ahead: bool = Field(default=False, strict=True)


class ClaimAnswer(Body):
    """The host's answer to a phone asking for a seat without a phone."""

    give: bool = Field(strict=True, description="true: the phone holds the seat now; false: the host keeps it")


class UndoBody(Body):
    """Take back a move, named by its seq: the caller's latest move that stands (the host's:
    anyone's), as the phone shows it. Naming it makes a second tap harmless: a move already taken
    back is answered as done, and nothing more is taken back."""

    seq: int = Field(ge=1, le=2**31 - 1, strict=True, description="the seq of the move to take back")


class HistoryQuery(BaseModel):
    """A page of the history (the query of GET /history, beside `as`): the newest `limit`
    entries (HISTORY_PAGE when not given) before seq `before` (the newest of all when not given).
    The page's `earlier` is the `before` that asks for the page before it: a whole history is read
    page by page, newest first, and a long game's costs no more to answer than a short one's."""

    before: int | None = Field(default=None, ge=1, le=2**31 - 1, description="entries before this seq only")
    limit: int = Field(
        default=HISTORY_PAGE,
        ge=1,
        le=MAX_HISTORY_PAGE,
        description=f"at most this many entries ({HISTORY_PAGE} if not given)",
    )


class FileQuery(BaseModel):
    """How a table's export or an event's leaderboard is answered (the query of their GET)."""

    format: Literal["json", "csv"] = Field(default="json", description="csv: a CSV file (text/csv) instead of JSON")
