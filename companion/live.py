"""Wakes open event streams when their table's log grows. The hub carries no data: a woken stream
reads what is new from the Store.

    hub = Hub.for_store(store)       # PostgreSQL: across worker processes too; anything else: this process
    with hub.subscribe(code) as sub: # subscribe BEFORE reading the log, so nothing between is missed
        send(store.log.read(code, after=last_sent))
        while True:
            if sub.wait(timeout=15):       # True: something new (possibly nothing, after a reconnect)
                send(store.log.read(code, after=last_sent))  # sub.announced(): how far (companion.feed)
            else:
                send_keepalive()
    hub.publish(code, seq)           # after the append has committed
    hub.close()                      # stops the listener (tests; a worker just exits)

A code is taken as a person typed it ("abc-def" and "ABCDEF" are one table). Waits use threading primitives,
which gunicorn's gevent worker monkeypatches, so a waiting stream holds a greenlet, not a thread.

With PostgreSQL, `publish` also sends NOTIFY spellpress '<code>:<seq>', and each process keeps one
listening connection (a background thread, started by the first subscriber) that wakes its local
subscribers. When that connection drops it reconnects, and on every (re)connect it wakes all
subscribers, since what was published while it was not listening is not replayed.
"""

from __future__ import annotations

import logging
import os
import threading

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import SQLAlchemyError

from companion.store import Store
from companion.store.database import normalize_code

CHANNEL = "spellpress"
LISTEN_WAIT = 5.0  # seconds the first subscriber waits for the listener to be listening
POLL = 1.0  # seconds between the listener's looks at whether the hub was closed
RECONNECT_DELAYS = (0.2, 1.0, 5.0)  # the last one repeats while PostgreSQL stays away
# Finds a silently dead connection (a cable pulled, a NAT forgetting us) in about 20 s.
KEEPALIVES = dict(keepalives=1, keepalives_idle=10, keepalives_interval=3, keepalives_count=3)

logger = logging.getLogger(__name__)


class Channel:
    """One table's publishes in this process. Every publish swaps in a fresh Event and sets the old
    one, so a roll wakes a room of streams with one set() rather than one per stream."""

    def __init__(self):
        self.newest = 0  # the newest seq a publish named
        self.unknown = 0  # bumped when something no publish named may have happened (a lost listener)
        self.event = threading.Event()
        self.subscribers = 0

    def publish(self, seq: int | None) -> None:
        if seq is None:
            self.unknown += 1
        else:
            self.newest = max(self.newest, seq)
        fired, self.event = self.event, threading.Event()  # the news first, then the wake
        fired.set()


class Subscription:
    """One stream's interest in one table. A context manager: leaving it unsubscribes."""

    def __init__(self, hub: Hub, code: str, channel: Channel):
        self.code = code  # normalized
        self._hub = hub
        self._channel = channel
        self._seen = channel.event  # the generation of publishes this stream has looked at
        self._unknown = -1  # a new stream knows nothing: its first announced() is None

    def wait(self, timeout: float | None = None) -> bool:
        """True once something happened for the table since the last True (or since subscribing);
        False if `timeout` seconds pass first."""
        if self._seen is self._channel.event and not self._seen.wait(timeout):
            return False
        # Taken before the caller reads the log: a publish after this point sets it, and a
        # publish before it committed its entry before the read.
        self._seen = self._channel.event
        return True

    def announced(self) -> int | None:
        """The newest seq announced so far, or None if something unnamed may be newer (once: the
        next call names the seq again unless another unnamed wake came)."""
        if self._unknown != self._channel.unknown:
            self._unknown = self._channel.unknown
            return None
        return self._channel.newest

    def close(self) -> None:
        self._hub._unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Hub:
    def __init__(self, engine: Engine | None = None):
        """`engine`: the Store's; with PostgreSQL, publishes reach every process on that database."""
        self._engine = engine if engine is not None and engine.dialect.name == "postgresql" else None
        self._lock = threading.Lock()
        self._channels: dict[str, Channel] = {}  # the tables with a stream open here
        self._closed = threading.Event()
        self._listener_pid: int | None = None  # the process the listener thread runs in
        self._listening = threading.Event()

    @classmethod
    def for_store(cls, store: Store) -> Hub:
        return cls(store.engine)

    def subscribe(self, code: str) -> Subscription:
        code = _key(code)
        with self._lock:
            channel = self._channels.setdefault(code, Channel())
            channel.subscribers += 1
            subscription = Subscription(self, code, channel)
        if self._engine is not None:
            self._ensure_listener()
        return subscription

    def publish(self, code: str, seq: int) -> None:
        """Table `code` has a new entry `seq` (already committed)."""
        code = _key(code)
        self._wake(code, seq)
        if self._engine is None:
            return
        try:
            with self._engine.begin() as connection:
                connection.execute(select(func.pg_notify(CHANNEL, f"{code}:{seq}")))
        except SQLAlchemyError:
            # The entry is stored and local streams are woken; the others catch up when their
            # listeners reconnect (the outage that failed this NOTIFY drops them too) or time out.
            logger.exception("could not NOTIFY %s:%s", code, seq)

    def close(self) -> None:
        self._closed.set()

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            channel = self._channels.get(subscription.code)
            if channel is not None:
                channel.subscribers -= 1
                if channel.subscribers <= 0:
                    del self._channels[subscription.code]

    def _wake(self, code: str, seq: int | None) -> None:
        channel = self._channels.get(code)
        if channel is not None:
            channel.publish(seq)

    def _wake_all(self) -> None:
        with self._lock:
            channels = list(self._channels.values())
        for channel in channels:
            channel.publish(None)

    def _ensure_listener(self) -> None:
        """Start this process's listener if it is not running, and wait (a little) until it listens,
        so a subscriber that goes on to read the log misses no publish from another process."""
        with self._lock:
            # A forked worker inherits the flag but not the thread: the pid tells them apart.
            if self._listener_pid != os.getpid():
                self._listener_pid = os.getpid()
                self._listening = threading.Event()
                threading.Thread(target=self._listen, name="spellpress-listener", daemon=True).start()
        self._listening.wait(LISTEN_WAIT)

    def _listen(self) -> None:
        # Imported here, in the worker: psycopg picks its way of waiting on sockets when imported,
        # and it cooperates with gevent only if gevent has patched the process by then.
        import psycopg

        url = self._engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        failures = 0
        while not self._closed.is_set():
            try:
                with psycopg.connect(url, autocommit=True, application_name=self.listener_name, **KEEPALIVES) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    failures = 0
                    self._wake_all()
                    self._listening.set()
                    while not self._closed.is_set():
                        for notification in conn.notifies(timeout=POLL):
                            code, _, seq = notification.payload.rpartition(":")
                            self._wake(code, int(seq) if seq.isdigit() else None)
            except Exception:  # whatever it was, a dead listener would silence every other worker
                logger.warning("PostgreSQL listener lost; reconnecting", exc_info=True)
                self._closed.wait(RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)])
                failures += 1

    @property
    def listener_name(self) -> str:
        """The listener's application_name in pg_stat_activity (one per process)."""
        return f"spellpress-listener-{os.getpid()}"


def _key(code: str) -> str:
    return normalize_code(code) or code
