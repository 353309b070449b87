"""`pnp new`: a starter --content folder for a game, one commented card file per deck kind.

Each game package keeps its starter files in its own `starter/` folder, named after the deck kind
(`starter/<kind>.yaml`), so adding a game adds its starter with it and nothing here names a game.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from pnp.gamedef import GameDef

PREFIX = "my-"  # never a bundled file's name: a same-named file would replace ours instead of adding


def starter_folder(game: GameDef) -> Path:
    """The game package's starter/ folder (the package its kinds module lives in)."""
    kinds_module = import_module(game.kinds.partition(":")[0])
    return Path(kinds_module.__file__).parent / "starter"


def starter_files(game: GameDef) -> dict[str, Path]:
    """Deck kind -> its starter file."""
    folder = starter_folder(game)
    return {kind: folder / f"{kind}.yaml" for kind, spec in game.load("kinds").items() if spec.deck}


def planned(game: GameDef, root: Path) -> list[tuple[Path, Path]]:
    """(starter file, where it goes under root) for each deck kind of the game."""
    return [(path, root / game.id / f"{PREFIX}{kind}.yaml") for kind, path in starter_files(game).items()]


def write_starter(plan: list[tuple[Path, Path]]) -> list[Path]:
    written = []
    for source, target in plan:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        written.append(target)
    return written
