"""Debian's qpdf, which reads a PDF's every object, cross-reference and stream and says what is
broken: an independent check of the files reportlab writes for us. The `qpdf` fixture in conftest.py
skips without it, except under CI=true, where that is a failure (as tests/support/browser.py treats Chromium)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

QPDF = shutil.which("qpdf")


def found() -> str:
    """qpdf's path; a skip where it is not installed, a failure under CI, which must install it."""
    if QPDF is None:
        if os.environ.get("CI") == "true":
            pytest.fail("qpdf is missing: CI must install Debian's qpdf package")
        pytest.skip("qpdf is not installed (apt-get install qpdf)")
    return QPDF


def problems(qpdf: str, pdf: Path) -> str:
    """What `qpdf --check` finds wrong with the file: its report when it exits with errors (2) or
    warnings (3), nothing when it exits 0."""
    run = subprocess.run([qpdf, "--check", str(pdf)], capture_output=True, text=True, timeout=60)
    return "" if run.returncode == 0 else f"qpdf exit {run.returncode}:\n{run.stdout}{run.stderr}"
