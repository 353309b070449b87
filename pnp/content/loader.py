"""A game's content: its YAML files, with user folders laid over the bundled ones.

Every file names its `kind`. A later folder's file replaces a bundled file of the same name;
a file with a new name adds to its kind when the kind is a deck (its `cards` are appended),
and is an error for any other kind, which a game holds once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from pnp.content.layers import layered_files
from pnp.content.markup import markup_problems
from pnp.content.problems import ContentError, Mark, Problem, display_path, expected_got
from pnp.content.validate import validate
from pnp.content.yamlsource import Source, read_yaml


@dataclass(frozen=True)
class Kind:
    model: type[BaseModel]
    deck: bool = False  # files of a deck kind add their `cards` together
    rich: bool = False  # printed on sheet pages, where every text is set as rich text: all its markup checked
    plain: tuple[str, ...] = ()  # a rich kind's fields that are not set as text (a gem's letter)


class MissingKind(KeyError):
    """A kind whose files did not validate (their problems are reported): a check that needs it stops."""


@dataclass(frozen=True)
class Content:
    """A game's validated models by kind, and where each of their values was written."""

    models: dict[str, BaseModel]
    sources: dict[str, list[tuple[Source, list[int]]]]  # kind -> (file, the indexes in it of the cards it gave)
    partly: frozenset[str] = frozenset()  # decks that hold only the cards that validated

    def __getitem__(self, kind: str):
        try:
            return self.models[kind]
        except KeyError:
            raise MissingKind(kind) from None

    def whole(self, kind: str):
        """The kind's model for a check of the whole of it (a deck's count, what it holds): a deck
        that holds only its cards that validated stops such a check, as a kind that did not."""
        if kind in self.partly:
            raise MissingKind(kind)
        return self[kind]

    def locate(self, kind: str, *path) -> tuple[Mark, str]:
        """Where `path` of a kind's model was written, and its dotted name in that file;
        a deck's card index counts across its files, and the deck as a whole is located in
        the last file that added to it (where a user would add or remove cards)."""
        files = self.sources[kind]
        if path == ("cards",):
            return files[-1][0].mark_for(path)
        if len(path) >= 2 and path[0] == "cards":
            index = path[1]
            for source, indexes in files:
                if index < len(indexes):
                    return source.mark_for(("cards", indexes[index], *path[2:]))
                index -= len(indexes)
        return files[0][0].mark_for(path)

    def problem(self, kind: str, *path, message: str) -> Problem:
        return Problem(*self.locate(kind, *path), message)

    def repeated_names(self, kind: str, what: str) -> Iterator[Problem]:
        """A problem for each card of the deck `kind` whose name an earlier card has (in any
        case): a name is how a card is known at the table."""
        seen: dict[str, int] = {}
        for i, card in enumerate(self[kind].cards):
            key = card.name.casefold()
            if key in seen:
                message = f"expected a name of its own, got {card.name!r} (also {what} {seen[key] + 1})"
                yield self.problem(kind, "cards", i, "name", message=message)
            seen.setdefault(key, i)

    def repeated_attributes(self, kind: str, field: str, attributes: tuple[str, ...], what: str) -> Iterator[Problem]:
        """A problem for each item of the list `field` of `kind` that repeats an earlier item's
        value of one of `attributes` (an id, a letter, a symbol), naming the item that has it."""
        items = getattr(self[kind], field)
        for attribute in attributes:
            first: dict[str, str] = {}
            for i, item in enumerate(items):
                value = getattr(item, attribute)
                if value in first:
                    message = f"expected a {attribute} no other {what} has, got {value!r} (as {first[value]} has)"
                    yield self.problem(kind, field, i, attribute, message=message)
                first.setdefault(value, item.name)


def run_checks(content: Content, *checks: Callable[[Content], Iterable[Problem]]) -> list[Problem]:
    """The problems every check finds on what validated: a check that reads a kind whose files did
    not validate stops there, keeping what it found, and the others still run. So a wrong type in
    one file never hides an unknown name in another; a game's checks are generators of problems,
    one for each part of the content they read."""
    problems: list[Problem] = []
    for check in checks:
        try:
            for problem in check(content):
                problems.append(problem)
        except MissingKind:
            pass
    return problems


def load(game_id: str, kinds: dict[str, Kind], layers: list[Path]) -> Content:
    """One validated model per kind; all problems of all files reported together."""
    content, problems = load_partly(game_id, kinds, layers)
    if problems:
        raise ContentError(problems)
    return content


def load_partly(game_id: str, kinds: dict[str, Kind], layers: list[Path]) -> tuple[Content, list[Problem]]:
    """The kinds whose files validated, and the problems of all the others."""
    problems: list[Problem] = []
    found: dict[str, list[tuple[Path, Source, BaseModel, list[int] | None]]] = {}  # None: all its cards
    declared: set[str] = set()  # kinds some file claims, valid or not
    failed: set[str] = set()  # kinds with a file that did not validate: left out (a deck keeps its valid cards)
    partly: set[str] = set()  # decks with a card that did not validate
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
        if kinds[kind_name].rich:  # also beside a type error elsewhere in the file: all at once
            problems += markup_problems(source, kinds[kind_name].plain)
        model = kinds[kind_name].model
        try:
            found.setdefault(kind_name, []).append((path, source, validate(model, source), None))
        except ContentError as err:
            problems += err.problems
            cards = _valid_cards(model, source) if kinds[kind_name].deck else None
            if cards is None:
                failed.add(kind_name)
            else:  # its other cards are still checked against the rest of the game
                found.setdefault(kind_name, []).append((path, source, *cards))
                partly.add(kind_name)
    models: dict[str, BaseModel] = {}
    sources: dict[str, list[tuple[Source, int]]] = {}
    where = Mark(display_path(layers[0] / game_id), 1, 1)
    for name, kind in kinds.items():
        files = found.get(name, [])
        if name in failed:
            continue
        if unknown and kind.deck:  # an unread file may hold more of the deck
            partly.add(name)
        if not files:
            if name not in declared and not unknown:
                problems.append(Problem(where, "", f"no {name} file (expected one file with kind: {name}, got none)"))
            continue
        if len(files) > 1 and not kind.deck:
            names = ", ".join(display_path(p) for p, *_ in files)
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
            model = model.model_copy(update={"cards": [card for _, _, m, _ in files for card in m.cards]})
        models[name] = model
        sources[name] = [
            (source, list(range(len(getattr(m, "cards", ())))) if indexes is None else indexes)
            for _, source, m, indexes in files
        ]
    return Content(models, sources, frozenset(partly & set(models))), problems


def _valid_cards(model: type[BaseModel], source: Source) -> tuple[BaseModel, list[int]] | None:
    """A deck file that did not validate, as a deck of the cards in it that do (each validated in
    the file on its own), and their indexes; None when none does, or the file's own fields do not."""
    cards = source.data.get("cards")
    if not isinstance(cards, list):
        return None
    valid: list[tuple[int, BaseModel]] = []
    for index, card in enumerate(cards):
        try:
            valid.append((index, validate(model, Source({**source.data, "cards": [card]}, source.marks))))
        except ContentError:
            continue
    if not valid:
        return None
    deck = valid[0][1].model_copy(update={"cards": [m.cards[0] for _, m in valid]})
    return deck, [index for index, _ in valid]
