"""Property-based tests of the `pnp` command: whatever a user's overlay file or options say, the
command ends in a clean result or in located problems with exit status 2, never a traceback."""

from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.cli import main
from tests.support.properties import PROPERTY
from tests.test_content_robustness import mutated_files

# hundreds of examples, each a whole `pnp` command, with the templates read once for all of them
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("templates_read_once")]

PROBLEM = re.compile(r"^.+:\d+:\d+: .+$")


def clean(result, allowed=(0, 2)) -> None:
    assert result.exit_code in allowed, (result.exit_code, result.stderr, result.exception)
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


@settings(PROPERTY, max_examples=200)  # the same 200 every run (derandomized): each a whole `pnp check`
@given(mutated_files())
def test_check_on_a_mutated_overlay_passes_or_lists_located_problems(scratch, mutated):
    game_id, name, data = mutated
    layer = scratch / "overlay"
    shutil.rmtree(layer, ignore_errors=True)
    (layer / game_id).mkdir(parents=True)
    (layer / game_id / name).write_bytes(data)
    result = CliRunner().invoke(main, ["check", game_id, "--content", str(layer)])
    clean(result)
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert lines[-1].endswith("found; nothing was written."), lines
        for line in lines[:-1]:
            assert PROBLEM.match(line) or line.startswith(("Usage:", "Try ", "Error: ")) or not line, line


NUMBER = st.one_of(
    st.floats(-12, 12).map(lambda v: f"{v:.2f}"),  # mostly in range: these builds must succeed
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(["", "nan", "inf", "-0", "1e309", "3mm", "0x10", "½", " 1 "]),
)


@settings(PROPERTY, max_examples=120)
@given(
    bleed=NUMBER,
    offset=st.one_of(st.tuples(NUMBER, NUMBER).map(",".join), st.text(max_size=12)),
    paper=st.sampled_from(["a4", "letter", "A4", "legal", ""]),
    backs=st.sampled_from(["duplex-long", "duplex-short", "fold", "none", "both"]),
)
def test_build_options_build_or_are_refused_cleanly(scratch, bleed, offset, paper, backs):
    out = scratch / "out"
    shutil.rmtree(out, ignore_errors=True)
    args = ["build", "spells-and-potions", "--only", "reference", "--out", str(out)]
    args += ["--bleed", bleed, "--offset", offset, "--paper", paper, "--backs", backs]
    result = CliRunner().invoke(main, args)
    clean(result)
    written = list(out.glob("*.pdf")) if out.exists() else []
    assert (result.exit_code == 0) == bool(written), "a PDF exactly when the build succeeds"
