"""The corpus of bad content folders (tests/corpus, README.md there): each case is refused by
`pnp check` and by `pnp build` alike, exit status 2, with exactly its expected problem lines, no
traceback and no PDF written. In-process through click's CliRunner: a case takes milliseconds."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.paths import CONTENT

CORPUS = Path(__file__).parent / "corpus"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())  # README.md says how to add one
LOCATED = re.compile(r"\S+:\d+:\d+: ")  # file:line:col: what is wrong
GAMES = ("magic-spell", "spellcycles", "magecraft", "merchants-of-magick", "spells-and-potions")


def lay_out(case: Path, into: Path) -> list[str]:
    """The case's --content folder written into `into`/content, and the arguments it runs with."""
    spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8"))
    content = into / "content"
    if (case / "content").is_dir():
        shutil.copytree(case / "content", content, symlinks=True)
    for name, replacements in (spec.get("edits") or {}).items():
        text = (CONTENT / name).read_text(encoding="utf-8")
        for old, new in replacements:
            assert text.count(old) == 1, f"{case.name}: {old!r} is not once in {name}"
            text = text.replace(old, new)
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_text(text, encoding="utf-8")
    for name, target in (spec.get("links") or {}).items():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).symlink_to(target)
    for name in spec.get("pipes") or ():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(content / name)
    return [*spec["args"], *(["--content", "content"] if content.exists() else [])]


def run(command: str, args: list[str], out: Path) -> list[str]:
    """The lines `pnp COMMAND ARGS` writes to stderr, a bundled file named <bundled>/<game>/<file>
    wherever the test runs; its exit status must be 2."""
    result = CliRunner().invoke(main, [command, *args, *(["--out", str(out)] if command == "build" else [])])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output + result.stderr
    assert result.exit_code == 2, result.output + result.stderr
    return result.stderr.replace(os.path.relpath(CONTENT), "<bundled>").splitlines()


def test_the_corpus_covers_every_game_with_60_cases_or_more():
    assert len(CASES) >= 60
    named = [yaml.safe_load((CORPUS / case / "case.yaml").read_text())["args"] for case in CASES]
    for game_id in GAMES:
        assert sum(game_id in args for args in named) >= 5, game_id


@pytest.mark.parametrize("name", CASES)
def test_a_bad_content_folder_is_refused_alike_by_check_and_build(name, tmp_path, monkeypatch):
    case = CORPUS / name
    expected = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    monkeypatch.chdir(tmp_path)  # problems name files relative to here: content/<game>/<file>
    args = lay_out(case, tmp_path)
    checked = run("check", args, tmp_path / "out")
    built = run("build", args, tmp_path / "out")
    assert not (tmp_path / "out").exists(), "nothing written"
    errors = [line for line in checked if line.startswith("Error: ")]
    if errors:  # an option refused while the command line is read: click frames our one message
        [line] = errors
        option, message = expected[0].split(": ", 1)
        assert len(expected) == 1 and option in line and line.endswith(f": {message}"), line
        assert [line for line in built if line.startswith("Error: ")] == errors
        return
    assert all(LOCATED.match(line) for line in expected), "each problem names file:line:col"
    n = len(expected)
    assert checked == [*expected, f"{n} problem{'s' * (n != 1)} found; nothing was written."]
    assert built == checked
