"""The command line as a user meets it: help for every option and argument, `-h`, a bare `pnp`,
shell completion of game and component ids, `--paper` in any case, `pnp list` in 80 columns,
what `pnp check` says it checked, `pnp schema`'s default folder and `pnp new`'s starter folder."""

from __future__ import annotations

import re

import click
import pdfplumber
import pytest
from click.shell_completion import BashComplete
from click.testing import CliRunner

from pnp.cli import main
from pnp.components.kinds import Board, Deck, Sheet
from pnp.gamedef import games
from pnp.paths import CONTENT
from pnp.starter import starter_files
from tests.conftest import bundled, invoke

GAME = "spells-and-potions"
COMPONENTS = {
    "magic-spell": ["setup", "spells", "references", "tiles", "spirit"],
    GAME: ["setup", "elements", "magic", "reference", "markers", "score-pads"],
}


def ok(result):
    assert result.exit_code == 0, (result.exit_code, result.output, result.stderr)
    return result


def every_command(command: click.Command, path: tuple[str, ...] = ("pnp",)):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from every_command(sub, path + (name,))


COMMANDS = dict(every_command(main))


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_option_has_help_and_every_argument_is_described(path):
    command = COMMANDS[path]
    assert command.help and command.help.strip(), path
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help and param.help.strip(), (path, param.name)
        else:  # click Arguments take no help: the command's own help names them
            assert param.human_readable_name in command.help, (path, param.human_readable_name)


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_dash_h_is_help(path):
    args = list(path[1:])
    assert ok(invoke(*args, "-h")).output == ok(invoke(*args, "--help")).output


@pytest.mark.parametrize("args", [[], ["export"]], ids=["pnp", "pnp export"])
def test_a_bare_group_prints_its_help_and_exits_0(args):
    result = ok(invoke(*args))
    assert result.output.startswith("Usage: ")
    assert result.output == ok(invoke(*args, "--help")).output


def test_help_lists_the_game_and_component_ids():
    text = re.sub(r"\s+", "", ok(invoke("build", "-h")).output)  # as wrapped, ids may break at a hyphen
    for game_id, components in COMPONENTS.items():
        assert f"{game_id}:{','.join(components)}" in text
    for path in (["check"], ["new"], ["export", "tts"]):
        help_text = re.sub(r"\s+", "", ok(invoke(*path, "-h")).output)
        assert all(game_id in help_text for game_id in games()), path


# --- completion ---------------------------------------------------------------------------------


def completions(args: list[str], incomplete: str) -> list[str]:
    return [item.value for item in BashComplete(main, {}, "pnp", "_PNP_COMPLETE").get_completions(args, incomplete)]


@pytest.mark.parametrize("command", [["build"], ["check"], ["new"], ["export", "tts"]])
def test_game_arguments_complete_to_game_ids(command):
    assert completions(command, "") == list(games())
    assert completions(command, "spells") == [GAME]


def test_only_completes_to_the_named_games_components():
    assert completions(["build", GAME, "--only"], "") == COMPONENTS[GAME]
    assert completions(["build", "--only"], "s") == ["setup", "spells", "spirit", "sheets", "score-pads"]


def test_the_completion_script_protocol_answers_with_game_ids():
    env = {"_PNP_COMPLETE": "bash_complete", "COMP_WORDS": "pnp build spells", "COMP_CWORD": "2"}
    result = CliRunner().invoke(main, [], env=env, prog_name="pnp")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"plain,{GAME}"]
    source = CliRunner().invoke(main, [], env={"_PNP_COMPLETE": "bash_source"}, prog_name="pnp")
    assert "_PNP_COMPLETE=bash_complete" in source.output


# --- options ------------------------------------------------------------------------------------


def test_paper_is_read_in_any_case(tmp_path):
    pdfs = {}
    for spelt in ("letter", "LETTER", "Letter"):
        out = tmp_path / spelt
        result = ok(invoke("build", GAME, "--paper", spelt, "--only", "magic", "--backs", "none", "--out", str(out)))
        [pdf] = out.glob("*.pdf")
        assert "letter" in pdf.name and f"wrote {pdf}" in result.output
        pdfs[spelt] = pdf.read_bytes()
    assert pdfs["LETTER"] == pdfs["letter"] == pdfs["Letter"]


# --- list, check, schema ------------------------------------------------------------------------


def test_list_fits_80_columns():
    lines = ok(invoke("list")).output.splitlines()
    assert len(lines) > len(games())
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]


def test_check_says_what_it_checked():
    lines = ok(invoke("check")).output.splitlines()
    for line, game_id in zip(lines, games(), strict=False):
        opened = bundled(game_id)
        decks = [c for c in opened.every_component() if isinstance(c, Deck)]
        files = len(list((CONTENT / game_id).glob("*.yaml")))
        cards = sum(len(d.faces) for d in decks)
        pages = sum(c.pages for c in opened.every_component() if isinstance(c, Sheet))
        boards = sum(len(c.faces) for c in opened.every_component() if isinstance(c, Board))
        sheets = f", {pages} sheet page{'s' * (pages != 1)}"
        board = f", {boards} board{'s' * (boards != 1)}" if boards else ""
        assert line == f"ok {game_id}: {files} files, {cards} cards in {len(decks)} decks{sheets}{board}"
    count = len(games())
    assert (
        lines[count]
        == f"checked {count} games: every text fitted, every page laid out on A4 and US Letter with every way of "
        "printing backs"
    )
    assert "nothing was written" not in "\n".join(lines)


def test_schema_writes_to_output_schema_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = ok(invoke("schema"))
    written = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "output" / "schema").rglob("*.json"))
    assert "output/schema/template.schema.json" in written
    assert f"output/schema/{GAME}/magic-cards.schema.json" in written
    assert all(f"wrote {path}" in result.output for path in written)


# --- new ----------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game_id", list(games()))
def test_new_writes_a_starter_file_per_deck_kind_that_checks(tmp_path, game_id):
    root = tmp_path / "mine"
    before = ok(invoke("check", game_id)).stdout.splitlines()[0]
    result = ok(invoke("new", game_id, str(root)))
    written = sorted((root / game_id).glob("*.yaml"))
    assert [p.name for p in written] == sorted(f"my-{kind}.yaml" for kind in starter_files(games()[game_id]))
    assert all(f"wrote {path}" in result.output for path in written)
    assert all(path.read_text().startswith("# ") for path in written)  # commented for the reader
    after = ok(invoke("check", game_id, "--content", str(root))).stdout.splitlines()[0]
    cards = lambda line: int(re.search(r"(\d+) cards", line).group(1))  # noqa: E731
    assert cards(after) > cards(before), (before, after)


def test_new_cards_are_printed(tmp_path):
    root = tmp_path / "mine"
    ok(invoke("new", GAME, str(root)))
    out = tmp_path / "out"
    ok(invoke("build", GAME, "--content", str(root), "--only", "magic", "--backs", "none", "--out", str(out)))
    [pdf] = out.glob("*.pdf")
    with pdfplumber.open(pdf) as doc:
        # landscape layouts are turned onto portrait paper: their text runs bottom to top
        text = "".join(page.extract_text(line_dir_rotated="ltr", char_dir_rotated="btt") or "" for page in doc.pages)
    text = re.sub(r"\s+", "", text)
    assert "Willow's" in text and "Bramble's" in text  # names wrap on the card: their first words


def test_new_never_overwrites(tmp_path):
    root = tmp_path / "mine"
    ok(invoke("new", GAME, str(root)))
    mine = root / GAME / "my-magic-cards.yaml"
    mine.write_text("kind: magic-cards\ncards: []\n")
    result = invoke("new", GAME, str(root))
    assert result.exit_code == 2
    assert "already exists" in result.stderr and str(mine) in result.stderr
    assert mine.read_text() == "kind: magic-cards\ncards: []\n"


def test_new_into_a_folder_it_cannot_write_is_an_error_not_a_traceback(tmp_path):
    (tmp_path / GAME).write_text("a file where the game's folder would go")
    result = invoke("new", GAME, str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and GAME in result.stderr


def test_new_refuses_an_unknown_game(tmp_path):
    result = invoke("new", "spells-and-potion", str(tmp_path))
    assert result.exit_code == 2
    assert "did you mean spells-and-potions?" in result.stderr
    assert not list(tmp_path.iterdir())
