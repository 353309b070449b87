"""The real companion server (`companion serve`: gunicorn, gevent) in a subprocess, for the live
and browser tests, and a small JSON client for it."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

from companion import CHANCE_SEED_VARIABLE

CHANCE_SEED = 20261128  # the server's chance in tests: a test that deals, deals the same cards every run


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SMALL_MACHINE = 512 * 2**20  # bytes of address space each served process may use (ulimit -v 524288)


def within_a_small_machine() -> None:
    """In the served companion's process before it starts: the address space of a small machine (a
    32-bit Raspberry Pi OS), so every live test shows the server runs within it."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (SMALL_MACHINE, SMALL_MACHINE))


@contextmanager
def server(
    database: str,
    tmp_path,
    workers: int = 1,
    port: int | None = None,
    extra: tuple[str, ...] = (),
    host: str = "127.0.0.1",
    seed: int = CHANCE_SEED,
):
    """`companion serve` on `host` (a free port unless given), its chance seeded, until the block ends."""
    port = port or free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "COMPANION_INSTANCE": str(tmp_path / f"instance-{port}"),
        CHANCE_SEED_VARIABLE: str(seed),  # every deal and roll the same in every run
    }
    command = [sys.executable, "-m", "companion", "serve", "--host", host, "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--workers", str(workers), *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=within_a_small_machine,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start:\n{proc.stdout.read()}") from None
                time.sleep(0.1)
        yield port
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C: gunicorn's quick stop, not a graceful wait on open streams
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def call(port: int, method: str, path: str, body=None, token=None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    res = conn.getresponse()
    data = json.loads(res.read() or b"{}")
    conn.close()
    return res.status, data


def post_chunked(port: int, path: str, body: bytes, chunk: int = 4096) -> tuple[int, dict]:
    """POST `body` over a raw socket as Transfer-Encoding: chunked, with no Content-Length (as a
    client streaming its body sends it); the answer's status and JSON."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        sock.sendall((head + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode())
        try:
            for start in range(0, len(body), chunk):
                part = body[start : start + chunk]
                sock.sendall(b"%x\r\n%s\r\n" % (len(part), part))
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # a server may answer and close before the whole body is in: its answer is what counts
        res = http.client.HTTPResponse(sock)
        res.begin()
        return res.status, json.loads(res.read() or b"{}")


class HttpTable:
    """A table of `game` opened over HTTP on a running server with `options`, joined by `names`:
    the host's token and each player's by player id."""

    def __init__(self, port: int, game: str, options: dict, names):
        self.port = port
        _, opened = call(port, "POST", "/api/tables", {"game": game, "options": options})
        self.code, self.host = opened["code"], opened["host_token"]
        self.tokens = {}
        for name in names:
            _, seat = call(port, "POST", f"/api/tables/{self.code}/players", {"name": name})
            self.tokens[seat["player_id"]] = seat["token"]

    def act(self, who: str, type_: str, **payload) -> tuple[int, dict]:
        token = self.host if who == "host" else self.tokens[who]
        return call(self.port, "POST", f"/api/tables/{self.code}/actions", {"type": type_, **payload}, token)

    def ok(self, who: str, type_: str, **payload) -> dict:
        status, answer = self.act(who, type_, **payload)
        assert status == 200, answer
        return answer["state"]

    def state(self, who: str | None = None) -> dict:
        token = self.tokens.get(who) if who else None
        return call(self.port, "GET", f"/api/tables/{self.code}", token=token)[1]["state"]
