"""Benchmark: `pnp build` with nothing changed, against the bare cost of starting Python and click.

Builds every game once into a temporary folder (cold), then runs the very same command again
REPEATS times: each must report every game `unchanged` and leave every PDF untouched (a game
whose inputs did not change is not re-rendered). The time is the whole command's wall time,
measured from outside (process start to exit), median of REPEATS. The floor is
`python -c "import click"` timed the same way. Not a test: prints the figures and PASS/FAIL,
exits 1 when the target is missed or a PDF was rewritten.

    python bench/bench_rebuild.py
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import pnp_command

REPEATS = 5
TARGET_S = 0.5
# Which heavy libraries a no-change rebuild imports (information: the cache is meant to skip them).
HEAVY_CHECK = """
import sys
from pnp.cli import main
main(["build", "--out", sys.argv[1]], standalone_mode=False)
heavy = [m for m in ("reportlab", "pydantic", "yaml", "PIL", "pypdfium2") if m in sys.modules]
print("heavy imports:", ", ".join(heavy) or "none")
"""


def timed(cmd: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    return time.perf_counter() - start, proc


def snapshot(out: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in sorted(out.glob("*.pdf"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-rebuild-") as tmp:
        work = Path(tmp)
        out = work / "out"
        build = pnp_command() + ["build", "--out", str(out)]
        cold_s, proc = timed(build, work)
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout + proc.stderr)
            print(f"cold build failed (exit {proc.returncode}): {' '.join(build)}")
            return 1
        games = [line for line in proc.stdout.splitlines() if line.startswith("wrote ")]
        before = snapshot(out)

        rebuild_times, rewritten = [], []
        for _ in range(args.repeats):
            seconds, proc = timed(build, work)
            lines = proc.stdout.splitlines()
            if proc.returncode != 0 or not lines or any(not line.startswith("unchanged ") for line in lines):
                rewritten.append(proc.stdout.strip() or proc.stderr.strip())
            rebuild_times.append(seconds)
        if snapshot(out) != before:
            rewritten.append("a PDF's modification time changed")

        heavy = subprocess.run([sys.executable, "-c", HEAVY_CHECK, str(out)], cwd=work, capture_output=True, text=True)
        floor_cmd = [sys.executable, "-c", "import click"]
        floor_times = [timed(floor_cmd, work)[0] for _ in range(args.repeats)]
        bare_times = [timed([sys.executable, "-c", "pass"], work)[0] for _ in range(args.repeats)]

    rebuild, floor, bare = (statistics.median(t) for t in (rebuild_times, floor_times, bare_times))
    ok_time, ok_cache = rebuild <= TARGET_S, not rewritten
    print(
        f"command: pnp build --out <tmp>   (all games: {len(games)} PDF{'s' * (len(games) != 1)}, "
        f"{len(before)} on disk; cold build {cold_s:.2f} s)"
    )
    print(f"runs: {args.repeats} each, wall time of the whole process from outside, median")
    print()
    print(f"{'no-change rebuild':32}{rebuild:8.3f} s   ({' '.join(f'{t:.3f}' for t in rebuild_times)})")
    print(f"{'floor: python -c import click':32}{floor:8.3f} s   ({' '.join(f'{t:.3f}' for t in floor_times)})")
    print(f"{'  python -c pass':32}{bare:8.3f} s   (information only)")
    print(f"{'ratio rebuild/floor':32}{rebuild / floor:8.2f}")
    print(f"{'no-change path':32}{(heavy.stdout.strip().splitlines() or [heavy.stderr.strip()])[-1]}")
    print()
    print(f"{'rebuild time':22}{rebuild:6.3f} s   target <= {TARGET_S} s   {'PASS' if ok_time else 'FAIL'}")
    print(
        f"{'nothing re-rendered':22}{'yes' if ok_cache else 'no':>6}     every game unchanged   "
        f"{'PASS' if ok_cache else 'FAIL'}"
    )
    for problem in rewritten[:3]:
        print(f"  {problem}")
    return 0 if ok_time and ok_cache else 1


if __name__ == "__main__":
    sys.exit(main())
