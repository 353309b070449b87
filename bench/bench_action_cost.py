"""Benchmark: what one move costs as a table's log grows. A move POSTed over HTTP to the real
`companion serve` (gunicorn, one gevent worker, SQLite) at a table of 0, 500, 1,000 and 2,000
entries, against a floor measured in the same run: bench/floor_action.py, a bare Flask app under
the same gunicorn worker that appends the POSTed JSON as a table's next row in SQLite through
SQLAlchemy Core (WAL, BEGIN IMMEDIATE, as the store), with no rules and no state.

The table is Magic Spell with two students; the move is Ann's spirit +1 / -1 in turn (the state
stays the same size, the log grows). At each size, SAMPLES moves are timed, each followed by an
append to the floor (interleaved, so a busy moment of a shared machine weighs on both alike; the
same client, a new connection per request, as bench_room's `call`), median; also the table's
read (GET) and the history's newest page (GET /history?limit=50). Targets (issue 26): a move at
2,000 entries within 2x of the floor, and flat: its ratio to the floor at 2,000 entries no more
than 1.25x its ratio at 0 (the ratio, not the milliseconds: the machine's load drifts between
sizes, the floor's with it). Not a test: prints the figures and PASS/FAIL, exits 1 when a target
is missed.

    python bench/bench_action_cost.py [--samples 100] [--sizes 0,500,1000,2000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_room import HERE, Deadline, call, companion, expect, free_port, running

TARGET_RATIO = 2.0  # a move at the largest size / the floor's append
TARGET_FLAT = 1.25  # a move's ratio to the floor at the largest size / at the smallest
SIZES = "0,500,1000,2000"


def timed(request) -> float:
    """Milliseconds `request()` takes."""
    start = time.perf_counter()
    request()
    return (time.perf_counter() - start) * 1000


def median_ms(request, samples: int) -> float:
    return statistics.median(timed(request) for _ in range(samples))


def interleaved_ms(ours, floor, samples: int) -> tuple[float, float]:
    """Median milliseconds of `ours()` and of `floor()`, called in turn `samples` times each."""
    times = [(timed(ours), timed(floor)) for _ in range(samples)]
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
        self.entries, self.moves = 3, 0

    @property
    def path(self) -> str:
        return f"/api/tables/{self.code}"

    def move(self) -> None:
        delta = 1 if self.moves % 2 == 0 else -1  # spirit up, then down: the state keeps its size
        body = {"type": "spirit", "delta": delta}
        expect(call(self.port, "POST", f"{self.path}/actions", body, self.ann), 200, "a move")
        self.moves += 1
        self.entries += 1

    def grow_to(self, size: int) -> None:
        while self.entries < size:
            self.move()


def ratio_of(row: tuple) -> float:
    return row[1] / row[2]


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
                move, floor = interleaved_ms(table.move, append, args.samples)
                read = median_ms(lambda: expect(call(port, "GET", table.path, token=table.ann), 200, "read"), 20)
                page = median_ms(lambda: expect(call(port, "GET", f"{table.path}/history?limit=50"), 200, "page"), 20)
                rows.append((at, move, floor, read, page))
                deadline.check(f"measuring at {size} entries")
    print(__doc__.splitlines()[0])
    print(f"{args.samples} moves timed at each size, median; reads: 20 each, median")
    print()
    print(f"{'entries':>8} {'move ms':>9} {'floor ms':>9} {'ratio':>6} {'read ms':>8} {'history page ms':>16}")
    for at, move, floor, read, page in rows:
        print(f"{at:>8} {move:>9.2f} {floor:>9.2f} {move / floor:>6.2f} {read:>8.2f} {page:>16.2f}")
    last, first = rows[-1], rows[0]
    ratio, flat = last[1] / last[2], ratio_of(last) / ratio_of(first)
    ok = ratio <= TARGET_RATIO and flat <= TARGET_FLAT
    print()
    print(f"move at {last[0]} entries / floor   {ratio:5.2f}   target <= {TARGET_RATIO}")
    print(f"ratio at {last[0]} / at {first[0]} entries {flat:5.2f}   target <= {TARGET_FLAT}")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
