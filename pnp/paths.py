"""Where the bundled content and templates live, as real folders.

The repository keeps them at its top, in content/ and templates/. A wheel (`pip install .`) ships
them as package data inside pnp, at pnp/_bundled/content and pnp/_bundled/templates (pyproject.toml
maps the two folders there), found with importlib.resources. An editable install (`pip install
-e .`) or a source checkout has no such copy: there the repository's own folders are read, live.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repository, when running from a checkout


def _folder(name: str) -> Path:
    bundled = files("pnp") / "_bundled" / name
    if isinstance(bundled, Path) and bundled.is_dir():  # installed from a wheel: a real folder
        return bundled
    return ROOT / name  # editable install or checkout: the repository's folder


CONTENT = _folder("content")
TEMPLATES = _folder("templates")
