"""Who sits at a table: the caller a token names (the host, a player, a host who also plays, the
host playing a seat without a phone, or a spectator without a token), the audiences the live
streams share, the seats as of an entry, and the moves that seat a player (a join, a phone's ask
for a seat without one, the host's answer)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.context import Context
from companion.kept import Kept
from companion.store.schema import Stale, TableInfo
from pnp.rules.computer import levels
from pnp.rules.flow import Caller
from pnp.rules.table import ANSWER, CLAIM, HOST, JOIN, LEAVE, Entry, Refused, Table, extend

# the entries that change who sits at a table, or whose phone holds a seat
SEATING = {JOIN, CLAIM, ANSWER, LEAVE}


class NotKept(PermissionError):
    """Only the host acts for a seat, and only for one without a phone of its own."""


@dataclass(frozen=True)
class Seat:
    """A caller at a table: the host, a player, or someone without a token (a spectator); or the
    host acting for a seat without a phone (its player, `by` the host). A host who also plays is
    one caller whichever of their two tokens they send: their seat's player, with the host's rights."""

    actor: str | None  # HOST, a player id, or None
    by: str | None = None  # HOST when the host acts for the seat `actor`
    asking: str | None = None  # a phone without a seat: the seat it has asked for, not given yet
    own: str | None = None  # the host's own seat, when the host also plays
    hosting: bool = False  # a player's token of the host's own seat: the host's rights too

    @property
    def host(self) -> bool:
        return self.actor == HOST or self.by == HOST or self.hosting

    @property
    def viewer(self) -> str | None:
        """Whose view the caller gets: the seat they play (the host's own, once they sit down)."""
        return self.own if self.actor == HOST and self.own else self.actor

    def caller(self) -> Caller:
        """The caller as the flow sees them (pnp.rules.flow.Caller)."""
        return Caller(None if self.viewer == HOST else self.viewer, self.host)


class Audience(NamedTuple):
    """The streams of one table that get the same live messages: one viewer's (a seat, the host,
    or SPECTATOR for all who hold no token), whose moves the messages offer, so a table costs a
    rendering per seat, not per phone."""

    code: str
    viewer: str | None
    host: bool = False  # the viewer holds the host's rights (the host, or a host who also plays)


class Seats:
    def __init__(self, play: Context, built_on: Callable[[TableInfo, Callable[[int, Table], Any]], Any]):
        self.play = play
        self.built_on = built_on  # companion.replays' Replays.built_on: a write on the table's newest state
        self.store = play.store.tables
        self._at: Kept[tuple[int, list[dict]]] = Kept()  # code -> (seq, its seats read once that was newest)

    def of(self, code: str, token: str | None, kept: str | None = None) -> Seat:
        """Who holds `token`; with `kept`, the host acting for that seat without a phone (NotKept
        unless the token is the host's and the seat has no phone)."""
        actor, host_seat = self.store.credentials(code, token) if token else (None, None)
        if kept is not None:
            if actor != HOST and (actor is None or actor != host_seat):
                raise NotKept("Only the host acts for a seat without a phone.")
            if kept not in self.kept(code):
                raise NotKept("That seat is not one kept on the host's phone.")
            return Seat(kept, by=HOST)
        if actor is None and token:
            return Seat(None, asking=self.store.asking_for(code, token))
        if actor == HOST:
            return Seat(HOST, own=host_seat)
        return Seat(actor, hosting=actor is not None and actor == host_seat)

    def kept(self, code: str) -> frozenset[str]:
        """The seats without a phone of their own that a person plays: the host acts and sees for
        them (a computer player's seat is the server's)."""
        return frozenset(seat["id"] for seat in self.seated(code) if not seat["phone"] and not seat["computer"])

    def audience(self, info: TableInfo, token: str | None, kept: str | None = None) -> Audience:
        """The live messages a stream opened with `token` (acting for the seat `kept`, if given)
        shares."""
        caller = self.of(info.code, token, kept) if token or kept else Seat(None)
        return Audience(info.code, caller.viewer, caller.host)

    def seated(self, code: str, left: bool = False) -> list[dict]:
        """Who sits at the table, whether each has a phone of their own or one asking for it, and
        the level of each computer player (`left`: with the computers who left before the start)."""
        return [
            {"id": p.id, "name": p.name, "phone": p.phone, "asked": p.asked, "computer": p.computer}
            for p in self.store.players(code, left)
        ]

    def at(self, code: str, seq: int, known: list[Entry] | None = None) -> list[dict]:
        """The seats as of `seq`, the table's newest entry the caller knows (`known`: entries it has
        just read). The players change only with an entry (a join, a phone's ask for a seat, the
        host's answer) written in the same transaction, so seats read once an entry was written
        hold until the next such entry: a room's streams read them once, not at every action."""
        cached = self._at.get(code)
        if cached is not None and cached[0] != seq:
            since = [e for e in known or () if cached[0] < e.seq <= seq]
            unchanged = len(since) == seq - cached[0] and not any(e.type in SEATING for e in since)
            cached = (seq, cached[1]) if unchanged else None
        seats = cached[1] if cached is not None else self.seated(code)
        self._at.put_newer(code, seq, seats)
        return seats

    def names(self, code: str) -> dict[str, str]:
        """Each actor's name in the history, a computer that left its seat's too."""
        return names_of(self.seated(code, left=True))

    def join(
        self, code: str, name: str, by: str | None = None, hosts: bool = False, computer: str | None = None
    ) -> tuple[str, str | None]:
        """Sit a new player down: their id and token. Refused when the game cannot take them.
        Seated `by` the host, the seat has no phone (and no token): the host acts for it, or the
        server for a `computer` player of that level. `hosts`: the host's own phone sits down, and
        the seat has the host's rights too."""
        play = self.play
        info = play.info(code)
        tracker, content = play.tracker(info.game), play.content(info.game)

        def sit_on(seq: int, base: Table) -> tuple[Entry, str | None]:
            def allowed(tail: list[Entry], player_id: str) -> None:
                table = extend(tracker, content, base, tail, seq)
                if table is None:
                    raise Stale(f"an undo after {seq} takes back an entry before it")
                tracker.join(table.state, player_id, name, computer)
                if computer is not None and computer not in (offered := levels(tracker, table.state)):
                    raise Refused(f"No {computer} computer players here: the levels are {', '.join(offered)}.")

            return self.store.add_player(code, name, allowed, by, hosts, after=seq, computer=computer)

        entry, token = self.built_on(info, sit_on)
        play.announce(info, entry.seq)
        return entry.actor, token

    def remove_computer(self, code: str, player_id: str) -> None:
        """A computer player leaves its seat, before the start."""
        play = self.play
        info = play.info(code)
        tracker, content = play.tracker(info.game), play.content(info.game)

        def stand_up(seq: int, base: Table) -> Entry:
            def allowed(tail: list[Entry]) -> None:
                table = extend(tracker, content, base, tail, seq)
                if table is None:
                    raise Stale(f"an undo after {seq} takes back an entry before it")
                tracker.leave(table.state, player_id)

            return self.store.remove_computer(code, player_id, allowed, after=seq)

        entry = self.built_on(info, stand_up)
        play.announce(info, entry.seq)

    def claim(self, code: str, player_id: str) -> str:
        """A phone asks for a seat without one: the token the seat will have once the host gives it."""
        entry, token = self.store.claim(code, player_id)
        self.play.announce(self.play.info(code), entry.seq)
        return token

    def answer(self, code: str, player_id: str, given: bool) -> None:
        """The host gives the seat to the phone that asked for it, or keeps it."""
        entry = self.store.answer(code, player_id, given)
        self.play.announce(self.play.info(code), entry.seq)


def names_of(seats: list[dict]) -> dict[str, str]:
    """Each actor's name in the history: the host's, and each seat's ("Ada (computer)" for a
    computer player's, so no one takes its moves for a person's)."""
    return {HOST: "Host", **{seat["id"]: seat_name(seat) for seat in seats}}


def seat_name(seat: dict) -> str:
    return f"{seat['name']} (computer)" if seat.get("computer") else seat["name"]


def you(caller: Seat) -> dict:
    """The caller as a view names them: `by` when the host acts for a seat without a phone,
    `asking` when a phone waits for the host to give it a seat."""
    extra = {"by": caller.by, "asking": caller.asking}
    return {"actor": caller.actor, "host": caller.host, **{k: v for k, v in extra.items() if v is not None}}


def audience_seat(audience: Audience) -> Seat:
    """The seat whose view an audience's messages carry."""
    if audience.viewer == HOST:
        return Seat(HOST)
    return Seat(audience.viewer, hosting=audience.host and audience.viewer is not None)
