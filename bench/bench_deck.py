"""Benchmark: a 270-card poker deck through the full pipeline against a bare reportlab floor.

Each card has a title, about three lines of wrapped effect text with one inline icon, and an art
icon (the `sp-magic` template), 9-up on US Letter, no backs, no bleed. The pipeline side goes from
YAML on disk to PDF on disk: template and content loading and validation, faces, text fitting (as
`pnp build` checks it), imposition, drawing and writing. The floor (bench/floor_deck.py) reads the
same YAML and draws the same things with plain reportlab.

Each side runs in its own fresh subprocess, REPEATS times, alternating; the time is measured
inside the subprocess around the work (imports reported apart), memory is the subprocess's peak
RSS. Not a test: prints the figures and PASS/FAIL, exits 1 when a target is missed.

    python bench/bench_deck.py              # the benchmark
    python bench/bench_deck.py --profile    # also: cProfile of one pipeline run, top functions
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import peak_rss_kib  # bench/ is the script folder: shared with the floor

from pnp.paths import CONTENT

HERE = Path(__file__).resolve().parent
CARDS = 270
REPEATS = 3
TARGET_RATIO = 1.5
TARGET_PEAK_MB = 150.0
GAME = "spells-and-potions"
TYPES = ("spell", "counter-spell", "potion", "antidote")
INLINE_ICONS = ("fire", "water", "earth", "air")


# ---------------------------------------------------------------------------------------------
# The pipeline side, run as `bench_deck.py --child pipeline LAYER OUT.pdf` in a fresh process.


def child_pipeline(layer: Path, out: Path, profile: bool) -> None:
    t0 = time.perf_counter()
    from reportlab.pdfgen.canvas import Canvas

    from pnp.components.card import check_face
    from pnp.components.kinds import Deck
    from pnp.components.makers import SetInputs
    from pnp.components.templates import load_templates
    from pnp.content.loader import load
    from pnp.content.problems import ContentError, Mark
    from pnp.document import write_pdf
    from pnp.games.spells_and_potions.kinds import KINDS
    from pnp.games.spells_and_potions.printed import magic_faces
    from pnp.imposition import Options
    from pnp.paths import TEMPLATES

    t1 = time.perf_counter()
    imports_kib = peak_rss_kib()

    phases: dict[str, float] = {"save": 0.0}
    save = Canvas.save

    def timed_save(canvas) -> None:  # instrumentation only: splits write_pdf into draw and save
        t = time.perf_counter()
        save(canvas)
        phases["save"] += time.perf_counter() - t

    Canvas.save = timed_save

    def work() -> int:
        t = time.perf_counter()
        templates = load_templates(TEMPLATES)
        content = load(GAME, {k: KINDS[k] for k in ("magic-cards", "words")}, [layer])
        faces = tuple(magic_faces(SetInputs(content, templates), "sp-magic"))
        where = Mark("bench", 1, 1)
        deck = Deck("magic", "Bench cards", "sp-magic", faces, None)
        phases["load"] = time.perf_counter() - t
        t = time.perf_counter()
        problems = [
            p
            for face in sorted(set(faces), key=lambda f: f.label)
            for p in check_face(face, templates[face.template], where)
        ]
        if problems:
            raise ContentError(problems)
        phases["fit"] = time.perf_counter() - t
        t = time.perf_counter()
        options = Options(paper="letter", backs="none", offset=(0.0, 0.0), bleed=0.0, ink_saver=False)
        pages = write_pdf(out, "Spellpress bench", [deck], templates, options)
        phases["draw"] = time.perf_counter() - t - phases["save"]
        phases["save"] = phases.pop("save")  # keep the order load, fit, draw, save
        return pages

    if profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        pages = prof.runcall(work)
        t2 = time.perf_counter()
        stats = pstats.Stats(prof, stream=sys.stderr).strip_dirs()
        print("\n== pipeline profile, by cumulative time ==", file=sys.stderr)
        stats.sort_stats("cumulative").print_stats(35)
        print("\n== pipeline profile, by own time ==", file=sys.stderr)
        stats.sort_stats("tottime").print_stats(25)
    else:
        pages = work()
        t2 = time.perf_counter()
    print(
        json.dumps(
            {
                "side": "pipeline",
                "import_s": t1 - t0,
                "work_s": t2 - t1,
                "pages": pages,
                "phases": phases,
                "bytes": out.stat().st_size,
                "peak_kib": peak_rss_kib(),
                "imports_kib": imports_kib,
            }
        )
    )


# ---------------------------------------------------------------------------------------------
# The parent: input generation, checks, runs, report.

_OPENINGS = ["Deal", "Draw", "Gain", "Steal", "Return", "Discard", "Swap", "Reveal", "Shuffle", "Move"]
_AMOUNTS = ["one", "two", "three", "four", "a single", "every"]
_THINGS = ["card", "element card", "trump", "potion", "spell", "trick", "point", "charm"]
_WHOM = [
    "from any rival",
    "to your partner",
    "from the deck",
    "to the pile",
    "from your hand",
    "to the player on your left",
    "from the discard pile",
]
_TAILS = [
    "then the leader of the next trick must follow the element shown by",
    "and this trick counts double for the team that is marked by",
    "unless a rival answers at once with a counter-spell of",
    "and nobody may play a trump while the table shows",
    "then whoever holds the highest rank gains a bonus of",
    "and the next card played must match the colour of",
]


def effect_text(rng: random.Random, icon: str) -> str:
    return (
        f"{rng.choice(_OPENINGS)} {rng.choice(_AMOUNTS)} {rng.choice(_THINGS)} {rng.choice(_WHOM)}, "
        f"{rng.choice(_TAILS)} :{icon}:"
    )


def make_cards(n: int) -> list[dict]:
    """n distinct cards whose effect wraps to exactly three lines at the template's 9 pt."""
    from pnp.components.templates import load_templates
    from pnp.paths import TEMPLATES
    from pnp.regions.text import fit

    template = load_templates(TEMPLATES)["sp-magic"]
    region = template.regions["effect"]
    rng = random.Random(270)
    cards, seen = [], set()
    while len(cards) < n:
        i = len(cards)
        icon = INLINE_ICONS[i % len(INLINE_ICONS)]
        text = effect_text(rng, icon)
        fitted = fit(region, text)
        if text in seen or fitted is None or fitted.size != region.size or len(fitted.lines) != 3:
            continue
        seen.add(text)
        cards.append(
            {
                "name": f"Bench Card {i + 1:03d}",
                "type": TYPES[i % len(TYPES)],
                "count": 1,
                "effect": text,
                "flavour": "",
            }
        )
    return cards


def font_files() -> dict[str, str]:
    """The TrueType files the pipeline embeds, for the floor (style -> path): the body faces and the
    display face `sp-magic` sets its titles in, instanced from the font packages if not yet cached."""
    import floor_deck

    from pnp.render import fonts

    return {style: str(fonts.static_instance(style)) for style in floor_deck.STYLES}


def floor_env(files: dict[str, str]) -> dict[str, str]:
    """The environment the floor runs in: this one, with the font files in SPELLPRESS_BENCH_FONTS."""
    import floor_deck

    return {**os.environ, floor_deck.FONTS_ENV: json.dumps(files)}


def same_line_breaks(cards: list[dict], files: dict[str, str]) -> int:
    """How many cards the floor wraps into exactly the pipeline's lines (a check on the floor)."""
    import floor_deck

    from pnp.components.templates import load_templates
    from pnp.paths import TEMPLATES
    from pnp.regions.text import fit

    floor_deck.register_fonts(files)  # the floor's names for the pipeline's files
    template = load_templates(TEMPLATES)["sp-magic"]
    region = template.regions["effect"]
    same = 0
    for card in cards:
        fitted = fit(region, card["effect"])
        assert fitted.size == floor_deck.EFFECT_SIZE, (fitted.size, card["effect"])
        ours = [re.sub(r":[a-z-]+:", floor_deck.ICON, line.text) for line in fitted.lines]
        same += ours == floor_deck.effect_lines(card["effect"])
    return same


def write_layer(root: Path, cards: list[dict]) -> Path:
    import yaml

    layer = root / "layer"
    (layer / GAME).mkdir(parents=True)
    text = yaml.safe_dump({"kind": "magic-cards", "cards": cards}, sort_keys=False, allow_unicode=True, width=200)
    (layer / GAME / "magic-cards.yaml").write_text(text, encoding="utf-8")
    # the card type words the faces print come from the bundled words file
    (layer / GAME / "words.yaml").write_bytes((CONTENT / GAME / "words.yaml").read_bytes())
    return layer


def check_layout() -> str:
    """The pipeline's grid for this deck must be 3 x 3 portrait on Letter, at the floor's positions."""
    sys.path.insert(0, str(HERE))
    sys.dont_write_bytecode = True  # no __pycache__ left in bench/
    import floor_deck

    from pnp.components.templates import load_templates
    from pnp.document import page_style
    from pnp.imposition import PAPERS, plan_grid
    from pnp.paths import TEMPLATES

    templates = load_templates(TEMPLATES)
    size = templates["sp-magic"].size
    grid = plan_grid(PAPERS["letter"], size.width, size.height, 0.0, page_style(templates["page"]), False, False)
    layout = (
        f"{grid.cols.count} x {grid.rows.count} = {grid.slots}-up, "
        f"{'landscape' if grid.landscape else 'portrait'} {grid.page_w:g} x {grid.page_h:g} pt (US Letter)"
    )
    assert (grid.cols.count, grid.rows.count, grid.landscape) == (3, 3, False), layout
    floor = floor_deck.cell_origins()
    for trim, (x, y) in zip(grid.trims, floor, strict=True):
        assert abs(trim.x - x) < 0.01 and abs(trim.y - y) < 0.01, (trim, x, y)
        assert abs(trim.w - floor_deck.CARD_W) < 0.01 and abs(trim.h - floor_deck.CARD_H) < 0.01
    return layout


def run_child(cmd: list[str], env: dict[str, str] | None = None) -> dict:
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"benchmark child failed: {' '.join(cmd)}")
    if proc.stderr:
        sys.stderr.write(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--profile", action="store_true", help="also profile one pipeline run (cProfile)")
    parser.add_argument("--keep", type=Path, help="copy the last two PDFs into this folder")
    parser.add_argument("--child", nargs=3, metavar=("SIDE", "LAYER", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--child-profile", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_pipeline(Path(args.child[1]), Path(args.child[2]), args.child_profile)
        return 0

    started = time.perf_counter()
    layout = check_layout()
    cards = make_cards(CARDS)
    files = font_files()
    same_breaks = same_line_breaks(cards, files)
    if same_breaks != CARDS:  # a floor that sets different lines would not be drawing the same thing
        print(f"floor check failed: only {same_breaks} of {CARDS} effects wrapped as the pipeline wraps them")
        return 1
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as tmp:
        root = Path(tmp)
        layer = write_layer(root, cards)
        cards_yaml = layer / GAME / "magic-cards.yaml"
        pipe_pdf, floor_pdf = root / "pipeline.pdf", root / "floor.pdf"
        pipeline_cmd = [py, str(Path(__file__).resolve()), "--child", "pipeline", str(layer), str(pipe_pdf)]
        floor_cmd = [py, str(HERE / "floor_deck.py"), str(cards_yaml), str(floor_pdf)]
        runs: dict[str, list[dict]] = {"pipeline": [], "floor": []}
        for i in range(args.repeats):  # alternate, so drift on a busy machine hits both sides alike
            order = ("pipeline", "floor") if i % 2 == 0 else ("floor", "pipeline")
            for side in order:
                if side == "pipeline":
                    runs[side].append(run_child(pipeline_cmd))
                else:
                    runs[side].append(run_child(floor_cmd, floor_env(files)))
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for pdf in (pipe_pdf, floor_pdf):
                (args.keep / pdf.name).write_bytes(pdf.read_bytes())
        if args.profile:
            run_child(pipeline_cmd + ["--child-profile"])

    def med(side: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[side])

    pipe_s, floor_s = med("pipeline", "work_s"), med("floor", "work_s")
    ratio = pipe_s / floor_s
    pipe_mb = max(r["peak_kib"] for r in runs["pipeline"]) / 1024
    floor_mb = max(r["peak_kib"] for r in runs["floor"]) / 1024
    pipe_pages, floor_pages = runs["pipeline"][0]["pages"], runs["floor"][0]["pages"]
    phases = {
        side: {k: statistics.median(r["phases"][k] for r in runs[side]) for k in runs[side][0]["phases"]}
        for side in runs
    }
    with_imports = (med("pipeline", "work_s") + med("pipeline", "import_s")) / (
        med("floor", "work_s") + med("floor", "import_s")
    )
    ratio_ok, peak_ok = ratio <= TARGET_RATIO, pipe_mb <= TARGET_PEAK_MB

    print(f"deck: {CARDS} distinct poker cards (title, 3-line effect with one inline icon, art icon)")
    print(f"layout: {layout}; no backs, no bleed; floor positions match the pipeline's grid")
    print(f"floor check: {same_breaks} of {CARDS} effects wrapped into the same lines as the pipeline's")
    print(f"runs: {args.repeats} per side, fresh subprocess each, median work time; python {sys.version.split()[0]}")
    print()
    print(f"{'':22}{'pipeline':>12}{'floor':>12}")
    print(f"{'work time (s)':22}{pipe_s:12.3f}{floor_s:12.3f}")
    for i in range(args.repeats):
        print(f"{f'  run {i + 1} (s)':22}{runs['pipeline'][i]['work_s']:12.3f}{runs['floor'][i]['work_s']:12.3f}")
    print(f"{'imports (s)':22}{med('pipeline', 'import_s'):12.3f}{med('floor', 'import_s'):12.3f}")
    print(f"{'peak RSS (MB)':22}{pipe_mb:12.1f}{floor_mb:12.1f}")
    print(
        f"{'  of it, imports (MB)':22}{max(r['imports_kib'] for r in runs['pipeline']) / 1024:12.1f}"
        f"{max(r['imports_kib'] for r in runs['floor']) / 1024:12.1f}"
    )
    print(f"{'pages':22}{pipe_pages:12d}{floor_pages:12d}")
    print(f"{'PDF size (KB)':22}{runs['pipeline'][0]['bytes'] / 1024:12.0f}{runs['floor'][0]['bytes'] / 1024:12.0f}")
    for side in runs:
        print(f"{side + ' phases (s)':22}" + ", ".join(f"{k} {v:.3f}" for k, v in phases[side].items()))
    print(f"{'ratio with imports':22}{with_imports:12.2f}  (information only)")
    print()
    print(f"ratio pipeline/floor   {ratio:6.2f}   target <= {TARGET_RATIO}    {'PASS' if ratio_ok else 'FAIL'}")
    print(f"pipeline peak RSS      {pipe_mb:6.1f}   target <= {TARGET_PEAK_MB:g} MB  {'PASS' if peak_ok else 'FAIL'}")
    print(f"(bench took {time.perf_counter() - started:.1f} s)")
    return 0 if ratio_ok and peak_ok else 1


if __name__ == "__main__":
    sys.exit(main())
