"""Every title, name and heading of every game's content, written too long for its place, is a
problem naming that field: refused by its length when it loads, or by the fit of the printed text
(cards, sheet pages, the page label). None is accepted silently, none is cut or shrunk past reading."""

from __future__ import annotations

import pytest
import yaml

from pnp.build import check, open_game
from pnp.content.problems import ContentError
from pnp.gamedef import games
from pnp.imposition import Options
from pnp.paths import CONTENT

TOO_LONG = " ".join(["Wonderful"] * 40)  # 399 characters: no title or name has room for them
NAMED = ("title", "name", "heading", "shoppe_name", "total", "solo_title", "wizard_name")
# Fields whose problem names a wider field: a reference card's headings are set in its sections' body.
REPORTED_AT = {"sections.0.heading": "sections"}
# The score pad's top line shrinks to one line at 6 pt and is printed whole; it never overflows.
FITS_BY_SHRINKING = {("spells-and-potions", "heading")}


def titles(data, path=()):
    """Paths of the title-like texts in a content file's data, one per list (the first item) and
    one of the component titles (all are set alike: the setup page's table, the page label)."""
    if isinstance(data, dict) and path[-1:] == ("components",):
        yield (*path, next(iter(data)))
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from [(*path, key)] if isinstance(value, str) and key in NAMED else titles(value, (*path, key))
    elif isinstance(data, list) and data:
        yield from titles(data[0], (*path, 0))


CASES = [
    (game_id, path.name, field)
    for game_id in games()
    for path in sorted((CONTENT / game_id).glob("*.yaml"))
    for field in titles(yaml.safe_load(path.read_text(encoding="utf-8")))
    if (game_id, ".".join(map(str, field))) not in FITS_BY_SHRINKING
]


@pytest.mark.parametrize(
    "game_id, name, field", CASES, ids=lambda v: ".".join(map(str, v)) if isinstance(v, tuple) else v
)
def test_a_title_too_long_for_its_place_is_a_problem_at_it(tmp_path, monkeypatch, game_id, name, field):
    monkeypatch.chdir(tmp_path)
    data = yaml.safe_load((CONTENT / game_id / name).read_text(encoding="utf-8"))
    parent = data
    for step in field[:-1]:
        parent = parent[step]
    parent[field[-1]] = TOO_LONG
    (tmp_path / game_id).mkdir()
    (tmp_path / game_id / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    dotted = ".".join(map(str, field))
    with pytest.raises(ContentError) as err:
        check(open_game(games()[game_id], [CONTENT, tmp_path]), Options())
    wanted = next((dotted.replace(tail, wider) for tail, wider in REPORTED_AT.items() if dotted.endswith(tail)), dotted)
    located = [p for p in err.value.problems if p.field == wanted and p.mark.file == f"{game_id}/{name}"]
    assert located, [str(p) for p in err.value.problems]
