"""A room of phones on the companion: thousands of live streams, every die roll to every phone.

    python bench/bench_room.py                 # all three scenarios, the issue's figures (minutes)
    python bench/bench_room.py --quick         # 200 phones, 25 tables: seconds
    python bench/bench_room.py --only room     # one scenario: room, workers or event

1. room: one Merchants of Magick table, `--phones` (2,000) SSE followers, one gunicorn gevent
   worker on SQLite; the host rolls rounds 1..`--rounds`, `--gap` s apart. Every roll must reach
   every phone. Latency of (phone, roll) = receipt at the phone minus the moment before the roll's
   POST was sent. The floor (bench/floor_sse.py, a bare Flask app on the same gunicorn worker that
   only fans out) gets the same phones and the very same event bytes, alternating with ours
   `--pairs` times. Targets: our p99 <= 250 ms, our p99 / floor p99 <= 1.3.
2. workers: two workers on PostgreSQL (a database `spellpress_bench` made and dropped here),
   `--pg-phones` (4,000) followers; rolls, then `--drop` (10 %) of the phones drop, rolls happen
   while they are away, and they come back with Last-Event-ID: each phone's ids must be the log's,
   1..n, each once, in order. Target: every roll to every phone, p99 reported.
3. event: `--tables` (200) tables of `--table-phones` (10) phones each following its table:
   `--seats` (8, a Merchants table's most) joined players and the rest followers (a host's phone,
   a projector); the organiser rolls every round through the event API, then every player posts
   their scores at once, and the event's leaderboard must equal the ranking computed here.

Everything talks to 127.0.0.1 only. Each scenario has a deadline (`--deadline`, s) and stops with
FAIL when it passes; a watchdog ends the whole run (servers included) past the sum of them.
Open files: the load generator holds one socket per phone, the server one per phone too; the
command raises its soft RLIMIT_NOFILE to the hard limit before starting the servers, which
inherit it, and stops with FAIL naming `ulimit -n` if the hard limit is too low.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from loadgen import Loadgen, Phone, raise_open_files  # noqa: E402

GAME = "merchants-of-magick"
TARGET_P99 = 0.250
TARGET_RATIO = 1.3
TARGET_EVENT = 1.0  # seconds from the organiser's tap to the last phone of the event
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_DB = "spellpress_bench"
SERVERS: list[subprocess.Popen] = []  # stopped by the watchdog too (and the busy spinners)


class Fail(SystemExit):
    def __init__(self, message: str):
        super().__init__(f"FAIL: {message}")


class Deadline:
    def __init__(self, seconds: float, what: str):
        self.at, self.what = time.monotonic() + seconds, what

    def left(self) -> float:
        return self.at - time.monotonic()

    def check(self, doing: str) -> None:
        if time.monotonic() > self.at:
            raise Fail(f"{self.what}: deadline passed while {doing}")


# --- servers ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running(command: list[str], env: dict, log: Path, port: int, deadline: Deadline):
    with open(log, "w") as out:
        proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=HERE.parent)
    SERVERS.append(proc)
    try:
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None or deadline.left() < 0:
                    raise Fail(f"the server did not start:\n{log.read_text()[-3000:]}") from None
                time.sleep(0.1)
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)  # gunicorn's quick stop
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        SERVERS.remove(proc)


def companion(tmp: Path, database: str, workers: int, deadline: Deadline):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database, "COMPANION_INSTANCE": str(tmp / f"instance-{port}")}
    command = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--workers", str(workers), "--database", database]
    return port, running(command, env, tmp / f"companion-{port}.log", port, deadline)


def floor(tmp: Path, deadline: Deadline):
    port = free_port()
    command = [sys.executable, str(HERE / "floor_sse.py"), "--port", str(port)]
    return port, running(command, dict(os.environ), tmp / f"floor-{port}.log", port, deadline)


def call(port: int, method: str, path: str, body=None, token=None, timeout: float = 30) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = body if isinstance(body, bytes) else (json.dumps(body) if body is not None else None)
    conn.request(method, path, body=data, headers=headers)
    res = conn.getresponse()
    raw = res.read()
    conn.close()
    try:
        return res.status, json.loads(raw or b"{}")
    except ValueError:
        return res.status, {"raw": raw[:300].decode("utf-8", "replace")}


def expect(status_body: tuple[int, dict], status: int, doing: str) -> dict:
    got, body = status_body
    if got != status:
        raise Fail(f"{doing}: HTTP {got} {json.dumps(body)[:400]}")
    return body


def worker_cpu(server: subprocess.Popen) -> float:
    """CPU seconds (user + system) used so far by the server's worker processes (Linux /proc)."""
    total = 0.0
    try:
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return math.nan
    return total


# --- measuring --------------------------------------------------------------------------------


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest rank."""
    if not sorted_values:
        return math.nan
    return sorted_values[max(0, math.ceil(p / 100 * len(sorted_values)) - 1)]


def summary(latencies: list[float]) -> dict:
    s = sorted(latencies)
    return {
        "n": len(s),
        "p50": percentile(s, 50),
        "p95": percentile(s, 95),
        "p99": percentile(s, 99),
        "max": s[-1] if s else math.nan,
    }


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} {five:.1f} {fifteen:.1f}"


def show(label: str, stats: dict) -> str:
    ms = {k: f"{v * 1000:.0f}" for k, v in stats.items() if k != "n"}
    return f"{label}: n={stats['n']} p50 {ms['p50']} ms, p95 {ms['p95']} ms, p99 {ms['p99']} ms, max {ms['max']} ms"


def verdict(ok: bool, what: str, misses: list[str]) -> None:
    print(f"  {'PASS' if ok else 'FAIL'}: {what}", flush=True)
    if not ok:
        misses.append(what)


def event_data(block: bytes) -> dict:
    for line in block.split(b"\n"):
        if line.startswith(b"data: "):
            return json.loads(line[6:])
    return {}


def roll_of(data: dict) -> int | None:
    """The round an event's data says was rolled, or None when it is no roll."""
    if data.get("type") == "roll":
        return data.get("round")
    entry = data.get("entry") or {}
    if entry.get("type") == "roll":
        return (entry.get("payload") or {}).get("round")
    return None


def wait_for(gen: Loadgen, phones: list[Phone], target, deadline: Deadline, doing: str) -> None:
    """Until every phone has received the seq `target` (an int, or a function of the phone), or later.

    It looks every 20 ms, first at the load generator's count of each seq (cheap), walking the
    phones only once those counts say it may be done: the receipt times are taken by the load
    generator's thread, and a waiting loop that held the GIL would delay them (a thread that
    releases the GIL at every recv() waits up to the switch interval to get it back)."""
    seq_of = target if callable(target) else (lambda p: target)
    needed: dict[int, int] = {}
    for p in phones:
        needed[seq_of(p)] = needed.get(seq_of(p), 0) + 1
    needed.pop(0, None)
    while True:
        counts = gen.counts
        if all(counts.get(seq, 0) >= n for seq, n in needed.items()):
            if all(p.last_id >= seq_of(p) for p in phones):
                return
        broken = [p for p in phones if p.closed or p.error]
        if broken:
            p = broken[0]
            raise Fail(f"{doing}: {len(broken)} streams broke (first: {p.error or 'closed by the server'})")
        if deadline.left() < 0:
            missing = sum(p.last_id < seq_of(p) for p in phones)
            raise Fail(f"{doing}: {missing} of {len(phones)} phones had not received it by the deadline")
        time.sleep(0.02)


def receipt(phone: Phone, seq: int) -> float | None:
    for s, t in reversed(phone.events):
        if s == seq:
            return t
    return None


def check_log_order(phones: list[Phone], last: int) -> list[str]:
    """Each phone's ids must be 1..last, each once, in order; the problems found, worst first."""
    problems = []
    want = list(range(1, last + 1))
    for i, phone in enumerate(phones):
        got = phone.seqs()
        if got != want:
            dup = len(got) - len(set(got))
            gaps = sorted(set(want) - set(got))
            order = got != sorted(got)
            problems.append(f"phone {i}: {dup} duplicates, missing {gaps[:5]}, out of order: {order}")
    return problems


# --- game -------------------------------------------------------------------------------------


def new_table(port: int, players: int = 1, event: tuple[str, str] | None = None) -> tuple[str, str, list[dict], int]:
    """A started Merchants table (in `event` (code, organiser token) when given): code, host token,
    players, and the seq of its latest entry (the start)."""
    if event:
        table = expect(call(port, "POST", f"/api/events/{event[0]}/tables", {}, event[1]), 201, "create a table")
    else:
        table = expect(call(port, "POST", "/api/tables", {"game": GAME, "options": {}}), 201, "create a table")
    seats = [
        expect(call(port, "POST", f"/api/tables/{table['code']}/players", {"name": f"P{i + 1}"}), 201, "join")
        for i in range(players)
    ]
    started = expect(
        call(port, "POST", f"/api/tables/{table['code']}/actions", {"type": "start"}, table["host_token"]), 200, "start"
    )
    return table["code"], table["host_token"], seats, started["seq"]


def roll(port: int, code: str, host: str, n: int) -> float:
    """Roll round n as the host; the moment before the POST was sent (time.perf_counter())."""
    t0 = time.perf_counter()
    expect(call(port, "POST", f"/api/tables/{code}/actions", {"type": "roll", "round": n}, host), 200, f"roll {n}")
    return t0


class RollFinder:
    """Which seq carried round n, read from a reference phone's kept blocks."""

    def __init__(self, phone: Phone):
        self.phone = phone
        self.rounds: dict[int, int] = {}  # round -> seq
        self.parsed: set[int] = set()

    def seq(self, n: int, deadline: Deadline, doing: str) -> int:
        while n not in self.rounds:
            for seq, block in list(self.phone.blocks.items()):
                if seq in self.parsed:
                    continue
                self.parsed.add(seq)
                data = event_data(block)
                r = roll_of(data)
                if r is None:
                    continue
                if "dice" in data and set(data["dice"]) != {"d6", "d8", "d10", "d12"}:
                    raise Fail(f"{doing}: roll {r}'s dice are {data['dice']}")
                self.rounds[r] = seq
            if n in self.rounds:
                break
            if self.phone.closed or self.phone.error:
                raise Fail(f"{doing}: the reference stream broke ({self.phone.error or 'closed'})")
            if deadline.left() < 0:
                raise Fail(f"{doing}: round {n}'s roll never reached the reference phone")
            time.sleep(0.01)
        return self.rounds[n]


# --- 1. one table, one worker, against the floor ---------------------------------------------


def ours_room(
    port: int, server: subprocess.Popen, args, deadline: Deadline
) -> tuple[dict[int, list[float]], dict[int, bytes], float]:
    code, host, _, backlog = new_table(port)
    gen = Loadgen("127.0.0.1", port)
    try:
        path = f"/api/tables/{code}/events"
        phones = [Phone(path, keep=(i == 0)) for i in range(args.phones)]
        started = time.monotonic()
        gen.follow(phones, deadline.at)
        wait_for(gen, phones, backlog, deadline, "sending the backlog")  # each stream's first read done
        opened = time.monotonic() - started
        finder = RollFinder(phones[0])
        latencies, blocks = {}, {}
        cpu = worker_cpu(server)
        for n in range(1, args.rounds + 1):
            time.sleep(args.gap)
            t0 = roll(port, code, host, n)
            latencies.setdefault("answered", []).append(time.perf_counter() - t0)
            seq = finder.seq(n, deadline, f"roll {n}")
            wait_for(gen, phones, seq, deadline, f"roll {n}")
            latencies[n] = [receipt(p, seq) - t0 for p in phones]
            blocks[n] = phones[0].blocks[seq]
        latencies["cpu"] = [(worker_cpu(server) - cpu) / args.rounds]
        last = phones[0].last_id
        problems = check_log_order(phones, last)
        if problems:
            raise Fail(f"ours: {len(problems)} phones saw the log wrong: {problems[0]}")
        return latencies, blocks, opened
    finally:
        gen.close()


def swept(port: int, deadline: Deadline) -> None:
    """Wait until the floor holds no stream of an earlier pair: their phones have closed, but a
    server learns of it only when it writes to them."""
    while expect(call(port, "POST", "/sweep", b""), 200, "floor sweep")["streams"]:
        deadline.check("the floor's streams of the last pair to end")
        time.sleep(0.2)


def floor_room(
    port: int, server: subprocess.Popen, blocks: dict[int, bytes], args, deadline: Deadline
) -> dict[int, list[float]]:
    swept(port, deadline)
    gen = Loadgen("127.0.0.1", port)
    try:
        phones = [Phone("/api/tables/FLOOR/events") for _ in range(args.phones)]
        gen.follow(phones, deadline.at)
        latencies = {}
        cpu = worker_cpu(server)
        for n, block in blocks.items():
            time.sleep(args.gap)
            seq = int(block[4 : block.index(b"\n")])
            t0 = time.perf_counter()
            answer = expect(call(port, "POST", "/roll", block), 200, "floor roll")
            if answer["streams"] != args.phones:
                raise Fail(f"floor: {answer['streams']} streams open, not {args.phones}")
            wait_for(gen, phones, seq, deadline, f"floor roll {n}")
            latencies[n] = [receipt(p, seq) - t0 for p in phones]
        latencies["cpu"] = [(worker_cpu(server) - cpu) / len(blocks)]
        return latencies
    finally:
        gen.close()


def scenario_room(args, tmp: Path, misses: list[str]) -> dict:
    print(f"== 1. one table, {args.phones} phones, one gevent worker, SQLite; {args.rounds} rolls ==", flush=True)
    print(f"  before: {load()} (2 cores; other work on the machine shows here)", flush=True)
    deadline = Deadline(args.deadline, "room")
    ours_port, ours_server = companion(tmp, f"sqlite:///{tmp / 'room.sqlite3'}", 1, deadline)
    floor_port, floor_server = floor(tmp, deadline)
    ours_all, floor_all, sizes = [], [], []
    with ours_server as ours_proc, floor_server as floor_proc:
        for rep in range(1, args.pairs + 1):
            ours, blocks, opened = ours_room(ours_port, ours_proc, args, deadline)
            answered = summary(ours.pop("answered"))
            cpu = ours.pop("cpu")[0]
            flat = [x for n in ours for x in ours[n]]
            ours_all += flat
            sizes += [len(b) for b in blocks.values()]
            print(f"  {show(f'ours  #{rep}', summary(flat))} (streams opened in {opened:.1f} s)", flush=True)
            print(
                f"    the roll's POST answered in {answered['p50'] * 1000:.0f} ms (median; max "
                f"{answered['max'] * 1000:.0f} ms); the worker's CPU per roll {cpu * 1000:.0f} ms",
                flush=True,
            )
            fl = floor_room(floor_port, floor_proc, blocks, args, deadline)
            cpu = fl.pop("cpu")[0]
            flat = [x for n in fl for x in fl[n]]
            floor_all += flat
            print(f"  {show(f'floor #{rep}', summary(flat))}", flush=True)
            print(f"    the floor worker's CPU per roll {cpu * 1000:.0f} ms", flush=True)
    o, f = summary(ours_all), summary(floor_all)
    ratio = o["p99"] / f["p99"]
    print(f"  every roll reached every phone: {args.phones} x {args.rounds} x {args.pairs} on each side")
    print(f"  event size: {min(sizes)}-{max(sizes)} bytes (the floor sent the same bytes)")
    print(f"  {show('ours ', o)}")
    print(f"  {show('floor', f)}")
    print(f"  ratio (our p99 / floor p99): {ratio:.2f}")
    verdict(o["p99"] <= TARGET_P99, f"our p99 {o['p99'] * 1000:.0f} ms <= {TARGET_P99 * 1000:.0f} ms", misses)
    verdict(ratio <= TARGET_RATIO, f"p99 ratio {ratio:.2f} <= {TARGET_RATIO}", misses)
    return {"ours": o, "floor": f, "ratio": ratio, "bytes": (min(sizes), max(sizes))}


# --- 2. two workers on PostgreSQL, drops and resumes -------------------------------------------


@contextmanager
def bench_database():
    import psycopg

    def admin(sql: str) -> None:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(sql)

    try:
        admin(f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)")
        admin(f"CREATE DATABASE {PG_DB}")
    except psycopg.Error as err:
        raise Fail(f"cannot make the database {PG_DB} on {PG_ADMIN}: {err}") from None
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{PG_DB}"
    finally:
        admin(f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)")


def worker_of(port: int, phones: list[Phone]) -> dict[int, int]:
    """The server process holding each of these phones' connections, by the phone's local port
    (psutil, if installed; else empty)."""
    try:
        import psutil
    except ImportError:
        return {}
    ours = {p.local_port for p in phones}
    return {
        c.raddr.port: c.pid
        for c in psutil.net_connections(kind="tcp")
        if c.laddr and c.laddr.port == port and c.raddr and c.raddr.port in ours and c.pid
    }


def scenario_workers(args, tmp: Path, misses: list[str]) -> dict:
    n_phones, rounds = args.pg_phones, args.rounds
    away = max(1, round(n_phones * args.drop))
    before, during = max(1, rounds // 2 - 1), max(1, rounds // 3)
    print(f"== 2. two workers on PostgreSQL, {n_phones} phones; {away} drop for {during} rolls ==", flush=True)
    print(f"  before: {load()} (2 cores; other work on the machine shows here)", flush=True)
    deadline = Deadline(args.deadline, "workers")
    result: dict = {}
    with bench_database() as url:
        port, server = companion(tmp, url, 2, deadline)
        with server:
            code, host, _, backlog = new_table(port)
            gen = Loadgen("127.0.0.1", port)
            try:
                path = f"/api/tables/{code}/events"
                phones = [Phone(path, keep=(i == 0)) for i in range(n_phones)]
                started = time.monotonic()
                gen.follow(phones, deadline.at)
                wait_for(gen, phones, backlog, deadline, "sending the backlog")
                print(f"  {n_phones} streams opened in {time.monotonic() - started:.1f} s", flush=True)
                pids = worker_of(port, phones)
                split = {pid: sum(1 for q in pids.values() if q == pid) for pid in set(pids.values())}
                result["split"] = sorted(split.values(), reverse=True)
                print(f"  streams per worker process: {result['split'] or 'unknown (no psutil)'}")
                finder = RollFinder(phones[0])
                latencies: list[float] = []
                by_worker: dict[int, list[float]] = {}

                def roll_to(group: list[Phone], n: int) -> None:
                    time.sleep(args.gap)
                    t0 = roll(port, code, host, n)
                    seq = finder.seq(n, deadline, f"roll {n}")
                    wait_for(gen, group, seq, deadline, f"roll {n}")
                    for p in group:
                        latencies.append(receipt(p, seq) - t0)
                        by_worker.setdefault(pids.get(p.local_port, 0), []).append(latencies[-1])

                n = 0
                for _ in range(before):
                    n += 1
                    roll_to(phones, n)
                rng = random.Random(7)
                leaving = rng.sample(phones[1:], away)
                gone = set(map(id, leaving))
                staying = [p for p in phones if id(p) not in gone]
                seen_before = {id(p): p.last_id for p in leaving}
                gen.drop(leaving)
                for _ in range(during):
                    n += 1
                    roll_to(staying, n)
                missed = phones[0].last_id - min(seen_before.values())
                started = time.monotonic()
                gen.follow(leaving, deadline.at, resume=True)
                target = phones[0].last_id
                wait_for(gen, leaving, target, deadline, "resuming")
                result["resume_s"] = time.monotonic() - started
                print(
                    f"  {away} phones resumed with Last-Event-ID, {missed} entries missed each, "
                    f"all caught up in {result['resume_s']:.2f} s",
                    flush=True,
                )
                for _ in range(rounds - n):
                    n += 1
                    roll_to(phones, n)
                problems = check_log_order(phones, phones[0].last_id)
                ok = not problems
                verdict(
                    ok,
                    f"all {n_phones} phones hold ids 1..{phones[0].last_id} once each, in order "
                    f"(the {away} that dropped included)",
                    misses,
                )
                if problems:
                    print("   ", "\n    ".join(problems[:5]))
                result["stats"] = summary(latencies)
                print(f"  {show('latency', result['stats'])}")
                for i, pid in enumerate(sorted(by_worker, key=lambda pid: -len(by_worker[pid])), start=1):
                    label = f"worker {i}" if pid else "unknown worker"  # a resumed phone has a new port
                    print(f"    {show(label, summary(by_worker[pid]))}")
                print(f"  every roll reached every phone present: {rounds} rolls")
            finally:
                gen.close()
    return result


# --- 3. an event: many tables, one organiser, a leaderboard ----------------------------------


def ranking(rows: list[dict]) -> list[tuple]:
    """(place, table, player, total) ranked by total, fulfilled, potions, all descending; equal
    keys share a place, numbered as a tournament does: two sharing 1st, the next is 3rd."""
    key = lambda r: (-r["total"], -r["fulfilled"], -r["potions"])  # noqa: E731
    ranked = sorted(rows, key=key)
    out, place = [], 0
    for i, row in enumerate(ranked):
        if i == 0 or key(row) != key(ranked[i - 1]):
            place = i + 1
        out.append((place, row["table"], row["player"], row["total"]))
    return sorted(out)


def event_tables(port: int, ecode: str, organiser: str, n: int, seats: int, deadline: Deadline) -> list[tuple]:
    """n started tables of the event, `seats` players each: (code, host token, players, start seq).
    The joins go out a seat at a time for every table at once (P1 everywhere, then P2, ...)."""
    gen = Loadgen("127.0.0.1", port)
    try:
        made = gen.request([("POST", f"/api/events/{ecode}/tables", {}, organiser)] * n, deadline.at)
        bad = [(s, b) for s, b, _ in made if s != 201]
        if bad:
            raise Fail(f"opening event tables: {len(bad)} refused, first {bad[0]}")
        players: list[list[dict]] = [[] for _ in made]
        for seat in range(seats):
            calls = [("POST", f"/api/tables/{t['code']}/players", {"name": f"P{seat + 1}"}, None) for _, t, _ in made]
            for i, (status, body, _) in enumerate(gen.request(calls, deadline.at)):
                if status != 201:
                    raise Fail(f"join: HTTP {status} {json.dumps(body)[:300]}")
                players[i].append(body)
        calls = [("POST", f"/api/tables/{t['code']}/actions", {"type": "start"}, t["host_token"]) for _, t, _ in made]
        tables = []
        for (_, t, _), seated, (status, body, _) in zip(made, players, gen.request(calls, deadline.at), strict=True):
            if status != 200:
                raise Fail(f"start: HTTP {status} {json.dumps(body)[:300]}")
            tables.append((t["code"], t["host_token"], seated, body["seq"]))
        return tables
    finally:
        gen.close()


def score_lines(rng: random.Random) -> tuple[dict, int, int]:
    lines = {
        "crafting": rng.randint(0, 12),
        "material-mastery": 0,
        "research": rng.randint(0, 6),
        "energy-mastery": 0,
        "orders": rng.randint(0, 6),
        "charms": 0,
        "adventurer": 0,
    }
    return lines, rng.randint(0, 3), rng.randint(0, 3)


@contextmanager
def busy(n: int):
    """A busy machine: `n` processes spinning on the CPU at the server's priority while inside."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    SERVERS.extend(spinners)  # the watchdog stops them too
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
            SERVERS.remove(spinner)


def event_rolls(args, ours: tuple, floor_side: tuple, deadline: Deadline) -> list[dict]:
    """Rounds 1..`--rounds`, each rolled by the organiser and then, from the very blocks each
    table's phones got, released by the floor in one tap: per round, the organiser's request time,
    tap to the last phone, and the floor's tap to its last phone (seconds)."""
    port, server, ecode, organiser, gen, phones, refs = ours
    floor_port, floor_gen, floor_phones = floor_side
    finders = {ref.tag: RollFinder(ref) for ref in refs}
    table_of: dict[str, int] = {}  # each table's seq that carried this round
    reach = []
    for n in range(1, args.rounds + 1):
        time.sleep(args.gap)
        body = {"round": n, "ahead": True}  # confirmed: the benchmark's tables never finish a round
        cpu = worker_cpu(server)
        t0 = time.perf_counter()
        answer = expect(call(port, "POST", f"/api/events/{ecode}/roll", body, organiser, timeout=60), 200, f"roll {n}")
        answered = time.perf_counter() - t0
        cpu_answered = worker_cpu(server) - cpu  # the fan-out has barely begun: the request's own
        if answer.get("tables") != len(refs):
            raise Fail(
                f"event roll {n} rolled {answer.get('tables')} tables, not {len(refs)}: {json.dumps(answer)[:300]}"
            )
        table_of.update({code: finder.seq(n, deadline, f"event roll {n}") for code, finder in finders.items()})
        wait_for(gen, phones, lambda p: table_of[p.tag], deadline, f"event roll {n}")
        last = max(receipt(p, table_of[p.tag]) - t0 for p in phones)
        cpu = worker_cpu(server) - cpu

        for code, finder in finders.items():
            expect(call(floor_port, "POST", f"/stage/{code}", finder.phone.blocks[table_of[code]]), 200, "stage")
        time.sleep(args.gap)
        t0 = time.perf_counter()
        released = expect(call(floor_port, "POST", "/release"), 200, f"floor roll {n}")
        if released["streams"] != len(floor_phones) or released["tables"] != len(refs):
            raise Fail(f"floor: {released} streams and tables, not {len(floor_phones)} and {len(refs)}")
        wait_for(floor_gen, floor_phones, lambda p: table_of[p.tag], deadline, f"floor roll {n}")
        floor_last = max(receipt(p, table_of[p.tag]) - t0 for p in floor_phones)
        print(
            f"    round {n}: answered in {answered * 1000:.0f} ms, last phone {last * 1000:.0f} ms "
            f"(the worker's CPU {cpu * 1000:.0f} ms, {cpu_answered * 1000:.0f} ms of it before the answer); "
            f"floor {floor_last * 1000:.0f} ms",
            flush=True,
        )
        reach.append({"answered": answered, "last": last, "cpu": cpu, "floor": floor_last})
    return reach


def scenario_event(args, tmp: Path, misses: list[str]) -> dict:
    n_tables, seats, per_table = args.tables, args.seats, max(args.seats, args.table_phones)
    print(
        f"== 3. an event: {n_tables} tables x {per_table} phones ({seats} players), one worker, SQLite ==", flush=True
    )
    print(f"  before: {load()} (2 cores; other work on the machine shows here)", flush=True)
    deadline = Deadline(args.deadline, "event")
    result: dict = {}
    port, server = companion(tmp, f"sqlite:///{tmp / 'event.sqlite3'}", 1, deadline)
    floor_port, floor_server = floor(tmp, deadline)
    with server as ours_proc, floor_server:
        ev = expect(call(port, "POST", "/api/events", {"game": GAME, "name": "Bench cup"}), 201, "create the event")
        ecode, organiser = ev["code"], ev["organiser_token"]
        started = time.monotonic()
        tables = event_tables(port, ecode, organiser, n_tables, seats, deadline)
        result["setup_s"] = time.monotonic() - started
        print(f"  {n_tables} tables made, {n_tables * seats} players joined and started in {result['setup_s']:.1f} s")
        gen, floor_gen = Loadgen("127.0.0.1", port), Loadgen("127.0.0.1", floor_port)
        try:
            phones, floor_phones, refs = [], [], []
            for code, _host, _players, _seq in tables:
                group = [Phone(f"/api/tables/{code}/events", keep=(i == 0), tag=code) for i in range(per_table)]
                refs.append(group[0])
                phones += group
                floor_phones += [Phone(f"/api/tables/{code}/events", tag=code) for _ in range(per_table)]
            started = time.monotonic()
            gen.follow(phones, deadline.at)
            backlog = {code: seq for code, _host, _players, seq in tables}
            wait_for(gen, phones, lambda p: backlog[p.tag], deadline, "sending the backlogs")
            print(f"  {len(phones)} streams opened in {time.monotonic() - started:.1f} s", flush=True)
            floor_gen.follow(floor_phones, deadline.at)
            with busy(args.busy):
                print(f"  {args.busy} processes spinning on the CPU from now on; {load()}", flush=True)
                reach = event_rolls(
                    args,
                    (port, ours_proc, ecode, organiser, gen, phones, refs),
                    (floor_port, floor_gen, floor_phones),
                    deadline,
                )
                print(f"  after the rolls: {load()}", flush=True)
        finally:
            gen.close()
            floor_gen.close()
        result |= {key: summary([r[key] for r in reach]) for key in ("answered", "last", "cpu", "floor")}
        result["ratio"] = result["last"]["p50"] / result["floor"]["p50"]
        ms = lambda stats, key: f"{stats[key] * 1000:.0f} ms"  # noqa: E731
        print(
            f"  the organiser's request answered in {ms(result['answered'], 'p50')} (median of {args.rounds}, "
            f"max {ms(result['answered'], 'max')}); tap to the last phone {ms(result['last'], 'p50')} "
            f"(max {ms(result['last'], 'max')}); the worker's CPU per roll {ms(result['cpu'], 'p50')}",
            flush=True,
        )
        print(
            f"  floor (the same bytes, one tap releasing every table's): tap to the last phone "
            f"{ms(result['floor'], 'p50')} (max {ms(result['floor'], 'max')}); ratio (our median / floor median): "
            f"{result['ratio']:.2f}",
            flush=True,
        )
        verdict(True, f"every roll ({args.rounds}) reached every phone ({len(phones)}) of every table", misses)
        verdict(
            result["last"]["p50"] <= TARGET_EVENT,
            f"tap to the last phone {ms(result['last'], 'p50')} (median) <= {TARGET_EVENT * 1000:.0f} ms, "
            f"{args.busy} spinning processes beside",
            misses,
        )

        rng = random.Random(2024)
        posts, rows = [], []
        for code, _host, players, _seq in tables:
            for seat in players:
                if rows and rng.random() < 0.1:  # an exact tie with someone already drawn, on purpose
                    other = rng.choice(rows)
                    lines, fulfilled, potions = other["lines"], other["fulfilled"], other["potions"]
                else:
                    lines, fulfilled, potions = score_lines(rng)
                body = {"type": "scores", "lines": lines, "fulfilled": fulfilled, "potions": potions}
                posts.append(("POST", f"/api/tables/{code}/actions", body, seat["token"]))
                rows.append(
                    {
                        "table": code,
                        "player": seat["player_id"],
                        "total": sum(lines.values()),
                        "fulfilled": fulfilled,
                        "potions": potions,
                        "lines": lines,
                    }
                )
        gen = Loadgen("127.0.0.1", port)
        try:
            t0 = time.perf_counter()
            answers = gen.request(posts, deadline.at)
            result["scores_s"] = max(t for _, _, t in answers) - t0
        finally:
            gen.close()
        bad = [(s, b) for s, b, _ in answers if s != 200]
        verdict(not bad, f"{len(posts)} score posts at once answered 200 in {result['scores_s']:.2f} s", misses)
        if bad:
            print(f"    {len(bad)} refused, first: {bad[0][0]} {str(bad[0][1])[:300]}")
        t0 = time.perf_counter()
        board = expect(call(port, "GET", f"/api/events/{ecode}/leaderboard", timeout=60), 200, "the leaderboard")
        result["board_s"] = time.perf_counter() - t0
        got = sorted((r["place"], r["table"], r["player"], r["total"]) for r in board["rows"])
        want = ranking(rows)
        places = len({w[0] for w in want})
        same = got == want
        verdict(
            same,
            f"the leaderboard ({len(got)} rows, {places} places, ties shared) equals the ranking computed here "
            f"(read in {result['board_s'] * 1000:.0f} ms)",
            misses,
        )
        if not same:
            diff = [(g, w) for g, w in zip(got, want, strict=False) if g != w][:5]
            print(f"    first differences (got, want): {diff}; rows got {len(got)}, want {len(want)}")
        expect(call(port, "POST", f"/api/events/{ecode}/end", {}, organiser), 200, "end the event")
    return result


# --- the command ------------------------------------------------------------------------------


def watchdog(seconds: float) -> None:
    def fire():
        print(f"FAIL: the whole run passed its {seconds:.0f} s limit; stopping", flush=True)
        for proc in list(SERVERS):
            proc.kill()
        os._exit(1)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="200 phones, 25 tables, 4 rounds: a try in seconds")
    parser.add_argument("--only", choices=["room", "workers", "event"], action="append", help="run only these")
    parser.add_argument("--phones", type=int, default=2000, help="scenario 1: phones on one table")
    parser.add_argument("--rounds", type=int, default=10, help="rolls in each scenario (the rules have 10)")
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between rolls")
    parser.add_argument("--pairs", type=int, default=2, help="scenario 1: ours/floor alternations")
    parser.add_argument("--pg-phones", type=int, default=4000, help="scenario 2: phones over two workers")
    parser.add_argument("--drop", type=float, default=0.10, help="scenario 2: the share of phones that drop")
    parser.add_argument("--tables", type=int, default=200, help="scenario 3: tables in the event")
    parser.add_argument("--seats", type=int, default=8, help="scenario 3: players per table (Merchants seats 1-8)")
    parser.add_argument(
        "--table-phones", type=int, default=10, help="scenario 3: phones per table (its players, then followers)"
    )
    parser.add_argument(
        "--busy", type=int, default=2, help="scenario 3: processes spinning on the CPU while the organiser rolls"
    )
    parser.add_argument("--deadline", type=float, default=600, help="seconds each scenario may take")
    args = parser.parse_args(argv)
    if args.quick:
        args.phones, args.pg_phones, args.tables, args.rounds = 200, 400, 25, 4
        args.gap, args.pairs, args.deadline = 0.3, 1, min(args.deadline, 120)
    chosen = args.only or ["room", "workers", "event"]
    biggest = max(
        args.phones if "room" in chosen else 0,
        args.pg_phones if "workers" in chosen else 0,
        2 * args.tables * max(args.seats, args.table_phones) if "event" in chosen else 0,
    )
    limit = raise_open_files(biggest + 512)  # before any server starts: they inherit it
    print(f"open files: soft limit {limit} (need {biggest + 512}: a socket per phone, here and in the server)")
    watchdog(args.deadline * len(chosen) + 60)
    misses: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-room-") as tmp:
        runs = {"room": scenario_room, "workers": scenario_workers, "event": scenario_event}
        for name in chosen:
            try:
                runs[name](args, Path(tmp), misses)
            except SystemExit as err:  # Fail, or the load generator's own FAIL
                print(err.code, flush=True)
                misses.append(f"{name}: {err.code}")
                for log in sorted(Path(tmp).glob("*.log")):  # what the servers said, for the failure
                    tail = log.read_text(errors="replace").splitlines()[-15:]
                    print(f"  --- {log.name} (last lines)\n    " + "\n    ".join(tail), flush=True)
            for log in Path(tmp).glob("*.log"):
                log.unlink()
            print(flush=True)
    if misses:
        print(f"{len(misses)} target(s) missed: " + "; ".join(m.splitlines()[0] for m in misses))
        return 1
    print("all targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
