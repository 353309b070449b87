"""The live streams' messages, each made once for every phone of an audience.

A roll at a table that 2,000 phones follow wakes 2,000 streams at once. Each asks the feed for
what is new since its last message; the first reads the store and renders the new entries as
Server-Sent Events, and the others get the same text from memory, so a roll costs one read and
one rendering, not one per phone. An audience is the streams that get the same text
(companion.play.Audience: a table's every stream, or in a game with secrets one viewer's); the
feed only uses it as a key. It keeps each audience's latest messages only: a phone that
reconnects from further back is answered from the store.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from pnp.rules.table import Entry

KEEP = 16  # messages kept per table: enough for a burst, little memory for a room of tables
AUDIENCES = 512  # audiences kept; the least recently followed is forgotten first

Message = tuple[int, str]  # (seq, the event's text)


def message(seq: int, data: dict) -> str:
    return f"id: {seq}\nevent: action\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def afresh(table: dict) -> str:
    """The table as it is, for a stream that asked for entries after its end: `id` its real last
    seq, so the browser's next reconnect resumes from there."""
    return f"id: {table['seq']}\nevent: table\ndata: {json.dumps({'table': table}, separators=(',', ':'))}\n\n"


class Feed:
    def __init__(
        self,
        read: Callable[[Hashable, int, int | None], list[Entry]],
        render: Callable[[Hashable, list[Entry]], list[Message]],
    ):
        """`read(audience, after, through)`: its table's entries after a seq, up to `through` at
        least (the newest the streams were woken for; None: not known); `render(audience,
        entries)`: their messages for that audience."""
        self._read, self._render = read, render
        self._recent: OrderedDict[Hashable, list[Message]] = OrderedDict()
        # threading's locks looked up now, not at import: gevent patches them in the worker
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def after(self, audience: Hashable, last: int, announced: int | None) -> list[Message]:
        """The messages after seq `last`. `announced`: the newest seq the stream was woken for (the
        feed reads the store only if it has not seen that far), None when not known (a new stream,
        or a listener that reconnected), which always reads."""
        recent = self._recent.get(audience)
        if announced is not None and recent and recent[-1][0] >= announced and last + 1 >= recent[0][0]:
            return [m for m in recent if m[0] > last]  # the room woken by a roll: no lock, no store
        with self._lock_for(audience):
            recent = self._recent.get(audience, [])
            if announced is None or announced > (recent[-1][0] if recent else 0):
                fresh = self._read(audience, recent[-1][0] if recent else 0, announced)
                if fresh:
                    recent = (recent + self._render(audience, fresh))[-KEEP:]
                    self._keep(audience, recent)
        if not recent or last >= recent[-1][0]:
            return []
        if last + 1 >= recent[0][0]:
            return [m for m in recent if m[0] > last]
        return self._render(audience, self._read(audience, last, None))  # further back than the feed keeps

    def _lock_for(self, audience: Hashable) -> threading.Lock:
        lock = self._locks.get(audience)
        if lock is None:
            with self._guard:
                lock = self._locks.setdefault(audience, threading.Lock())
        return lock

    def _keep(self, audience: Hashable, recent: list[Message]) -> None:
        with self._guard:
            self._recent[audience] = recent
            self._recent.move_to_end(audience)
            while len(self._recent) > AUDIENCES:
                forgotten, _ = self._recent.popitem(last=False)
                self._locks.pop(forgotten, None)
