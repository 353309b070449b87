"""The no-change skip never lies: `unchanged` only over the very PDF its stamp was written with.

A kill between the PDF's rename and the stamp's write, a PDF changed behind the stamp's back and a
new version of a library that shapes the output all lead to a rebuild; a killed build's temporary
files are removed by the next build; a no-change rebuild stays light (no reportlab, no pydantic).
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import cache
from pnp.cli import main
from pnp.imposition import Options
from pnp.paths import CONTENT
from tests.conftest import overlay

GAME = "spells-and-potions"


class Killed(Exception):
    """Stands for the process dying at that point."""


def build(out: Path, *options: str):
    result = CliRunner().invoke(main, ["build", GAME, "--backs", "none", "--out", str(out), *options])
    return result


def built(out: Path, *options: str) -> str:
    result = build(out, *options)
    assert result.exit_code == 0, (result.output, result.stderr, result.exception)
    return result.output


def test_a_build_killed_after_its_pdf_but_before_its_stamp_is_redone_not_called_unchanged(tmp_path, monkeypatch):
    out = tmp_path / "out"
    pdf = out / f"{GAME}-a4-fronts.pdf"
    assert f"wrote {pdf}" in built(out)  # bleed 3, stamped
    first = pdf.read_bytes()

    def killed_before_the_stamp(path, key):
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(cache, "remember", killed_before_the_stamp)
        result = build(out, "--bleed", "1")
        assert isinstance(result.exception, Killed)
    assert pdf.read_bytes() != first  # the bleed-1 PDF is in place; its stamp was never written

    again = built(out)  # bleed 3 again: the old stamp must not vouch for the bleed-1 PDF
    assert f"wrote {pdf}" in again and "unchanged" not in again
    assert pdf.read_bytes() == first
    assert built(out).strip() == f"unchanged {pdf}"


def test_a_pdf_that_is_not_the_one_stamped_is_rebuilt(tmp_path):
    out = tmp_path / "out"
    pdf = out / f"{GAME}-a4-fronts.pdf"
    built(out)
    first = pdf.read_bytes()
    pdf.write_bytes(first[:-10] + b"%tampered\n")  # same size, other bytes: say another build's
    assert f"wrote {pdf}" in built(out)
    assert pdf.read_bytes() == first


def test_a_pdf_or_stamp_replaced_by_a_link_to_a_device_is_rebuilt_unread(tmp_path):
    """Reading /dev/zero as the PDF (or its stamp) to compare hashes would never end."""
    out = tmp_path / "out"
    pdf = out / f"{GAME}-a4-fronts.pdf"
    built(out)
    first = pdf.read_bytes()
    for path in (pdf, cache.stamp_path(pdf)):
        saved = path.read_bytes()
        path.unlink()
        path.symlink_to("/dev/zero")
        assert f"wrote {pdf}" in built(out)
        assert pdf.is_file() and not pdf.is_symlink() and pdf.read_bytes() == first
        assert path.read_bytes() == saved


def test_a_killed_builds_temporary_files_are_removed_by_the_next_build(tmp_path):
    out = tmp_path / "out"
    pdf = out / f"{GAME}-a4-fronts.pdf"
    built(out)
    strays = [out / f".{pdf.name}.tmp", out / f".{pdf.name}.inputs.tmp"]
    for stray in strays:
        stray.write_bytes(b"%PDF-1.4 half written")
    assert built(out).strip() == f"unchanged {pdf}"  # even a build with nothing to do clears them
    assert [s for s in strays if s.exists()] == []
    assert sorted(p.name for p in out.iterdir()) == sorted([pdf.name, cache.stamp_path(pdf).name])


def test_the_key_changes_with_the_version_of_a_library_that_shapes_the_pdf(tmp_path, monkeypatch):
    options = Options("a4", "none", (0.0, 0.0), 0.0, False)
    before = cache.inputs_key(GAME, [CONTENT], options)
    assert cache.inputs_key(GAME, [CONTENT], options) == before
    real = cache.installed()
    for name in ("spellpress", "reportlab", "pillow", "pyyaml", "pydantic"):
        assert real[name] == importlib.metadata.version(name), name  # what the key reads is the truth
        with monkeypatch.context() as patch:
            patch.setattr(cache, "installed", lambda name=name: {**real, name: "999"})
            assert cache.inputs_key(GAME, [CONTENT], options) != before, name

    out = tmp_path / "out"
    pdf = out / f"{GAME}-a4-fronts.pdf"
    built(out)
    monkeypatch.setattr(cache, "installed", lambda: {**real, "reportlab": "999"})
    assert f"wrote {pdf}" in built(out)


NO_CHANGE_REBUILD = """
import json, sys
from pnp.cli import main
main(["build", *sys.argv[1:]], standalone_mode=False)
print(json.dumps([m for m in ("reportlab", "pydantic", "yaml", "PIL") if m in sys.modules]))
"""


@pytest.mark.parametrize("with_content", [False, True], ids=["bundled", "with --content"])
def test_a_no_change_rebuild_imports_nothing_heavy(tmp_path, with_content):
    """How fast it is, bench/bench_rebuild.py and bench/bench_user.py measure; here, that it stays
    light: no YAML parser, validation or PDF library, with or without a user's folder."""
    args = ["--out", str(tmp_path / "out")]
    if with_content:
        cards = "kind: magic-cards\ncards:\n  - {name: Mine, type: spell, count: 4, effect: Mine.}\n"
        args += ["--content", str(overlay(tmp_path / "mine", GAME, {"mine.yaml": cards}))]
    assert CliRunner().invoke(main, ["build", GAME, *args]).exit_code == 0
    proc = subprocess.run(
        [sys.executable, "-c", NO_CHANGE_REBUILD, GAME, *args], capture_output=True, text=True, check=True
    )
    *lines, report = proc.stdout.splitlines()
    assert lines and all(line.startswith("unchanged ") for line in lines), proc.stdout
    assert json.loads(report) == []


def test_a_content_file_that_is_a_device_or_a_pipe_is_keyed_unread(tmp_path):
    """The key hashes what a link to /dev/zero or a named pipe is, not its endless or blocking
    contents (it read /dev/zero until MemoryError); the build then reports the file."""
    options = Options("a4", "none", (0.0, 0.0), 0.0, False)
    folder = tmp_path / "ov" / GAME
    folder.mkdir(parents=True)
    plain = cache.inputs_key(GAME, [CONTENT, tmp_path / "ov"], options)
    (folder / "zero.yaml").symlink_to("/dev/zero")
    with_device = cache.inputs_key(GAME, [CONTENT, tmp_path / "ov"], options)
    os.mkfifo(folder / "pipe.yaml")
    with_pipe = cache.inputs_key(GAME, [CONTENT, tmp_path / "ov"], options)
    assert len({plain, with_device, with_pipe}) == 3
