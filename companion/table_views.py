"""What a caller sees of a table: the table as their seat may see it with the moves it offers
them, its live messages for an audience, its history and its results. A game with secrets
redacts each entry and view for its viewer (pnp.rules.table's seen_by and the game's view)."""

from __future__ import annotations

from collections.abc import Iterator

from companion.computers import Computers
from companion.context import Context
from companion.feed import Message, message
from companion.replays import Replays
from companion.seats import Audience, Seat, Seats, audience_seat, names_of, you
from companion.store.schema import TableInfo
from pnp.rules.computer import levels
from pnp.rules.flow import Rules
from pnp.rules.table import HOST, Entry, Table, seen_by

EXPORT_PAGE = 500  # entries an export reads at a time: a long game's is sent as it is read


class Views:
    def __init__(self, play: Context, replays: Replays, seats: Seats, computers: Computers):
        self.play, self.replays, self.seats, self.computers = play, replays, seats, computers

    def table(self, code: str, caller: Seat, known: list[Entry] | None = None, made: Entry | None = None,
              after: Table | None = None) -> dict:  # fmt: skip
        """The table as the caller sees it (a spectator: as every live stream sends it); `known`: its
        newest entries, just read by the caller (companion.replays: newest); `made` and `after`: the
        caller's move and the table right after it, which its answer shows even when other moves
        have followed it since (in another worker, or another phone's request)."""
        play = self.play
        if made is not None and after is not None:
            info, table, seq = play.info(code), after, made.seq
            known = [made]  # a move, not a seat's change: the seats read before it still hold
        else:
            info, table, seq = self.replays.current(code, known)
        thinking = self.computers.thinking(info, table.state)
        if thinking:
            self.computers.woken(info, table.state)  # a turn a stopped server (or worker) left undone
        tracker = play.tracker(info.game)
        return {
            "code": info.code,
            "game": info.game,
            "title": play.trackable()[info.game].title,
            "options": info.options,
            "event": info.event,
            "seq": seq,
            "you": you(caller),
            "seats": self.seats.at(info.code, seq, known),
            "state": tracker.seen(table.state, caller.viewer),
            "flow": flow_of(tracker, table.state),
            "thinking": thinking,
            "computer_players": computer_players(tracker, table.state),
            "moves": self.offers(info, table.state, caller),
        }

    def offers(self, info: TableInfo, state: dict, caller: Seat) -> list[dict]:
        """The moves `caller` may make now (pnp.rules.flow: offers), for their seat and as the host."""
        if caller.actor is None and not caller.host:
            return []
        tracker = self.play.tracker(info.game)
        return tracker.offers(self.play.content(info.game), state, caller.caller(), self.play.chance(info))

    def messages(self, audience: Audience, entries: list[Entry]) -> list[Message]:
        """New entries as live events for one audience: each entry as its viewer may see it (its
        payload also at the top, so a roll reads {"type": "roll", "round", "dice"}) with the
        table as that viewer now sees it."""
        table = self.table(audience.code, audience_seat(audience), entries)
        names = names_of(table["seats"])
        tracker = self.play.tracker(table["game"])
        sent = []
        for e in (seen_by(tracker, e, audience.viewer) for e in entries):
            data = {"type": e.type, **e.payload, "entry": entry_json(e, names), "table": table}
            sent.append((e.seq, message(e.seq, data)))
        return sent

    def export(self, code: str, viewer: str | None) -> tuple[dict, Iterator[dict]]:
        """The table as `viewer` may see it (its code, game, options, event and state) and its
        history up to that state, oldest first, read EXPORT_PAGE entries at a time as it is sent;
        each entry marked `undone` when a later undo took it back."""
        info = self.play.info(code)
        table, seq = self.replays.newest(info)
        head = {"code": info.code, "game": info.game, "options": info.options, "event": info.event}
        head["state"] = self.play.tracker(info.game).seen(table.state, viewer)
        pages = self.play.store.log.pages(code, seq, EXPORT_PAGE)
        return head, (entry for page, undone in pages for entry in self._described(code, viewer, page, undone))

    def history_page(
        self, code: str, viewer: str | None, before: int | None, limit: int
    ) -> tuple[list[dict], int | None]:
        """The newest `limit` entries of the history before seq `before` (None: the newest of all),
        oldest first, and the `before` that asks for the page of earlier ones (None: none left)."""
        entries, undone = self.play.store.log.page(code, before, limit)
        earlier = entries[0].seq if entries and entries[0].seq > 1 else None  # seqs run from 1 without a gap
        return self._described(code, viewer, entries, undone), earlier

    def _described(self, code: str, viewer: str | None, entries: list[Entry], undone: set[int]) -> list[dict]:
        tracker, names = self.play.tracker(self.play.info(code).game), self.seats.names(code)
        return [{**entry_json(seen_by(tracker, e, viewer), names), "undone": e.seq in undone} for e in entries]

    def results(self, code: str) -> list[dict]:
        """One row per player for the CSV export: the game's own results."""
        info, table, _ = self.replays.current(code)
        return self.play.tracker(info.game).results(table.state)


def entry_json(entry: Entry, names: dict[str, str]) -> dict:
    return {
        "seq": entry.seq,
        "at": entry.at,
        "actor": entry.actor,
        "name": names.get(entry.actor, "?"),
        "by": entry.by,  # who made it for the actor (the host, for a seat without a phone), if not the actor
        "by_name": None if entry.by is None else names.get(entry.by, "?"),
        # the host's move names whom it is for in `player`
        "for_name": names.get(entry.payload.get("player") or "") if entry.actor == HOST else None,
        "type": entry.type,
        "payload": dict(entry.payload),
    }


def computer_players(tracker: Rules, state: dict) -> dict:
    """The computer players' levels the host may seat here (by id, in words), or why none may."""
    return {"levels": levels(tracker, state), "why_not": tracker.no_computers(state)}


def flow_of(tracker: Rules, state: dict) -> dict:
    """What every game's table shares (pnp.rules.flow): its stage, its players in seat order,
    whose turn it is, and how many it seats."""
    return {"phase": state["phase"], "players": state["players"], "turn": tracker.turn(state), "room": state["room"]}
