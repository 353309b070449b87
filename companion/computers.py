"""Computer players at the tables: after every change to a table, the server makes the move of a
computer player who has one now (pnp.rules.computer chooses it from what its seat is offered),
after a short pause the phones show as "thinking", as a move of the seat's own (companion.moves).

A move is decided on the newest state and appended only on that state (`Moves.act`'s `expect`):
if the table moved on meanwhile (a person's move, an undo, another worker's computer), it is not
made and the newest state decides again, so two workers woken by one change make one move. A
table is woken by every change this process makes to it, by every read of it (a phone's, after a
restart), and by the start of the server for every table a computer plays at, so a turn a
stopped server left undone is made once it runs again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from companion.context import Context
from companion.replays import Replays
from companion.seats import Seat
from companion.store.schema import TableInfo
from pnp.rules import computer
from pnp.rules.flow import computers
from pnp.rules.table import Refused

log = logging.getLogger(__name__)

PAUSE = 0.8  # seconds a computer "thinks" before each move, so the people at the table can follow
MOST_REFUSED = 20  # moves refused in a row before a computer stops trying (and the error is logged)
MOST_IN_A_ROW = 1000  # computers' moves at a table with no person's between them (the most seen: some 25)


def in_background(work: Callable[[], None]) -> None:
    """Run `work` beside the requests: a thread, a greenlet under gunicorn's gevent worker."""
    threading.Thread(target=work, daemon=True).start()


class Computers:
    def __init__(self, play: Context, replays: Replays, act, pause: float = PAUSE, run=in_background):
        self.play, self.replays = play, replays
        self.act = act  # companion.moves: Moves.act
        self.pause, self.run = pause, run
        self._busy: set[str] = set()  # tables a computer is moving at in this process
        self._again: set[str] = set()  # busy tables woken meanwhile: looked at again before letting go
        self._lock = threading.Lock()

    def woken(self, info: TableInfo, state: dict) -> None:
        """Make the moves computer players have at this table now, in the background; `state`:
        the newest the caller holds (a table of people costs a lookup in it)."""
        if computers(state) and self._claimed(info):
            self.run(lambda: self._moving(info))

    def _claimed(self, info: TableInfo) -> bool:
        """Whether this call is the one to move at the table (no other in this process is)."""
        with self._lock:
            if info.code in self._busy:
                self._again.add(info.code)  # the one moving reads the table again before it stops
                return False
            self._busy.add(info.code)
            return True

    def _released(self, info: TableInfo) -> bool:
        """Whether the one moving at the table may stop: not if the table was woken meanwhile."""
        with self._lock:
            if info.code in self._again:
                self._again.discard(info.code)
                return False
            self._busy.discard(info.code)
            return True

    def thinking(self, info: TableInfo, state: dict) -> list[str]:
        """The computer players who have a move to make now (a table of people: none, at once)."""
        playing = computers(state)
        if not playing:
            return []
        tracker, content = self.play.tracker(info.game), self.play.content(info.game)
        chance = self.play.chance(info).trial()
        return [pid for pid in playing if computer.moves_for(tracker, content, state, pid, chance)]

    def resume_all(self) -> None:
        """Make the moves left undone at every table where a computer sits, one table after
        another (run in the background at the server's start): a server stopped during a
        computer's turn makes it when it runs again."""
        for code in self.play.store.tables.with_computers():
            info = self.play.info(code)
            if self._claimed(info):
                self._moving(info)

    def _moving(self, info: TableInfo) -> None:
        refused = 0  # moves refused in a row: the table moved on, or (a bug) an offer the rules refuse
        try:
            for _ in range(MOST_IN_A_ROW):
                made = self._move_once(info)
                if made is None and self._released(info):
                    return
                refused = 0 if made is not False else refused + 1
                if refused >= MOST_REFUSED:
                    log.error("computer players at table %s: %d moves refused in a row", info.code, refused)
                    break
            else:  # a game whose computers could go on for ever without a person: stop, and say so
                log.error("computer players at table %s: %d moves without a person's", info.code, MOST_IN_A_ROW)
        except Exception:  # a background move has no request to answer: log it, keep serving
            log.exception("computer player at table %s", info.code)
        with self._lock:
            self._busy.discard(info.code)
            self._again.discard(info.code)

    def _move_once(self, info: TableInfo) -> bool | None:
        """One computer's move on the newest state: whether it was made (False: refused, as the
        table moved on while it thought); None once no computer has one."""
        table, seq = self.replays.newest(info)
        state = table.state
        tracker, content = self.play.tracker(info.game), self.play.content(info.game)
        chance = self.play.chance(info)
        for pid, level in computers(state).items():
            chosen = computer.choose(tracker, content, state, pid, level, chance)
            if chosen is None:
                continue
            if self.pause:
                time.sleep(self.pause)
            try:
                self.act(info.code, Seat(pid), *chosen, expect=seq)
            except Refused:
                return False  # the table moved on while it thought: decide again on the newest state
            return True
        return None
