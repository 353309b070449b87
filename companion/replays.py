"""The state of each table: the replay of its log, kept in memory per table and sequence number,
so a room of phones streaming one table replays it once per action, not once per phone.

A state at hand is brought up to date by folding only the entries after it: the replay kept in
memory, or, in a worker that has none (a restart, another worker), the table's newest checkpoint
in the database (server-only, never sent), else the setup. An undo folds again from the newest
checkpoint before the move it takes back (companion.moves).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from companion.context import Context
from companion.kept import Kept
from companion.seats import Audience
from companion.store.schema import Stale, TableInfo
from pnp.rules.table import Entry, Table, extend, replay

T = TypeVar("T")


class Replays:
    def __init__(self, play: Context):
        self.play = play
        self.log = play.store.log
        self._kept: Kept[tuple[int, Table]] = Kept()  # code -> (last seq, Table)
        self._before: Kept[tuple[Entry, Table]] = Kept()  # code -> (a move, the table just before it)

    def replayed(self, code: str, log: list[Entry] | None = None, info: TableInfo | None = None) -> Table:
        """The table after `log` (default: its whole stored log; `info`: the table's, if at hand).
        The newest replay of each table is kept, and a longer log only applies its new entries to
        it; an undo replays it all."""
        info = info or self.play.info(code)
        if log is None:
            return self.newest(info)[0]
        seq = log[-1].seq if log else 0
        cached = self._kept.get(info.code)
        if cached is not None and cached[0] == seq:
            return cached[1]
        tracker, content = self.play.tracker(info.game), self.play.content(info.game)
        table = None
        if cached is not None and cached[0] < seq:
            table = extend(tracker, content, cached[1], [e for e in log if e.seq > cached[0]], cached[0])
        if table is None:
            table = replay(tracker, content, self.play.options(info), log)
        self.keep(info.code, seq, table)
        return table

    def keep(self, code: str, seq: int, table: Table) -> None:
        """`table` as the replay kept for `code`, unless a newer one is kept already."""
        self._kept.put_newer(code, seq, table)

    def keep_before(self, code: str, entry: Entry, table: Table) -> None:
        """`table`, the fold of the log up to just before `entry`, the move this worker appended
        last at `code`: an undo of it while it is the log's last entry starts from there."""
        self._before.put(code, (entry, table))

    def before(self, code: str, entry: Entry) -> Table | None:
        """The table just before `entry`, if it is the move kept by `keep_before`. Valid while the
        entry is the log's last: whatever an undo changed before it was folded in when it was appended."""
        kept = self._before.get(code)
        return kept[1] if kept is not None and kept[0] == entry else None

    def current(self, code: str, known: list[Entry] | None = None) -> tuple[TableInfo, Table, int]:
        """The table, its replayed state and the seq that state is at (0: nothing yet)."""
        info = self.play.info(code)
        return info, *self.newest(info, known)

    def newest(self, info: TableInfo, known: list[Entry] | None = None) -> tuple[Table, int]:
        """The table after its whole stored log, and the seq of its last entry. Only the entries
        after the kept replay (or the newest checkpoint) are read (a room's streams each render a
        roll), unless one undoes an entry before it; none when `known`, entries the caller has
        just read (a stream's new ones), reach back to it: the table is then as of the newest of
        those, or of the kept replay if that is newer."""
        tracker, content = self.play.tracker(info.game), self.play.content(info.game)
        for seq, base in self.bases(info):
            if known and known[0].seq <= seq + 1:
                newer = [e for e in known if e.seq > seq]
            else:
                newer = self.log.read(info.code, after=seq)
            table = extend(tracker, content, base, newer, seq) if newer else base
            if table is not None:
                break
        seq = newer[-1].seq if newer else seq
        self.keep(info.code, seq, table)
        return table, seq

    def at_seqs(
        self, tables: list[tuple[TableInfo, int]], read_after: Callable[[dict[str, int]], dict[str, list[Entry]]]
    ) -> dict[str, Table]:
        """By code, each table as of its newest seq (`tables`: each with that seq, read in the
        caller's transaction; `read_after`: reads, in it, the entries after a seq of the tables it
        names): the kept replay, with only the entries after it read, for every table in one read
        (an event's roll); a table with none kept, or whose kept replay an undo has made wrong,
        from its whole log."""
        infos = {info.code: info for info, _ in tables}
        newest = {info.code: last for info, last in tables}
        kept = {code: self._kept.get(code) for code in infos}
        start = {code: k[0] if k is not None and k[0] <= newest[code] else 0 for code, k in kept.items()}
        behind = {code: seq for code, seq in start.items() if kept[code] is None or kept[code][0] != newest[code]}
        found = {code: kept[code][1] for code in infos if code not in behind}
        lost = []  # kept replays an undo in the entries read has made wrong
        for code, tail in read_after(behind).items():
            if start[code] == 0:
                found[code] = self._whole(infos[code], tail)
            elif (table := self._extended(infos[code], kept[code][1], tail, start[code])) is not None:
                found[code] = table
            else:
                lost.append(code)
        for code, log in read_after(dict.fromkeys(lost, 0)).items():
            found[code] = self._whole(infos[code], log)
        for code, table in found.items():
            self.keep(code, newest[code], table)
        return found

    def _whole(self, info: TableInfo, log: list[Entry]) -> Table:
        return replay(self.play.tracker(info.game), self.play.content(info.game), self.play.options(info), log)

    def _extended(self, info: TableInfo, table: Table, entries: list[Entry], since: int) -> Table | None:
        return extend(self.play.tracker(info.game), self.play.content(info.game), table, entries, since)

    def built_on(self, info: TableInfo, attempt: Callable[[int, Table], T]) -> T:
        """`attempt(seq, table)` on the first of `bases` it is not Stale on."""
        for seq, base in self.bases(info):
            try:
                return attempt(seq, base)
            except Stale:
                if seq == 0:
                    raise

    def bases(self, info: TableInfo) -> Iterator[tuple[int, Table]]:
        """The states to fold the table's newest entries on, each with its seq, in the order to try
        them: the state at hand (`base`); when an undo took back what that folded in (in another
        worker), the table's newest checkpoint (an undo removes those it makes wrong); when one was
        written meanwhile, the setup."""
        kept = self._kept.get(info.code)
        if kept is not None:
            yield kept
        stored = self.stored(info)
        yield stored
        if stored[0] > 0:
            yield 0, self.setup(info)

    def base(self, info: TableInfo) -> tuple[int, Table]:
        """The newest state at hand and its seq: the replay kept in memory, else `stored`."""
        kept = self._kept.get(info.code)
        return kept if kept is not None else self.stored(info)

    def stored(self, info: TableInfo) -> tuple[int, Table]:
        """The table's newest checkpoint and its seq (its standing entries not known: what reads
        them reads the log), else the setup."""
        checkpoint = self.log.checkpoint(info.code)
        if checkpoint is not None:
            return checkpoint.seq, Table(checkpoint.state, ())
        return 0, self.setup(info)

    def setup(self, info: TableInfo) -> Table:
        return Table(self.play.tracker(info.game).setup(self.play.content(info.game), self.play.options(info)), ())

    def since(self, audience: Audience, after: int, through: int | None) -> list[Entry]:
        """The table's entries after seq `after` for its streams, up to `through` at least: the kept
        replay's newest when its standing entries run without a gap from there to `through` or
        beyond (an event's roll, kept as each table's replay as it was appended), else read."""
        kept = self._kept.get(audience.code)
        if through is not None and kept is not None and kept[0] >= through > after:
            newest = kept[1].standing[after - kept[0] :]
            if [e.seq for e in newest] == list(range(after + 1, kept[0] + 1)):
                return list(newest)
        return self.log.read(audience.code, after)
