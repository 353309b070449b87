"""Skip a game whose inputs have not changed since its PDF was written.

The key is a hash of everything a PDF depends on: the code, the templates, the game's content
files (every layer), the build options, and the versions of spellpress and of the libraries that
shape the output (read from the names of their installed `.dist-info` folders). Beside each
PDF a stamp, `.<name>.pdf.inputs`,
records that key together with the size and SHA-256 of the very PDF it was written with, so a stamp
can never vouch for another PDF: the build removes the stamp before it writes, writes the new stamp
(atomically) only after the PDF is in place, and a PDF that differs from the one the stamp records,
for whatever reason, is rebuilt. Standard library only, so a no-change rebuild never imports
reportlab or pydantic.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import sys
from pathlib import Path

import pnp
from pnp.paths import TEMPLATES
from pnp.regular_file import MAX_BYTES, NotARegularFile, TooBig, read_limited

MAX_STAMP_BYTES = 1024  # two short lines
MAX_PDF_BYTES = 2**31  # far beyond any set's PDF: what is bigger is no PDF a build wrote

CODE = Path(pnp.__file__).parent
# Distributions whose version can change the PDF, the font packages among them.
SHAPING = ("spellpress", "reportlab", "pillow", "pyyaml", "pydantic", "fontpkg-noto-sans", "fontpkg-eb-garamond")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@functools.cache
def installed() -> dict[str, str]:
    """Every installed distribution's version by normalised name, read off the names of the
    `.dist-info` folders on sys.path.

    Not importlib.metadata: importing it (and the email package it loads) cost a no-change
    rebuild about 30 ms, and the folder name `reportlab-5.1.0.dist-info` already says it. The
    first folder found on sys.path wins, as it does for imports."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip file, a missing folder
            continue
        for folder in names:
            if folder.endswith(".dist-info"):
                name, _, version = folder.removesuffix(".dist-info").partition("-")
                found.setdefault(_normal(name), version)
    return found


def library_versions() -> str:
    versions = installed()
    return "\n".join(f"{name} {versions.get(_normal(name), 'absent')}" for name in SHAPING)


def inputs_key(game_id: str, layers: list[Path], options: object) -> str:
    digest = hashlib.sha256(repr(options).encode())
    digest.update(library_versions().encode())
    files = sorted(CODE.rglob("*.py")) + sorted(TEMPLATES.rglob("*.yaml"))
    files += [p for layer in layers for p in sorted((layer / game_id).glob("*.yaml"))]
    for path in files:
        digest.update(str(path).encode())
        digest.update(_contents(path))
    return digest.hexdigest()


def _contents(path: Path) -> bytes:
    """What a file adds to the key: its bytes, or what it is when the loader will refuse it (a
    link to a device, a file past the loader's limit), read no further; the build then reports it."""
    try:
        return read_limited(path, MAX_BYTES)
    except NotARegularFile as err:
        return f"not a regular file: {err.what}".encode()
    except TooBig:
        return b"too big"
    except OSError as err:  # unreadable, a broken link: reported by the loader
        return f"unreadable: {err.strerror}".encode()


def stamp_path(pdf: Path) -> Path:
    return pdf.with_name(f".{pdf.name}.inputs")


def _temporary(path: Path) -> Path:
    """Where `path` is written before it is renamed into place (pnp.document uses the same name)."""
    return path.with_name(f".{path.name.removeprefix('.')}.tmp")


def _stamp_text(key: str, pdf: Path) -> str:
    data = read_limited(pdf, MAX_PDF_BYTES)
    return f"inputs {key}\npdf {len(data)} {hashlib.sha256(data).hexdigest()}\n"


def is_fresh(pdf: Path, key: str) -> bool:
    """True only if the stamp was written for these inputs together with this very PDF."""
    try:
        recorded = read_limited(stamp_path(pdf), MAX_STAMP_BYTES).decode("utf-8", "replace")
        return recorded.startswith(f"inputs {key}\n") and recorded == _stamp_text(key, pdf)
    except (OSError, NotARegularFile, TooBig):  # no stamp, no PDF, or a link to a device in their place
        return False


def forget(pdf: Path) -> None:
    """Drop the stamp before `pdf` is rewritten, so a build killed part way leaves none behind."""
    stamp_path(pdf).unlink(missing_ok=True)


def remember(pdf: Path, key: str) -> None:
    """Stamp `pdf`, already in place, as built from `key`; the stamp appears whole or not at all."""
    stamp = stamp_path(pdf)
    tmp = _temporary(stamp)
    try:
        tmp.write_text(_stamp_text(key, pdf))
        os.replace(tmp, stamp)
    finally:
        tmp.unlink(missing_ok=True)


def clear_strays(pdf: Path) -> None:
    """Remove what a killed build of `pdf` left behind: its temporary PDF and temporary stamp."""
    for stray in (_temporary(pdf), _temporary(stamp_path(pdf))):
        stray.unlink(missing_ok=True)
