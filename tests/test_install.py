"""`pip install .` works like any Python tool: the wheel carries the code, content and templates.

Builds the wheel from a copy of the project (so the checkout gets no build/ folder), installs it
with --no-deps into a fresh virtual environment whose dependencies come from this one through a
.pth file, and runs that environment's `pnp` from an empty folder. Offline: no index is asked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.build import build
from pnp.cli import main
from pnp.imposition import Options
from pnp.paths import CONTENT, TEMPLATES
from pnp.units import MM

pytestmark = pytest.mark.slow  # builds the wheel and installs it into a new environment

PROJECT = Path(__file__).resolve().parent.parent
GAME = "spells-and-potions"


def run(*cmd, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout}\n{proc.stderr}"
    return proc


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(PROJECT / name, src / name)
    for name in ("pnp", "companion", "content", "templates"):
        shutil.copytree(PROJECT / name, src / name, ignore=ignore)
    dist = tmp_path_factory.mktemp("dist")
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        dist,
        src,
        cwd=src,
    )
    [built] = dist.glob("spellpress-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_env(wheel, tmp_path_factory) -> Path:
    """A new venv with the wheel installed, this venv's site-packages giving it the dependencies."""
    venv = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    # installed before the .pth exists, so pip sees no spellpress (this venv's editable one) to skip
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel, cwd=venv)
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=venv).stdout.strip())
    (purelib / "_spellpress_test_deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv


def test_the_wheel_carries_every_module_and_every_content_and_template_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    code = {f"pnp/{name}" for name in files_under(PROJECT / "pnp") if name.endswith(".py")}
    assert code and code <= names, sorted(code - names)  # every subpackage found, no list to maintain
    starters = {f"pnp/{name}" for name in files_under(PROJECT / "pnp") if "/starter/" in name}
    assert starters and starters <= names, sorted(starters - names)  # `pnp new`'s example card files
    # the companion runs its migrations on start: they and alembic.ini ship with it, and its pages
    # with their scripts and styles, each game's panel among them
    kept = (".py", ".ini", ".html", ".js", ".css")
    companion = {f"companion/{name}" for name in files_under(PROJECT / "companion") if name.endswith(kept)}
    assert "companion/migrations/versions/0001_initial.py" in companion
    assert any(name.startswith("companion/static/games/") for name in companion)
    assert companion <= names, sorted(companion - names)
    for where in ("content", "templates"):
        shipped = {f"pnp/_bundled/{where}/{name}" for name in files_under(PROJECT / where)}
        assert shipped and shipped <= names, sorted(shipped - names)
    assert not [n for n in names if n.startswith(("tests/", "bench/", "content/", "templates/"))]


def test_a_checkout_or_editable_install_reads_the_repository_folders_live():
    assert (CONTENT, TEMPLATES) == (PROJECT / "content", PROJECT / "templates")


def test_the_installed_wheel_builds_and_lists_from_an_empty_folder(fresh_env, tmp_path):
    bin_dir = fresh_env / ("Scripts" if os.name == "nt" else "bin")
    work = tmp_path / "empty"
    work.mkdir()

    where = run(
        bin_dir / "python", "-c", "import pnp, pnp.paths as p; print(pnp.__file__, p.CONTENT, p.TEMPLATES)", cwd=work
    )
    module, content, templates = (Path(part) for part in where.stdout.split())
    for path in (module, content, templates):  # the fresh venv's own copy, not this editable install
        assert path.is_relative_to(fresh_env), (path, fresh_env)
    assert content.is_dir() and templates.is_dir()

    built = run(bin_dir / "pnp", "build", GAME, "--out", "out", cwd=work)
    pdf = work / "out" / f"{GAME}-a4-duplex.pdf"
    assert f"wrote {Path('out') / pdf.name}" in built.stdout
    expected = build(GAME, [CONTENT], Options("a4", "duplex-long", (0.0, 0.0), 3 * MM, False), tmp_path / "here.pdf")
    assert len(PdfReader(pdf).pages) == expected
    assert f"({expected} pages)" in built.stdout
    assert sorted(p.name for p in work.iterdir()) == ["out"]  # nothing written beside the output

    again = run(bin_dir / "pnp", "build", GAME, "--out", "out", cwd=work)
    assert again.stdout.strip() == f"unchanged {Path('out') / pdf.name}"

    listed = run(bin_dir / "pnp", "list", cwd=work)
    assert listed.stdout == CliRunner().invoke(main, ["list"]).output
    assert f"{GAME}:" in listed.stdout and "magic-spell:" in listed.stdout


def test_the_installed_companion_migrates_a_new_database(fresh_env, tmp_path):
    python = fresh_env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    script = (
        "from companion.store import Store; s = Store('sqlite:///t.db'); s.migrate(); print(s.tables.create('g', {}))"
    )
    created = run(python, "-c", script, cwd=tmp_path)
    assert created.stdout.startswith("('")


def test_reportlab_formats_and_measures_with_its_c_accelerator():
    """pyproject asks for reportlab[accel]: without rl_accel reportlab falls back to pure Python
    for every number it writes and every string it measures, and a deck draws at half the speed."""
    from reportlab.lib import rl_accel

    for name in ("fp_str", "instanceStringWidthTTF", "asciiBase85Encode"):
        function = getattr(rl_accel, name)
        assert type(function).__name__ == "builtin_function_or_method", f"{name} is {function!r}, pure Python"
