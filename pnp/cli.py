"""The `pnp` command: thin click wrappers over the library.

Exit status: 0 done, 2 bad content or options (every problem listed, nothing written), 1 anything else.
Heavy imports wait inside the commands, so `pnp build` with nothing changed returns at once.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import math
import os
import sys
from pathlib import Path

import click

from pnp import cache
from pnp.content.problems import closest
from pnp.games import GameDef, games
from pnp.imposition import BACK_MODES, PAPERS, Options
from pnp.paths import CONTENT
from pnp.units import MM

# Pydantic looks for plugins (observability hooks) by scanning every installed distribution's entry
# points when it builds its first model: about 25 ms of each command, for hooks a print run never
# uses. A user who wants them can set PYDANTIC_DISABLE_PLUGINS themselves; this only sets a default.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

MAX_BLEED = 10.0  # mm
MAX_OFFSET = 10.0  # mm: a printer further off than this needs repair, not correction

CONTENT_OPTION = click.option(
    "--content",
    "extra",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A folder laid over the bundled content (DIR/<game-id>/*.yaml): same file name replaces, "
    "a new deck file adds cards. Repeatable.",
)
PAPER_OPTION = click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)


def reports_problems(command):
    """ContentError becomes its list of problems and exit status 2; no traceback for a user's mistake."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        from pnp.content.problems import ContentError

        try:
            return command(*args, **kwargs)
        except ContentError as err:
            for problem in err.problems:
                click.echo(str(problem), err=True)
            n = len(err.problems)
            click.echo(f"{n} problem{'s' * (n != 1)} found; nothing was written.", err=True)
            sys.exit(2)
        except OSError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(1)

    return wrapper


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
            gc.enable()


def layers(extra: tuple[Path, ...]) -> list[Path]:
    return [CONTENT, *extra]


def chosen_games(names: tuple[str, ...], extra: tuple[Path, ...]) -> list[GameDef]:
    """The games asked for, or every registered game."""
    known = games()
    for name in names:
        if name not in known:
            close = closest(name, known, cutoff=0.6)
            hint = f"; did you mean {close}?" if close else ""
            raise click.BadParameter(f"expected one of {', '.join(known)}, got {name!r}{hint}", param_hint="GAME")
    chosen = [known[name] for name in dict.fromkeys(names)] if names else list(known.values())
    check_layers(extra, [game.id for game in chosen])
    return chosen


def check_layers(extra: tuple[Path, ...], game_ids: list[str]) -> None:
    """A --content folder that holds nothing for these games is a mistake, never a build of ours."""
    if not extra:
        return
    from pnp.content.layers import layer_problems
    from pnp.content.problems import ContentError

    problems = [problem for layer in extra for problem in layer_problems(layer, game_ids)]
    if problems:
        raise ContentError(problems)


def finite_mm(low: float, high: float):
    """A click callback: a number of millimetres within [low, high] (nan and inf refused), in points."""

    def convert(ctx, param, value: float) -> float:
        if not math.isfinite(value) or not low <= value <= high:
            raise click.BadParameter(f"expected millimetres from {low:g} to {high:g}, got {value:g}")
        return value * MM

    return convert


def parse_offset(ctx, param, value: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected X,Y in mm such as 0.5,-1, got {value!r}") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_OFFSET for v in (x, y)):
        raise click.BadParameter(f"expected X,Y each from -{MAX_OFFSET:g} to {MAX_OFFSET:g} mm, got {value!r}")
    return x * MM, y * MM


@click.group()
@click.version_option(package_name="spellpress")
def main() -> None:
    """Spellpress print-and-play: build print-ready PDFs of five magic-themed games."""


@main.command()
@click.argument("names", metavar="GAMES", nargs=-1)
@PAPER_OPTION
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True)
@CONTENT_OPTION
@click.option(
    "--backs",
    type=click.Choice(BACK_MODES),
    default="duplex-long",
    show_default=True,
    help="duplex-long/-short: a back page after each front page, mirrored to land behind it; "
    "fold: fronts and backs side by side; none: fronts only.",
)
@click.option(
    "--offset",
    default="0,0",
    callback=parse_offset,
    show_default=True,
    help="X,Y in mm: moves back pages to correct a printer's duplex misregistration (read it off `pnp calibrate`).",
)
@click.option("--bleed", type=float, default=3.0, show_default=True, callback=finite_mm(0, MAX_BLEED), help="mm")
@click.option("--ink-saver", is_flag=True, help="No full-bleed fills; outlines and text stay.")
@click.option(
    "--gutters",
    is_flag=True,
    help="A gutter with bleed between cards (poker cards 8 to a sheet) instead of shared cut lines "
    "(9 to a sheet): easier to cut cleanly, more paper.",
)
@click.option(
    "--only",
    multiple=True,
    metavar="COMPONENT",
    help="Print only these components (ids from `pnp list`), e.g. --only magic. Repeatable.",
)
@reports_problems
def build(names, paper, out, extra, backs, offset, bleed, ink_saver, gutters, only) -> None:
    """Build GAMES (default: every game) into one PDF per game, paper and layout."""
    with without_cycle_collector():
        _build(names, paper, out, extra, Options(paper, backs, offset, bleed, ink_saver, gutters), only)


BACKS_NAMES = {"duplex-long": "duplex", "duplex-short": "duplex-short", "fold": "fold", "none": "fronts"}


def output_name(game_id: str, options: Options, only: tuple[str, ...]) -> str:
    """A name that says what the PDF holds, so no build replaces another kind: game, paper, backs,
    gutters, and the components of a partial print."""
    parts = [game_id, options.paper, BACKS_NAMES[options.backs], *(["gutters"] if options.gutters else []), *only]
    return "-".join(parts) + ".pdf"


def _build(names, paper, out, extra, options, only) -> None:
    only = tuple(dict.fromkeys(only))
    stale = []
    for game in chosen_games(names, extra):
        path = out / output_name(game.id, options, only)
        cache.clear_strays(path)  # a killed build's half-written PDF or stamp
        key = cache.inputs_key(game.id, layers(extra), (options, only))
        if cache.is_fresh(path, key):
            click.echo(f"unchanged {path}")
        else:
            stale.append((game, path, key))
    if not stale:
        return
    # every game is checked before any is written: one bad file stops the run with nothing written
    games_to_write = checked_games([game for game, _, _ in stale], extra, options, only)
    for (game, path, key), opened in zip(stale, games_to_write, strict=True):
        if not opened.components():
            click.echo(f"skipped {game.id}: it has none of {', '.join(only)}")
            continue
        cache.forget(path)  # no stamp outlives the PDF it describes, even if this write is killed
        pages = _write_one(game.id, opened, options, path)
        cache.remember(path, key)
        click.echo(f"wrote {path} ({pages} pages)")


def checked_games(chosen: list[GameDef], extra: tuple[Path, ...], options: Options, only: tuple[str, ...] = ()):
    """Each game opened and checked; ContentError with every problem of every game."""
    from pnp.build import check as check_game
    from pnp.build import open_game
    from pnp.content.problems import ContentError

    opened, problems = [], []
    for game in chosen:
        try:
            loaded = open_game(game, layers(extra), only)
            check_game(loaded, options)
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


@main.command()
@click.argument("names", metavar="GAMES", nargs=-1)
@CONTENT_OPTION
@reports_problems
def check(names, extra) -> None:
    """Validate content and each game's own rules, fit every text and lay out every page on A4 and
    US Letter, without writing anything."""
    chosen = chosen_games(names, extra)
    for paper in PAPERS:
        checked_games(chosen, extra, Options(paper))
    for game in chosen:
        click.echo(f"ok {game.id}")


@main.command(name="list")
@CONTENT_OPTION
@reports_problems
def list_games(extra) -> None:
    """The games, their components (with the ids --only takes), counts and sizes."""
    from pnp.build import open_game
    from pnp.components.kinds import Deck

    for game in chosen_games((), extra):
        opened = open_game(game, layers(extra))
        info = opened.content["game"]
        click.echo(f"{game.id}: {info.title} ({info.players})")
        for component in opened.components():
            if isinstance(component, Deck):
                size = opened.templates[component.template].size
                back = "with backs" if component.back else "no backs"
                click.echo(
                    f"  {component.id:<12} {component.title:<34} {len(component.faces):>4}  "
                    f"{size.width / MM:.1f} x {size.height / MM:.1f} mm, {back}"
                )
            else:
                pages = f"page{'s' * (component.pages != 1)}"
                click.echo(f"  {component.id:<12} {component.title:<34} {component.pages:>4}  {pages}")


@main.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@reports_problems
def schema(out) -> None:
    """Write a JSON Schema for each kind of content file (and for templates) into OUT."""
    from pnp.schema import write_schemas

    for path in write_schemas(out):
        click.echo(f"wrote {path}")


@main.command()
@PAPER_OPTION
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"), show_default=True)
@reports_problems
def calibrate(paper, out) -> None:
    """A one-sheet duplex calibration page: print double-sided, read the offset off its scales."""
    from pnp.calibrate import write_calibration

    path = write_calibration(out / f"calibrate-{paper}.pdf", PAPERS[paper])
    click.echo(f"wrote {path}: print it double-sided at 100%, then pass the readings as --offset X,Y")


@main.group()
def export() -> None:
    """Export a game's components for other tools."""


@export.command()
@click.argument("name", metavar="GAME")
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output") / "tts", show_default=True
)
@CONTENT_OPTION
@reports_problems
def tts(name, out, extra) -> None:
    """Tabletop Simulator deck sheets: PNG grids of up to 10x7 cards and a back image per deck."""
    from pnp.export_tts import export_decks

    [game] = chosen_games((name,), extra)
    [loaded] = checked_games([game], extra, Options())
    for path in export_decks(game.id, loaded.components(), loaded.templates, out):
        click.echo(f"wrote {path}")
