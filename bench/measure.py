"""What both sides of a benchmark measure about themselves (they run as separate scripts)."""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path
from typing import Any


def peak_rss_kib() -> int:
    """This process's peak RSS in KiB: VmHWM, the high-water mark of its own address space.

    ru_maxrss is not used on Linux: it is carried across fork and execve, so a child started by
    a bigger parent would report the parent's peak; it is the fallback where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def pnp_command() -> list[str]:
    """The installed `pnp` beside this Python, else on PATH, else the module itself."""
    script = Path(sys.executable).parent / "pnp"
    if script.exists():
        return [str(script)]
    found = shutil.which("pnp")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from pnp.cli import main; sys.exit(main())"]


def timed_sim_command(game_id: str, games: int) -> tuple[float, int]:
    """(seconds, exit status) of the whole `pnp sim GAME --games N --json`, a fresh process."""
    start = time.perf_counter()
    proc = subprocess.run([*pnp_command(), "sim", game_id, "--games", str(games), "--json"], capture_output=True)
    return time.perf_counter() - start, proc.returncode


SIM_SEED = 1  # the command's default
SIM_GAMES, SIM_REPEATS = 2000, 3  # the issues' 2,000 games; the median of 3 alternating runs
SIM_TARGET_S = 10.0  # for the simulation (in the command's worker processes when it uses them) and the command


def game_rngs(games: int) -> Iterator[random.Random]:
    """Each game's Random, seeded as the command seeds its games: a floor makes the same draws the same way."""
    from pnp.sim.pool import game_rng

    return (game_rng(SIM_SEED, i) for i in range(games))


class SimBench:
    """A simulation benchmark: its options (--games, --repeats), its game's bundled content as the
    rules' book (`package`.rulebook's book_of, or `book_of` for a game without one) with the
    seconds loading took, imports included (reported, never timed with the games), and the game's
    simulation module (`package`.sim: play_games, figures)."""

    def __init__(self, doc: str, game_id: str, package: str, book_of: Callable[[Any], Any] | None = None) -> None:
        parser = argparse.ArgumentParser(description=doc.splitlines()[0])
        parser.add_argument("--games", type=int, default=SIM_GAMES)
        parser.add_argument("--repeats", type=int, default=SIM_REPEATS)
        self.game_id, self.args = game_id, parser.parse_args()
        start = time.perf_counter()
        from pnp.content.game import load_game
        from pnp.gamedef import game
        from pnp.paths import CONTENT

        book_of = book_of or import_module(f"{package}.rulebook").book_of
        self.book = book_of(load_game(game(game_id), [CONTENT]))
        self.load_s = time.perf_counter() - start
        self.sim = import_module(f"{package}.sim")

    @property
    def games(self) -> int:
        return self.args.games

    def against_floor(
        self,
        players: int,
        heading: str,
        floor: tuple[str, Callable[[], object]],
        figures_line: Callable[[Any], str],
        target: str,
        pooled: bool = True,
        figures: Callable[[list], Any] | None = None,
    ) -> int:
        """The runs and the report: the simulation plays --games games of `players` in one process,
        in the command's worker processes (unless not `pooled`: a simulation the command plays in
        one process), and the floor (label, run) beside them, --repeats times alternating; the whole
        command in each round too. Prints the medians and PASS/FAIL against SIM_TARGET_S (`target` says for
        what); returns the exit status, 1 on FAIL. `figures` makes a run's figures from its results,
        for a simulation whose own take more than the book, players and seed."""
        from pnp.sim.pool import WORKERS

        def simulate(workers: int) -> Any:
            pool = {"workers": workers} if pooled else {}  # a one-process simulation takes no workers
            played = self.sim.play_games(self.book, players, self.games, seed=SIM_SEED, **pool)
            if figures is not None:
                return figures(list(played))
            return self.sim.figures(self.book, list(played), players, SIM_SEED)

        floor_label, run_floor = floor
        one_times, two_times, floor_times, command_times, statuses = [], [], [], [], set()
        for _ in range(self.args.repeats):
            t = time.perf_counter()
            found = simulate(1)
            one_times.append(time.perf_counter() - t)
            if pooled:
                t = time.perf_counter()
                simulate(WORKERS)
                two_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            run_floor()
            floor_times.append(time.perf_counter() - t)
            command_s, status = timed_sim_command(self.game_id, self.games)
            command_times.append(command_s)
            statuses.add(status)
        command_s, status = statistics.median(command_times), max(statuses)

        one, flo = statistics.median(one_times), statistics.median(floor_times)
        two = statistics.median(two_times) if pooled else one
        ok = two <= SIM_TARGET_S and status == 0 and command_s <= SIM_TARGET_S

        def times(xs: list[float]) -> str:
            return " ".join(f"{x:.2f}" for x in xs)

        print(f"{heading}, seed {SIM_SEED}")
        print(f"content loaded in {self.load_s:.2f} s (not timed below)")
        print(f"runs: {self.args.repeats} each, alternating, in-process, median")
        print()
        print(f"{'simulation, one process':34}{one:8.2f} s   ({times(one_times)})")
        if pooled:
            print(f"{f'simulation, {WORKERS} worker processes':34}{two:8.2f} s   ({times(two_times)})")
        print(f"{floor_label:34}{flo:8.2f} s   ({times(floor_times)})")
        print(f"{'ratio one process/floor':34}{one / flo:8.1f}")
        print(f"{'per game, one process':34}{one / self.games * 1000:8.2f} ms")
        print(f"{'whole command (a fresh process)':34}{command_s:8.2f} s   ({times(command_times)}) exit {status}")
        print(f"{'figures':34}{figures_line(found)}")
        print()
        verdict = "PASS" if ok else "FAIL"
        print(f"{target:24}{max(two, command_s):6.2f} s   target <= {SIM_TARGET_S} s   {verdict}")
        return 0 if ok else 1
