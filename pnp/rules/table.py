"""A game at the table is a log of actions; its state is the fold of that log through the game's
rules (a pnp.rules.flow.Rules: its TRACKER). Pure: no Flask, no database, no clock (each entry
carries its own time). This module is the log: its entries, their replay and undo, what each
viewer may see of an entry, and the names every layer shares for the table's own actors and
entries; the flow (pnp.rules.flow) is what a game's rules are made of.

Viewers: each seated player (their player id), the host (HOST) and anyone without a token
(SPECTATOR: a projector, a follower), who sees only what is public. A game without `redact` hides
nothing: every viewer gets the same entries. A game with it hides in its view too, and every view,
history entry, export and live message is made for its viewer (`seen_by`). Results are public:
they hold no secret.

Seats without a phone: the host may seat a player by name and make their moves for them. Such a
move is the player's own (its actor is theirs, so the rules treat it as any of theirs) and records
who made it (`by`: HOST); the host sees that seat as its player would. A phone that asks for such a
seat (CLAIM) holds it once the host gives it (ANSWER); replay skips both.

States are JSON-ready dicts, never changed in place: each step returns a new one.

Computer players: the host may seat a computer player (a JOIN naming its level) before the start,
and take it off again (LEAVE); the server makes its moves (pnp.rules.computer, companion.computers)
as the seat's own, from what that seat may see.

Undo is an action of its own ("undo", naming the seq it takes back): replay skips the entry it
names. A player may take back their own latest standing action; the host, anyone's latest. A
`final` action (a roll, a draw) is never taken back: undoing it would be a reroll or a redraw.
Replay applies the cards and dice recorded in the log, never new ones, so taking back an action
before a draw leaves the draw as it was, and one the draw depends on (a card discarded into the
bag it was drawn from) is refused like any other that later moves depend on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any, Protocol

from pydantic import BaseModel

from pnp.rules.bodies import strictly

HOST = "host"  # the actor id of the table's host; players' ids are their player ids
EVENT = "event"  # the actor id of the organiser of the event a table plays in (its shared dice)
JOIN = "join"  # payload {"name"}: a player sits down (by the host: a seat without a phone of its own)
# and {"computer": level} for a seat a computer player plays (pnp.rules.computer)
LEAVE = "leave_seat"  # the host's, payload {"player"}: a computer player leaves its seat before the start
UNDO = "undo"  # payload {"seq"}: take back that action
CLAIM = "claim_seat"  # actor: a seat without a phone, which a phone asks to hold
ANSWER = "answer_seat"  # the host's, payload {"seat", "given"}: whether the phone that asked holds that seat now
# the table's own entries, not the game's (replay applies none but a join): no game's action has these names
RESERVED = frozenset({JOIN, UNDO, CLAIM, ANSWER, LEAVE})
SPECTATOR = None  # the viewer without a token: sees only what is public


class Refused(Exception):
    """The rules forbid this action now; the message says why, in a player's words."""


class NotYours(Refused):
    """Not this actor's to make, whenever it is: a host's move, or another player's."""


@dataclass(frozen=True)
class Entry:
    """One action in a table's log."""

    seq: int  # 1, 2, 3, ... per table, never reused
    actor: str  # HOST or a player id
    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    at: str = ""  # ISO 8601 time it was recorded (UTC), for the history
    by: str | None = None  # who made it for the actor (HOST, for a seat without a phone), if not the actor


class Tracker(Protocol):
    """What the log needs of a game's rules (pnp.rules.flow.Rules is the one kind there is)."""

    Options: type[BaseModel]
    actions: dict[str, type[BaseModel]]
    final: frozenset[str]
    final_entry: Callable[[Entry], str | None] | None
    redact: Callable | None

    def setup(self, content, options: BaseModel) -> dict: ...

    def join(self, state: dict, player_id: str, name: str, computer: str | None = None) -> dict: ...

    def leave(self, state: dict, player_id: str) -> dict: ...

    def apply(self, content, state: dict, actor: str, action: BaseModel) -> dict: ...


class Chance(Protocol):
    """The server's dice and shuffles (pnp.rules.chance)."""

    rng: Random

    def dice(self, round_: int, dice: Sequence[tuple[str, int]]) -> dict[str, int]: ...


def seen_by(tracker: Tracker, entry: Entry, viewer: str | None) -> Entry:
    """`entry` as `viewer` may see it: as logged, unless the game redacts it for them. Joins and
    undos, and who holds a seat, are public whatever the game."""
    if tracker.redact is None or entry.type in RESERVED:
        return entry
    return replace(entry, payload=tracker.redact(entry, viewer))


@dataclass(frozen=True)
class Table:
    """What replaying a log gives: the state, and which entries still stand (not undone)."""

    state: dict
    standing: tuple[Entry, ...]  # game actions in order, undone ones left out; joins, undos and seating excluded


def replay(tracker: Tracker, content, options: BaseModel, log: list[Entry]) -> Table:
    """The state after every standing entry of `log`, applied in order.

    An entry the rules refuse on replay is a bug (each was checked when it was appended, and undo
    only takes back the latest one), so Refused propagates."""
    undone = {entry.payload["seq"] for entry in log if entry.type == UNDO}
    return _applied(tracker, content, Table(tracker.setup(content, options), ()), log, undone)


def extend(tracker: Tracker, content, table: Table, entries: list[Entry], since: int | None = None) -> Table | None:
    """`table`, the fold of the log up to seq `since`, with `entries` (the log's next ones)
    applied, leaving out those an undo among them takes back; None when an undo takes back an
    entry the table folded in (at or before `since`; any undo when `since` is not given), which
    changes its past: fold again from further back."""
    undone = {entry.payload["seq"] for entry in entries if entry.type == UNDO}
    if undone and (since is None or min(undone) <= since):
        return None
    return _applied(tracker, content, table, entries, undone)


def _applied(tracker: Tracker, content, table: Table, entries: list[Entry], undone: set[int]) -> Table:
    state, standing = table.state, list(table.standing)
    for entry in entries:
        if entry.type == JOIN:
            state = tracker.join(state, entry.actor, entry.payload["name"], entry.payload.get("computer"))
        elif entry.type == LEAVE:
            state = tracker.leave(state, entry.payload["player"])
        elif entry.type not in RESERVED and entry.seq not in undone:
            state = tracker.apply(content, state, entry.actor, parse_action(tracker, entry.type, entry.payload))
            standing.append(entry)
    return Table(state, tuple(standing))


def parse_action(tracker: Tracker, type_: str, payload: Mapping[str, Any], sent: bool = False) -> BaseModel:
    """The payload validated as its action's model: one a phone `sent`, strictly (Malformed if it
    does not fit, see pnp.rules.bodies); one from the log, as it was stored."""
    model = tracker.actions[type_]
    return strictly(model, payload) if sent else model.model_validate(dict(payload))


def undo_target(tracker: Tracker, content, options: BaseModel, log: list[Entry], actor: str) -> Entry:
    """The entry `actor` may take back: their own latest standing action, or, for the host, the
    latest standing action of anyone. Refused when there is none, or when a later action that
    stands would no longer be allowed without it (points it spent, a turn it ended)."""
    table = replay(tracker, content, options, log)
    target = next((e for e in reversed(table.standing) if actor == HOST or e.actor == actor), None)
    undoable(tracker, target)
    taken_back(tracker, content, Table(tracker.setup(content, options), ()), 0, log, actor, target)
    return target


def undoable(tracker: Tracker, target: Entry | None) -> None:
    """Refused unless `target`, the actor's latest standing action (None: they have none), is one
    the rules let them take back at all."""
    if target is None:
        raise Refused("There is nothing of yours to undo.")
    if target.type in tracker.final:
        raise Refused(f"A {target.type.replace('_', ' ')} cannot be taken back.")
    why = tracker.final_entry(target) if tracker.final_entry is not None else None
    if why:
        raise Refused(why)


def taken_back(
    tracker: Tracker, content, table: Table, since: int, entries: list[Entry], actor: str, target: Entry
) -> Table:
    """`table`, the fold of the log up to seq `since` (before `target`), with `entries` (every
    entry after it) applied and `target` taken back by `actor`: the table after the undo. Refused
    when a later action that stands would no longer be allowed without it."""
    try:
        after = extend(tracker, content, table, [*entries, Entry(0, actor, UNDO, {"seq": target.seq})], since)
    except Refused:
        raise Refused("That can no longer be undone: later moves depend on it.") from None
    if after is None:  # the caller's fold reached past an entry an undo took back: a bug, not a refusal
        raise ValueError(f"an undo after seq {since} takes back an entry before it")
    return after
