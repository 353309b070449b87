"""Run every benchmark, one after the other; exit 1 if either missed a target.

python bench/run_all.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    status = 0
    for script in ("bench_deck.py", "bench_user.py", "bench_rebuild.py"):
        print(f"== {script} ==", flush=True)
        status |= subprocess.run([sys.executable, str(HERE / script), *sys.argv[1:]]).returncode
        print(flush=True)
    print("all targets met" if status == 0 else "a target was missed (see FAIL above)")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
