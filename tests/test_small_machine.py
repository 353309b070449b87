"""A build runs on a machine with little address space (a 32-bit Raspberry Pi OS, a memory-capped shell).

Every read with a limit costs what the file holds, not what the limit allows: the build's read-back
of its PDF for the stamp once asked for 2 GiB up front and died with MemoryError on such machines.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

resource = pytest.importorskip("resource", reason="address-space limits are a Unix facility")

CAP = 512 * 2**20  # bytes of address space: what `ulimit -v 524288` gives


def capped(code: str, cwd) -> subprocess.CompletedProcess:
    """Run Python `code` in a child whose address space is capped at CAP."""

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))

    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd,
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_cap_is_real_a_read_of_the_whole_limit_at_once_fails_under_it(tmp_path):
    (tmp_path / "small").write_bytes(b"x" * 10)
    # The old way: one read of limit + 1 bytes reserves them all, whatever the file holds.
    result = capped("open('small', 'rb').read(2**31 + 1)", tmp_path)
    assert result.returncode != 0 and "MemoryError" in result.stderr


def test_a_read_with_a_two_gib_limit_costs_only_the_file(tmp_path):
    (tmp_path / "small").write_bytes(b"x" * 3_000_000)  # a few chunks
    result = capped(
        """
        from pathlib import Path
        from pnp.regular_file import read_limited
        assert read_limited(Path('small'), 2**31) == b'x' * 3_000_000
        print('read')
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "read"


def test_a_limit_one_byte_short_is_refused_in_pieces(tmp_path):
    from pnp.regular_file import TooBig, read_limited

    path = tmp_path / "file"
    path.write_bytes(b"y" * (3 * 2**20 + 5))
    assert len(read_limited(path, 3 * 2**20 + 5)) == 3 * 2**20 + 5
    with pytest.raises(TooBig):
        read_limited(path, 3 * 2**20 + 4)


def test_every_game_builds_and_checks_under_the_cap_and_stamps_its_pdf(tmp_path):
    out = tmp_path / "out"
    result = capped(
        f"""
        import sys
        from pnp.cli import main
        for args in (['build', '--out', {str(out)!r}], ['check']):  # every game
            sys.argv = ['pnp', *args]
            try:
                main()
            except SystemExit as done:
                assert not done.code, (args, done.code)
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    from pnp.gamedef import games

    pdfs = sorted(out.glob("*.pdf"))
    assert {pdf.name.split("-a4-")[0] for pdf in pdfs} == set(games()), result.stdout
    for pdf in pdfs:
        stamp = pdf.with_name(f".{pdf.name}.inputs")
        assert stamp.read_text().splitlines()[1].startswith(f"pdf {pdf.stat().st_size} ")


def test_mutated_content_builds_or_is_refused_cleanly_under_the_cap(tmp_path):
    """The content fuzzer's files (tests.test_content_robustness: mutated_files), each built whole
    under the cap: a PDF or located problems with exit 2, never a MemoryError or a traceback."""
    root = Path(__file__).resolve().parent.parent
    result = capped(
        f"""
        import shutil
        from pathlib import Path
        from click.testing import CliRunner
        from hypothesis import given, settings
        from pnp.cli import main
        from tests.support.properties import PROPERTY
        from tests.test_content_robustness import mutated_files

        scratch, built = Path({str(tmp_path)!r}), []

        @settings(PROPERTY, max_examples=12, database=None)
        @given(mutated_files())
        def build(mutated):
            game_id, name, data = mutated
            layer = scratch / 'layer'
            shutil.rmtree(layer, ignore_errors=True)
            (layer / game_id).mkdir(parents=True)
            (layer / game_id / name).write_bytes(data)
            args = ['build', game_id, '--content', str(layer), '--out', str(scratch / 'out' / game_id)]
            result = CliRunner().invoke(main, args)
            assert result.exit_code in (0, 2), (result.exit_code, result.stderr, repr(result.exception))
            assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
            built.append(result.exit_code)

        build()
        print(sorted(set(built)), len(built))
        """,
        root,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    codes, examples = result.stdout.strip().splitlines()[-1].rsplit(" ", 1)
    assert int(examples) >= 12 and codes == "[0, 2]"  # some built, some refused: both paths ran capped


def test_the_live_tests_serve_the_companion_within_the_cap(tmp_path):
    """Every live, kill, concurrency and stream test runs `companion serve` through
    tests.support.http.server: its processes, the workers too, hold the cap while they serve."""
    import psutil

    from tests.support.http import SMALL_MACHINE, call, server

    assert SMALL_MACHINE == CAP
    with server(f"sqlite:///{tmp_path / 'c.sqlite3'}", tmp_path) as port:
        status, opened = call(port, "POST", "/api/tables", {"game": "magecraft", "options": {}})
        assert status == 201, opened
        served = [p for p in psutil.Process().children(recursive=True) if "serve" in p.cmdline()]
        assert served and all(p.rlimit(psutil.RLIMIT_AS) == (CAP, CAP) for p in served)
        assert len(served) >= 2  # gunicorn's arbiter and its worker
