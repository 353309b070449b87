"""A move at a table: checked against the rules on the table's log inside the transaction that
appends it (pnp.rules.table), with what the server's chance adds to it, then announced to the
open streams; and an undo, which names the move it takes back.

An action costs the same on a long game as on a new one: it folds only the entries after the
state at hand (companion.replays), and every CHECKPOINT_EVERY entries the state after it is kept
in the database, so a worker without it folds at most that many.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pydantic import BaseModel

from companion.context import Context
from companion.replays import Replays
from companion.seats import Seat
from companion.store.log import UndoScope
from companion.store.schema import Stale, TableInfo
from pnp.rules.chance import SecureChance, SeededChance, Unrolled
from pnp.rules.flow import computers
from pnp.rules.table import HOST, Entry, Refused, Table, extend, parse_action, taken_back, undoable

CHECKPOINT_EVERY = 100  # entries between a table's checkpoints: a worker without its state folds at most these


class AlreadyUndone(Exception):
    """The move an undo names was taken back already: by this entry."""

    def __init__(self, entry: Entry):
        super().__init__(entry.seq)
        self.entry = entry


class _Reseated(Exception):
    """The table moved on after the seat a move is made as was decided, and the move is now
    another seat's to record: append it again as `seat`."""

    def __init__(self, seat: Seat):
        super().__init__(seat)
        self.seat = seat


class Moves:
    def __init__(self, play: Context, replays: Replays):
        self.play = play
        self.log = play.store.log
        self.replays = replays

    def act(self, code: str, seat: Seat, type_: str, payload: dict, expect: int | None = None) -> tuple[Entry, Table]:
        """Check an action against the rules on the current log and append it: the entry and the
        table right after it, whatever other moves followed it since. Refused if the rules forbid
        it now, Malformed if its payload is not the action's shape; with `expect`, the seq of the
        state it was decided on (a computer player's), Refused if the table has moved on since."""
        info = self.play.info(code)
        tracker = self.play.tracker(info.game)
        if seat.actor is None:
            raise PermissionError("join the table first")
        action = parse_action(tracker, type_, payload, sent=True)
        # Who the move is made as (the host's rights or the seat's own) is decided on the state at
        # hand and decided again in the append's transaction if the table has moved on since.
        state = self.replays.base(info)[1].state
        try:
            made_as = self._as(info, seat, type_, action, state)
        except Refused:  # never refused on a state that may be behind the log
            state = self.replays.newest(info)[0].state
            made_as = self._as(info, seat, type_, action, state)
        while True:
            on = partial(self._append_on, info, caller=seat, seat=made_as, type_=type_, action=action, expect=expect)
            try:
                entry, table = self.replays.built_on(info, on)
                break
            except _Reseated as moved:
                made_as = moved.seat
        self.play.announce(info, entry.seq)
        return entry, table

    def _as(self, info: TableInfo, seat: Seat, type_: str, action: BaseModel, state: dict) -> Seat:
        """The seat a move is recorded as on the table's `state`: the caller's, or the host's for
        the host's own moves and corrections of another's seat (NotYours when the caller may make
        it as neither)."""
        actor = self.play.tracker(info.game).actor_for(state, seat.caller(), type_, action)
        if actor == HOST:
            return Seat(HOST)
        return seat if actor == seat.actor else Seat(actor)

    def _append_on(
        self,
        info: TableInfo,
        seq: int,
        base: Table,
        caller: Seat,
        seat: Seat,
        type_: str,
        action: BaseModel,
        expect: int | None = None,
    ) -> tuple[Entry, Table]:
        """Append `caller`'s `action` as `seat`, checked on `base`, the table as of `seq`, with the
        entries after it (Stale if one of them undoes an entry before; _Reseated if after them the
        move is another seat's to record); keep the table after it in memory, and every
        CHECKPOINT_EVERY entries in the database."""
        after: list[Table] = []

        def allowed(tail: list[Entry]) -> dict:
            if expect is not None and (tail[-1].seq if tail else seq) != expect:
                raise Refused("The table has moved on since this move was chosen.")
            table = extend(self.play.tracker(info.game), self.play.content(info.game), base, tail, seq)
            if table is None:
                raise Stale(f"an undo after {seq} takes back an entry before it")
            if tail and (now_as := self._as(info, caller, type_, action, table.state)) != seat:
                raise _Reseated(now_as)
            payload, state = self.applied(info, table.state, seat.actor, action, self.play.chance(info))
            after[:] = [table, Table(state, ())]
            return payload

        dumped = action.model_dump(mode="json")
        keep = checkpointed(lambda: after[1].state)
        entry = self.log.append(info.code, seat.actor, type_, dumped, allowed, seat.by, seq, keep)
        table = Table(after[1].state, (*after[0].standing, entry))
        self.replays.keep(info.code, entry.seq, table)
        self.replays.keep_before(info.code, entry, after[0])
        return entry, table

    def applied(
        self, info: TableInfo, state: dict, actor: str, action: BaseModel, chance: SecureChance | SeededChance
    ) -> tuple[dict, dict]:
        """The payload to record for `actor`'s `action` on the table's `state` at hand, with what
        `chance` adds to it (dice, a deal), and the state after it; Refused if the rules forbid it now."""
        tracker, content = self.play.tracker(info.game), self.play.content(info.game)
        try:
            done = tracker.draw(content, state, actor, action, chance)
        except Unrolled as unrolled:
            raise Refused(f"The event's organiser has not rolled round {unrolled.args[0]} yet.") from None
        return done.model_dump(mode="json"), tracker.apply(content, state, actor, done)

    def undo(self, code: str, seat: Seat, seq: int) -> tuple[Entry, Table | None]:
        """Take back the move `seq`, which must be the caller's latest standing one (the host's:
        anyone's), as their phone showed it; Refused if it is not (the table moved on). Naming it
        makes a second tap harmless: a move already taken back is answered with the undo that did
        it (and no table: nothing was done now), and nothing more is taken back; else the undo and
        the table right after it. The computer players' moves made since go with it. What follows
        the move is folded again from the newest checkpoint before it (companion.store.log:
        UndoScope), never the whole log."""
        info = self.play.info(code)
        if seat.actor is None:
            raise PermissionError("join the table first")
        if seat.hosting or seat.own:  # a host who also plays undoes as the host: anyone's latest move
            seat = Seat(HOST)
        # the computer players' moves since go first, newest first, each taken back by its own seat
        # for the caller: else the computer whose turn it is again would make its move once more
        newest = None  # the last undo written, announced once, whatever stops the ones after it
        try:
            for made in self._computer_moves_after(info, seq):
                newest, _ = self._taken_back(info, Seat(made.actor, by=seat.by or seat.actor), made.seq)
            entry, table = self._taken_back(info, seat, seq)
            newest = entry if table is not None else newest
        finally:
            if newest is not None:
                self.play.announce(info, newest.seq)
        return entry, table

    def _computer_moves_after(self, info: TableInfo, seq: int) -> list[Entry]:
        """The standing moves after `seq`, newest first, when `seq` stands and every one of them is
        a computer player's; else none (the undo of `seq` is then refused, or answered, as any)."""
        if not computers(self.replays.base(info)[1].state):  # seated before the start, so in any state at hand
            return []
        table, _ = self.replays.newest(info)
        playing = computers(table.state)
        if all(e.seq != seq for e in table.standing):
            return []
        after = [e for e in table.standing if e.seq > seq]
        if not all(e.actor in playing for e in after):
            return []
        tracker = self.play.tracker(info.game)
        for e in after:
            try:
                undoable(tracker, e)
            except Refused as why:  # a computer's draw stands, and so does what came before it
                name = table.state["names"][e.actor]
                raise Refused(
                    f"{name} (computer) has moved since, and {why.args[0][:1].lower()}{why.args[0][1:]}"
                ) from None
        return after[::-1]

    def _taken_back(self, info: TableInfo, seat: Seat, seq: int) -> tuple[Entry, Table | None]:
        """One undo, unannounced: the undo entry and the table after it (no table: `seq` was
        taken back already, by that entry)."""
        code = info.code
        tracker, content = self.play.tracker(info.game), self.play.content(info.game)
        after: list[Table] = []

        def still_latest(scope: UndoScope) -> None:
            if scope.taken_back_by is not None:
                raise AlreadyUndone(scope.taken_back_by)
            undoable(tracker, scope.latest)
            since, base, entries = self._undo_base(info, scope)
            table = taken_back(tracker, content, base, since, entries, seat.actor, scope.latest)
            if (latest := scope.latest.seq) != seq:
                raise Refused(f"Move {seq} is not your latest move that stands (move {latest} is); look again.")
            after[:] = [table]

        mover = None if seat.actor == HOST else seat.actor
        try:
            keep = checkpointed(lambda: after[0].state)
            entry = self.log.append_undo(code, seat.actor, seq, still_latest, seat.by, keep, mover)
        except AlreadyUndone as already:
            return already.entry, None
        self.replays.keep(info.code, entry.seq, after[0])
        return entry, after[0]

    def _undo_base(self, info: TableInfo, scope: UndoScope) -> tuple[int, Table, list[Entry]]:
        """What an undo folds its table from: the seq of a state, the state, and every entry after
        it. An undo of the log's last entry (a phone taking back the move it just made) starts from
        the table kept when that move was appended; any other, from the newest checkpoint before
        the move (or the setup), with what followed it read from the log."""
        latest = scope.latest
        if latest.seq == scope.last and (before := self.replays.before(info.code, latest)) is not None:
            return latest.seq - 1, before, [latest]
        checkpoint, entries = scope.fold_base()
        if checkpoint is None:
            return 0, self.replays.setup(info), entries
        return checkpoint.seq, Table(checkpoint.state, ()), entries


def checkpointed(state: Callable[[], dict]) -> Callable[[Entry], dict | None]:
    """What an append keeps as a checkpoint: `state()`, the table after the new entry, every
    CHECKPOINT_EVERY entries (an undo's too: the count holds whatever the entry)."""
    return lambda entry: state() if entry.seq % CHECKPOINT_EVERY == 0 else None
