"""Run every benchmark, one after the other; exit 1 if either missed a target.

python bench/run_all.py            # the PDF benchmarks (about 20 s), the simulations, the computer players' moves
python bench/run_all.py --room     # and then the room of phones (bench_room.py, several minutes)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    args = sys.argv[1:]
    room = "--room" in args
    args = [a for a in args if a != "--room"]
    scripts = ["bench_deck.py", "bench_user.py", "bench_rebuild.py"]
    status = 0
    for script in scripts:
        print(f"== {script} ==", flush=True)
        status |= subprocess.run([sys.executable, str(HERE / script), *args]).returncode
        print(flush=True)
    # their own options are their defaults: the issues' 2,000 games at four and two players
    for script in (
        "bench_spellcycles_sim.py",
        "bench_magecraft_sim.py",
        "bench_magic_spell_sim.py",
        "bench_computer.py",
    ):
        print(f"== {script} ==", flush=True)
        status |= subprocess.run([sys.executable, str(HERE / script)]).returncode
        print(flush=True)
    if room:  # its own options are its defaults: the figures
        print("== bench_room.py ==", flush=True)
        status |= subprocess.run([sys.executable, str(HERE / "bench_room.py")]).returncode
        print(flush=True)
    print("all targets met" if status == 0 else "a target was missed (see FAIL above)")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
