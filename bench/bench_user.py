"""Benchmark: a user's 268-card deck laid over Spells and Potions, printed with `pnp build --only magic`
as a whole process, against a bare reportlab script drawing the same cards as a whole process.

The user's deck is a content folder DIR/spells-and-potions/my-cards.yaml (kind magic-cards) of 268
distinct cards (the cards bench_deck.py generates); with the 12 bundled cards that makes 280 magic
cards, so that with the 40 element cards the deck deals evenly into 4 hands (`pnp check` must pass).
The pipeline side is the command a user types:

    pnp build spells-and-potions --content DIR --only magic --paper letter --out OUT

cold (a fresh OUT each run, so it renders; pnp byte-compiled first, as `pip install .` leaves it),
with its defaults: 3 mm bleed and duplex backs, 9-up with shared cuts on US Letter, 64 pages. The
floor is bench/floor_deck.py run as a process on the same 280 cards with the pipeline's grid, bleed
and back pages, and the pipeline's font files (found by the preparing child, passed in
SPELLPRESS_BENCH_FONTS). Both are timed from outside (process start to exit), REPEATS times each,
alternating, median; memory is each process's peak RSS (ru_maxrss from wait4; this parent never
imports reportlab or pnp, so it cannot lend a child its own peak). Also: the same command again
with nothing changed (must print `unchanged`). Not a test: prints the figures and PASS/FAIL, exits
1 when a target is missed.

    python bench/bench_user.py
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import pnp_command

HERE = Path(__file__).resolve().parent
GAME = "spells-and-potions"
USER_CARDS = 268  # + 12 bundled = 280 magic cards; 40 + 280 deals evenly into 4 hands
REPEATS = 9  # median of 9: one busy moment on a shared machine moves it less
REBUILDS = 3
TARGET_RATIO = 1.3  # issue 18: within 1.3x of the bare script
TARGET_PEAK_MB = 150.0
TARGET_REBUILD_S = 0.5


def prepare(root: Path) -> None:
    """Run in a child process (it imports pnp): the user's layer, the floor's cards and its layout."""
    sys.path.insert(0, str(HERE))
    sys.dont_write_bytecode = True  # no __pycache__ left in bench/
    import bench_deck
    import floor_deck
    import yaml

    from pnp.components.templates import load_templates
    from pnp.document import page_style
    from pnp.imposition import PAPERS, Options, plan_grid
    from pnp.paths import CONTENT, TEMPLATES

    cards = bench_deck.make_cards(USER_CARDS)
    layer = root / "layer"
    (layer / GAME).mkdir(parents=True)
    dump = {"kind": "magic-cards", "cards": cards}
    text = yaml.safe_dump(dump, sort_keys=False, allow_unicode=True, width=200)
    (layer / GAME / "my-cards.yaml").write_text(text, encoding="utf-8")

    # The floor draws the same 280 cards in the pipeline's order: the bundled ones (each as many
    # times as its count), then the user's.
    bundled = yaml.safe_load((CONTENT / GAME / "magic-cards.yaml").read_text(encoding="utf-8"))["cards"]
    every = [card for card in bundled for _ in range(card["count"])] + cards
    floor_cards = {"cards": [{"name": c["name"], "type": c["type"], "effect": c["effect"]} for c in every]}
    (root / "floor-cards.yaml").write_text(yaml.safe_dump(floor_cards, sort_keys=False, width=200), encoding="utf-8")

    # The pipeline's grid for these options, for the floor to draw on.
    options = Options("letter")
    templates = load_templates(TEMPLATES)
    size = templates["sp-magic"].size
    assert abs(size.width - floor_deck.CARD_W) < 0.01 and abs(size.height - floor_deck.CARD_H) < 0.01
    grid = plan_grid(
        PAPERS["letter"], size.width, size.height, options.bleed, page_style(templates["page"]), False, options.gutters
    )

    def cell(i: int) -> list[float]:
        trim = grid.trims[i]
        art = grid.art(trim)
        return [trim.x, trim.y, art.x, art.y, art.w, art.h]

    fronts = grid.front_cells()
    layout = {
        "page": [grid.page_w, grid.page_h],
        "bleed": options.bleed,
        "fronts": [cell(i) for i in fronts],
        "backs": [cell(grid.back_cell(i, options.backs)) for i in fronts],
        "grid": f"{grid.cols.count} x {grid.rows.count} = {grid.slots}-up, "
        f"{'landscape' if grid.landscape else 'portrait'} {grid.page_w:g} x {grid.page_h:g} pt",
        "cards": len(every),
    }
    (root / "layout.json").write_text(json.dumps(layout), encoding="utf-8")
    # The font files the pipeline embeds, for the floor (SPELLPRESS_BENCH_FONTS, see floor_deck.py).
    (root / "fonts.json").write_text(json.dumps(bench_deck.font_files()), encoding="utf-8")


def run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB and stdout of one whole process; exits on failure."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode != 0:
        sys.stderr.write(stdout + stderr)
        raise SystemExit(f"benchmark process failed (exit {proc.returncode}): {' '.join(cmd)}")
    return seconds, usage.ru_maxrss / 1024, stdout  # ru_maxrss is KiB on Linux


def compile_pnp() -> None:
    """Byte-compile pnp where it is installed, as `pip install .` does and as any first run does
    unless PYTHONDONTWRITEBYTECODE is set: the benchmark times a user's runs, not Python compiling
    our sources (the floor's libraries are compiled too). Finding the package does not import it."""
    spec = importlib.util.find_spec("pnp")
    for folder in spec.submodule_search_locations or []:
        compileall.compile_dir(folder, quiet=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--prepare", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare)
        return 0

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pnp-user-") as tmp:
        root = Path(tmp)
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--prepare", str(root)], check=True)
        layout = json.loads((root / "layout.json").read_text())
        layer = root / "layer"
        pnp = pnp_command()
        compile_pnp()
        check = subprocess.run(pnp + ["check", GAME, "--content", str(layer)], capture_output=True, text=True)
        if check.returncode != 0:
            sys.stderr.write(check.stdout + check.stderr)
            raise SystemExit("pnp check failed on the user's deck")

        def pipeline_cmd(out: Path) -> list[str]:
            return (
                pnp
                + ["build", GAME, "--content", str(layer), "--only", "magic", "--paper", "letter"]
                + [
                    "--out",
                    str(out),
                ]
            )

        floor_pdf = root / "floor.pdf"
        floor_cmd = [
            sys.executable,
            str(HERE / "floor_deck.py"),
            str(root / "floor-cards.yaml"),
            str(floor_pdf),
            str(root / "layout.json"),
        ]
        # the pipeline's font files, by the floor's environment variable (the name is floor_deck.FONTS_ENV)
        floor_env = {**os.environ, "SPELLPRESS_BENCH_FONTS": (root / "fonts.json").read_text(encoding="utf-8")}
        runs: dict[str, list[tuple[float, float]]] = {"pipeline": [], "floor": []}
        pipe_pages = floor_pages = 0
        last_out = root / "out-0"
        for i in range(args.repeats):  # alternate, so drift on a busy machine hits both sides alike
            for side in ("pipeline", "floor") if i % 2 == 0 else ("floor", "pipeline"):
                if side == "pipeline":
                    last_out = root / f"out-{i}"  # a fresh folder: no stamp, so it really renders
                    seconds, peak, stdout = run(pipeline_cmd(last_out))
                    if not stdout.startswith("wrote "):
                        raise SystemExit(f"expected the build to write its PDF, got {stdout!r}")
                    pipe_pages = int(stdout.rsplit("(", 1)[1].split()[0])
                else:
                    seconds, peak, stdout = run(floor_cmd, floor_env)
                    floor_pages = json.loads(stdout.strip().splitlines()[-1])["pages"]
                runs[side].append((seconds, peak))
        rebuilds, rebuilt = [], []
        for _ in range(REBUILDS):
            seconds, _, stdout = run(pipeline_cmd(last_out))
            rebuilds.append(seconds)
            if not stdout.startswith("unchanged "):
                rebuilt.append(stdout.strip())

    pipe_s = statistics.median(s for s, _ in runs["pipeline"])
    floor_s = statistics.median(s for s, _ in runs["floor"])
    pipe_mb = max(m for _, m in runs["pipeline"])
    floor_mb = max(m for _, m in runs["floor"])
    rebuild_s = statistics.median(rebuilds)
    ratio = pipe_s / floor_s
    ok_ratio, ok_peak = ratio <= TARGET_RATIO, pipe_mb <= TARGET_PEAK_MB
    ok_rebuild = rebuild_s <= TARGET_REBUILD_S and not rebuilt

    print(
        f"deck: {USER_CARDS} user cards in --content DIR/{GAME}/my-cards.yaml + 12 bundled = "
        f"{layout['cards']} magic cards"
    )
    print(f"command: pnp build {GAME} --content DIR --only magic --paper letter --out <fresh>")
    print(f"layout: {layout['grid']} (US Letter), {layout['bleed'] / (72 / 25.4):g} mm bleed, duplex-long backs")
    print(f"runs: {args.repeats} per side, whole process timed from outside, alternating, median")
    print()
    print(f"{'':22}{'pipeline':>12}{'floor':>12}")
    print(f"{'process time (s)':22}{pipe_s:12.3f}{floor_s:12.3f}")
    for i in range(args.repeats):
        print(f"{f'  run {i + 1} (s)':22}{runs['pipeline'][i][0]:12.3f}{runs['floor'][i][0]:12.3f}")
    print(f"{'peak RSS (MB)':22}{pipe_mb:12.1f}{floor_mb:12.1f}")
    print(f"{'pages':22}{pipe_pages:12d}{floor_pages:12d}")
    print(f"{'no-change rebuild (s)':22}{rebuild_s:12.3f}  ({' '.join(f'{t:.3f}' for t in rebuilds)})")
    print()
    print(f"ratio pipeline/floor   {ratio:6.2f}   target <= {TARGET_RATIO}      {'PASS' if ok_ratio else 'FAIL'}")
    print(f"pipeline peak RSS      {pipe_mb:6.1f}   target <= {TARGET_PEAK_MB:g} MB   {'PASS' if ok_peak else 'FAIL'}")
    print(
        f"no-change rebuild      {rebuild_s:6.3f}   target <= {TARGET_REBUILD_S} s     "
        f"{'PASS' if ok_rebuild else 'FAIL'}"
    )
    for line in rebuilt[:2]:
        print(f"  expected unchanged, got: {line}")
    print(f"(bench took {time.perf_counter() - started:.1f} s)")
    return 0 if ok_ratio and ok_peak and ok_rebuild else 1


if __name__ == "__main__":
    sys.exit(main())
