"""Where the bundled content and templates live, as real folders.

The repository keeps them at its top, in content/ and templates/. A wheel (`pip install .`) ships
them as package data inside pnp, at pnp/_bundled/content and pnp/_bundled/templates (pyproject.toml
maps the two folders there), found beside this module. An editable install (`pip install
-e .`) or a source checkout has no such copy: there the repository's own folders are read, live.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repository, when running from a checkout


def _folder(name: str) -> Path:
    # Beside this file, not importlib.resources: importing that costs every command (even a
    # no-change rebuild) about 4 ms, and pnp is only ever installed as a real folder.
    bundled = Path(__file__).resolve().parent / "_bundled" / name
    if bundled.is_dir():  # installed from a wheel
        return bundled
    return ROOT / name  # editable install or checkout: the repository's folder


CONTENT = _folder("content")
TEMPLATES = _folder("templates")
