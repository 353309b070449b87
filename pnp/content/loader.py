"""A game's content: its YAML files, with user folders laid over the bundled ones.

Every file names its `kind`. A later folder's file replaces a bundled file of the same name;
a file with a new name adds to its kind when the kind is a deck (its `cards` are appended),
and is an error for any other kind, which a game holds once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from pnp.content.problems import ContentError, Mark, Problem, did_you_mean, expected_got
from pnp.content.validate import validate
from pnp.content.yamlsource import Source, display_path, read_yaml


@dataclass(frozen=True)
class Kind:
    model: type[BaseModel]
    deck: bool = False  # files of a deck kind add their `cards` together


@dataclass(frozen=True)
class Content:
    """A game's validated models by kind, and where each of their values was written."""

    models: dict[str, BaseModel]
    sources: dict[str, list[tuple[Source, int]]]  # kind -> (file, how many cards it gave)

    def __getitem__(self, kind: str):
        return self.models[kind]

    def locate(self, kind: str, *path) -> tuple[Mark, str]:
        """Where `path` of a kind's model was written, and its dotted name in that file;
        a deck's card index counts across its files, and the deck as a whole is located in
        the last file that added to it (where a user would add or remove cards)."""
        files = self.sources[kind]
        if path == ("cards",):
            return files[-1][0].mark_for(path)
        if len(path) >= 2 and path[0] == "cards":
            index = path[1]
            for source, count in files:
                if index < count:
                    return source.mark_for(("cards", index, *path[2:]))
                index -= count
        return files[0][0].mark_for(path)

    def problem(self, kind: str, *path, message: str) -> Problem:
        return Problem(*self.locate(kind, *path), message)


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
    return [Problem(_start(layer), "", f"nothing to read (expected {expected}, got {_holding(layer, game_ids)})")]


def _holding(layer: Path, game_ids: list[str]) -> str:
    """What a content folder holds instead of game folders of YAML files, and the likely fix."""
    if next(layer.glob("*.yaml"), None) or next(layer.glob("*.yml"), None):
        return f"YAML files directly in {layer.name}: pass the folder above it"
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


def load(game_id: str, kinds: dict[str, Kind], layers: list[Path]) -> Content:
    """One validated model per kind; all problems of all files reported together."""
    problems: list[Problem] = []
    found: dict[str, list[tuple[Path, Source, BaseModel]]] = {}
    declared: set[str] = set()  # kinds some file claims, valid or not
    unknown = False  # a file whose kind could not be read may be the "missing" one
    for path in layered_files(game_id, layers):
        try:
            source = read_yaml(path)
        except ContentError as err:
            problems += err.problems
            unknown = True
            continue
        if not isinstance(source.data, dict):
            problems.append(
                Problem(source.marks[()], "", expected_got("a mapping of fields, kind: first", source.data))
            )
            unknown = True
            continue
        kind_name = source.data.get("kind")
        if not isinstance(kind_name, str) or kind_name not in kinds:
            mark, _ = source.mark_for(("kind",))
            expected = "one of " + ", ".join(sorted(kinds))
            problems.append(Problem(mark, "kind", expected_got(expected, kind_name, list(kinds))))
            unknown = True
            continue
        declared.add(kind_name)
        try:
            found.setdefault(kind_name, []).append((path, source, validate(kinds[kind_name].model, source)))
        except ContentError as err:
            problems += err.problems
    models: dict[str, BaseModel] = {}
    sources: dict[str, list[tuple[Source, int]]] = {}
    where = Mark(display_path(layers[0] / game_id), 1, 1)
    for name, kind in kinds.items():
        files = found.get(name, [])
        if not files:
            if name not in declared and not unknown:
                problems.append(Problem(where, "", f"no {name} file (expected one file with kind: {name}, got none)"))
            continue
        if len(files) > 1 and not kind.deck:
            names = ", ".join(display_path(p) for p, _, _ in files)
            problems.append(
                Problem(
                    Mark(display_path(files[1][0]), 1, 1),
                    "kind",
                    f"{name} is held once per game (expected one file, got {names})",
                )
            )
            continue
        model = files[0][2]
        if kind.deck:
            model = model.model_copy(update={"cards": [card for _, _, m in files for card in m.cards]})
        models[name] = model
        sources[name] = [(source, len(getattr(m, "cards", ()))) for _, source, m in files]
    if problems:
        raise ContentError(problems)
    return Content(models, sources)
