"""Reading a file a folder holds: regular files only, and never more than a limit.

A `*.yaml` may be a link to a device (/dev/zero never ends), a named pipe (opening it waits for a
writer) or a socket; each is refused before it is read, with what it is. Standard library only:
the build cache hashes content files with it before anything heavy is imported.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_BYTES = 2_000_000  # a content or template file: our biggest is a few kB
CHUNK = 1 << 20  # bytes read at a time


class NotARegularFile(Exception):
    """The path is something other than a regular file; `what` says what, as a phrase."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


class TooBig(Exception):
    """The file holds more than the limit."""


def what_it_is(path: Path, mode: int) -> str:
    """What a path that is not a regular file is ("a character device (a link to /dev/zero)")."""
    if stat.S_ISDIR(mode):
        what = "a folder"
    elif stat.S_ISCHR(mode):
        what = "a character device"
    elif stat.S_ISBLK(mode):
        what = "a block device"
    elif stat.S_ISFIFO(mode):
        what = "a named pipe"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    else:
        what = "not a regular file"
    return f"{what} (a link to {os.path.realpath(path)})" if path.is_symlink() else what


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path` (links followed); NotARegularFile, TooBig or OSError."""
    mode = path.stat().st_mode  # before opening: opening a named pipe would wait for a writer
    if not stat.S_ISREG(mode):
        raise NotARegularFile(what_it_is(path, mode))
    with path.open("rb") as file:
        mode = os.fstat(file.fileno()).st_mode  # what was opened, had it been swapped since
        if not stat.S_ISREG(mode):
            raise NotARegularFile(what_it_is(path, mode))
        # In pieces, never more than the file holds: a read of `limit` bytes at once reserves them
        # all up front, which a small machine (or a memory-capped shell) cannot give for a 2 GiB limit.
        chunks, held = [], 0
        while held <= limit:
            chunk = file.read(min(CHUNK, limit + 1 - held))
            if not chunk:
                break
            chunks.append(chunk)
            held += len(chunk)
    if held > limit:
        raise TooBig(path)
    return b"".join(chunks)
