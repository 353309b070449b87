"""The `pnp` command: thin click wrappers over the library.

Exit status: 0 done, 2 bad content or options (every problem listed, nothing written), 1 anything else.
Heavy imports wait inside the commands, so `pnp build` with nothing changed returns at once.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from pnp import cache
from pnp.games import GAME_IDS, available
from pnp.imposition import BACK_MODES, PAPERS, Options
from pnp.paths import CONTENT
from pnp.units import MM

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
    """ContentError becomes its list of problems and exit status 2, as does a layout the paper
    cannot hold; no traceback for a user's mistake."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        from pnp.content.problems import ContentError
        from pnp.imposition import LayoutError

        try:
            return command(*args, **kwargs)
        except LayoutError as err:
            click.echo(f"error: {err}; try a smaller --bleed or the other --paper. Nothing was written.", err=True)
            sys.exit(2)
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


def layers(extra: tuple[Path, ...]) -> list[Path]:
    return [CONTENT, *extra]


def chosen_games(games: tuple[str, ...], extra: tuple[Path, ...]) -> list[str]:
    """The games asked for, or every game that has both a module and content."""
    unknown = [g for g in games if g not in GAME_IDS]
    if unknown:
        raise click.BadParameter(f"{', '.join(unknown)} (expected one of {', '.join(GAME_IDS)})", param_hint="GAME")
    ready = available()
    missing = [g for g in games if g not in ready]
    if missing:
        raise click.BadParameter(
            f"{', '.join(missing)} has no print-and-play set yet (ready: {', '.join(ready)})", param_hint="GAME"
        )
    chosen = list(games) or [g for g in ready if any((layer / g).is_dir() for layer in layers(extra))]
    check_layers(extra, chosen)
    return chosen


def check_layers(extra: tuple[Path, ...], game_ids: list[str]) -> None:
    """A --content folder that holds nothing for these games is a mistake, never a build of ours."""
    if not extra:
        return
    from pnp.content.loader import layer_problems
    from pnp.content.problems import ContentError

    problems = [problem for layer in extra for problem in layer_problems(layer, game_ids)]
    if problems:
        raise ContentError(problems)


def parse_offset(ctx, param, value: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected X,Y in mm such as 0.5,-1, got {value!r}") from None
    return x * MM, y * MM


@click.group()
@click.version_option(package_name="spellpress")
def main() -> None:
    """Spellpress print-and-play: build print-ready PDFs of five magic-themed games."""


@main.command()
@click.argument("games", nargs=-1)
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
@click.option("--bleed", type=click.FloatRange(0, 10), default=3.0, show_default=True, help="Bleed in mm.")
@click.option("--ink-saver", is_flag=True, help="No full-bleed fills; outlines and text stay.")
@reports_problems
def build(games, paper, out, extra, backs, offset, bleed, ink_saver) -> None:
    """Build GAMES (default: every game with content) into one PDF per game and paper."""
    options = Options(paper, backs, offset, bleed * MM, ink_saver)
    stale = []
    for game_id in chosen_games(games, extra):
        path = out / f"{game_id}-{paper}.pdf"
        key = cache.inputs_key(game_id, layers(extra), options)
        if cache.is_fresh(path, key):
            click.echo(f"unchanged {path}")
        else:
            stale.append((game_id, path, key))
    if not stale:
        return
    # every game is checked before any is written: one bad file stops the run with nothing written
    games_to_write = checked_games([game_id for game_id, _, _ in stale], extra)
    for (game_id, path, key), game in zip(stale, games_to_write, strict=True):
        pages = _write_one(game_id, game, options, path)
        cache.remember(path, key)
        click.echo(f"wrote {path} ({pages} pages)")


def checked_games(game_ids: list[str], extra: tuple[Path, ...]) -> list:
    """Each game opened and checked; ContentError with every problem of every game."""
    from pnp.build import check as check_game
    from pnp.build import open_game
    from pnp.content.problems import ContentError

    games, problems = [], []
    for game_id in game_ids:
        try:
            game = open_game(game_id, layers(extra))
            check_game(game)
            games.append(game)
        except ContentError as err:
            problems += err.problems
    if problems:
        raise ContentError(problems)
    return games


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
@click.argument("games", nargs=-1)
@CONTENT_OPTION
@reports_problems
def check(games, extra) -> None:
    """Validate content and each game's own rules, and fit every text, without rendering."""
    game_ids = chosen_games(games, extra)
    checked_games(game_ids, extra)
    for game_id in game_ids:
        click.echo(f"ok {game_id}")


@main.command(name="list")
@CONTENT_OPTION
@reports_problems
def list_games(extra) -> None:
    """The games, their components, counts and sizes."""
    from pnp.build import open_game
    from pnp.components.kinds import Deck

    for game_id in chosen_games((), extra):
        game = open_game(game_id, layers(extra))
        info = game.content["game"]
        click.echo(f"{game_id}: {info.title} ({info.players})")
        for component in game.components():
            if isinstance(component, Deck):
                size = game.templates[component.template].size
                back = "with backs" if component.back else "no backs"
                click.echo(
                    f"  {component.title:<28} {len(component.faces):>4}  "
                    f"{size.width / MM:.1f} x {size.height / MM:.1f} mm, {back}"
                )
            else:
                click.echo(f"  {component.title:<28} {component.pages:>4}  page{'s' * (component.pages != 1)}")


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
@click.argument("game")
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output") / "tts", show_default=True
)
@CONTENT_OPTION
@reports_problems
def tts(game, out, extra) -> None:
    """Tabletop Simulator deck sheets: PNG grids of up to 10x7 cards and a back image per deck."""
    from pnp.export_tts import export_decks

    [loaded] = checked_games(chosen_games((game,), extra), extra)
    for path in export_decks(game, loaded.components(), loaded.templates, out):
        click.echo(f"wrote {path}")
