"""YAML read with the position of every value, so a validation error can name file:line:col.

Whatever a file holds, reading it gives data or a ContentError: bytes that are not UTF-8 text,
tags our content has no use for, alias bombs and runaway nesting are refused with a located
problem, never a traceback, and within bounded time and memory.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
import yaml.scanner
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent, StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from pnp.content.problems import ContentError, Mark, Problem, describe, display_path
from pnp.regular_file import MAX_BYTES, NotARegularFile, TooBig, read_limited

Path_ = tuple  # a path into the data: keys and list indexes

MAX_NODES = 100_000  # values built, counting each use of an alias: stops a "billion laughs" file
MAX_DEPTH = 64  # nesting of lists and mappings; our content nests four deep

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_CORE + name for name in ("str", "int", "float", "bool", "null")}
_MERGE = _CORE + "merge"
_TOO_DEEP = f"nested too deep (expected at most {MAX_DEPTH} levels, got more)"
_TOO_MANY = f"too many values (expected at most {MAX_NODES:,} counting each use of an alias, got more)"
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")  # what YAML counts as a new line


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
        path, dotted = self._walk(loc)
        while path and path not in self.marks:
            path = path[:-1]
        return self.marks.get(path, self.marks[()]), dotted

    def key_mark_for(self, loc: tuple) -> Mark | None:
        """Where the key that `loc` ends with was written, if it is in the data."""
        path, _ = self._walk(loc)
        return self.key_marks.get(path) if path and path[-1] == loc[-1] else None

    def _walk(self, loc: tuple) -> tuple[Path_, str]:
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
        return path, ".".join(dotted)


def read_yaml(path: Path) -> Source:
    """Parse one file; unreadable text, syntax errors, duplicate keys and values our content
    cannot hold become ContentError."""
    name = display_path(path)
    root = _compose(_read_text(path, name), name)
    source = Source(data={}, marks={(): Mark(name, 1, 1)})
    if root is None:
        return source
    builder = _Builder(name, source)
    source.data = builder.value(root, ())
    if builder.problems:
        raise ContentError(builder.problems)
    return source


def _refuse(mark: Mark, message: str) -> ContentError:
    return ContentError([Problem(mark, "", message)])


def _read_text(path: Path, name: str) -> str:
    """The file's text; what is not a readable file of UTF-8 text is a problem at its first bad byte."""
    start = Mark(name, 1, 1)
    try:
        data = read_limited(path, MAX_BYTES)
    except NotARegularFile as err:
        raise _refuse(start, f"expected a YAML file, got {err.what}") from None
    except TooBig:
        raise _refuse(start, f"expected a file of at most {MAX_BYTES:,} bytes, got more") from None
    except FileNotFoundError:
        got = "a link to a missing file" if path.is_symlink() else "no file"
        raise _refuse(start, f"expected a readable file, got {got}") from None
    except OSError as err:
        raise _refuse(start, f"expected a readable file, got {(err.strerror or str(err)).lower()}") from None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise _refuse(start, "expected UTF-8 text, got UTF-16 (save the file as UTF-8)")
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        where = _position(name, data[: err.start].decode("utf-8"))
        raise _refuse(where, f"expected UTF-8 text, got byte {data[err.start]:#04x} (save the file as UTF-8)") from None
    bad = Reader.NON_PRINTABLE.search(text)  # YAML refuses these characters anywhere, even in comments
    if bad:
        raise _refuse(_position(name, text[: bad.start()]), f"expected text, got control character U+{ord(bad[0]):04X}")
    return text


def _position(name: str, before: str) -> Mark:
    """The mark of the character that follows `before`, counted as YAML counts lines and columns."""
    lines = _BREAK.split(before)
    return Mark(name, len(lines), len(lines[-1]) + 1)


def _compose(text: str, name: str) -> Node | None:
    try:
        try:
            return _FastLoader(text).get_single_node()
        except yaml.MarkedYAMLError:
            # libyaml has limits and words of its own (a release refuses flow nesting past 1,000
            # levels before our limit is reached): what it refuses is read again in Python, so the
            # outcome, our limits and the message, is ours whichever PyYAML is installed.
            return _PythonLoader(text).get_single_node()
    except _Refused as err:
        raise _refuse(Mark(name, err.mark.line + 1, err.mark.column + 1), err.message) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise _refuse(Mark(name, line, col), _syntax(err, text, line, col)) from None


def _syntax(err: yaml.MarkedYAMLError, text: str, line: int, col: int) -> str:
    """A YAML syntax error in our words: what was expected by the kind of error, and what is
    written at its place (PyYAML's own words change between releases and name its internals)."""
    lines = _BREAK.split(text)
    rest = lines[line - 1][col - 1 :] if line <= len(lines) else ""
    if line > len(lines) or (line == len(lines) and not rest.strip()):
        got = "the end of the file"
    elif rest.startswith("\t"):
        got = "a tab (YAML indents with spaces)"
    else:
        got = describe(rest.strip()[:40] or rest[:40])
    if isinstance(err, yaml.scanner.ScannerError):
        expected = "text YAML can read (quote a value that holds ': ' or ' #' or starts with one of *&!|>%@`)"
    elif "flow" in (err.context or ""):
        expected = "a ',' or the closing bracket of a [list] or {mapping}"
    else:
        expected = "a key of the mapping at its indentation, or a value after the key on its line"
    return f"YAML syntax (expected {expected}, got {got})"


class _Resolver(Resolver):
    """Plain scalars read as text unless written as a plain number, true/false or null: a value is
    never turned into something the user did not write. YAML 1.1 would read 2024-02-30 as a date
    (and 2024-02-30 as an error), 010 as 8, 1:30 as 90, 1_000 as 1000 and no or off as false; here
    each stays the text it is, printed as written or refused by the field it fills."""

    yaml_implicit_resolvers: dict = {}


for _tag, _pattern, _first in (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^[-+]?(?:0|[1-9][0-9]*)$", "-+0123456789"),
    (
        "float",
        r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$",
        "-+0123456789.",
    ),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("merge", r"^<<$", "<"),
):
    _Resolver.add_implicit_resolver(_CORE + _tag, re.compile(_pattern), list(_first))


class _Composing(Composer, _Resolver):
    """Nodes composed in Python from any parser's events: nesting limited, and the composer's own
    refusals (a second document, an unknown or repeated anchor) in our words."""

    def __init__(self):
        Composer.__init__(self)
        _Resolver.__init__(self)
        self.depth = 0

    def get_single_node(self):
        self.get_event()  # stream start
        document = None if self.check_event(StreamEndEvent) else self.compose_document()
        if not self.check_event(StreamEndEvent):
            raise _Refused(self.get_event().start_mark, "expected one YAML document, got another (a line '---')")
        self.get_event()  # stream end
        return document

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, AliasEvent) and event.anchor not in self.anchors:
            raise _Refused(event.start_mark, f"unknown alias (expected &{event.anchor} written before *{event.anchor})")
        if event.anchor is not None and not isinstance(event, AliasEvent) and event.anchor in self.anchors:
            raise _Refused(event.start_mark, f"duplicate anchor (expected each &name once, got &{event.anchor} again)")
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Refused(event.start_mark, _TOO_DEEP)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _PythonLoader(_Composing, Reader, Scanner, Parser):
    def __init__(self, stream: str):
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        _Composing.__init__(self)


# libyaml parses several times faster; its own composer recurses in C and overflows the stack
# on deep nesting (a crash, not an exception), so its events are composed in Python too.
if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class _FastLoader(_Composing, CParser):
        def __init__(self, stream: str):
            CParser.__init__(self, stream)
            _Composing.__init__(self)

else:  # pragma: no cover - PyYAML built without libyaml
    _FastLoader = _PythonLoader


class _Refused(Exception):
    """A refusal of ours, at the place in the text it concerns."""

    def __init__(self, mark: yaml.Mark, message: str):
        self.mark, self.message = mark, message


class _Builder:
    """Plain data and the mark of every value from a composed node graph, with problems for
    what our content cannot hold; a file past the limits stops with ContentError at once."""

    def __init__(self, name: str, source: Source):
        self.name, self.source = name, source
        self.problems: list[Problem] = []
        self.nodes = 0
        self.open: set[Node] = set()  # collections being built: an alias back to one is a cycle
        self.constructor = SafeConstructor()

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _refuse(self.source.marks[()], _TOO_MANY)

    def _problem(self, node: Node, path: Path_, message: str) -> None:
        self.problems.append(Problem(self._mark(node), ".".join(map(str, path)), message))

    def _mark(self, node: Node) -> Mark:
        return Mark(self.name, node.start_mark.line + 1, node.start_mark.column + 1)

    def value(self, node: Node, path: Path_) -> Any:
        self._count()
        self.source.marks[path] = self._mark(node)
        if len(path) >= MAX_DEPTH:  # aliases can nest deeper than the text does
            raise _refuse(self._mark(node), _TOO_DEEP)
        if isinstance(node, ScalarNode):
            value = self._scalar(node, path)
            return None if value is _INVALID else value
        if node in self.open:
            self._problem(node, path, "alias inside its own anchor (expected a value that ends, got a cycle)")
            return None
        if node.tag not in (_CORE + "seq", _CORE + "map"):
            self._problem(node, path, _unsupported(node))
            return None
        self.open.add(node)
        try:
            if isinstance(node, SequenceNode):
                return [self.value(item, path + (i,)) for i, item in enumerate(node.value)]
            return self._mapping(node, path)
        finally:
            self.open.discard(node)

    def _scalar(self, node: ScalarNode, path: Path_) -> Any:
        if node.tag not in _SCALAR_TAGS:
            self._problem(node, path, _unsupported(node))
            return _INVALID
        try:  # the tag's own constructor, without construct_object's bookkeeping for the graph it never builds here
            return self.constructor.yaml_constructors[node.tag](self.constructor, node)
        except (ValueError, LookupError):  # a tag the text does not fit (!!int "abc"), or a 5,000-digit int
            self._problem(node, path, f"expected a valid {_short(node.tag)} value, got {describe(node.value)}")
            return _INVALID

    def _mapping(self, node: MappingNode, path: Path_) -> dict:
        result: dict = {}
        for key_node, value_node, own in self._pairs(node, path):
            self._count()  # merged pairs are walked even when their key is taken: count them too
            key = self._key(key_node, path)
            if key is _INVALID:
                continue
            if key in result:
                if own:  # a key a merged mapping also has: the mapping's own value wins
                    dotted = ".".join(map(str, path + (key,)))
                    self.problems.append(
                        Problem(self._mark(key_node), dotted, "duplicate key (expected each key once, got it again)")
                    )
                continue
            self.source.key_marks[path + (key,)] = self._mark(key_node)
            result[key] = self.value(value_node, path + (key,))
        return result

    def _pairs(self, node: MappingNode, path: Path_, merging: frozenset = frozenset()):
        """A mapping's own (key, value, True) pairs, then (key, value, False) of the mappings it
        merges in with `<<: *anchor` or `<<: [*a, *b]` (YAML 1.1 merge keys, earlier wins)."""
        merged: list[Node] = []
        for key, value in node.value:
            if key.tag == _MERGE:
                merged += value.value if isinstance(value, SequenceNode) else [value]
            else:
                yield key, value, True
        for other in merged:
            if not isinstance(other, MappingNode):
                got = _node_kind(other)
            elif other in merging or other is node:
                got = "a mapping that merges itself"
            elif len(merging) >= MAX_DEPTH:
                got = f"merges nested more than {MAX_DEPTH} deep"
            else:
                yield from ((key, value, False) for key, value, _ in self._pairs(other, path, merging | {node}))
                continue
            self._problem(other, path, f"cannot merge (expected a mapping or a list of mappings for <<, got {got})")

    def _key(self, node: Node, path: Path_) -> Any:
        if not isinstance(node, ScalarNode):
            self._problem(node, path, f"expected a key that is text or a number, got {_node_kind(node)}")
            return _INVALID
        return self._scalar(node, path)


_INVALID = object()  # a scalar that could not be built, its problem reported


def _short(tag: str) -> str:
    return "!!" + tag.removeprefix(_CORE) if tag.startswith(_CORE) else tag


def _node_kind(node: Node) -> str:
    if isinstance(node, ScalarNode):
        return describe(node.value)
    return "a list" if isinstance(node, SequenceNode) else "a mapping"


def _unsupported(node: Node) -> str:
    return f"unsupported tag (expected plain text, numbers, true/false, lists and mappings, got {_short(node.tag)})"


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
