"""Many phones in one process: Server-Sent Event streams and one-shot HTTP requests on raw
non-blocking sockets, driven by one epoll loop in a background thread.

    gen = Loadgen("127.0.0.1", port)
    phones = gen.follow([path] * 2000)          # opens the streams, returns once each is subscribed
    ... phones[i].events -> [(seq, receipt time), ...] (time.perf_counter(), CLOCK_MONOTONIC)
    answers = gen.request([("POST", path, body, token), ...])  # all at once -> [(status, body, t)]
    gen.drop(phones[:200]); gen.follow(..., resume=phones[:200])  # reconnect with Last-Event-ID
    gen.close()

A stream counts as subscribed once its first block (`retry: ...`) arrives: the companion yields
it after subscribing, before it reads the log. Of each event only the `id:` line is parsed, and
the receipt time is taken at the recv() that completed it; phones made with keep=True also keep
each event's raw block (to read the data once, and to hand the floor the very same bytes).
Everything a socket does happens on the loop thread; other threads hand it work through
`_call`, which waits for the answer.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import select
import socket
import threading
import time
from collections.abc import Callable

RECV = 64 * 1024


def raise_open_files(needed: int) -> int:
    """Raise this process's soft open-files limit to the hard limit (children inherit it);
    SystemExit naming `ulimit -n` when even the hard limit is below `needed`."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, needed, 65536)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    if target < needed:
        raise SystemExit(
            f"FAIL: {needed} open files are needed but the hard limit is {hard}; raise it "
            f"(as root: `ulimit -Hn {needed}` in this shell, or LimitNOFILE= / limits.conf) and run again"
        )
    return target


class Phone:
    """One SSE connection (and its later reconnections: `lives` counts them)."""

    __slots__ = (
        "path",
        "keep",
        "tag",
        "sock",
        "fd",
        "status",
        "headers_done",
        "chunked",
        "raw",
        "body",
        "chunk_left",
        "events",
        "blocks",
        "ready",
        "closed",
        "error",
        "last_id",
        "lives",
        "local_port",
    )

    def __init__(self, path: str, keep: bool = False, tag=None):
        self.path, self.keep, self.tag = path, keep, tag
        self.events: list[tuple[int, float]] = []  # (seq, receipt time), every life
        self.blocks: dict[int, bytes] = {}  # seq -> the raw event block (keep=True only)
        self.lives = 0
        self.last_id = 0
        self.local_port = 0
        self._reset()

    def _reset(self) -> None:
        self.sock = None
        self.fd = -1
        self.status = 0
        self.headers_done = False
        self.chunked = False
        self.raw = bytearray()  # bytes off the socket not yet decoded
        self.body = bytearray()  # decoded body not yet cut into events
        self.chunk_left = -1  # -1: reading a chunk-size line; else bytes (+2 for CRLF) left in the chunk
        self.ready = False
        self.closed = False
        self.error = ""

    def seqs(self) -> list[int]:
        return [seq for seq, _ in self.events]


class Request:
    __slots__ = ("data", "sock", "fd", "raw", "status", "length", "header_end", "done", "result", "sent")

    def __init__(self, data: bytes):
        self.data = data
        self.raw = bytearray()
        self.status = 0
        self.length = -1
        self.header_end = -1
        self.done = False
        self.result = None
        self.sent = 0


def _request_bytes(method: str, path: str, host: str, body=None, token=None, last_id: int = 0) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "User-Agent: spellpress-bench"]
    payload = b""
    if body is not None:
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    if last_id:
        lines.append(f"Last-Event-ID: {last_id}")
    if method == "GET":
        lines.append("Accept: text/event-stream")
    else:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload


class Loadgen:
    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self._epoll = select.epoll()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._epoll.register(self._wake_r, select.EPOLLIN)
        self._by_fd: dict[int, Phone | Request] = {}
        self._todo: list[tuple[Callable, threading.Event, list]] = []
        self._lock = threading.Lock()
        self._stop = False
        # one receive buffer for every socket: recv(n) would allocate (and for large n, mmap) n bytes a call
        self._buffer = bytearray(RECV)
        self._view = memoryview(self._buffer)
        self.counts: dict[int, int] = {}  # seq -> how many streams have received it
        self.busy = 0.0  # seconds the loop spent handling sockets (not waiting in epoll)
        self._thread = threading.Thread(target=self._loop, name="loadgen", daemon=True)
        self._thread.start()

    # --- the public side (any thread) ------------------------------------------------------

    def follow(
        self,
        phones: list[Phone],
        deadline: float,
        batch: int = 250,
        resume: bool = False,
    ) -> list[Phone]:
        """Open each phone's stream (with Last-Event-ID = its last seen id when `resume`), `batch`
        at a time, each batch subscribed before the next; SystemExit("FAIL ...") past `deadline`
        (a time.monotonic()) or on an error answer."""
        for start in range(0, len(phones), batch):
            group = phones[start : start + batch]
            self._call(lambda g=group: [self._open(p, resume) for p in g])
            while True:
                bad = [p for p in group if p.closed or p.error]
                if bad:
                    p = bad[0]
                    raise SystemExit(
                        f"FAIL: a stream on {p.path} failed: {p.error or 'closed'} (status {p.status}; "
                        f"{len(bad)} of this batch)"
                    )
                if all(p.ready for p in group):
                    break
                if time.monotonic() > deadline:
                    waiting = sum(not p.ready for p in group)
                    raise SystemExit(f"FAIL: {waiting} streams not subscribed by the deadline")
                time.sleep(0.02)
        return phones

    def drop(self, phones: list[Phone]) -> None:
        """Close these streams as a phone losing its connection would (reset, no goodbye)."""
        self._call(lambda: [self._close(p, reset=True) for p in phones])

    def close_all(self) -> None:
        self._call(lambda: [self._close(c, reset=True) for c in list(self._by_fd.values())])

    def request(self, calls: list[tuple], deadline: float) -> list[tuple[int, dict | bytes, float]]:
        """Send every (method, path, body, token) at once, each on its own connection; their
        (status, JSON body (or raw bytes), time the answer completed), in order."""
        reqs = [Request(_request_bytes(m, p, self.host, b, t)) for m, p, b, t in calls]
        self._call(lambda: [self._send_request(r) for r in reqs])
        while not all(r.done for r in reqs):
            if time.monotonic() > deadline:
                left = sum(not r.done for r in reqs)
                self._call(lambda: [self._close(r, reset=True) for r in reqs if not r.done])
                raise SystemExit(f"FAIL: {left} of {len(reqs)} requests unanswered by the deadline")
            time.sleep(0.02)
        return [r.result for r in reqs]

    def close(self) -> None:
        self.close_all()
        self._stop = True
        os.write(self._wake_w, b"x")
        self._thread.join(5)
        self._epoll.close()
        os.close(self._wake_r)
        os.close(self._wake_w)

    def open_count(self) -> int:
        return len(self._by_fd)

    def _call(self, fn: Callable):
        done, box = threading.Event(), []
        with self._lock:
            self._todo.append((fn, done, box))
        os.write(self._wake_w, b"x")
        if not done.wait(60):
            raise SystemExit("FAIL: the load generator's loop stopped answering")
        if box and isinstance(box[0], BaseException):
            raise box[0]
        return box[0] if box else None

    # --- the loop thread ------------------------------------------------------------------

    def _connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        err = sock.connect_ex((self.host, self.port))
        if err not in (0, errno.EINPROGRESS):
            sock.close()
            raise OSError(err, os.strerror(err))
        return sock

    def _open(self, phone: Phone, resume: bool) -> None:
        last = phone.last_id if resume else 0
        phone._reset()
        phone.lives += 1
        try:
            phone.sock = self._connect()
        except OSError as err:
            phone.error, phone.closed = f"connect: {err}", True
            return
        phone.fd = phone.sock.fileno()
        self._by_fd[phone.fd] = phone
        # the request is tiny: it goes out once the connection is up (EPOLLOUT)
        phone.raw = bytearray(_request_bytes("GET", phone.path, self.host, last_id=last))
        self._epoll.register(phone.fd, select.EPOLLOUT | select.EPOLLIN)

    def _send_request(self, req: Request) -> None:
        req.sock = self._connect()
        req.fd = req.sock.fileno()
        self._by_fd[req.fd] = req
        self._epoll.register(req.fd, select.EPOLLOUT | select.EPOLLIN)

    def _close(self, conn, reset: bool = False) -> None:
        if conn.sock is None:
            return
        self._by_fd.pop(conn.fd, None)
        try:
            self._epoll.unregister(conn.fd)
        except (OSError, ValueError):
            pass
        if reset:  # RST, no TIME_WAIT left behind: thousands of phones come and go in a run
            conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        conn.sock.close()
        conn.sock = None
        if isinstance(conn, Phone):
            conn.closed = True

    def _loop(self) -> None:
        epoll, by_fd = self._epoll, self._by_fd
        clock = time.perf_counter
        while not self._stop:
            ready = epoll.poll(1.0)
            start = clock()
            for fd, mask in ready:
                if fd == self._wake_r:
                    try:
                        os.read(self._wake_r, 4096)
                    except BlockingIOError:
                        pass
                    with self._lock:
                        todo, self._todo = self._todo, []
                    for fn, done, box in todo:
                        try:
                            box.append(fn())
                        except BaseException as err:  # handed back to the caller
                            box.append(err)
                        done.set()
                    continue
                conn = by_fd.get(fd)
                if conn is None:
                    continue
                try:
                    if isinstance(conn, Phone):
                        self._phone_event(conn, mask, clock)
                    else:
                        self._request_event(conn, mask, clock)
                except OSError as err:
                    if isinstance(conn, Phone):
                        conn.error = str(err)
                    else:
                        conn.result, conn.done = (0, str(err).encode(), clock()), True
                    self._close(conn)
            self.busy += clock() - start

    def _phone_event(self, phone: Phone, mask: int, clock) -> None:
        if mask & select.EPOLLOUT and not phone.status and phone.raw:
            err = phone.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                raise OSError(err, os.strerror(err))
            phone.sock.send(phone.raw)
            phone.local_port = phone.sock.getsockname()[1]
            phone.raw = bytearray()
            self._epoll.modify(phone.fd, select.EPOLLIN)
            return
        if not mask & (select.EPOLLIN | select.EPOLLHUP | select.EPOLLERR):
            return
        n = phone.sock.recv_into(self._buffer)
        now = clock()
        if not n:
            self._close(phone)
            return
        raw = phone.raw
        raw += self._view[:n]
        if not phone.headers_done:
            end = raw.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(raw[:end]).decode("latin-1").lower()
            phone.status = int(head.split(None, 2)[1])
            phone.chunked = "transfer-encoding: chunked" in head
            phone.headers_done = True
            del raw[: end + 4]
            if phone.status != 200:
                phone.error = f"HTTP {phone.status}"
                return
        body = phone.body
        if phone.chunked:
            while raw:
                if phone.chunk_left < 0:
                    line_end = raw.find(b"\r\n")
                    if line_end < 0:
                        break
                    size = int(raw[:line_end].split(b";")[0], 16)
                    del raw[: line_end + 2]
                    if size == 0:
                        self._close(phone)
                        return
                    phone.chunk_left = size + 2
                take = min(phone.chunk_left, len(raw))
                body += raw[:take]
                del raw[:take]
                phone.chunk_left -= take
                if phone.chunk_left == 0:
                    del body[-2:]  # the CRLF closing the chunk
                    phone.chunk_left = -1
        else:
            body += raw
            raw.clear()
        counts = self.counts
        while True:
            end = body.find(b"\n\n")
            if end < 0:
                break
            block = bytes(body[: end + 2])
            del body[: end + 2]
            if block.startswith(b"id: "):
                seq = int(block[4 : block.index(b"\n")])
                phone.events.append((seq, now))
                counts[seq] = counts.get(seq, 0) + 1
                phone.last_id = seq
                if phone.keep:
                    phone.blocks[seq] = block
            elif block.startswith(b"retry:"):
                phone.ready = True
            elif not block.startswith(b":"):  # an event whose id is not its first line
                for line in block.split(b"\n"):
                    if line.startswith(b"id: "):
                        seq = int(line[4:])
                        phone.events.append((seq, now))
                        counts[seq] = counts.get(seq, 0) + 1
                        phone.last_id = seq
                        if phone.keep:
                            phone.blocks[seq] = block

    def _request_event(self, req: Request, mask: int, clock) -> None:
        if mask & select.EPOLLOUT and req.sent < len(req.data):
            err = req.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                raise OSError(err, os.strerror(err))
            req.sent += req.sock.send(req.data[req.sent :])
            if req.sent >= len(req.data):
                self._epoll.modify(req.fd, select.EPOLLIN)
            return
        if not mask & (select.EPOLLIN | select.EPOLLHUP | select.EPOLLERR):
            return
        n = req.sock.recv_into(self._buffer)
        data = self._view[:n]
        req.raw += data
        if req.header_end < 0:
            end = req.raw.find(b"\r\n\r\n")
            if end >= 0:
                req.header_end = end + 4
                head = bytes(req.raw[:end]).decode("latin-1").lower()
                req.status = int(head.split(None, 2)[1])
                for line in head.split("\r\n"):
                    if line.startswith("content-length:"):
                        req.length = int(line.split(":", 1)[1])
        complete = req.header_end >= 0 and req.length >= 0 and len(req.raw) - req.header_end >= req.length
        if complete or not data:
            body = bytes(req.raw[req.header_end :]) if req.header_end >= 0 else b""
            try:
                parsed = json.loads(body) if body else {}
            except ValueError:
                parsed = body
            req.result, req.done = (req.status, parsed, clock()), True
            self._close(req, reset=False)
