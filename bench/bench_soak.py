"""A bounded soak: `--phones` (500) phones at one table for `--minutes` (10) of play, streams and
occasional moves, phones dropping and coming back with Last-Event-ID at random (issue 26).

    python bench/bench_soak.py                       # 500 phones, 10 minutes, SQLite, one worker
    python bench/bench_soak.py --minutes 2 --phones 100
    python bench/bench_soak.py --game magecraft --database postgresql+psycopg://... --workers 4

The table is begun as the tests' tables are (tests/support/safe_moves.py); every `--gap` s a
move is sent: in Merchants of Magick a random seat's paper score box, filled in again (a move any
seat may repeat all game long); in another game, a move a random caller is offered (it may end
before the soak does: then only the streams go on). Every `--drop-every` s, `--drop` of the
phones lose their connection (reset, no goodbye) and each comes back with Last-Event-ID after a
random 0.5-3 s. The server's RSS (the gunicorn master and its workers, with psutil) is sampled
every 5 s.

Asserts, and prints the figures: nothing lost (each phone's ids over all its lives are the log's,
1..n, each once, in order; every move answered 200 is in the log), no error answer, and memory
flat: the last minute's average RSS within `--rss-tolerance` (10 %) of the second minute's.
Exit status 1 on a miss. Not run in CI: it takes its minutes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # the tests' tables

from bench_room import Deadline, call, check_log_order, companion, load, wait_for, watchdog  # noqa: E402
from loadgen import Loadgen, Phone, raise_open_files  # noqa: E402

from tests.support.safe_moves import GAMES, Move, begun, offered, send  # noqa: E402

SAMPLE_EVERY = 5.0  # seconds between RSS samples
MERCHANTS = "merchants-of-magick"


def score_box(rng: random.Random, players: list[str]) -> Move:
    """Merchants of Magick: a paper sheet's score box, filled in again (every sheet is on paper
    until a merchant says otherwise, and the soak never does)."""
    return rng.choice(players), "scores", {"fulfilled": rng.randint(0, 9), "potions": rng.randint(0, 9)}


def rss_mib(server: psutil.Process) -> float:
    """The server's resident memory: its master and every worker, MiB."""
    procs = [server, *server.children(recursive=True)]
    total = 0
    for proc in procs:
        try:
            total += proc.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20


def minute_average(samples: list[tuple[float, float]], minute: int) -> float:
    """The average RSS sampled during minute `minute` (from 1) of play."""
    inside = [rss for t, rss in samples if (minute - 1) * 60 <= t < minute * 60]
    return statistics.fmean(inside) if inside else float("nan")


def soak(args, port: int, server: psutil.Process) -> list[str]:
    """Play, drop and resume for the minutes asked; the misses found (none: PASS)."""
    rng = random.Random(args.seed)
    table = begun(port, args.game)
    players = list(table.tokens)
    gen = Loadgen("127.0.0.1", port)
    misses = []
    try:
        path = f"/api/tables/{table.code}/events"
        phones = [Phone(path) for _ in range(args.phones)]
        setup = Deadline(120, "opening the streams")
        gen.follow(phones, setup.at)
        first = call(port, "GET", f"/api/tables/{table.code}")[1]["seq"]
        wait_for(gen, phones, first, setup, "sending the backlog")
        print(f"{args.phones} phones follow table {table.code} ({args.game}); {load()}", flush=True)

        statuses: dict[int, int] = {}
        accepted = drops = 0
        away: list[tuple[float, Phone]] = []  # (when it comes back, phone)
        samples: list[tuple[float, float]] = []
        start = time.monotonic()
        end = start + args.minutes * 60
        next_move = next_drop = next_sample = start
        while time.monotonic() < end:
            now = time.monotonic()
            if now >= next_sample:
                samples.append((now - start, rss_mib(server)))
                next_sample += SAMPLE_EVERY
            if now >= next_move:
                move = score_box(rng, players) if args.game == MERCHANTS else offered(table, rng)
                if move is not None:
                    status, answer = send(table, move)
                    statuses[status] = statuses.get(status, 0) + 1
                    accepted += status == 200
                    if status not in (200, 403, 409, 422):
                        misses.append(f"a move was answered {status}: {answer}")
                next_move += args.gap
            if now >= next_drop:
                here = [p for p in phones if not p.closed]
                gone = rng.sample(here, min(len(here), round(args.drop * args.phones)))
                gen.drop(gone)
                drops += len(gone)
                away += [(now + rng.uniform(0.5, 3.0), p) for p in gone]
                next_drop += args.drop_every
            back = [p for when, p in away if when <= now]
            if back:
                away = [(when, p) for when, p in away if when > now]
                gen.follow(back, now + 60, resume=True)
            broken = [p for p in phones if p.error]
            if broken:
                misses.append(f"{len(broken)} streams broke: {broken[0].error}")
                break
            time.sleep(0.05)
        samples.append((time.monotonic() - start, rss_mib(server)))
        if away:
            gen.follow([p for _, p in away], time.monotonic() + 60, resume=True)

        last = call(port, "GET", f"/api/tables/{table.code}")[1]["seq"]
        wait_for(gen, phones, last, Deadline(120, "the last events"), "the last events")
        problems = check_log_order(phones, last)
        if problems:
            misses.append(f"{len(problems)} phones saw the log wrong: {problems[0]}")
        if last - first != accepted:
            misses.append(f"{accepted} moves were answered 200 but the log grew by {last - first}")
        lives = sum(p.lives for p in phones)
        events = sum(len(p.events) for p in phones)

        minutes = int(args.minutes)
        second, final = minute_average(samples, 2), minute_average(samples, minutes)
        print(f"minutes of play: {args.minutes}; {load()}")
        print(f"moves sent: {sum(statuses.values())} ({statuses}); the log: {last} entries")
        print(f"phones: {args.phones}; drops and resumes: {drops}; connections opened: {lives}")
        print(f"events received: {events} ({events / args.phones:.0f} a phone, each once, in order)")
        by_minute = " ".join(f"{minute_average(samples, m):.1f}" for m in range(1, minutes + 1))
        print(f"server RSS by minute (MiB): {by_minute}")
        if minutes >= 3:
            drift = (final - second) / second
            print(f"RSS: minute 2 {second:.1f} MiB, minute {minutes} {final:.1f} MiB: {drift:+.1%}")
            if abs(drift) > args.rss_tolerance:
                misses.append(f"RSS drifted {drift:+.1%} from minute 2 to minute {minutes}")
        else:
            print("RSS: fewer than 3 minutes, no flatness check")
        return misses
    finally:
        gen.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10, help="minutes of play")
    parser.add_argument("--phones", type=int, default=500, help="phones following the table")
    parser.add_argument("--game", choices=GAMES, default=MERCHANTS)
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between moves")
    parser.add_argument("--drop", type=float, default=0.02, help="the share of phones dropping each time")
    parser.add_argument("--drop-every", type=float, default=2.0, help="seconds between drops")
    parser.add_argument("--rss-tolerance", type=float, default=0.10, help="last minute's RSS vs the second's")
    parser.add_argument("--database", help="a SQLAlchemy URL (default: SQLite in a temporary folder)")
    parser.add_argument("--workers", type=int, default=1, help="server workers (PostgreSQL for more than one)")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args(argv)
    limit = raise_open_files(2 * args.phones + 512)
    print(f"open files: soft limit {limit}")
    watchdog(args.minutes * 60 + 600)
    with tempfile.TemporaryDirectory(prefix="bench-soak-") as tmp:
        database = args.database or f"sqlite:///{Path(tmp) / 'soak.sqlite3'}"
        port, running = companion(Path(tmp), database, args.workers, Deadline(60, "starting the server"))
        try:
            with running as proc:
                misses = soak(args, port, psutil.Process(proc.pid))
        except SystemExit as err:
            misses = [str(err.code)]
        if misses:  # what the server said, for the failure
            for log in Path(tmp).glob("*.log"):
                print(f"--- {log.name} (last lines)\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:]))
    for miss in misses:
        print(f"FAIL: {miss}")
    print("PASS" if not misses else f"{len(misses)} miss(es)")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
