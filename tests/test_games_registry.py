"""Games are plain registered definitions, and each side imports only what it needs: the
content, checks and rules of a game load no drawing library (the companion will use them)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from pnp.components.makers import Makers
from pnp.content.game import load_game
from pnp.gamedef import GameDef, GameDefError, games
from pnp.paths import CONTENT, TEMPLATES
from pnp.rules.flow import HOST_ONLY, HOST_OR_EVENT, JOINING, PLAYING, SEAT, TABLE, TURN
from tests.conftest import invoke

PRINT_LIBRARIES = ("reportlab", "PIL", "pypdfium2")
WEB_LIBRARIES = ("flask", "sqlalchemy", "psycopg")  # the companion's, never the rules'
GAMES = list(games().values())


def loaded_modules(code: str) -> set[str]:
    """The top-level modules a fresh interpreter has loaded after running `code`."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {name.split(".")[0] for name in json.loads(out.splitlines()[-1])}


def test_every_game_with_bundled_content_is_registered_and_nothing_else():
    folders = sorted(p.name for p in CONTENT.iterdir() if p.is_dir())
    assert sorted(games()) == folders
    for game in GAMES:
        assert game.load("kinds") and callable(game.load("check")) and isinstance(game.load("printed"), Makers)


@pytest.mark.parametrize("game", [g for g in GAMES if g.tracker], ids=lambda g: g.id)
def test_a_games_tracker_loads_no_drawing_or_web_library(game):
    code = f"""
from pnp.gamedef import game
from pnp.content.game import load_game
from pnp.paths import CONTENT
g = game({game.id!r})
tracker = g.load("tracker")
state = tracker.setup(load_game(g, [CONTENT]), tracker.Options())
"""
    loaded = loaded_modules(code)
    assert "pydantic" in loaded and "pnp" in loaded, "the code under test did run"
    assert not loaded & {*PRINT_LIBRARIES, *WEB_LIBRARIES}, loaded & {*PRINT_LIBRARIES, *WEB_LIBRARIES}


def test_magic_spell_and_spells_and_potions_have_trackers():
    assert {g.id for g in GAMES if g.tracker} >= {"magic-spell", "spells-and-potions"}


@pytest.mark.parametrize("game", [g for g in GAMES if g.tracker], ids=lambda g: g.id)
def test_a_games_moves_are_declared_for_the_flow(game):
    """Every move names a role the flow knows and a stage of the table; a correction names a field
    its body has; a move with fields says how it is offered (a choices hook), or the flow could
    offer it only with its default body; each type's body is a class of its own (the flow tells
    moves apart by it); a game played several ways names the option that picks one."""
    tracker = game.load("tracker")
    every = [tracker.moves, *(way.moves for way in tracker.ways.values())]
    for moves in every:
        for name, move in moves.items():
            assert move.who in (HOST_ONLY, HOST_OR_EVENT, TABLE, TURN, SEAT), name
            assert move.stage in (JOINING, PLAYING), name
            if move.correction is not None:
                assert move.correction in move.body.model_fields, name
            required = [f for f, info in move.body.model_fields.items() if info.is_required()]
            assert move.choices is not None or not required, (name, required)
    bodies = [(name, move.body) for moves in every for name, move in moves.items()]
    assert len({body for _, body in bodies}) == len({name for name, _ in bodies}), bodies
    if tracker.ways:
        assert tracker.way_option in tracker.Options.model_fields


@pytest.mark.parametrize("game", [g for g in GAMES if g.tracker], ids=lambda g: g.id)
def test_a_trackers_options_read_as_words(game):
    """The page that opens a table shows each option's title and each choice in words (the
    schema's labels), never the raw value it sends ("dealt", "heaviest")."""
    schema = game.load("tracker").Options.model_json_schema()
    for name, prop in schema["properties"].items():
        assert prop["title"], name
        if "enum" in prop:
            labels = prop["labels"]
            assert set(labels) == {str(value) for value in prop["enum"]}, name
            assert all(labels[str(value)] != str(value) for value in prop["enum"]), labels


@pytest.mark.parametrize("game", [g for g in GAMES if g.events], ids=lambda g: g.id)
def test_a_game_an_event_can_run_has_what_an_event_needs(game):
    """An event's shared dice come from its layout and draw, its leaderboard from its ranking and
    its layout's words for the columns."""
    tracker = game.load("tracker")
    assert tracker.layout and tracker.draw and tracker.ranking
    board = tracker.layout(load_game(game, [CONTENT]))["leaderboard"]
    assert board["player"] and board["total"] and all(tie["key"] and tie["name"] for tie in board["ties"])


@pytest.mark.parametrize("game", [g for g in GAMES if g.simulation], ids=lambda g: g.id)
def test_a_declared_simulation_is_a_pnp_sim_command(game):
    from pnp.sim.cli import Simulation

    assert isinstance(game.load("simulation"), Simulation)
    assert invoke("sim", game.id, "--help").exit_code == 0


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_games_content_checks_rules_tracker_and_simulation_load_no_drawing_library(game):
    """The standard: a game's pure side (its rules, the tracker the companion folds logs through,
    the simulation) imports neither drawing nor the web."""
    code = f"""
from pnp.gamedef import game
from pnp.content.game import load_game
from pnp.paths import CONTENT
g = game({game.id!r})
g.load("kinds"); g.load("check"); g.load("numbers")
for side in ("tracker", "simulation"):
    if getattr(g, side):
        g.load(side)
content = load_game(g, [CONTENT])
"""
    loaded = loaded_modules(code)
    assert "pydantic" in loaded and "pnp" in loaded, "the code under test did run"
    assert not loaded & {*PRINT_LIBRARIES, "flask"}, loaded & {*PRINT_LIBRARIES, "flask"}


def test_the_companion_plays_every_game_without_the_print_side(tmp_path):
    """Pages, tables and the API for every tracked game, in a fresh interpreter: no drawing library."""
    config = {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite'}", "INSTANCE_PATH": str(tmp_path)}
    code = f"""
from companion import create_app
from pnp.gamedef import games
client = create_app({config!r}).test_client()
assert client.get("/").status_code == 200
for game in games().values():
    if game.tracker:
        code = client.post("/api/tables", json={{"game": game.id, "options": {{}}}}).json["code"]
        assert client.get(f"/t/{{code}}").status_code == 200
        assert client.get(f"/api/tables/{{code}}").status_code == 200
"""
    loaded = loaded_modules(code)
    assert "flask" in loaded and "pnp" in loaded, "the code under test did run"
    assert not loaded & set(PRINT_LIBRARIES), loaded & set(PRINT_LIBRARIES)


def test_the_print_side_does_load_reportlab():
    """The check above can fail: printing a game does pull in reportlab."""
    loaded = loaded_modules("from pnp.gamedef import game\ngame('magic-spell').load('printed')")
    assert "reportlab" in loaded


def test_listing_the_games_imports_nothing_heavy():
    loaded = loaded_modules("from pnp.gamedef import games\ngames()")
    assert not loaded & {"pydantic", "yaml", *PRINT_LIBRARIES}


def test_render_does_not_import_the_page_layer():
    loaded = {m for m in sys.modules if m.startswith("pnp")}
    code = "import pnp.render.richtext, pnp.components.templates, pnp.render.pagemarks, pnp.regions"
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys; print(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert loaded  # this interpreter has pnp loaded: the fresh one is the one that counts
    assert "pnp.imposition" not in out and "pnp.document" not in out


@pytest.mark.parametrize(
    "fields, message",
    [
        (dict(id="Magic Spell"), "lower-case words joined by hyphens"),
        (dict(title=" "), "expected a title"),
        (dict(check="pnp.games.magic_spell.checks.check"), "'module:attribute' reference"),
        (dict(simulation="a.sim"), "'module:attribute' reference"),
        (dict(events=True), "events and a projector need a tracker"),
        (dict(players=(0, 4)), r"game x-game: players must be \(fewest, most\) with 1 <= fewest <= most"),
        (dict(players=(4, 2)), r"game x-game: players must be .*, not \(4, 2\)"),
        (dict(players=(4,)), "game x-game: players must be"),
    ],
)
def test_a_malformed_definition_is_refused_when_loaded(fields, message):
    good = dict(id="x-game", title="X", kinds="a:B", numbers="a:b", check="a:c", printed="a:d", players=(1, 4))
    with pytest.raises(GameDefError, match=message):
        GameDef(**{**good, **fields})


def test_a_reference_that_does_not_resolve_names_the_game_and_field():
    game = GameDef(
        id="x-game", title="X", kinds="pnp.gamedef:NOPE", numbers="a:b", check="a:c", printed="a:d", players=(1, 4)
    )
    with pytest.raises(GameDefError, match=r"game x-game: kinds 'pnp.gamedef:NOPE' does not resolve"):
        game.load("kinds")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_template_a_game_prints_with_exists(game):
    from pnp.build import open_game

    opened = open_game(game, [CONTENT])
    names = {p.stem for p in TEMPLATES.rglob("*.yaml")}
    for component in opened.components():
        assert component.template in names
    assert load_game(game, [CONTENT])["game"].title


def test_a_template_is_read_and_checked_by_the_games_that_print_with_it(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from pnp.cli import main

    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    back = templates / "spells-and-potions" / "sp-back.yaml"  # which Magic Spell's backs extend
    back.write_text(back.read_text(encoding="utf-8") + "colour: red\n", encoding="utf-8")
    monkeypatch.setattr("pnp.build.TEMPLATES", templates)
    backs = ("sp-back.yaml", "ms-back.yaml")  # the back, and one of the game's own that extends it
    broken = {game.id for game in GAMES if any((TEMPLATES / game.id / back).exists() for back in backs)}
    assert broken != {game.id for game in GAMES}  # else nothing here shows that a game reads only its own
    for game in GAMES:
        result = CliRunner().invoke(main, ["check", game.id])
        if game.id in broken:
            assert result.exit_code == 2, result.output
            assert "sp-back.yaml" in result.stderr and "unknown field" in result.stderr
        else:  # a broken template of another game is none of its business
            assert result.exit_code == 0, result.stderr


def test_a_template_name_is_one_template_across_the_games_folders(tmp_path):
    """`extends` names a template wherever it is, so two folders may not both have one name."""
    from pnp.components.templates import load_templates
    from pnp.content.problems import ContentError

    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    shutil.copy(templates / "poker-card.yaml", templates / "magic-spell" / "poker-card.yaml")
    with pytest.raises(ContentError, match="a second template named poker-card"):
        load_templates(templates, "magic-spell")
