"""The `pnp` command: thin click wrappers over the library.

Exit status: 0 done, 2 bad content or options (every problem listed, nothing written), 1 anything else.
Heavy imports wait inside the commands, so `pnp build` with nothing changed returns at once.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

import click

from pnp import cache
from pnp.cli_options import (
    BLEED_OPTION,
    CONTENT_OPTION,
    GAME_ARGUMENT,
    GAME_IDS,
    GAMES_ARGUMENT,
    PAPER_OPTION,
    chosen_games,
    dpi_option,
    layers,
    only_option,
    out_option,
    print_options,
    reports_problems,
)
from pnp.cli_types import Place, WholeNumber
from pnp.content.problems import closest
from pnp.gamedef import GameDef, games
from pnp.imposition import BACK_MODES, PAPERS, Options
from pnp.sim.cli import sim
from pnp.units import MM

# Pydantic looks for plugins (observability hooks) by scanning every installed distribution's entry
# points when it builds its first model: about 25 ms of each command, for hooks a print run never
# uses. A user who wants them can set PYDANTIC_DISABLE_PLUGINS themselves; this only sets a default.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


@contextlib.contextmanager
def without_cycle_collector():
    """A build makes many small objects that live to the end (models, faces, fitted text, PDF
    objects); the cycle collector scanning them again and again cost a build about 10% of its
    time for nothing it frees. Reference counting still frees everything else."""
    was = gc.isenabled()
    gc.disable()
    # And at exit, the interpreter's last collections need not scan them either (about 25 ms of a
    # build command's process): freezing moves them out of the collector's sight, at exit only,
    # so a process that goes on (the tests' in-process runs) collects as before.
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    try:
        yield
    finally:
        if was:
            # Everything the build made still sits in the youngest generation, whose allocation
            # count ran on while the collector was off: the first allocation after enable() would
            # scan it all (about 20 ms, just before exit). Moved to the oldest generation instead,
            # it waits for a full collection, which a process that goes on still makes.
            gc.freeze()
            gc.unfreeze()
            gc.enable()


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
@click.version_option(package_name="spellpress")
@click.pass_context
def main(ctx) -> None:
    """Spellpress print-and-play: build print-ready PDFs of magic-themed games."""
    # click's own no-arguments help exits 2, as for a usage error; a bare `pnp` asking what it can do is not one
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@main.command(
    short_help="Build GAMES into one PDF per game, paper and layout.",
    help=f"Build GAMES (default: every game; {GAME_IDS}) into one PDF per game, paper and layout.",
)
@GAMES_ARGUMENT
@print_options("Print", paper_default="a4")
@reports_problems
def build(names, paper, out, extra, backs, offset, bleed, ink_saver, gutters, sheets, only) -> None:
    with without_cycle_collector():
        _build(names, paper, out, extra, Options(paper, backs, offset, bleed, ink_saver, gutters), only, sheets)


BACKS_NAMES = {"duplex-long": "duplex", "duplex-short": "duplex-short", "fold": "fold", "none": "fronts"}


def output_name(game_id: str, options: Options, only: tuple[str, ...], sheets: int | None = None) -> str:
    """A name that says what the PDF holds, so no build replaces another kind: game, paper, backs,
    gutters, ink saver, a number of player sheets asked for, and the components of a partial print."""
    parts = [
        game_id,
        options.paper,
        BACKS_NAMES[options.backs],
        *(["gutters"] if options.gutters else []),
        *(["ink-saver"] if options.ink_saver else []),
        *([f"{sheets}-sheets"] if sheets is not None else []),
        *only,
    ]
    return "-".join(parts) + ".pdf"


def player_sheets(chosen: list[GameDef], named: bool, sheets: int | None) -> dict[str, int | None]:
    """Each chosen game's --sheets: N for a game with player sheets, None for the rest; a game
    named on the command line without them is a usage error, not a silent default."""
    if sheets is None:
        return {game.id: None for game in chosen}
    without = [game.id for game in chosen if not game.player_sheets]
    having = [game.id for game in games().values() if game.player_sheets]
    if (named and without) or len(without) == len(chosen):
        raise click.BadParameter(
            f"{', '.join(without)} {'has' if len(without) == 1 else 'have'} no player sheets to print; "
            f"only {', '.join(having)} {'has' if len(having) == 1 else 'have'}",
            param_hint="--sheets",
        )
    return {game.id: sheets if game.player_sheets else None for game in chosen}


def _build(names, paper, out, extra, options, only, sheets) -> None:
    only = tuple(dict.fromkeys(only))
    chosen = chosen_games(names, extra)
    counts = player_sheets(chosen, bool(names), sheets)
    stale = []
    for game in chosen:
        path = out / output_name(game.id, options, only, counts[game.id])
        cache.clear_strays(path)  # a killed build's half-written PDF or stamp
        key = cache.inputs_key(game.id, layers(extra), (options, only, counts[game.id]))
        if cache.is_fresh(path, key):
            click.echo(f"unchanged {path}")
        else:
            stale.append((game, path, key))
    if not stale:
        return
    # every game is checked before any is written: one bad file stops the run with nothing written
    games_to_write = checked_games([game for game, _, _ in stale], extra, options, only, counts)
    for (game, path, key), opened in zip(stale, games_to_write, strict=True):
        if not opened.components():
            click.echo(f"skipped {game.id}: it has none of {', '.join(only)}")
            continue
        cache.forget(path)  # no stamp outlives the PDF it describes, even if this write is killed
        pages = _write_one(game.id, opened, options, path)
        cache.remember(path, key)
        click.echo(f"wrote {path} ({pages} pages)")


def checked_games(
    chosen: list[GameDef],
    extra: tuple[Path, ...],
    options: Options | list[Options],
    only: tuple[str, ...] = (),
    sheets: dict[str, int | None] | None = None,
):
    """Each game opened (with its --sheets, by game id) once and checked with each of `options`;
    ContentError with every problem of every game (a game's from the first options it fails)."""
    from pnp.build import check as check_game
    from pnp.build import open_game
    from pnp.content.problems import ContentError

    opened, problems = [], []
    for game in chosen:
        try:
            loaded = open_game(game, layers(extra), only, (sheets or {}).get(game.id))
            for each in options if isinstance(options, list) else [options]:
                check_game(loaded, each)
            opened.append(loaded)
        except ContentError as err:
            problems += err.problems
    if problems:
        raise ContentError(problems)
    known = {c.id for game in opened for c in game.every_component()}
    for component in only:
        if component not in known:
            close = closest(component, sorted(known), cutoff=0.6)
            hint = f"; did you mean {close}?" if close else ""
            raise click.BadParameter(
                f"expected a component id from `pnp list` ({', '.join(sorted(known))}), got {component!r}{hint}",
                param_hint="--only",
            )
    return opened


def _write_one(game_id: str, game, options: Options, path: Path) -> int:
    from pnp.build import write

    if not sys.stdout.isatty():
        return write(game, options, path)
    with click.progressbar(length=1, label=game_id, file=sys.stdout) as bar:

        def progress(done: int, total: int) -> None:
            bar.length = total
            bar.update(done - bar.pos)

        return write(game, options, path, progress)


@main.command(
    short_help="Check GAMES as a build would, writing nothing.",
    help=f"Validate the content of GAMES (default: every game; {GAME_IDS}) and each game's own rules, "
    "fit every text and lay out every page on A4 and US Letter (or the --paper given), without writing "
    "anything. Takes every option `pnp build` takes and refuses what it refuses: a build's command line "
    "checks as it is, with check in place of build.",
)
@GAMES_ARGUMENT
@print_options("Check", paper_default=None, out_help="Where the build would write: checked as build checks it, unused.")
@reports_problems
def check(names, paper, out, extra, backs, offset, bleed, ink_saver, gutters, sheets, only) -> None:
    from pnp.components.kinds import Board, Deck, Sheet
    from pnp.content.layers import layered_files

    chosen = chosen_games(names, extra)
    counts = player_sheets(chosen, bool(names), sheets)
    only = tuple(dict.fromkeys(only))
    papers = [paper] if paper else list(PAPERS)
    ways = [  # every paper and way of printing backs asked for (the setup page's words differ with the backs)
        Options(each, mode, offset, bleed, ink_saver, gutters)
        for each in papers
        for mode in ([backs] if backs else BACK_MODES)
    ]
    opened = checked_games(chosen, extra, ways, only, counts)
    for game, loaded in zip(chosen, opened, strict=True):
        decks = [c for c in loaded.components() if isinstance(c, Deck)]
        pages = sum(c.pages for c in loaded.components() if isinstance(c, Sheet))
        boards = sum(len(c.faces) for c in loaded.components() if isinstance(c, Board))
        counted = (
            [
                f"{len(layered_files(game.id, layers(extra)))} files",
                f"{sum(len(deck.faces) for deck in decks)} cards in {len(decks)} decks",
            ]
            + [f"{pages} sheet page{'s' * (pages != 1)}"] * bool(pages)
            + [f"{boards} board{'s' * (boards != 1)}"] * bool(boards)
        )
        click.echo(f"ok {game.id}: {', '.join(counted)}")
    laid_out = " and ".join(PAPERS[each].name for each in papers)
    n = len(chosen)
    ways = f"--backs {backs}" if backs else "every way of printing backs"
    click.echo(f"checked {n} game{'s' * (n != 1)}: every text fitted, every page laid out on {laid_out} with {ways}")


@main.command(name="list")
@CONTENT_OPTION
@reports_problems
def list_games(extra) -> None:
    """The games, their components (with the ids --only takes), counts and sizes."""
    from pnp.build import open_game
    from pnp.components.kinds import Board, Deck

    rows: dict[str, list[tuple[str, str, int, str]]] = {}  # heading -> (id, title, count, what)
    for game in chosen_games((), extra):
        opened = open_game(game, layers(extra))
        info = opened.content["game"]
        rows[f"{game.id}: {info.title} ({info.players})"] = game_rows = []
        for component in opened.components():
            if isinstance(component, Deck):
                size = opened.templates[component.template].size
                back = "a back each" if component.backs else "with backs" if component.back else "no backs"
                what = f"{size.width / MM:.1f} x {size.height / MM:.1f} mm, {back}"
                game_rows.append((component.id, component.title, len(component.faces), what))
            elif isinstance(component, Board):  # its pieces depend on the paper: its size when put together
                size = opened.templates[component.template].size
                what = f"{size.width / MM:.1f} x {size.height / MM:.1f} mm board"
                game_rows.append((component.id, component.title, len(component.faces), what))
            else:
                pages = f"page{'s' * (component.pages != 1)}"
                game_rows.append((component.id, component.title, component.pages, pages))
    # columns as wide as their widest entry, and a title cut short rather than a line past 80 columns
    every = [row for game_rows in rows.values() for row in game_rows]
    id_width, title_width, what_width = (max(len(row[i]) for row in every) for i in (0, 1, 3))
    title_width = min(title_width, 80 - (2 + id_width + 2 + 1 + 4 + 2 + what_width))
    for heading, game_rows in rows.items():
        click.echo(heading)
        for component_id, title, count, what in game_rows:
            title = title if len(title) <= title_width else title[: title_width - 1] + "…"
            click.echo(f"  {component_id:<{id_width}}  {title:<{title_width}} {count:>4}  {what}")


@main.command()
@out_option(Path("output") / "schema", "Folder for the schema files.")  # where our content files' modelines look
@reports_problems
def schema(out) -> None:
    """Write a JSON Schema for each kind of content file (and for templates) into OUT."""
    from pnp.schema import write_schemas

    for path in write_schemas(out):
        click.echo(f"wrote {path}")


@main.command(
    short_help="Write a starter --content folder for GAME into DIR.",
    help=f"Write a starter --content folder for GAME ({GAME_IDS}) into DIR: DIR/GAME/ gets one commented "
    "card file per deck of the game, with example cards, that builds as it is: "
    "`pnp build GAME --content DIR`. Existing files are never overwritten.",
)
@GAME_ARGUMENT
@click.argument("root", metavar="DIR", type=Place("folder"))
@reports_problems
def new(name, root) -> None:
    from pnp.starter import planned, write_starter

    [game] = chosen_games((name,), ())
    plan = planned(game, root)
    taken = [str(target) for _, target in plan if target.exists()]
    if taken:
        raise click.BadParameter(f"{', '.join(taken)} already exists; choose another DIR", param_hint="DIR")
    for path in write_starter(plan):
        click.echo(f"wrote {path}")
    click.echo(f"build it with: pnp build {game.id} --content {root}")


@main.command()
@PAPER_OPTION
@out_option(Path("output"), "Folder for the calibration PDF.")
@reports_problems
def calibrate(paper, out) -> None:
    """A one-sheet duplex calibration page: print double-sided, read the offset off its scales."""
    from pnp.calibrate import write_calibration

    path = write_calibration(out / f"calibrate-{paper}.pdf", PAPERS[paper])
    click.echo(f"wrote {path}: print it double-sided at 100%, then pass the readings as --offset X,Y")


@main.group(invoke_without_command=True)
@click.pass_context
def export(ctx) -> None:
    """Export a game's components for other tools."""
    if ctx.invoked_subcommand is None:  # as bare `pnp`: help, exit 0
        click.echo(ctx.get_help())


def web_address(value: str | None) -> str | None:
    """--url-base: an http(s) address with a host, which Tabletop Simulator can fetch images from."""
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise click.BadParameter(f"expected an http:// or https:// address of a folder, got {value!r}")
    return value


@export.command(
    short_help="Tabletop Simulator decks of GAME.",
    help=f"Tabletop Simulator decks of GAME ({GAME_IDS}): PNG grids of up to 10x7 cards, a back image "
    "per deck, and GAME.json, a saved object holding every deck: copy it into TTS's Saved Objects folder.",
)
@GAME_ARGUMENT
@out_option(Path("output") / "tts", "Folder for the images, the manifest and the saved object.")
@click.option(
    "--url-base",
    metavar="URL",
    callback=lambda ctx, param, value: web_address(value),
    help="Where the images will be uploaded, e.g. https://example.com/decks/: the saved object names "
    "them URL + file name instead of file:// paths on this computer, so others can load it.",
)
@CONTENT_OPTION
@reports_problems
def tts(name, out, url_base, extra) -> None:
    from pnp.export_tts import export_decks

    [game] = chosen_games((name,), extra)
    [loaded] = checked_games([game], extra, Options())
    title = loaded.content["game"].title
    for path in export_decks(game.id, title, loaded.components(), loaded.templates, out, url_base):
        click.echo(f"wrote {path}")


@export.command(
    short_help="One PNG per card of GAME, with bleed, for print-on-demand shops.",
    help=f"One PNG per card of GAME ({GAME_IDS}) and one per deck back, at the printed size with bleed: "
    "OUT/GAME/DECK/001-CARD.png and OUT/GAME/DECK/back.png. A poker card (63.5 x 88.9 mm) at 300 dpi with "
    "--bleed 3.175 (1/8 in) is 825 x 1125 px.",
)
@GAME_ARGUMENT
@dpi_option(72, 1200, 300, "Pixels per inch of the printed card, 72 to 1200.")
@BLEED_OPTION
@out_option(Path("output") / "cards", "Folder for the images: a folder per game and deck inside it.")
@only_option("Export")
@CONTENT_OPTION
@reports_problems
def cards(name, dpi, bleed, out, only, extra) -> None:
    from pnp.export_cards import export_cards

    [game] = chosen_games((name,), extra)
    [loaded] = checked_games([game], extra, Options(), tuple(dict.fromkeys(only)))  # content, not paper
    written = export_cards(game.id, loaded.components(), loaded.templates, bleed, dpi, out)
    for path in written:
        click.echo(f"wrote {path}")
    if not written:  # --only named sheets (score pads): pages, not cards
        click.echo(f"skipped {game.id}: {', '.join(only)} has no cards")


@export.command(
    name="page",
    short_help="A PNG picture of one page of GAME's PDF.",
    help=f"A PNG picture of one page of GAME's PDF ({GAME_IDS}), the page numbered as in the PDF "
    "`pnp build GAME --paper PAPER` writes (its setup page first, each page of card fronts followed by "
    "their backs), e.g. for a README: an A4 page at 110 dpi is 909 x 1286 px.",
)
@GAME_ARGUMENT
@click.option(
    "--page",
    "number",
    type=WholeNumber(1),
    required=True,
    metavar="N",
    help="The page to picture, from 1, as numbered in the built PDF.",
)
@dpi_option(36, 600, 150, "Pixels per inch of the paper, 36 to 600: about 110 makes an A4 or Letter page 900 px wide.")
@PAPER_OPTION
@click.option(
    "-o",
    "--out",
    "path",
    type=Place("file"),
    required=True,
    metavar="FILE.png",
    help="The PNG file to write; its folder is made if need be.",
)
@CONTENT_OPTION
@reports_problems
def page(name, number, dpi, paper, path, extra) -> None:
    import tempfile

    from pnp.build import write
    from pnp.document import plan_pages
    from pnp.raster import render_page

    if path.suffix.lower() != ".png":
        raise click.BadParameter(f"expected a file name ending in .png, got {str(path)!r}", param_hint="--out")
    [game] = chosen_games((name,), extra)
    options = Options(paper)
    [loaded] = checked_games([game], extra, options)
    pages = len(plan_pages(loaded.components(), loaded.templates, options))
    if number > pages:
        raise click.BadParameter(
            f"expected a page from 1 to {pages} ({game.id} on {PAPERS[paper].name} has {pages} pages), got {number}",
            param_hint="--page",
        )
    with tempfile.TemporaryDirectory(prefix="pnp-page-") as folder, without_cycle_collector():
        pdf = Path(folder) / output_name(game.id, options, ())
        write(loaded, options, pdf)
        image = render_page(pdf, number, dpi)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        image.save(tmp, format="PNG", dpi=(dpi, dpi), optimize=True)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    click.echo(f"wrote {path} (page {number} of {pages}, {image.width} x {image.height} px)")


main.add_command(sim)
