"""Property: whatever value a content field holds, `pnp check` and `pnp build` agree. Either check
accepts the content and build then writes a PDF that reads back with pages, or both refuse with
exit status 2 and the same problems, each naming file:line:col, the field, what was expected and
what was found. Never a traceback.

Each example is a bundled content file of one game with a few of its values changed and written as
an overlay file of the same name (issue 26). Values valid for the field are drawn from the JSON
Schema of the kind's model (`pnp schema`, the models' own constraints), broken ones from wrong
types, missing and unknown fields, extreme and YAML-special text.
"""

from __future__ import annotations

import copy
import re
import shutil
import string
from pathlib import Path

import pytest
import yaml
from hypothesis import event, given, note, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from pnp.content.yamlsource import read_yaml
from pnp.gamedef import games
from pnp.paths import CONTENT
from pnp.schema import schemas
from tests.conftest import invoke, overlay
from tests.support.properties import PROPERTY
from tests.test_check_equals_build import line_of

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("templates_read_once")]

GAMES = list(games())
EXAMPLES = 30  # a game: each a check (every print run laid out) and a build, about 0.1 to 1 s
SCHEMAS = schemas()  # "<game>/<kind>" -> the kind's JSON Schema
FILES = {game_id: sorted((CONTENT / game_id).glob("*.yaml")) for game_id in GAMES}
DECKS = {game_id: {name: kind.deck for name, kind in game.load("kinds").items()} for game_id, game in games().items()}
# A problem: file:line:col: field: ... expected ..., got ...
# (a field is a dotted path, whose keys are the user's and may hold spaces)
PROBLEM = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<field>\S.*?): (?P<message>.+)$")

# --- values ----------------------------------------------------------------------------------------

# Text written into the YAML file as it is, unquoted: YAML 1.1 reads these as dates, booleans,
# nothing, numbers that are not finite, octal or hex, sexagesimal or over 64 bits.
YAML_SPECIAL = [
    "2024-02-30", "2024-01-01", "2001-12-14t21:59:43.10-05:00", "yes", "no", "on", "off", "Yes", "NO",
    "~", "null", "Null", ".nan", ".NaN", ".inf", "-.inf", "1e400", "-1e400", "0x1F", "0o17", "017",
    "1_000", "12:30:00", "+1", ".5", "1.", "-0", "123456789012345678901234567890", "true", "False",
]  # fmt: skip
# Pieces of rich text and of the placeholders some text fills in, balanced or not.
MARKUP = [
    "**", "*", "***", ":fire:", ":potion:", ":nope:", ":", "::", "{points}", "{tricks}", "{nope}", "{", "}",
    "{{", "}}", "<b>", "</b>", "&amp;", "&", "<", "\\", "%s", "%", "\n", "\n\n", " ", "- ", "# ", "'", '"',
]  # fmt: skip
WORDS = st.text(string.ascii_letters + "  ", min_size=1, max_size=12)


class Raw(str):
    """Text written into the YAML file as it is: the reader, not our dump, decides what it is."""


def unicode_text(min_size=1, max_size=40):
    """Any characters but surrogates, which no UTF-8 file can hold: controls, emoji, scripts and
    marks a font may lack, right-to-left text, zero-width and line separators."""
    return st.text(st.characters(exclude_categories=("Cs",)), min_size=min_size, max_size=max_size)


BROKEN = st.one_of(
    st.sampled_from([[1, 2], {"a": 1}, [], {}, True, False, None, 0, -1, 3, 2.5, "text", ""]).map(copy.deepcopy),
    st.sampled_from(YAML_SPECIAL).map(Raw),
    st.integers(min_value=-(10**30), max_value=10**30),  # huge whole numbers
    st.floats(),  # nan, infinities, subnormals, 1e308
    st.builds(lambda word, n: word * n, WORDS, st.integers(400, 3000)),  # long text
    unicode_text(),
    st.lists(st.one_of(st.sampled_from(MARKUP), WORDS), min_size=1, max_size=8).map("".join),  # markup
)


def resolved(schema: dict, defs: dict) -> dict:
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def alternatives(schema: dict, defs: dict) -> list[dict]:
    """The schemas a value may match: anyOf and oneOf opened up, references followed."""
    schema = resolved(schema, defs)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return [alt for each in schema[key] for alt in alternatives(each, defs)]
    return [schema]


def fits(schema: dict, value) -> bool:
    """Whether `value`'s shape is the one `schema` describes (and its tag fields, such as an
    effect's `type`, are the alternative's)."""
    kind = schema.get("type")
    if isinstance(value, dict):
        consts = [(k, p["const"]) for k, p in schema.get("properties", {}).items() if "const" in p]
        return kind == "object" and all(value.get(k) == c for k, c in consts)
    return kind == "array" if isinstance(value, list) else kind not in ("object", "array")


def child(schema: dict, defs: dict, value, step) -> dict:
    """The schema of value[step], where value matches `schema`."""
    for alt in alternatives(schema, defs):
        if not fits(alt, value):
            continue
        if isinstance(value, list):
            prefix = alt.get("prefixItems", [])
            return prefix[step] if step < len(prefix) else alt.get("items", {})
        if step in alt.get("properties", {}):
            return alt["properties"][step]
        extra = alt.get("additionalProperties")
        return extra if isinstance(extra, dict) else next(iter(alt.get("patternProperties", {}).values()), {})
    return {}


def valid(schema: dict, defs: dict):
    """A strategy for values the schema allows at a leaf, or None where it holds a list or mapping."""
    options = []
    for alt in alternatives(schema, defs):
        kind = alt.get("type")
        if "const" in alt:
            options.append(st.just(alt["const"]))
        elif "enum" in alt:
            options.append(st.sampled_from(alt["enum"]))
        elif kind == "string":
            low, high = alt.get("minLength", 0), alt.get("maxLength", 60)
            if "pattern" in alt:
                text = st.from_regex(alt["pattern"], fullmatch=True)
                options.append(text.filter(lambda t, low=low, high=high: low <= len(t) <= high))
            else:
                options.append(st.text(string.ascii_letters + " ,.'", min_size=low, max_size=max(low, min(high, 60))))
        elif kind in ("integer", "number"):
            low, high = alt.get("minimum", -1000), alt.get("maximum", 1000)
            low = alt["exclusiveMinimum"] + 1 if "exclusiveMinimum" in alt else low
            high = alt["exclusiveMaximum"] - 1 if "exclusiveMaximum" in alt else high
            options.append(st.integers(int(low), int(high)) if low <= high else st.nothing())
            if kind == "number":
                options.append(st.floats(low, high, allow_nan=False).map(lambda v: round(v, 2)))
        elif kind == "boolean":
            options.append(st.booleans())
        elif kind == "null":
            options.append(st.none())
    return st.one_of(options) if options else None


def places(data, schema: dict, defs: dict, path=()):
    """Every (path, value, schema) in the data: the file's values with what the model says of each."""
    yield path, data, schema
    if isinstance(data, dict):
        for key, value in data.items():
            yield from places(value, child(schema, defs, data, key), defs, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from places(value, child(schema, defs, data, index), defs, (*path, index))


def parent_of(data, path):
    for step in path[:-1]:
        data = data[step]
    return data


@st.composite
def changed_files(draw, game_id: str):
    """(file name, YAML text, what was changed where): a bundled file with one to three values
    changed, written in its place, or a deck's changed cards in a file of their own."""
    path = draw(st.sampled_from(FILES[game_id]))
    data = read_yaml(path).data
    schema = SCHEMAS[f"{game_id}/{data['kind']}"]
    defs = schema.get("$defs", {})
    changes = []
    for _ in range(draw(st.integers(1, 3))):
        found = [p for p in places(data, schema, defs) if p[0] not in ((), ("kind",))]  # its kind stays
        if not found:  # every other field was taken out
            break
        where, value, at = draw(st.sampled_from(found))
        parent = parent_of(data, where)
        how = draw(st.sampled_from(["valid", "valid", "valid", "broken", "missing", "unknown", "list"]))
        if how == "valid" and valid(at, defs) is not None:
            parent[where[-1]] = draw(valid(at, defs))
        elif how == "missing" and isinstance(parent, dict):
            del parent[where[-1]]
        elif how == "unknown" and isinstance(value, dict):
            near = [f"{key}s" for key in value] + [str(key)[:-1] for key in value if len(str(key)) > 1]
            value[draw(st.one_of(st.sampled_from(near or ["x"]), WORDS))] = draw(st.one_of(WORDS, BROKEN))
        elif how == "list" and isinstance(value, list) and value:
            index = draw(st.integers(0, len(value) - 1))
            copies = draw(st.sampled_from([0, 1, 5]))
            value[index:index] = [copy.deepcopy(value[index]) for _ in range(copies)]
            if draw(st.booleans()):
                del value[index]
        else:
            how = "broken"
            parent[where[-1]] = draw(BROKEN)
        changes.append(f"{how} at {'.'.join(map(str, where))}")
    cards = data.get("cards")
    if DECKS[game_id].get(data["kind"]) and isinstance(cards, list) and cards and draw(st.integers(0, 3)) == 0:
        # a deck's file of a new name adds its cards to the bundled ones: a few of the changed cards
        added = {"kind": data["kind"], "cards": cards[: draw(st.integers(1, 3))]}
        return "added.yaml", dumped(added), [*changes, "cards added in a file of their own"]
    return path.name, dumped(data), changes


class Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data):  # a value written twice is written out twice, not as an alias
        return True


def dumped(data) -> str:
    """The data as YAML; each Raw value written unquoted, as it is."""
    raws: list[str] = []

    def represent_raw(dumper, value):
        raws.append(str(value))
        return dumper.represent_scalar("tag:yaml.org,2002:str", f"RAWVALUE{len(raws) - 1}X")

    Dumper.add_representer(Raw, represent_raw)
    text = yaml.dump(data, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=100)
    for index, raw in enumerate(raws):
        text = text.replace(f"RAWVALUE{index}X", raw, 1)
    return text


# --- the property ------------------------------------------------------------------------------------


def problems_of(result, layer: Path) -> list[str]:
    """The problems a refusal lists, each checked for its form; the last line counts them."""
    *lines, summary = result.stderr.strip().splitlines()
    assert summary == f"{len(lines)} problem{'s' * (len(lines) != 1)} found; nothing was written.", summary
    for line in lines:
        problem = PROBLEM.match(line)
        assert problem, f"not file:line:col: field: message: {line}"
        file = Path(problem["file"]).resolve()
        assert file.is_file() and (file.is_relative_to(layer.resolve()) or file.is_relative_to(CONTENT)), line
        text_lines = file.read_text(encoding="utf-8").splitlines() or [""]
        line_no, col = int(problem["line"]), int(problem["col"])
        assert 1 <= line_no <= len(text_lines) and 1 <= col <= len(text_lines[line_no - 1]) + 1, line
        assert re.search(r"\bexpected\b.+\bgot\b", problem["message"]), f"not expected ..., got ...: {line}"
    return lines


def check_and_build_agree(scratch: Path, game_id: str, name: str, text: str, paper: str) -> None:
    """Check, then build: on `paper` when check accepts, on A4 (which check lays out first, and
    whose problems it reports) when it refuses."""
    layer, out = scratch / "overlay", scratch / "out"
    shutil.rmtree(layer, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    overlay(layer, game_id, {name: text})
    checked = invoke("check", game_id, "--content", str(layer), "--backs", "none")  # what the build prints
    paper = paper if checked.exit_code == 0 else "a4"
    built = invoke("build", game_id, "--content", str(layer), "--paper", paper, "--backs", "none", "--out", str(out))
    assert checked.exit_code in (0, 2), (checked.exit_code, checked.stderr)
    assert built.exit_code == checked.exit_code, (checked.stderr, built.stderr)
    pdfs = list(out.glob("*.pdf")) if out.exists() else []
    event("accepted" if checked.exit_code == 0 else "refused")  # --hypothesis-show-statistics: how many of each
    if checked.exit_code == 2:
        assert problems_of(checked, layer) == problems_of(built, layer)
        assert not pdfs, "a refused build writes nothing"
        return
    [pdf] = pdfs
    assert len(PdfReader(pdf).pages) > 0


@pytest.mark.parametrize("game_id", GAMES)
@settings(PROPERTY, max_examples=EXAMPLES)
@given(data=st.data())
def test_check_and_build_agree_on_changed_content(scratch, game_id, data):
    name, text, changes = data.draw(changed_files(game_id), label="file")
    note(f"changed in {name}: {changes}")
    check_and_build_agree(scratch, game_id, name, text, data.draw(st.sampled_from(["a4", "letter"]), label="paper"))


def test_a_problem_quoting_line_breaks_and_control_characters_stays_one_line(scratch):
    """Found by the property: a name holding a carriage return and C1 controls was quoted raw in
    the font's problem, splitting it over lines (and, in a terminal, writing over it)."""
    bundled = (CONTENT / "merchants-of-magick" / "masteries.yaml").read_text(encoding="utf-8")
    assert "{name: Tanner," in bundled
    layer = overlay(
        scratch / "one-line",
        "merchants-of-magick",
        {"masteries.yaml": bundled.replace("{name: Tanner,", '{name: "Tan\\rner\\x9a\\u2028",')},
    )
    result = invoke("check", "merchants-of-magick", "--content", str(layer))
    assert result.exit_code == 2
    *lines, summary = result.stderr.splitlines()
    assert summary == f"{len(lines)} problems found; nothing was written."
    assert lines and all("cards.0.name: Tan\\rner\\x9a\\u2028 (" in line for line in lines), lines


def test_a_setup_page_heading_too_long_says_what_was_expected_and_got(scratch):
    """Found by the property: the setup page's "does not fit" named no expected and no got."""
    heading = "\ncutting: Cutting and mounting\n"
    bundled = (CONTENT / "magecraft" / "setup.yaml").read_text(encoding="utf-8")
    assert heading in bundled
    long = "Cutting " * 400
    layer = overlay(scratch / "heading", "magecraft", {"setup.yaml": bundled.replace(heading, f"\ncutting: {long}\n")})
    result = invoke("check", "magecraft", "--content", str(layer))
    assert result.exit_code == 2
    [problem] = [line for line in result.stderr.splitlines() if ": cutting: " in line]
    assert "left on the first page (expected text that fits at " in problem
    assert f" pt, got {len(long.strip())} characters)" in problem


def test_a_score_pad_word_too_long_is_reported_at_its_field(scratch):
    """Found by the property: the duel table's "Duel {n}" that did not fit was blamed on the score
    pad's template, with no field; it is the content's `duel`."""
    bundled = (CONTENT / "spells-and-potions" / "score-pad.yaml").read_text(encoding="utf-8")
    assert '\nduel: "Duel {n}"\n' in bundled
    text = bundled.replace('\nduel: "Duel {n}"\n', f'\nduel: "{"Duel {n} " * 40}"\n')
    layer = overlay(scratch / "duel", "spells-and-potions", {"score-pad.yaml": text})
    result = invoke("check", "spells-and-potions", "--content", str(layer))
    assert result.exit_code == 2
    *lines, _ = result.stderr.splitlines()
    line = line_of(text, 'duel: "Duel')
    assert lines and all(f"spells-and-potions/score-pad.yaml:{line}:7: duel: " in problem for problem in lines), lines


def test_a_card_size_too_long_for_the_setup_table_is_reported_at_its_field(scratch):
    """Found by the property: a card_size too long for the setup page's size column was blamed on
    the setup template, with no field."""
    bundled = (CONTENT / "magic-spell" / "setup.yaml").read_text(encoding="utf-8")
    text = re.sub(r"\ncard_size: .*\n", f"\ncard_size: {'mm ' * 150}\n", bundled)
    assert text != bundled
    layer = overlay(scratch / "card-size", "magic-spell", {"setup.yaml": text})
    result = invoke("check", "magic-spell", "--content", str(layer))
    assert result.exit_code == 2
    [problem, _] = result.stderr.splitlines()
    assert f"magic-spell/setup.yaml:{line_of(text, 'card_size: ')}:12: card_size: " in problem
