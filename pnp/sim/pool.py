"""Seeded games played side by side in worker processes.

Game `i` of a run with seed `s` draws everything from random.Random(f"{s}:{i}"), whichever process
plays it, so the figures are the same in one process or several. A game's simulation hands over
its module-level `play(*arguments, rng)` and the arguments every game of the run shares.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Callable, Iterator
from typing import Any

WORKERS = 2  # processes playing games side by side (the machine's cores, at most)

_JOB: tuple = ()  # in a worker process: the (play, arguments, seed) its games are played with


def game_rng(seed: int, i: int) -> random.Random:
    """What game `i` of a run with `seed` draws everything from."""
    return random.Random(f"{seed}:{i}")


def _play_one(job: tuple, i: int) -> Any:
    play, arguments, seed = job
    return play(*arguments, game_rng(seed, i))


def _adopt(job: tuple) -> None:
    global _JOB
    _JOB = job


def _play_in_worker(i: int) -> Any:
    return _play_one(_JOB, i)


def play_seeded(
    play: Callable[..., Any], arguments: tuple, games: int, seed: int, workers: int = WORKERS
) -> Iterator[Any]:
    """Each game's result in order (so a caller can show progress): `play(*arguments, rng)` for
    games 0 to `games` - 1. Worker processes are forked, so they start with the arguments as is;
    fewer than 50 games a worker are not worth one."""
    job = (play, arguments, seed)
    workers = max(1, min(workers, os.cpu_count() or 1, games // 50))
    if workers == 1:
        yield from (_play_one(job, i) for i in range(games))
        return
    with multiprocessing.get_context("fork").Pool(workers, initializer=_adopt, initargs=(job,)) as pool:
        yield from pool.imap(_play_in_worker, range(games), chunksize=max(1, games // (workers * 50)))
