"""What both sides of a benchmark measure about themselves (they run as separate scripts)."""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path


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
