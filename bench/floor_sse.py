"""The floor of the room benchmark: the least a server can do to fan a message out to every
open stream (or each table of an event its own), under the very gunicorn the companion runs on
(one gevent worker, the same worker_connections), with nothing of the companion: no database, no
rules, no JSON.

    python bench/floor_sse.py --port P      # serves until interrupted

GET  /api/tables/<code>/events   a stream: `retry: 2000`, then every message published to its table
                                 from then on, as given
POST /roll                       the body is one whole SSE event block (`id: ..\\nevent: action\\ndata: ..\\n\\n`,
                                 the companion's own bytes, taken by the benchmark from its run);
                                 every open stream yields it. Answers {"streams": n}.
POST /sweep                      a comment to every open stream, so those whose phone has gone end
                                 (a closed socket shows only on a write). Answers {"streams": n}.
POST /stage/<code>               an event's roll, made ready: the block <code>'s streams get at the next release
POST /release                    the tap: every staged block to its table's streams at once.
                                 Answers {"streams": n, "tables": n}.

Each table's broadcast is one gevent Event swapped at each publish: each stream waits on the current
one and then yields what was appended after what it last sent, the same wake-then-read shape as
the companion's hub, minus the read from the database.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from flask import Flask, Response, request, stream_with_context

KEEPALIVE = 15.0


def create_app() -> Flask:
    import threading  # gevent's, once the worker has patched the process

    class Room:
        def __init__(self):
            self.messages: list[bytes] = []
            self.changed = threading.Event()
            self.streams = 0

        def publish(self, block: bytes) -> None:
            self.messages.append(block)
            changed, self.changed = self.changed, threading.Event()
            changed.set()

    app = Flask(__name__)
    rooms: dict[str, Room] = {}
    staged: dict[str, bytes] = {}

    @app.get("/api/tables/<code>/events")
    def events(code: str):
        room = rooms.setdefault(code, Room())

        def stream():
            sent = len(room.messages)  # from now on, as a phone that just subscribed
            room.streams += 1
            try:
                yield "retry: 2000\n\n"
                while True:
                    changed = room.changed
                    if sent < len(room.messages):
                        while sent < len(room.messages):
                            yield room.messages[sent]
                            sent += 1
                    elif not changed.wait(KEEPALIVE):
                        yield ": still here\n\n"
            finally:
                room.streams -= 1

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return Response(stream_with_context(stream()), mimetype="text/event-stream", headers=headers)

    @app.post("/roll")
    def roll():
        block = request.get_data()
        for room in rooms.values():
            room.publish(block)
        return {"streams": sum(room.streams for room in rooms.values())}

    @app.post("/sweep")
    def sweep():
        for room in rooms.values():
            room.publish(b": sweep\n\n")
        return {"streams": sum(room.streams for room in rooms.values())}

    @app.post("/stage/<code>")
    def stage(code: str):
        staged[code] = request.get_data()
        return {"staged": len(staged)}

    @app.post("/release")
    def release():
        for code, block in staged.items():
            rooms.setdefault(code, Room()).publish(block)
        tables = len(staged)
        staged.clear()
        return {"streams": sum(room.streams for room in rooms.values()), "tables": tables}

    return app


def serve(create: Callable[[], Flask], description: str, argv: list[str] | None = None) -> int:
    """Serve the app `create()` makes under the companion's gunicorn options, one gevent worker
    (a floor shares nothing between workers), on --host and --port, until interrupted."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from gunicorn.app.base import BaseApplication

    from companion.cli import WORKER_CONNECTIONS

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    options = {
        "bind": f"{args.host}:{args.port}",
        "workers": 1,
        "worker_class": "gevent",
        "timeout": 60,
        "graceful_timeout": 5,
        "worker_connections": WORKER_CONNECTIONS,
    }

    class Floor(BaseApplication):
        def load_config(self) -> None:
            for name, value in options.items():
                self.cfg.set(name, value)

        def load(self):
            return create()

    Floor().run()
    return 0


if __name__ == "__main__":
    sys.exit(serve(create_app, __doc__.split("\n\n")[0]))
