"""Whatever a content folder holds, reading it gives content or located problems, never a traceback.

A hand-written corpus of what a fuzzer found (each asserting the exact message and place), then
property-based tests feeding random bytes and mutated real content files to the loader.
"""

from __future__ import annotations

import shutil
from enum import Enum
from pathlib import Path
from typing import Annotated, Literal
from uuid import UUID

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, field_validator

from pnp.cli import main
from pnp.content import yamlsource
from pnp.content.loader import load
from pnp.content.problems import ContentError, display_path
from pnp.content.validate import Strict, validate
from pnp.content.yamlsource import MAX_DEPTH, MAX_NODES, read_yaml
from pnp.gamedef import games
from pnp.paths import CONTENT
from tests.support.properties import PROPERTY

GAME = "spells-and-potions"
GAMES = list(games())
KINDS = {game_id: game.load("kinds") for game_id, game in games().items()}


@pytest.fixture
def work(tmp_path, monkeypatch):
    """Run from tmp_path, so problems name files by a short relative path."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def problems(path: Path) -> list[str]:
    with pytest.raises(ContentError) as err:
        read_yaml(path)
    return [str(p) for p in err.value.problems]


def written(name: str, data: bytes | str) -> Path:
    path = Path(name)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def overlay(text: str, name: str = "x.yaml") -> Path:
    folder = Path("ov") / GAME
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return Path("ov")


def load_problems(layer: Path) -> list[str]:
    with pytest.raises(ContentError) as err:
        load(GAME, KINDS[GAME], [CONTENT, layer])
    return [str(p) for p in err.value.problems]


# --- 1. files that are not UTF-8 text, or not files -----------------------------------------------


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"kind: game\ntitle: Caf\xe9\n", "x.yaml:2:11: expected UTF-8 text, got byte 0xe9 (save the file as UTF-8)"),
        ("kind: game\n".encode("utf-16"), "x.yaml:1:1: expected UTF-8 text, got UTF-16 (save the file as UTF-8)"),
        (b"kind: game\n\x00\x01\x02", "x.yaml:2:1: expected text, got control character U+0000"),
        (b"title: a\x1bb\n", "x.yaml:1:9: expected text, got control character U+001B"),
        ("title: \u00e9t\u00e9\r\n\u00e9\x7f".encode(), "x.yaml:2:2: expected text, got control character U+007F"),
    ],
    ids=["latin-1", "utf-16", "binary", "escape", "delete-after-crlf"],
)
def test_bytes_that_are_not_utf8_text_are_located(work, data, expected):
    assert problems(written("x.yaml", data)) == [expected]


def test_a_utf8_byte_order_mark_is_allowed(work):
    assert read_yaml(written("x.yaml", b"\xef\xbb\xbftitle: caf\xc3\xa9\n")).data == {"title": "café"}


def test_a_folder_a_broken_link_and_an_unreadable_file(work, monkeypatch):
    Path("folder.yaml").mkdir()
    Path("broken.yaml").symlink_to("nowhere.yaml")
    locked = written("locked.yaml", "kind: game\n")
    opened = Path.open

    def refuse(self, *args, **kwargs):
        if self.name == "locked.yaml":
            raise PermissionError(13, "Permission denied", str(self))
        return opened(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    assert problems(Path("folder.yaml")) == ["folder.yaml:1:1: expected a YAML file, got a folder"]
    assert problems(Path("broken.yaml")) == ["broken.yaml:1:1: expected a readable file, got a link to a missing file"]
    assert problems(locked) == ["locked.yaml:1:1: expected a readable file, got permission denied"]


def test_a_bad_file_in_a_game_folder_is_one_problem_not_also_a_missing_kind(work):
    layer = overlay("x", name="magic-cards.yaml")
    (layer / GAME / "magic-cards.yaml").write_bytes(b"kind: magic-cards\ncards: \xff\n")
    (layer / GAME / "zz.yaml").mkdir()
    assert load_problems(layer) == [
        "ov/spells-and-potions/magic-cards.yaml:2:8: expected UTF-8 text, got byte 0xff (save the file as UTF-8)",
        "ov/spells-and-potions/zz.yaml:1:1: expected a YAML file, got a folder",
    ]


# --- 2. YAML that parses but does not convert ---------------------------------------------------


def test_merge_keys_merge_with_explicit_keys_winning_and_marks_kept(work):
    text = (
        "base: &base {name: Hex, count: 0, type: spell}\n"
        "more: &more {flavour: old, type: potion}\n"
        "card:\n"
        "  <<: [*base, *more]\n"
        "  name: Brew\n"
    )
    source = read_yaml(written("x.yaml", text))
    assert source.data["card"] == {"name": "Brew", "count": 0, "type": "spell", "flavour": "old"}
    assert source.mark_for(("card", "count")) == (source.marks[("base", "count")], "card.count")
    assert str(source.marks[("card", "name")]) == "x.yaml:5:9"
    assert str(source.marks[("card", "count")]) == "x.yaml:1:32"  # where the merged value was written


def test_a_merged_card_is_validated_and_its_problem_points_at_the_anchor(work):
    text = (
        "kind: magic-cards\n"
        "cards:\n"
        "  - &hex {name: Hex, type: spell, count: 13, effect: Burn.}\n"
        "  - <<: *hex\n"
        "    name: Other Hex\n"
    )
    assert load_problems(overlay(text)) == [
        "ov/spells-and-potions/x.yaml:3:42: cards.0.count: expected a number <= 12, got 13",
        "ov/spells-and-potions/x.yaml:3:42: cards.1.count: expected a number <= 12, got 13",
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a: {<<: 3}\n", "x.yaml:1:9: a: cannot merge (expected a mapping or a list of mappings for <<, got '3')"),
        (
            "a: &a {<<: *a}\n",
            "x.yaml:1:4: a: cannot merge (expected a mapping or a list of mappings for <<, "
            "got a mapping that merges itself)",
        ),
        ("a: !fancy 1\n", "x.yaml:1:4: a: " + "unsupported tag ({}, got !fancy)"),
        ("a: !!binary aGk=\n", "x.yaml:1:4: a: unsupported tag ({}, got !!binary)"),
        ("a: !!set {x, y}\n", "x.yaml:1:4: a: unsupported tag ({}, got !!set)"),
        ("a: !!omap [x: 1]\n", "x.yaml:1:4: a: unsupported tag ({}, got !!omap)"),
        ("a: !!timestamp 2024-01-01\n", "x.yaml:1:4: a: unsupported tag ({}, got !!timestamp)"),
        ('a: !!int "abc"\n', "x.yaml:1:4: a: expected a valid !!int value, got 'abc'"),
        ('a: !!bool "maybe"\n', "x.yaml:1:4: a: expected a valid !!bool value, got 'maybe'"),
        ("? [a, b]\n: 1\n", "x.yaml:1:3: expected a key that is text or a number, got a list"),
        ("a:\n  ? {b: c}\n  : 1\n", "x.yaml:2:5: a: expected a key that is text or a number, got a mapping"),
        ("a: &a [*a]\n", "x.yaml:1:4: a.0: alias inside its own anchor (expected a value that ends, got a cycle)"),
        ("a: 1\n---\nb: 2\n", "x.yaml:2:1: expected one YAML document, got another (a line '---')"),
        ("a: *nowhere\n", "x.yaml:1:4: unknown alias (expected &nowhere written before *nowhere)"),
        ("a: &x 1\nb: &x 2\n", "x.yaml:2:4: duplicate anchor (expected each &name once, got &x again)"),
    ],
    ids=lambda value: value.split("\n")[0][:30],
)
def test_yaml_that_does_not_convert_is_a_located_problem(work, text, expected):
    plain = "expected plain text, numbers, true/false, lists and mappings"
    assert problems(written("x.yaml", text)) == [expected.format(plain)]


def test_dates_stay_text(work):
    source = read_yaml(written("x.yaml", "title: 2024-01-01\nwhen: 2024-02-30\nat: 2001-12-14t21:59:43.10-05:00\n"))
    assert source.data == {"title": "2024-01-01", "when": "2024-02-30", "at": "2001-12-14t21:59:43.10-05:00"}


def test_only_plain_numbers_true_false_and_null_convert(work):
    """YAML 1.1 reads 010 as 8, 1:30 as 90, 1_000 as 1000 and no as false: each stays the text written."""
    text = "a: 010\nb: 1:30\nc: 1_000\nd: no\ne: Off\nf: 0x1F\ng: 12\nh: -2.5\ni: true\nj: null\nk: ~\nl:\n"
    assert read_yaml(written("x.yaml", text)).data == {
        **{"a": "010", "b": "1:30", "c": "1_000", "d": "no", "e": "Off", "f": "0x1F"},
        **{"g": 12, "h": -2.5, "i": True, "j": None, "k": None, "l": None},
    }


def texts(data, path=()):
    """(path, text) of every string value in `data`."""
    if isinstance(data, str):
        yield path, data
    for key, value in data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ():
        yield from texts(value, (*path, key))


SHEET_FILES = [  # bundled files of the kinds printed on sheet pages, where every text is set as rich text
    (game_id, path.name)
    for game_id in GAMES
    for path in sorted((CONTENT / game_id).glob("*.yaml"))
    if KINDS[game_id][read_yaml(path).data["kind"]].rich
]


@pytest.mark.parametrize("game_id, name", SHEET_FILES, ids=lambda v: v.replace("/", "-"))
def test_every_text_of_a_sheet_page_kind_has_its_markup_checked_as_it_loads(work, game_id, name):
    """Typed str or rich text alike: an unclosed ** in every text of the file is a problem at every
    one, all at once (a sheet page sets them all as rich text; MarkupError came out of check)."""
    data = read_yaml(CONTENT / game_id / name).data
    plain = KINDS[game_id][data["kind"]].plain
    marked = {path: text + " **" for path, text in texts(data) if path[0] not in ("kind", *plain)}
    for path, text in marked.items():
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = text
    folder = Path("ov") / game_id
    folder.mkdir(parents=True)
    (folder / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load(game_id, KINDS[game_id], [CONTENT, Path("ov")])
    unclosed = "expected every ** closed on the line it opens (one is left open)"
    assert {p.field for p in err.value.problems if p.message.startswith(unclosed)} == {
        ".".join(map(str, path)) for path in marked
    }


def test_a_kind_that_is_a_list_or_a_file_that_is_a_list(work):
    layer = overlay("kind: [magic-cards]\n")
    (layer / GAME / "y.yaml").write_text("- kind: game\n")
    assert load_problems(layer) == [
        "ov/spells-and-potions/x.yaml:1:7: kind: expected one of duel-rules, element-suits, game, magic-cards, "
        "reference-card, rulings, score-pad, setup, words, got a list",
        "ov/spells-and-potions/y.yaml:1:1: expected a mapping of fields, kind: first, got a list",
    ]


def test_nesting_is_limited_in_the_text_and_through_aliases(work):
    deep = "[" * 300 + "]" * 300
    assert problems(written("x.yaml", deep)) == [
        f"x.yaml:1:{MAX_DEPTH + 1}: nested too deep (expected at most {MAX_DEPTH} levels, got more)"
    ]
    # A million levels overflow libyaml's C composer; some libyaml releases refuse flow nesting past
    # 1,000 levels with words of their own. Whichever PyYAML is installed, the limit and words are ours.
    # (opening, where the value past the limit starts: with "{a: " the key inside the 64th mapping)
    for opening, column in (("[", 65), ("{", 65), ("[{", 65), ("{a: ", 63 * 4 + 2), ("{a: [", 32 * 5 + 1)):
        assert MAX_DEPTH == 64
        deep = opening * (1_000_000 // len(opening))
        assert problems(written("x.yaml", deep)) == [
            f"x.yaml:1:{column}: nested too deep (expected at most {MAX_DEPTH} levels, got more)"
        ], opening
    chain = "a0: &a0 [x]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 70))
    # a63 holds *a62 holds ... a0's list holds x: the first value found past the limit is x
    assert problems(written("x.yaml", chain)) == [
        f"x.yaml:1:10: nested too deep (expected at most {MAX_DEPTH} levels, got more)"
    ]


# --- 3. alias bombs and huge files ---------------------------------------------------------------

TOO_MANY = "x.yaml:1:1: too many values (expected at most 100,000 counting each use of an alias, got more)"


@pytest.fixture
def values_built(monkeypatch):
    """How many values the reader built before it stopped: a bomb must stop at the limit, not
    after expanding (this is what keeps it quick, whatever the machine)."""
    built = []
    count = yamlsource._Builder._count

    def counted(self):
        built.append(self.nodes + 1)
        count(self)

    monkeypatch.setattr(yamlsource._Builder, "_count", counted)
    return built


def test_a_billion_laughs_file_is_refused_at_the_limit(work, values_built):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    letters = "abcdefghij"
    for prev, name in zip(letters, letters[1:], strict=False):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    assert problems(written("x.yaml", "\n".join(lines) + "\n")) == [TOO_MANY]
    assert max(values_built) == MAX_NODES + 1  # 9**10 values written; one past the limit built


def test_a_merge_key_bomb_is_refused_at_the_limit(work, values_built):
    lines = ["m0: &m0 {x: 1}"] + [f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}]}}" for i in range(1, 40)]
    assert problems(written("x.yaml", "\n".join(lines) + "\n")) == [TOO_MANY]
    assert max(values_built) == MAX_NODES + 1  # 2**40 merged pairs written


def test_a_huge_file_is_refused_unread(work):
    path = written("x.yaml", b"title: " + b"x" * 3_000_000 + b"\n")
    assert problems(path) == ["x.yaml:1:1: expected a file of at most 2,000,000 bytes, got more"]


# --- 4 and 5. messages from pydantic's error type and context, with suggestions -------------------


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


class Text(Strict):
    type: Literal["text"]


class Icon(Strict):
    type: Literal["icon"]


Region = Annotated[Text | Icon, Field(discriminator="type")]


class Sample(Strict):
    """A field for each kind of error the content models can give."""

    whole: int = 1
    real: float = 1.0
    at_least: int = Field(1, ge=1)
    at_most: float = Field(1.0, le=10)
    above: float = Field(1.0, gt=0)
    below: int = Field(1, lt=5)
    name: str = Field("x", min_length=1, max_length=5)
    tags: list[str] = Field(["a"], min_length=1, max_length=2)
    sort: Literal["spell", "potion"] = "spell"
    letter: str = Field("A", pattern=r"^[A-Z]$")
    flag: bool = True
    colour: Colour = Colour.RED
    table: dict[str, int] = {}
    region: Region = Text(type="text")
    other: Region = Text(type="text")
    inner: Text = Text(type="text")
    needed: str
    odd: int = 1
    ident: UUID | None = None

    @field_validator("odd")
    @classmethod
    def _odd(cls, value):
        if value % 2 == 0:
            raise ValueError("an odd number")
        return value


SAMPLE = """\
whole: one
real: lots
at_least: 0
at_most: 1.0e+308
above: 0
below: 5
name: toolong
tags: [a, b, c]
sort: spel
letter: ab
flag: maybe
colour: green
table: [1]
region: {type: txt}
other: {}
inner: 3
odd: 2
ident: nope
nmae: 1
"""

SAMPLE_PROBLEMS = [
    "x.yaml:1:1: needed: missing (expected a value, got nothing)",
    "x.yaml:1:8: whole: expected a whole number, got 'one'",
    "x.yaml:2:7: real: expected a number, got 'lots'",
    "x.yaml:3:11: at_least: expected a number >= 1, got 0",
    "x.yaml:4:10: at_most: expected a number <= 10.0, got 1e+308",
    "x.yaml:5:8: above: expected a number > 0.0, got 0",
    "x.yaml:6:8: below: expected a number < 5, got 5",
    "x.yaml:7:7: name: expected text of at most 5 characters, got 'toolong'",
    "x.yaml:8:7: tags: expected at most 2 items, got 3",
    "x.yaml:9:7: sort: expected one of 'spell', 'potion', got 'spel'; did you mean 'spell'?",
    "x.yaml:10:9: letter: expected text matching ^[A-Z]$, got 'ab'",
    "x.yaml:11:7: flag: expected true or false, got 'maybe'",
    "x.yaml:12:9: colour: expected one of 'red', 'blue', got 'green'",
    "x.yaml:13:8: table: expected a mapping, got a list",
    "x.yaml:14:9: region: expected 'type' to be one of 'text', 'icon', got 'txt'",
    "x.yaml:15:8: other: expected a 'type' field, got a mapping",
    "x.yaml:16:8: inner: expected a mapping of fields, got 3",
    "x.yaml:17:6: odd: expected an odd number, got 2",
    "x.yaml:18:8: ident: expected a valid value (uuid parsing), got 'nope'",  # no wording of its own
    "x.yaml:19:1: nmae: unknown field (expected one of "
    + ", ".join(Sample.model_fields)
    + ", got 'nmae'; did you mean 'name'?)",
]


def validation_problems(text: str) -> list[str]:
    with pytest.raises(ContentError) as err:
        validate(Sample, read_yaml(written("x.yaml", text)))
    return [str(p) for p in err.value.problems]


def test_each_error_type_has_its_own_message(work):
    assert validation_problems(SAMPLE) == SAMPLE_PROBLEMS


def test_lengths_types_and_numbers_that_are_not_finite(work):
    text = "needed: [x]\nname: ''\ntags: []\nwhole: [1]\nreal: .nan\nat_most: -.inf\nabove: nan\n"
    text += "inner: {type: text, x: 1}\n"
    assert validation_problems(text) == [
        "x.yaml:1:9: needed: expected text, got a list",
        "x.yaml:2:7: name: expected text of at least 1 character, got ''",
        "x.yaml:3:7: tags: expected at least 1 item, got 0",
        "x.yaml:4:8: whole: expected a whole number, got a list",
        "x.yaml:5:7: real: expected a finite number, got nan",
        "x.yaml:6:10: at_most: expected a finite number, got -inf",
        "x.yaml:7:8: above: expected a finite number, got 'nan'",  # text that reads as NaN too
        "x.yaml:8:21: inner.x: unknown field (expected one of type, got 'x')",
    ]


def test_unknown_fields_and_kinds_suggest_the_near_miss(work):
    layer = overlay("kind: magic-cards\ncards:\n  - {name: Hex, type: spel, count: .inf, efect: Burn.}\n")
    (layer / GAME / "y.yaml").write_text("kind: magic-cardz\ncards: []\n")
    assert load_problems(layer) == [
        "ov/spells-and-potions/x.yaml:3:5: cards.0.effect: missing (expected a value, got nothing)",
        "ov/spells-and-potions/x.yaml:3:23: cards.0.type: expected one of 'spell', 'counter-spell', 'potion', "
        "'antidote', got 'spel'; did you mean 'spell'?",
        "ov/spells-and-potions/x.yaml:3:36: cards.0.count: expected a finite number, got inf",
        "ov/spells-and-potions/x.yaml:3:42: cards.0.efect: unknown field (expected one of name, type, count, "
        "points, rank_bonus, changes, effect, flavour, got 'efect'; did you mean 'effect'?)",
        "ov/spells-and-potions/y.yaml:1:7: kind: expected one of duel-rules, element-suits, game, magic-cards, "
        "reference-card, rulings, score-pad, setup, words, got 'magic-cardz'; did you mean 'magic-cards'?",
    ]


# --- 6. a --content folder that holds nothing for the games built --------------------------------


def check(*args: str) -> list[str]:
    result = CliRunner().invoke(main, ["check", *args])
    assert result.exit_code == 2, (result.output, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stderr.splitlines()[:-1]


def game_file(path: str) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(CONTENT / GAME / "game.yaml", path)


def test_a_game_folder_passed_as_the_content_folder_names_each_file_not_read(work):
    game_file(f"my-cards/{GAME}/game.yaml")
    Path(f"my-cards/{GAME}/magic-cards.yaml").write_text("")  # empty, as a user's first file often is
    expected = f"(expected my-cards/{GAME}/{GAME}/*.yaml, got it directly in {GAME}: pass the folder above it)"
    assert check(GAME, "--content", f"my-cards/{GAME}") == [
        f"my-cards/{GAME}/game.yaml:1:1: not read {expected}",
        f"my-cards/{GAME}/magic-cards.yaml:1:1: not read {expected}",
    ]


def test_a_content_folder_one_level_too_high(work):
    game_file(f"top/my-cards/{GAME}/game.yaml")
    assert check(GAME, "--content", "top") == [
        f"top:1:1: nothing to read (expected top/{GAME}/*.yaml, got my-cards/{GAME} one level down: pass top/my-cards)"
    ]


def test_a_misspelt_game_folder(work):
    game_file("my-cards/spells_and_potions/game.yaml")
    expected = "my-cards/spells_and_potions:1:1: expected a folder named after a game ({}), "
    expected += "got 'spells_and_potions'; did you mean 'spells-and-potions'?"
    assert check(GAME, "--content", "my-cards") == [expected.format(GAME)]
    assert check("--content", "my-cards") == [expected.format(", ".join(GAMES))]  # every game being checked


def test_yml_files_are_reported_not_ignored(work):
    game_file(f"only-yml/{GAME}/house.yml")
    game_file(f"both/{GAME}/house.yml")
    game_file(f"both/{GAME}/game.yaml")
    for layer in ("only-yml", "both"):
        assert check(GAME, "--content", layer) == [
            f"{layer}/{GAME}/house.yml:1:1: not read (expected house.yaml, got house.yml)"
        ]


def test_an_empty_content_folder_and_one_with_other_folders(work):
    Path("empty").mkdir()
    Path("pictures/art").mkdir(parents=True)
    Path(f"bare/{GAME}").mkdir(parents=True)
    assert check(GAME, "--content", "empty") == [
        f"empty:1:1: nothing to read (expected empty/{GAME}/*.yaml, got no folders)"
    ]
    assert check(GAME, "--content", "pictures") == [
        f"pictures:1:1: nothing to read (expected pictures/{GAME}/*.yaml, got folders art)"
    ]
    assert check(GAME, "--content", "bare") == [
        f"bare:1:1: nothing to read (expected bare/{GAME}/*.yaml, got no .yaml files in {GAME})"
    ]


# --- property-based: random bytes and mutated real content ---------------------------------------

REAL_FILES = [
    (game_id, path.name, path.read_bytes()) for game_id in GAMES for path in sorted((CONTENT / game_id).glob("*.yaml"))
]
FRAGMENTS = [
    "&a ",
    "*a",
    "<<: *a",
    "<<: ",
    "!!binary ",
    "!!set ",
    "!fancy ",
    "!!int ",
    "!!float ",
    "? [a, b]\n: ",
    "- ",
    ": ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "'",
    '"',
    "|",
    ">",
    "#",
    "---\n",
    "...\n",
    "%YAML 1.1\n",
    "~",
    ".nan",
    ".inf",
    "-.inf",
    "1e308",
    "1.0e+308",
    "2024-02-30",
    "0x1F",
    "0o17",
    "1_000",
    "yes",
    "null",
    "\t",
    "\x00",
    "\x85",
    "\u2028",
    "\ufeff",
    "\r",
    "\n",
    "kind: ",
    "cards:\n  - ",
    "&b [*b]",
    "*b",
]


@st.composite
def mutated_files(draw):
    """A real content file, then a few byte flips, dropped or doubled lines, and inserted fragments."""
    game_id, name, data = draw(st.sampled_from(REAL_FILES))
    for _ in range(draw(st.integers(1, 4))):
        lines = data.split(b"\n")
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        line = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["flip", "drop", "double", "fragment", "unicode"]))
        if how == "flip":
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
        elif how == "drop":
            data = b"\n".join(lines[:line] + lines[line + 1 :])
        elif how == "double":
            data = b"\n".join(lines[: line + 1] + lines[line:])
        else:
            insert = draw(st.sampled_from(FRAGMENTS) if how == "fragment" else st.text(max_size=8))
            data = data[:at] + insert.encode("utf-8", "surrogatepass") + data[at:]
    return game_id, name, data


def load_or_problems(scratch: Path, game_id: str, name: str, data: bytes) -> None:
    """Load a game from one file alone: content or well-formed problems, nothing else."""
    folder = scratch / game_id
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    path = folder / name
    path.write_bytes(data)
    try:
        load(game_id, KINDS[game_id], [scratch])
    except ContentError as err:
        assert err.problems
        for problem in err.problems:
            assert problem.mark.file in (display_path(path), display_path(folder)), problem
            assert problem.mark.line >= 1 and problem.mark.col >= 1, problem
            assert problem.message.strip(), problem


@pytest.mark.slow
@settings(PROPERTY, max_examples=500)
@given(game_id=st.sampled_from(GAMES), data=st.binary(max_size=600))
def test_random_bytes_load_or_give_well_formed_problems(scratch, game_id, data):
    load_or_problems(scratch, game_id, "random.yaml", data)


@pytest.mark.slow
@settings(PROPERTY, max_examples=2500)
@given(mutated_files())
def test_mutated_content_loads_or_gives_well_formed_problems(scratch, mutated):
    load_or_problems(scratch, *mutated)
