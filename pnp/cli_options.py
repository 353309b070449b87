"""What the pnp commands share: their common arguments and options (GAMES, GAME, content, paper,
bleed, only, out, dpi; every option of a print run, for build and check alike: print_options),
the shell's completion of game and component ids, the games a command was asked for, and a
user's mistakes turned into a list of problems and exit status 2 (pnp.cli, pnp.sim.cli)."""

from __future__ import annotations

import functools
import math
import sys
from pathlib import Path

import click

from pnp.cli_types import Number, OneOf, Place, WholeNumber
from pnp.content.problems import closest
from pnp.gamedef import GameDef, games
from pnp.imposition import BACK_MODES, PAPERS
from pnp.paths import CONTENT
from pnp.units import MM

MAX_BLEED = 10.0  # mm
MAX_OFFSET = 10.0  # mm: a printer further off than this needs repair, not correction
MAX_SHEETS = 50  # player sheets: a whole room of players, with spares

CONTENT_OPTION = click.option(
    "--content",
    "extra",
    multiple=True,
    type=Place("folder", existing=True),
    help="A folder laid over the bundled content (DIR/<game-id>/*.yaml): same file name replaces, "
    "a new deck file adds cards. Repeatable.",
)
PAPER_TYPE = OneOf(sorted(PAPERS), case_sensitive=False)  # LETTER or Letter: read as letter
PAPER_OPTION = click.option("--paper", type=PAPER_TYPE, default="a4", show_default=True, help="Paper size.")
GAME_IDS = ", ".join(games())
PLAYER_SHEET_GAMES = ", ".join(game.id for game in games().values() if game.player_sheets)  # --sheets applies


def complete_games(ctx, param, incomplete: str) -> list[str]:
    return [game_id for game_id in games() if game_id.startswith(incomplete)]


# complete_components finds the games named so far under these parameter names
GAMES_ARGUMENT = click.argument("names", metavar="GAMES", nargs=-1, shell_complete=complete_games)
GAME_ARGUMENT = click.argument("name", metavar="GAME", shell_complete=complete_games)


def component_ids(game_ids, extra: tuple[Path, ...]) -> dict[str, list[str]]:
    """Each game's component ids as `pnp list` shows them; a game whose content does not load has none."""
    from pnp.build import open_game
    from pnp.content.problems import ContentError

    found = {}
    for game_id in game_ids or games():
        try:
            found[game_id] = [c.id for c in open_game(games()[game_id], layers(tuple(extra))).every_component()]
        except (ContentError, OSError):  # help and completion never fail over content
            found[game_id] = []
    return found


def complete_components(ctx, param, incomplete: str) -> list[str]:
    """--only's ids, for the games named so far on the command line (all games if none)."""
    # games before an unfinished `--only` are left in ctx.args: parsing stopped at the option
    # (`build` takes GAMES, the export commands one GAME)
    named = [arg for arg in (*ctx.params.get("names", ()), ctx.params.get("name"), *ctx.args) if arg in games()]
    ids = component_ids(named, ctx.params.get("extra") or ())
    return list(dict.fromkeys(i for per_game in ids.values() for i in per_game if i.startswith(incomplete)))


class ComponentOption(click.Option):
    """--only, whose help lists each game's component ids: read from the bundled content when help
    is shown, so that a command that does not show help never loads it."""

    def get_help_record(self, ctx):
        names, text = super().get_help_record(ctx)
        listed = "; ".join(f"{game}: {', '.join(ids)}" for game, ids in component_ids((), ()).items() if ids)
        return names, f"{text} Ids: {listed}."


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


BLEED_OPTION = click.option(
    "--bleed",
    type=Number(),
    default=3.0,
    show_default=True,
    callback=finite_mm(0, MAX_BLEED),
    help=f"mm of art printed past the cut line, 0 to {MAX_BLEED:g}.",
)


def out_option(default: Path, help: str):
    """--out, the folder a command writes into."""
    return click.option("--out", type=Place("folder"), default=default, show_default=True, help=help)


def dpi_option(low: int, high: int, default: int, help: str):
    """--dpi, the pixels per inch of the pictures a command renders, from `low` to `high`."""
    return click.option("--dpi", type=WholeNumber(low, high), default=default, show_default=True, help=help)


def only_option(verb: str):
    return click.option(
        "--only",
        cls=ComponentOption,
        multiple=True,
        metavar="COMPONENT",
        shell_complete=complete_components,
        help=f"{verb} only these components (ids from `pnp list`), e.g. --only magic. Repeatable.",
    )


def print_options(verb: str, paper_default: str | None, out_help: str = "Folder for the PDFs."):
    """The options of a print run, shared by `pnp build` and `pnp check` so that each is parsed and
    refused by the same code: whatever check passes, build accepts. Check's paper and backs default
    to None: every paper, every way of printing backs."""
    paper_help = "Paper size." if paper_default else "Paper size (default: each of them)."
    backs_default = "duplex-long" if paper_default else None
    options = [
        click.option(
            "--paper", type=PAPER_TYPE, default=paper_default, show_default=bool(paper_default), help=paper_help
        ),
        out_option(Path("output"), out_help),
        CONTENT_OPTION,
        click.option(
            "--backs",
            type=OneOf(BACK_MODES),
            default=backs_default,
            show_default=bool(backs_default),
            help="duplex-long/-short: a back page after each front page, mirrored to land behind it, and a "
            "blank one after a one-sided page, so the whole file prints double-sided; "
            "fold: fronts and backs side by side; none: fronts only"
            + ("." if backs_default else " (default: each of them)."),
        ),
        click.option(
            "--offset",
            default="0,0",
            callback=parse_offset,
            show_default=True,
            help="X,Y in mm: moves back pages to correct a printer's duplex misregistration "
            "(read it off `pnp calibrate`).",
        ),
        BLEED_OPTION,
        click.option("--ink-saver", is_flag=True, help="No full-bleed fills; outlines and text stay."),
        click.option(
            "--gutters",
            is_flag=True,
            help="A gutter with bleed between cards (poker cards 8 to a sheet) instead of shared cut lines "
            "(9 to a sheet): easier to cut cleanly, more paper.",
        ),
        click.option(
            "--sheets",
            type=WholeNumber(1, MAX_SHEETS),
            metavar="N",
            help=f"How many player sheets to print, 1 to {MAX_SHEETS}: one per player, for the games that "
            f"have them ({PLAYER_SHEET_GAMES}; default: the count `pnp list` shows). A game named without "
            "them refuses it.",
        ),
        only_option(verb),
    ]

    def apply(command):
        for option in reversed(options):
            command = option(command)
        return command

    return apply
