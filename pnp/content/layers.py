"""Which files a game reads: the bundled content with the user's folders laid over it, and what
is wrong with a user's folder as a layer. Plain paths, no parsing: the CLI asks before anything
heavy is imported, and a no-change rebuild never imports pydantic."""

from __future__ import annotations

from pathlib import Path

from pnp.content.problems import Mark, Problem, did_you_mean, display_path, expected_got


def layered_files(game_id: str, layers: list[Path]) -> list[Path]:
    """The game's YAML files: bundled ones in name order, a user's new ones after them."""
    chosen: dict[str, Path] = {}
    for layer in layers:
        for path in sorted((layer / game_id).glob("*.yaml")):
            chosen[path.name] = path  # same name: replaced in place; new name: appended
    return list(chosen.values())


def layer_problems(layer: Path, game_ids: list[str]) -> list[Problem]:
    """What is wrong with a user's content folder as a layer for `game_ids`: a folder that holds
    nothing for them would build our own cards unchanged, so it is an error that says what it
    holds; a misspelt game folder and `.yml` files, which would be ignored, are errors too."""
    problems = []
    for folder in sorted(p for p in layer.iterdir() if p.is_dir() and p.name not in game_ids):
        if did_you_mean(folder.name, game_ids):
            expected = "a folder named after a game (" + ", ".join(game_ids) + ")"
            problems.append(Problem(_start(folder), "", expected_got(expected, folder.name, game_ids)))
    for path in sorted(p for game_id in game_ids for p in (layer / game_id).glob("*.yml")):
        problems.append(Problem(_start(path), "", f"not read (expected {path.stem}.yaml, got {path.name})"))
    if problems or any(next((layer / game_id).glob("*.yaml"), None) for game_id in game_ids):
        return problems
    expected = " or ".join(f"{display_path(layer / game_id)}/*.yaml" for game_id in game_ids)
    # A game's own folder passed instead of the one above it: each file the user meant is named
    misplaced = sorted([*layer.glob("*.yaml"), *layer.glob("*.yml")])
    if misplaced:
        got = f"it directly in {layer.name}: pass the folder above it"
        return [Problem(_start(path), "", f"not read (expected {expected}, got {got})") for path in misplaced]
    return [Problem(_start(layer), "", f"nothing to read (expected {expected}, got {_holding(layer, game_ids)})")]


def _holding(layer: Path, game_ids: list[str]) -> str:
    """What a content folder holds instead of game folders of YAML files, and the likely fix."""
    names = sorted(p.name for p in layer.iterdir() if p.is_dir())
    for name in names:
        if name in game_ids:
            return f"no .yaml files in {name}"
        for game_id in game_ids:
            if (layer / name / game_id).is_dir():
                return f"{name}/{game_id} one level down: pass {display_path(layer / name)}"
    return "folders " + ", ".join(names) if names else "no folders"


def _start(path: Path) -> Mark:
    return Mark(display_path(path), 1, 1)
