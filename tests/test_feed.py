"""companion.feed: a roll that wakes every stream of a table is read from the store and rendered
once for them all; each stream still gets exactly the entries after its own last one."""

from __future__ import annotations

from companion.feed import KEEP, Feed
from pnp.rules.table import Entry


class Log:
    """A table's log in memory, counting the feed's reads and renders."""

    def __init__(self, n: int = 0):
        self.entries = [Entry(seq, "host", "roll") for seq in range(1, n + 1)]
        self.reads = self.renders = 0
        self.through: list[int | None] = []  # the newest seq each read had to reach, if known

    def add(self) -> int:
        self.entries.append(Entry(len(self.entries) + 1, "host", "roll"))
        return len(self.entries)

    def read(self, code, after, through):
        self.reads += 1
        self.through.append(through)
        return [e for e in self.entries if e.seq > after]

    def render(self, code, entries):
        self.renders += 1
        return [(e.seq, f"id: {e.seq}\n\n") for e in entries]


def seqs(messages):
    return [seq for seq, _ in messages]


def test_two_thousand_streams_woken_for_one_roll_cost_one_read_and_one_rendering():
    log = Log(3)
    feed = Feed(log.read, log.render)
    assert seqs(feed.after("T", 0, None)) == [1, 2, 3]  # the first stream connects
    reads, renders = log.reads, log.renders
    seq = log.add()
    for _ in range(2000):
        assert seqs(feed.after("T", 3, seq)) == [4]
    assert (log.reads - reads, log.renders - renders) == (1, 1)
    assert log.through == [None, seq]  # a new stream's read need not reach a known seq; the roll's, its own


def test_each_stream_gets_what_follows_its_own_last_entry():
    log = Log(5)
    feed = Feed(log.read, log.render)
    assert seqs(feed.after("T", 0, None)) == [1, 2, 3, 4, 5]
    assert seqs(feed.after("T", 2, 5)) == [3, 4, 5]
    assert seqs(feed.after("T", 5, 5)) == []


def test_a_stream_further_back_than_the_feed_keeps_is_answered_from_the_store():
    log = Log(KEEP + 10)
    feed = Feed(log.read, log.render)
    feed.after("T", 0, None)
    reads = log.reads
    assert seqs(feed.after("T", 1, KEEP + 10)) == list(range(2, KEEP + 11))
    assert log.reads == reads + 1


def test_a_wake_that_names_no_seq_always_reads_the_store():
    """After a listener reconnects nobody knows what was published meanwhile: read."""
    log = Log(2)
    feed = Feed(log.read, log.render)
    feed.after("T", 0, None)
    log.add()
    assert seqs(feed.after("T", 2, 2)) == []  # told of nothing newer: the feed does not look
    assert seqs(feed.after("T", 2, None)) == [3]


def test_tables_are_kept_apart():
    a, b = Log(2), Log(1)
    logs = {"A": a, "B": b}
    feed = Feed(
        lambda code, after, through: logs[code].read(code, after, through), lambda code, es: logs[code].render(code, es)
    )
    assert seqs(feed.after("A", 0, None)) == [1, 2]
    assert seqs(feed.after("B", 0, None)) == [1]
    b.add()
    assert seqs(feed.after("B", 1, 2)) == [2]
    assert seqs(feed.after("A", 2, 2)) == []
