"""The command line's own value types (pnp.cli_types): what each takes, and what it says, in our
words, of what it refuses, through a real command so the option's name comes with it."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from pnp.cli_types import Number, OneOf, Place, WholeNumber


def run(kind: click.ParamType, *args: str):
    @click.command()
    @click.option("--value", type=kind)
    def command(value):
        click.echo(repr(value))

    return CliRunner().invoke(command, ["--value", *args])


@pytest.mark.parametrize(
    ("kind", "typed", "got"),
    [
        (WholeNumber(2, 4), "3", "3"),
        (WholeNumber(2, 4), " +4 ", "4"),
        (WholeNumber(1), "10000000000", "10000000000"),
        (WholeNumber(), "-7", "-7"),
        (Number(), "-0.5", "-0.5"),
        (Number(), "3", "3.0"),
        (OneOf(["a4", "letter"], case_sensitive=False), "LETTER", "'letter'"),
        (OneOf(["1", "4"]), "4", "'4'"),
    ],
)
def test_a_value_of_the_right_kind_is_taken(kind, typed, got):
    result = run(kind, typed)
    assert result.exit_code == 0 and result.stdout.strip() == got, result.output


@pytest.mark.parametrize(
    ("kind", "typed", "said"),
    [
        (WholeNumber(2, 4), "5", "expected a whole number from 2 to 4, got 5"),
        (WholeNumber(2, 4), "2.0", "expected a whole number from 2 to 4, got '2.0'"),
        (WholeNumber(1), "0", "expected a whole number of 1 or more, got 0"),
        (WholeNumber(high=9), "10", "expected a whole number of at most 9, got 10"),
        (WholeNumber(), "two", "expected a whole number, got 'two'"),
        (Number(), "three", "expected a number such as 3 or 0.5, got 'three'"),
        (OneOf(["a4", "letter"]), "A5", "expected one of a4, letter, got 'A5'"),
        (OneOf(["1", "4"]), "2", "expected one of 1, 4, got '2'"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_in_our_words_naming_the_option(kind, typed, said):
    result = run(kind, typed)
    assert result.exit_code == 2 and "--value" in result.stderr and said in result.stderr, result.stderr


def test_a_place_must_be_there_when_asked_and_of_its_kind(tmp_path):
    folder, file = tmp_path / "deck", tmp_path / "deck.yaml"
    folder.mkdir()
    file.write_text("cards: []\n")
    assert run(Place("folder", existing=True), str(folder)).exit_code == 0
    assert run(Place("folder"), str(tmp_path / "new")).exit_code == 0  # made later, by the command
    for kind, typed, said in (
        (
            Place("folder", existing=True),
            tmp_path / "gone",
            f"expected an existing folder, found nothing at '{tmp_path / 'gone'}'",
        ),
        (Place("folder"), file, f"expected a folder, '{file}' is a file"),
        (Place("file", existing=True), folder, f"expected a file, '{folder}' is a folder"),
    ):
        result = run(kind, str(typed))
        assert result.exit_code == 2 and said in result.stderr, result.stderr


def test_the_shell_completes_a_choice_in_any_case():
    kind = OneOf(["duplex-long", "duplex-short", "fold", "none"])
    assert [item.value for item in kind.shell_complete(None, None, "DU")] == ["duplex-long", "duplex-short"]
