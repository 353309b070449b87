"""Skip a game whose inputs have not changed since its PDF was written.

The key is a hash of everything a PDF depends on: the code, the templates, the game's content
files (every layer) and the build options. Standard library only, so a no-change rebuild
never imports reportlab or pydantic.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pnp
from pnp.paths import TEMPLATES

CODE = Path(pnp.__file__).parent


def inputs_key(game_id: str, layers: list[Path], options: object) -> str:
    digest = hashlib.sha256(repr(options).encode())
    files = sorted(CODE.rglob("*.py")) + sorted(TEMPLATES.glob("*.yaml"))
    files += [p for layer in layers for p in sorted((layer / game_id).glob("*.yaml"))]
    for path in files:
        digest.update(str(path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def stamp_path(pdf: Path) -> Path:
    return pdf.with_name(f".{pdf.name}.inputs")


def is_fresh(pdf: Path, key: str) -> bool:
    stamp = stamp_path(pdf)
    return pdf.exists() and stamp.exists() and stamp.read_text() == key


def remember(pdf: Path, key: str) -> None:
    stamp_path(pdf).write_text(key)
