"""A build runs on a machine with little address space (a 32-bit Raspberry Pi OS, a memory-capped shell).

Every read with a limit costs what the file holds, not what the limit allows: the build's read-back
of its PDF for the stamp once asked for 2 GiB up front and died with MemoryError on such machines.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

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


def test_build_and_check_run_under_the_cap_and_stamp_the_pdf(tmp_path):
    out = tmp_path / "out"
    result = capped(
        f"""
        import sys
        from pnp.cli import main
        sys.argv = ['pnp', 'build', 'spells-and-potions', '--backs', 'none', '--out', {str(out)!r}]
        try:
            main()
        except SystemExit as done:
            assert not done.code, done.code
        sys.argv = ['pnp', 'check', 'spells-and-potions']
        try:
            main()
        except SystemExit as done:
            assert not done.code, done.code
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    pdfs = sorted(out.glob("*.pdf"))
    assert pdfs, result.stdout
    for pdf in pdfs:
        stamp = pdf.with_name(f".{pdf.name}.inputs")
        assert stamp.read_text().splitlines()[1].startswith(f"pdf {pdf.stat().st_size} ")
