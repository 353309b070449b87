"""Benchmark: what a move, an undo, a join and a stream's resume cost as a table's log grows. Each
is sent over HTTP to the real `companion serve` (gunicorn, one gevent worker, SQLite) at a table of
20 and of 20,000 entries, against a floor measured in the same run: bench/floor_action.py, a bare
Flask app under the same gunicorn worker that appends the POSTed JSON as a table's next row in
SQLite through SQLAlchemy Core (WAL, BEGIN IMMEDIATE, as the store), with no rules and no state.

The table is Magic Spell with two students, grown by real moves through the API: Ann's spirit +1 /
-1 in turn (the state stays the same size, the log grows). At each size, SAMPLES of each are
timed, each followed by an append to the floor (interleaved, so a busy moment of a shared machine
weighs on both alike; the same client, a new connection per request), median:
- a move: Ann's spirit;
- an undo: Ann's move made (not timed), then taken back (timed);
- a join: Cy asks to sit down (refused, 409: the game has started; what a join costs is the rules'
  check of the table's state, the part that grew with the log);
- a resume: a stream opened with Last-Event-ID one before the newest entry, timed to its first event.
Also the table's read (GET) and the history's default page (GET /history). Targets (issue 35): at
the largest size each within 1.5x the floor's append, and flat: its ratio to the floor at the
largest size no more than 1.25x its ratio at the smallest (the ratio, not the milliseconds: the
machine's load drifts between sizes, the floor's with it). Not a test: prints the figures and
PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_action_cost.py [--samples 100] [--sizes 20,20000]
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_room import HERE, Deadline, call, companion, expect, free_port, running

TARGET_RATIO = 1.5  # each at the largest size / the floor's append
TARGET_FLAT = 1.25  # each one's ratio to the floor at the largest size / at the smallest
SIZES = "20,20000"
KINDS = ("move", "undo", "join", "resume")


def timed(request) -> float:
    """Milliseconds `request()` takes."""
    start = time.perf_counter()
    request()
    return (time.perf_counter() - start) * 1000


def median_ms(request, samples: int) -> float:
    return statistics.median(timed(request) for _ in range(samples))


def interleaved_ms(ours, floor, samples: int, before=lambda: None) -> tuple[float, float]:
    """Median milliseconds of `ours()` (after `before()`, not timed) and of `floor()`, in turn."""
    times = []
    for _ in range(samples):
        before()
        times.append((timed(ours), timed(floor)))
    return statistics.median(t for t, _ in times), statistics.median(t for _, t in times)


class Table:
    """A Magic Spell table on the companion, started, with Ann's spirit moves to make."""

    def __init__(self, port: int):
        self.port = port
        opened = expect(call(port, "POST", "/api/tables", {"game": "magic-spell"}), 201, "opening a table")
        self.code, self.host = opened["code"], opened["host_token"]
        self.ann = expect(call(port, "POST", f"{self.path}/players", {"name": "Ann"}), 201, "joining")["token"]
        expect(call(port, "POST", f"{self.path}/players", {"name": "Bo"}), 201, "joining")
        expect(call(port, "POST", f"{self.path}/actions", {"type": "start"}, self.host), 200, "starting")
        self.entries, self.moves, self.made = 3, 0, 0

    @property
    def path(self) -> str:
        return f"/api/tables/{self.code}"

    def move(self) -> None:
        delta = 1 if self.moves % 2 == 0 else -1  # spirit up, then down: the state keeps its size
        body = {"type": "spirit", "delta": delta}
        self.made = expect(call(self.port, "POST", f"{self.path}/actions", body, self.ann), 200, "a move")["seq"]
        self.moves += 1
        self.entries += 1

    def undo(self) -> None:
        expect(call(self.port, "POST", f"{self.path}/undo", {"seq": self.made}, self.ann), 200, "an undo")
        self.entries += 1

    def join(self) -> None:
        expect(call(self.port, "POST", f"{self.path}/players", {"name": "Cy"}), 409, "a join once started")

    def resume(self) -> None:
        """A stream opened after the newest entry but one, read to its first event (that entry)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", f"{self.path}/events", headers={"Last-Event-ID": str(self.entries - 1)})
        res = conn.getresponse()
        while not res.fp.readline().startswith(b"data:"):
            pass
        conn.close()

    def grow_to(self, size: int) -> None:
        while self.entries < size:
            self.move()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--sizes", default=SIZES)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    deadline = Deadline(900, "bench_action_cost")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        port, ours = companion(tmp, f"sqlite:///{tmp / 'companion.sqlite3'}", 1, deadline)
        floor_port = free_port()
        command = [sys.executable, str(HERE / "floor_action.py"), "--port", str(floor_port)]
        command += ["--database", str(tmp / "floor.sqlite3")]
        with ours, running(command, {}, tmp / "floor.log", floor_port, deadline):
            table = Table(port)
            table.grow_to(50)  # warm: imports, content, the first replay; then the smallest size's table
            table = Table(port)
            floor_path = "/api/tables/FLOOR/actions"

            def append() -> None:
                expect(call(floor_port, "POST", floor_path, {"type": "spirit", "delta": 1}), 200, "the floor's append")

            for size in sizes:
                table.grow_to(size)
                at = table.entries
                row = {"entries": at}
                row["move"] = interleaved_ms(table.move, append, args.samples)
                row["undo"] = interleaved_ms(table.undo, append, args.samples, before=table.move)
                row["join"] = interleaved_ms(table.join, append, args.samples)
                row["resume"] = interleaved_ms(table.resume, append, args.samples)
                row["read"] = median_ms(lambda: expect(call(port, "GET", table.path, token=table.ann), 200, "read"), 20)
                row["page"] = median_ms(lambda: expect(call(port, "GET", f"{table.path}/history"), 200, "page"), 20)
                rows.append(row)
                deadline.check(f"measuring at {size} entries")
    print(__doc__.splitlines()[0])
    print(f"{args.samples} of each timed at each size, each beside a floor append, median; reads: 20 each, median")
    print()
    print(f"{'entries':>8} {'what':>7} {'ours ms':>8} {'floor ms':>9} {'ratio':>6}")
    for row in rows:
        for kind in KINDS:
            ours_ms, floor_ms = row[kind]
            print(f"{row['entries']:>8} {kind:>7} {ours_ms:>8.2f} {floor_ms:>9.2f} {ours_ms / floor_ms:>6.2f}")
        print(f"{row['entries']:>8} {'read':>7} {row['read']:>8.2f}   history page {row['page']:.2f} ms")
    first, last = rows[0], rows[-1]
    ok = True
    print()
    for kind in KINDS:
        ratio = last[kind][0] / last[kind][1]
        flat = ratio / (first[kind][0] / first[kind][1])
        met = ratio <= TARGET_RATIO and flat <= TARGET_FLAT
        ok &= met
        print(
            f"{kind:>7} at {last['entries']} entries / floor {ratio:5.2f} (target <= {TARGET_RATIO}); "
            f"/ its ratio at {first['entries']} {flat:5.2f} (target <= {TARGET_FLAT})  {'ok' if met else 'MISSED'}"
        )
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
