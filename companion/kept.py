"""What the companion keeps in memory per table: a bounded map, the least recently used entry
forgotten first, shared by a worker's threads (or greenlets). A room of 200 tables keeps every
one; a server that has seen thousands forgets the idle ones, which are read again when asked."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

V = TypeVar("V")
KEPT = 1024  # tables remembered: an event of 200 tables, and more


class Kept(Generic[V]):
    def __init__(self, most: int = KEPT):
        self.most = most
        self._items: OrderedDict[str, V] = OrderedDict()
        # Made when the app is made, not when imported: `companion serve` imports the app's modules
        # in gunicorn's master, before gevent patches threading in the worker; a lock made then
        # would block the whole worker instead of one greenlet.
        self._lock = threading.Lock()

    def get(self, key: str) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            self._trim()

    def put_newer(self, key: str, seq: int, value) -> None:
        """Keep `(seq, value)` for `key` unless what is kept is of a later seq."""
        with self._lock:
            kept = self._items.get(key)
            if kept is None or kept[0] < seq:
                self._items[key] = (seq, value)
            self._items.move_to_end(key)
            self._trim()

    def _trim(self) -> None:
        while len(self._items) > self.most:
            self._items.popitem(last=False)
