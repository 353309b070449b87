"""What both sides of a benchmark measure about themselves (they run as separate scripts)."""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
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


def sim_arguments(doc: str, games: int, repeats: int) -> argparse.Namespace:
    """A simulation benchmark's options: how many games, how many alternating runs."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--repeats", type=int, default=repeats)
    return parser.parse_args()


def timed_sim_command(game_id: str, games: int) -> tuple[float, int]:
    """(seconds, exit status) of the whole `pnp sim GAME --games N --json`, a fresh process."""
    start = time.perf_counter()
    proc = subprocess.run([*pnp_command(), "sim", game_id, "--games", str(games), "--json"], capture_output=True)
    return time.perf_counter() - start, proc.returncode


def sim_against_floor(
    game_id: str,
    args: argparse.Namespace,
    load_s: float,
    heading: str,
    simulate: Callable[[int], Any],
    floor: tuple[str, Callable[[], object]],
    figures_line: Callable[[Any], str],
    target: tuple[str, float],
    pooled: bool = True,
) -> int:
    """A simulation benchmark's runs and report: `simulate(workers)` plays args.games games and
    returns their figures; it runs in one process, in the command's worker processes (unless not
    `pooled`: a simulation the command plays in one process), and the floor (label, run) beside
    them, args.repeats times alternating; the whole command once. Prints the medians and
    PASS/FAIL against target (label, seconds); returns the exit status, 1 on FAIL."""
    from pnp.sim.pool import WORKERS

    floor_label, run_floor = floor
    target_label, target_s = target
    one_times, two_times, floor_times = [], [], []
    for _ in range(args.repeats):
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
    command_s, status = timed_sim_command(game_id, args.games)

    one, flo = statistics.median(one_times), statistics.median(floor_times)
    two = statistics.median(two_times) if pooled else one
    ok = two <= target_s and status == 0 and command_s <= target_s

    def times(xs: list[float]) -> str:
        return " ".join(f"{x:.2f}" for x in xs)

    print(heading)
    print(f"content loaded in {load_s:.2f} s (not timed below)")
    print(f"runs: {args.repeats} each, alternating, in-process, median")
    print()
    print(f"{'simulation, one process':34}{one:8.2f} s   ({times(one_times)})")
    if pooled:
        print(f"{f'simulation, {WORKERS} worker processes':34}{two:8.2f} s   ({times(two_times)})")
    print(f"{floor_label:34}{flo:8.2f} s   ({times(floor_times)})")
    print(f"{'ratio one process/floor':34}{one / flo:8.1f}")
    print(f"{'per game, one process':34}{one / args.games * 1000:8.2f} ms")
    print(f"{'whole command (a fresh process)':34}{command_s:8.2f} s   exit {status}")
    print(f"{'figures':34}{figures_line(found)}")
    print()
    verdict = "PASS" if ok else "FAIL"
    print(f"{target_label:24}{max(two, command_s):6.2f} s   target <= {target_s} s   {verdict}")
    return 0 if ok else 1


def loaded_book(game_id: str, book_of: str) -> tuple[Any, float]:
    """The game's bundled content as its rules' book (`book_of`: "module:function"), and the
    seconds loading took, imports included (reported, never timed with the games)."""
    start = time.perf_counter()
    from importlib import import_module

    from pnp.content.game import load_game
    from pnp.gamedef import game
    from pnp.paths import CONTENT

    module, _, function = book_of.partition(":")
    book = getattr(import_module(module), function)(load_game(game(game_id), [CONTENT]))
    return book, time.perf_counter() - start
