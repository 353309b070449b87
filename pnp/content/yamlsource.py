"""YAML read with the position of every value, so a validation error can name file:line:col."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from pnp.content.problems import ContentError, Mark, Problem

Path_ = tuple  # a path into the data: keys and list indexes
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: several times faster


@dataclass
class Source:
    """Plain data from one or more YAML files, with where each part was written."""

    data: Any
    marks: dict[Path_, Mark] = field(default_factory=dict)
    key_marks: dict[Path_, Mark] = field(default_factory=dict)  # where a mapping's key was written

    def mark_for(self, loc: tuple) -> tuple[Mark, str]:
        """The mark and dotted field name for a validator's error location.

        Steps of `loc` that are not in the data (a union's branch name) are skipped; a missing
        field is reported at its parent mapping."""
        node, path, dotted = self.data, (), []
        for i, step in enumerate(loc):
            if (
                isinstance(node, dict)
                and step in node
                or (isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node))
            ):
                node, path = node[step], path + (step,)
                dotted.append(str(step))
            elif i == len(loc) - 1:
                dotted.append(str(step))  # a missing field: named, located at its parent
        while path and path not in self.marks:
            path = path[:-1]
        return self.marks.get(path, self.marks[()]), ".".join(dotted)


def display_path(path: Path) -> str:
    """Paths relative to the working directory when they are under it: shorter messages."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def read_yaml(path: Path) -> Source:
    """Parse one file; syntax errors and duplicate keys become ContentError."""
    name = display_path(path)
    text = path.read_text(encoding="utf-8")
    try:
        root = yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ContentError([Problem(Mark(name, line, col), "", f"YAML syntax: {err.problem or err}")]) from None
    source = Source(data={}, marks={(): Mark(name, 1, 1)})
    if root is None:
        return source
    problems: list[Problem] = []
    source.data = _build(root, (), name, source, problems, SafeConstructor())
    if problems:
        raise ContentError(problems)
    return source


def _build(node, path, name, source: Source, problems, constructor) -> Any:
    source.marks[path] = _mark(name, node)
    if isinstance(node, ScalarNode):
        return constructor.construct_object(node)
    if isinstance(node, SequenceNode):
        return [_build(item, path + (i,), name, source, problems, constructor) for i, item in enumerate(node.value)]
    if isinstance(node, MappingNode):
        result: dict = {}
        for key_node, value_node in node.value:
            key = constructor.construct_object(key_node)
            if key in result:
                dotted = ".".join(map(str, path + (key,)))
                problems.append(
                    Problem(_mark(name, key_node), dotted, "duplicate key (expected each key once, got it again)")
                )
                continue
            source.key_marks[path + (key,)] = _mark(name, key_node)
            result[key] = _build(value_node, path + (key,), name, source, problems, constructor)
        return result
    raise AssertionError(f"unknown YAML node {node!r}")


def _mark(name: str, node) -> Mark:
    return Mark(name, node.start_mark.line + 1, node.start_mark.column + 1)


def merged(base: Source, override: Source) -> Source:
    """`override` laid over `base`: mappings merge key by key, anything else is replaced.

    Each value keeps the mark of the file it came from (used for template `extends`)."""
    marks = dict(base.marks)
    key_marks = {**base.key_marks, **override.key_marks}

    def merge(a: Any, b: Any, path: tuple) -> Any:
        if isinstance(a, dict) and isinstance(b, dict):
            out = dict(a)
            for key, value in b.items():
                out[key] = merge(a.get(key), value, path + (key,))
            return out
        for p in [p for p in marks if p[: len(path)] == path]:
            del marks[p]
        marks.update({p: m for p, m in override.marks.items() if p[: len(path)] == path})
        return b

    data = merge(base.data, override.data, ())
    marks[()] = override.marks[()]
    return Source(data, marks, key_marks)
