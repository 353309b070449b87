"""The `pnp` command: list, build (papers, the no-change skip, bad options), schema, calibrate,
export tts and help. Most runs go through click's CliRunner; one is a real process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pdfplumber
import pytest
import yaml
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from pnp.cli import main
from pnp.gamedef import games
from pnp.paths import CONTENT, TEMPLATES
from pnp.starter import starter_files
from tests.conftest import invoke

GAME = "spells-and-potions"
MM = 72 / 25.4
PAPER_SIZES = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0)}
# every game's kinds, by game, from the registry: a schema each, plus one for templates
SCHEMA_NAMES = ["template"] + [f"{g.id}/{kind}" for g in games().values() for kind in g.load("kinds")]


def ok(result):
    assert result.exit_code == 0, (result.exit_code, result.output, result.stderr, result.exception)
    assert "Traceback" not in result.stderr
    return result


# --- list ---------------------------------------------------------------------------------------


def test_list_shows_components_counts_and_sizes():
    everything = ok(invoke("list")).output
    assert "spells-and-potions: Spells and Potions (2-4 wizards)" in everything.splitlines()
    out = everything.split("spells-and-potions:")[1]
    decks = {
        (m["id"], m["title"]): (int(m["n"]), m["size"], m["backs"])
        for m in re.finditer(
            r"^\s+(?P<id>[a-z-]+)\s+(?P<title>[A-Z][\w ]+?)\s+(?P<n>\d+)\s+"
            r"(?P<size>[\d.]+ x [\d.]+ mm), (?P<backs>.+)$",
            out,
            re.M,
        )
    }
    assert decks == {
        ("elements", "Element cards"): (40, "63.5 x 88.9 mm", "with backs"),
        ("magic", "Spells and Potions cards"): (12, "63.5 x 88.9 mm", "with backs"),
        ("reference", "Reference cards"): (4, "63.5 x 88.9 mm", "with backs"),
        ("markers", "Trump markers"): (4, "63.5 x 88.9 mm", "with backs"),
    }
    assert re.search(r"^\s+score-pads\s+Tournament score pads\s+3\s+pages$", out, re.M), out


# --- build --------------------------------------------------------------------------------------


def page_sizes(pdf: Path) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in PdfReader(pdf).pages]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_build_writes_one_pdf_per_paper_at_that_paper_size(tmp_path, paper):
    out = tmp_path / "out"
    result = ok(invoke("build", GAME, "--paper", paper, "--backs", "none", "--out", str(out)))
    pdf = out / f"{GAME}-{paper}-fronts.pdf"
    assert f"wrote {pdf}" in result.output
    assert sorted(p.name for p in out.glob("*.pdf")) == [pdf.name]
    sizes = page_sizes(pdf)
    assert len(sizes) == int(re.search(r"\((\d+) pages\)", result.output).group(1))
    w, h = PAPER_SIZES[paper]
    for size in sizes:  # portrait or landscape, but that paper
        assert sorted(size) == pytest.approx(sorted((w, h)), abs=0.01), size
    assert not list(out.glob("*.tmp")) and not list(out.glob(".*.tmp"))


def test_build_skips_when_nothing_changed_and_rebuilds_when_an_option_changes(tmp_path):
    out = tmp_path / "out"
    args = ("build", GAME, "--backs", "none", "--out", str(out))
    pdf = out / f"{GAME}-a4-fronts.pdf"
    first = ok(invoke(*args))
    assert f"wrote {pdf}" in first.output
    bytes_1, mtime_1 = pdf.read_bytes(), pdf.stat().st_mtime_ns

    second = ok(invoke(*args))
    assert second.output.strip() == f"unchanged {pdf}"
    assert pdf.read_bytes() == bytes_1 and pdf.stat().st_mtime_ns == mtime_1

    third = ok(invoke(*args, "--bleed", "2"))
    assert f"wrote {pdf}" in third.output
    assert pdf.read_bytes() != bytes_1  # less bleed: a different PDF

    fourth = ok(invoke(*args, "--bleed", "2"))
    assert "unchanged" in fourth.output


def test_build_is_byte_for_byte_reproducible(tmp_path):
    ok(invoke("build", GAME, "--backs", "none", "--out", str(tmp_path / "a")))
    ok(invoke("build", GAME, "--backs", "none", "--out", str(tmp_path / "b")))
    assert (tmp_path / "a" / f"{GAME}-a4-fronts.pdf").read_bytes() == (
        tmp_path / "b" / f"{GAME}-a4-fronts.pdf"
    ).read_bytes()


@pytest.mark.slow
def test_a_real_process_builds_and_exits_zero(tmp_path):
    pnp = Path(sys.executable).parent / "pnp"
    assert pnp.exists(), "the pnp console script is not installed in the venv"
    proc = subprocess.run(
        [str(pnp), "build", GAME, "--backs", "none", "--paper", "letter", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    pdf = tmp_path / f"{GAME}-letter-fronts.pdf"
    assert proc.stdout.startswith(f"wrote {pdf} (")
    assert pdf.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(
    "args, named",
    [
        (["--paper", "a5"], "'--paper'"),
        (["--offset", "1"], "'--offset'"),
        (["--offset", "1,2,3"], "'--offset'"),
        (["--offset", "left,up"], "'--offset'"),
        (["--bleed", "-1"], "'--bleed'"),
        (["--bleed", "11"], "'--bleed'"),
        (["--backs", "sideways"], "'--backs'"),
        (["no-such-game"], "no-such-game"),
    ],
)
def test_bad_options_exit_2_naming_the_option(tmp_path, args, named):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", *args, "--out", str(out)])
    assert result.exit_code == 2, (result.output, result.stderr)
    assert "Traceback" not in result.stderr
    error = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and named in error[0], result.stderr
    assert not out.exists()


def test_unknown_game_lists_the_known_games(tmp_path):
    result = invoke("build", "no-such-game", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "GAME" in result.stderr and "expected one of" in result.stderr and GAME in result.stderr


def test_a_game_that_does_not_exist_is_refused(tmp_path):
    result = invoke("build", "no-such-game", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert f"expected one of {', '.join(games())}, got 'no-such-game'" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_misspelt_game_gets_a_suggestion(tmp_path):
    result = invoke("check", "spells-and-potion")
    assert result.exit_code == 2
    assert "got 'spells-and-potion'; did you mean spells-and-potions?" in result.stderr


def test_content_folder_must_exist(tmp_path):
    result = invoke("check", "--content", str(tmp_path / "missing"))
    assert result.exit_code == 2
    assert (
        "--content" in result.stderr
        and f"expected an existing folder, found nothing at '{tmp_path / 'missing'}'" in result.stderr
    )


# --- schema -------------------------------------------------------------------------------------


def validation_errors(value, schema: dict) -> list[str]:
    return [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(value)]


@pytest.fixture(scope="module")
def schemas(tmp_path_factory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("schema")
    result = ok(invoke("schema", "--out", str(out)))
    written = sorted(out.rglob("*.json"))
    names = [p.relative_to(out).as_posix().removesuffix(".schema.json") for p in written]
    assert sorted(names) == sorted(SCHEMA_NAMES)
    for path in written:
        assert f"wrote {path}" in result.output
    return {name: json.loads(p.read_text()) for name, p in zip(names, written, strict=True)}


def test_schema_files_name_their_draft_and_kind(schemas):
    for kind, schema in schemas.items():
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", kind
        assert schema["title"] == kind
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    "kind, required",
    [
        ("game", {"kind", "title", "players"}),
        ("element-suits", {"kind", "ranks", "trump", "suits"}),
        ("magic-cards", {"kind", "cards"}),
        ("reference-card", {"kind", "copies", "cards"}),
        ("duel-rules", {"kind", "hands", "magic_per_hand", "points_per_trick", "duels"}),
        (
            "words",
            {
                "kind",
                "trump",
                "card_types",
                "element_back",
                "magic_back",
                "reference_back",
                "marker",
                "marker_note",
                "components",
            },
        ),
    ],
)
def test_content_schemas_require_their_keys_and_forbid_others(schemas, kind, required):
    schema = schemas[f"{GAME}/{kind}"]
    assert schema["type"] == "object"
    assert set(schema["required"]) == required
    assert schema["additionalProperties"] is False
    assert schema["properties"]["kind"]["const"] == kind
    # nested models are closed too
    for name, definition in schema.get("$defs", {}).items():
        if definition.get("type") == "object":
            assert definition["additionalProperties"] is False, name


def test_magic_card_schema(schemas):
    card = schemas[f"{GAME}/magic-cards"]["$defs"]["MagicCard"]
    assert set(card["required"]) == {"name", "type", "count", "effect"}
    assert card["properties"]["type"]["enum"] == ["spell", "counter-spell", "potion", "antidote"]
    assert (card["properties"]["count"]["minimum"], card["properties"]["count"]["maximum"]) == (1, 12)


# every shipped content file, and `pnp new`'s starter files (each in its game package's starter/)
SHIPPED_CONTENT = sorted(CONTENT.glob("*/*.yaml")) + [
    path for game in games().values() for path in starter_files(game).values()
]


def content_id(path: Path) -> str:
    return "/".join(path.parts[-2:])


@pytest.mark.parametrize("path", SHIPPED_CONTENT, ids=content_id)
def test_shipped_content_validates_against_its_kind_schema(schemas, path):
    game_id = path.parent.name if path.parent.parent == CONTENT else game_of_starter(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    schema = schemas[f"{game_id}/{data['kind']}"]
    assert validation_errors(data, schema) == []
    # and the schema is not vacuous: an unknown key and a missing one are both caught
    assert validation_errors({**data, "colour": "red"}, schema)
    assert validation_errors({k: v for k, v in data.items() if k != "kind"}, schema)


def game_of_starter(path: Path) -> str:
    [game_id] = [game.id for game in games().values() if path in starter_files(game).values()]
    return game_id


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.yaml")), ids=lambda p: p.name)
def test_shipped_templates_validate_against_the_template_schema(schemas, path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert validation_errors(data, schemas["template"]) == []
    assert validation_errors({**data, "colour": "red"}, schemas["template"])  # a misspelt key: caught


def test_an_extending_template_may_leave_anything_out_but_not_misspell_it(schemas):
    schema = schemas["template"]
    assert validation_errors({"extends": "sp-back", "colours": {"field": "#3a1f5c"}}, schema) == []
    assert validation_errors({"extends": "poker-card", "regions": {"name": {"size": 9}}}, schema) == []
    assert validation_errors({"extends": "sp-back", "safe": "3 furlongs"}, schema)
    assert validation_errors({"extends": "sp-back", "regions": {"name": {"size": "big"}}}, schema)
    assert validation_errors({"colours": {"field": "#3a1f5c"}}, schema)  # neither complete nor extending


def test_schema_catches_a_bad_card(schemas):
    bad = {"kind": "magic-cards", "cards": [{"name": "X", "type": "curse", "count": "two", "effect": "e"}]}
    assert len(validation_errors(bad, schemas[f"{GAME}/magic-cards"])) >= 2


def test_a_length_field_accepts_a_unit_string_per_the_schema(schemas):
    card = schemas["template"]["$defs"]["CardTemplate"]
    safe = card["properties"]["safe"]
    kinds = {s.get("type") for s in safe["anyOf"]}
    assert kinds == {"number", "string"}
    for text in ("3mm", "3", "0.5in", "9pt", "-1.5 mm"):
        assert validation_errors(text, safe) == [], text
    for text in ("3cm", "three", "3mm!"):
        assert validation_errors(text, safe), text
    template = {"kind": "card", "size": {"width": "63.5mm", "height": "88.9mm"}, "safe": "3mm"}
    assert validation_errors(template, schemas["template"]) == []
    assert validation_errors({**template, "safe": "3 furlongs"}, schemas["template"])


# --- calibrate ----------------------------------------------------------------------------------


def test_calibrate_letter_writes_a_two_page_sheet_with_crosshairs_and_scales(tmp_path):
    result = ok(invoke("calibrate", "--paper", "letter", "--out", str(tmp_path)))
    pdf = tmp_path / "calibrate-letter.pdf"
    assert f"wrote {pdf}" in result.output and "--offset" in result.output
    assert page_sizes(pdf) == [(612.0, 792.0), (612.0, 792.0)]
    with pdfplumber.open(pdf) as doc:
        front, back = doc.pages
        vertical = [l for l in front.lines if abs(l["x0"] - l["x1"]) < 0.01]
        horizontal = [l for l in front.lines if abs(l["top"] - l["bottom"]) < 0.01]
        # crosshairs: each vertical line crossed at its middle by a horizontal line of the same length
        crosses = []
        for v in vertical:
            x, y = v["x0"], (v["top"] + v["bottom"]) / 2
            h = [h for h in horizontal if abs((h["x0"] + h["x1"]) / 2 - x) < 0.01 and abs(h["top"] - y) < 0.01]
            assert len(h) == 1, (x, y)
            assert h[0]["x1"] - h[0]["x0"] == pytest.approx(v["bottom"] - v["top"], abs=0.01)
            assert v["bottom"] - v["top"] > 10 * MM
            crosses.append((x, y))
        assert len(crosses) >= 5
        assert (pytest.approx(306.0, abs=0.01), pytest.approx(396.0, abs=0.01)) in crosses  # the centre
        assert "front" in front.extract_text()

        words = back.extract_words(x_tolerance=0.5)
        numbers = [w for w in words if re.fullmatch(r"-?\d", w["text"])]
        for label in ("-4", "-2", "0", "2", "4"):
            assert sum(w["text"] == label for w in numbers) >= 2 * len(crosses), label
        zeros = [((w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2) for w in numbers if w["text"] == "0"]
        for x, y in crosses:
            # the X scale's 0 in line with each vertical line, the Y scale's 0 beside each horizontal one
            assert any(abs(zx - x) < 0.5 and 0 < abs(zy - y) < 20 * MM for zx, zy in zeros), (x, y)
            assert any(abs(zy - y) < 1.0 and 0 < zx - x < 20 * MM for zx, zy in zeros), (x, y)
        assert "back" in back.extract_text()
        assert not [l for l in back.lines if abs(l["x0"] - l["x1"]) < 0.01 and l["bottom"] - l["top"] > 20 * MM]


# --- export tts ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_export_tts_writes_sheets_backs_and_manifest(tmp_path):
    result = ok(invoke("export", "tts", GAME, "--out", str(tmp_path)))
    manifest_path = tmp_path / f"{GAME}-tts.json"
    assert f"wrote {manifest_path}" in result.output
    manifest = json.loads(manifest_path.read_text())
    counts: dict[str, int] = {}
    for name, sheet in manifest.items():
        path = tmp_path / name
        assert path.exists() and f"wrote {path}" in result.output
        columns, rows, cards = sheet["columns"], sheet["rows"], sheet["cards"]
        assert 1 <= columns <= 10 and 1 <= rows <= 7
        assert cards <= columns * rows - 1  # TTS keeps the last slot for the hidden card
        with Image.open(path) as image:
            assert image.format == "PNG"
            width, height = image.size
        assert width % columns == 0 and height % rows == 0, (name, image.size, columns, rows)
        card_w, card_h = width // columns, height // rows
        assert card_w / card_h == pytest.approx(63.5 / 88.9, rel=0.01)
        assert width <= 4096 * 2 and card_w <= 4096 // 10 + 1
        counts[sheet["deck"]] = counts.get(sheet["deck"], 0) + cards
        deck_id = name.removeprefix(f"{GAME}-").rsplit("-", 1)[0]
        back = tmp_path / f"{GAME}-{deck_id}-back.png"
        assert back.exists(), back
        with Image.open(back) as image:
            assert image.size == (card_w, card_h)
    assert counts == {"Element cards": 40, "Spells and Potions cards": 12, "Reference cards": 4, "Trump markers": 4}
    backs = sorted(p.name for p in tmp_path.glob("*-back.png"))
    assert backs == sorted(f"{GAME}-{d}-back.png" for d in ("elements", "magic", "reference", "markers"))


# --- help ---------------------------------------------------------------------------------------


def test_build_help_mentions_every_option():
    text = ok(invoke("build", "--help")).output
    for option in ("--paper", "--out", "--content", "--backs", "--offset", "--bleed", "--ink-saver"):
        assert option in text, option
    for choice in ("a4", "letter", "duplex-long", "duplex-short", "fold", "none"):
        assert choice in text, choice


def test_main_help_lists_the_commands():
    text = ok(invoke("--help")).output
    for command in ("build", "check", "list", "schema", "calibrate", "export"):
        assert re.search(rf"^\s+{command}\s", text, re.M), command
    assert "tts" in ok(invoke("export", "--help")).output
    tts_help = ok(invoke("export", "tts", "--help")).output
    assert "--out" in tts_help and "--content" in tts_help


def test_a_component_too_big_for_the_paper_is_a_clear_error_not_a_traceback(tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    card = templates / "poker-card.yaml"
    card.write_text(
        card.read_text().replace("size: {width: 63.5mm, height: 88.9mm}", "size: {width: 300mm, height: 88.9mm}")
    )
    monkeypatch.setattr("pnp.build.TEMPLATES", templates)
    monkeypatch.setattr("pnp.cache.TEMPLATES", templates)
    line = 1 + card.read_text().splitlines().index("size: {width: 300mm, height: 88.9mm}")
    for command in (["check", GAME], ["build", GAME, "--out", str(tmp_path / "out")]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.stderr
        assert f"{os.path.relpath(templates / 'poker-card.yaml')}:{line}:7: size: " in result.stderr
        assert "Element cards: a 300.0 x 88.9 mm component with 3.0 mm bleed does not fit on A4" in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_ink_saver_build_says_so_in_its_file_name(tmp_path):
    result = ok(invoke("build", GAME, "--ink-saver", "--only", "setup", "--out", str(tmp_path)))
    pdf = tmp_path / f"{GAME}-a4-duplex-ink-saver-setup.pdf"
    assert f"wrote {pdf}" in result.output and pdf.exists()


def test_after_a_build_the_collector_neither_rescans_what_it_made_nor_leaks_its_cycles():
    import gc
    import weakref

    from pnp.cli import without_cycle_collector

    class Node:
        pass

    with without_cycle_collector():
        kept = [[] for _ in range(100_000)]  # as a build's models, faces and PDF objects
        cycle = Node()
        cycle.self = cycle
        gone = weakref.ref(cycle)
        del cycle
    assert gc.isenabled()
    assert gone() is not None  # no collection has scanned what the build made since
    assert gc.get_count()[0] < gc.get_threshold()[0]  # nor will the next allocation: it is not young
    gc.collect()  # a process that goes on still frees the build's garbage cycles
    assert gone() is None and len(kept) == 100_000
