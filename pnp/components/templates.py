"""Templates: how components look (sizes, regions, fonts, colours), as YAML with `extends`.

Content says what is printed; a template says where and how. Region boxes are
[x, y, width, height] measured from the trim's top-left corner, in mm unless a unit is given.
Every game shares the templates at the top of the folder (page, poker-card, setup); a game's own
are in its subfolder, templates/<game-id>/. A name is unique across them all, so `extends` names
a template wherever it is. A game kept outside the folder (the tests' example game) has its
templates folder in another folder, read beside this one (load_templates' `also`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from pnp.content.problems import ContentError, Mark, Problem, expected_got
from pnp.content.validate import FontSize, Length, Strict, validate
from pnp.content.yamlsource import Source, merged, read_yaml
from pnp.regions import Region
from pnp.render.colours import HEX
from pnp.units import MM


def _hex(value: str) -> str:
    if not HEX.match(value):
        raise ValueError("a colour written #rrggbb")
    return value


HexColour = Annotated[str, AfterValidator(_hex)]


class Size(Strict):
    width: Length = Field(gt=0, le=2000)  # up to a large poster, in points
    height: Length = Field(gt=0, le=2000)


class CardTemplate(Strict):
    """A face of a card, tile or token: everything cut out of a sheet of many."""

    kind: Literal["card"]
    extends: str | None = None
    size: Size
    safe: Length = Field(ge=0, le=100)  # inset from the trim that text stays inside
    background: str = "paper"
    colours: dict[str, HexColour] = {}
    regions: dict[str, Region] = {}


class SeamLines(Strict):
    """Lines a board's seams may fall on, the same both ways (the edges of a field's squares)."""

    offset: Length = Field(ge=0, le=2000)  # the first, from the trim's left and top edges
    every: Length = Field(ge=5 * MM, le=2000)


class BoardTemplate(CardTemplate):
    """A board larger than a sheet (a playing field, a character board): drawn whole from its
    regions like a face, and printed in pieces, one a page, that overlap by a glue strip."""

    kind: Literal["board"]
    overlap: Length = Field(ge=3 * MM, le=50 * MM)  # the glue strip a piece lies on its neighbour by
    key: Length = Field(ge=8 * MM, le=50 * MM)  # the band above each piece for its name and the assembly map
    marks: Length = Field(ge=2 * MM, le=20 * MM)  # each arm of the + marks that line the pieces up
    seams: SeamLines | None = None  # None: seams anywhere, the pieces equal


class CropMarks(Strict):
    length: Length = Field(gt=0, le=50)
    offset: Length = Field(ge=0, le=50)  # gap between the art's edge and the mark
    width: FontSize = Field(gt=0, le=10)


class PageTemplate(Strict):
    """The sheet of paper: margins, crop marks, the scale bar and label band."""

    kind: Literal["page"]
    extends: str | None = None
    margin: Length = Field(ge=0, le=100)  # printers cannot reach the outermost few mm
    crop_marks: CropMarks
    info_band: Length = Field(gt=0, le=100)  # room the scale bar and page label need beside the grid
    info_size: FontSize = Field(gt=0, le=72)
    fold_gap: Length = Field(ge=0, le=100)  # between fronts and backs in fold mode, around the fold line
    colours: dict[str, HexColour] = {}


class SheetTemplate(Strict):
    """A full-page component (score pad, player sheet): type sizes, colours and the named lengths
    and column weights its layout uses; code places things with them, the numbers live here."""

    kind: Literal["sheet"]
    extends: str | None = None
    title_size: FontSize = Field(gt=0, le=200)
    heading_size: FontSize = Field(gt=0, le=200)
    body_size: FontSize = Field(gt=0, le=200)
    line_width: FontSize = Field(0.6, gt=0, le=20)
    colours: dict[str, HexColour] = {}
    lengths: dict[str, Annotated[Length, Field(ge=0, le=1000)]] = {}
    ratios: dict[str, Annotated[float, Field(ge=0, le=100)]] = {}


class Back(Strict):
    """A deck's one back: an emblem, corner icons if given, and a title both ways up if given (the
    dotted content field it is read from: game.title, words.order_back)."""

    template: str
    emblem: str  # an icon name
    corner: str | None = None
    title: str | None = None


class OwnBacks(Strict):
    """A back of its own for each face (a two-sided card), made by the named face maker."""

    faces: str
    template: str


class DeckEntry(Strict):
    """A deck in a set: its faces come from the game's face maker of that name (code), printed
    with `template`; one `back`, `backs` of their own, or neither for a deck printed one side."""

    type: Literal["deck"]
    id: str
    title: str  # the dotted content field its title is read from
    template: str
    faces: str
    back: Back | None = None
    backs: OwnBacks | None = None
    gang: bool = False  # small pieces: shares sheets with the neighbouring decks that gang, of any size
    one_sided: bool = False  # no back: printed in the single-sided job, with no blank back in duplex

    @model_validator(mode="after")
    def _one_kind_of_back(self):
        if self.back is not None and self.backs is not None:
            raise ValueError(
                "a deck has one back or a back of its own for each face (expected back or backs, got both)"
            )
        if self.one_sided and (self.back is not None or self.backs is not None):
            raise ValueError("a one-sided deck has no back (expected one_sided without back or backs)")
        return self


class SheetEntry(Strict):
    """A full-page sheet in a set, drawn by the game's sheet maker of that name (code)."""

    type: Literal["sheet"]
    id: str
    title: str
    template: str
    draw: str
    one_sided: bool = False  # printed in the single-sided job, with no blank back in duplex


class BoardEntry(Strict):
    """A board in a set (a playing field): its one face comes from the game's board maker of that
    name (code), drawn whole with `template` (a board template) and printed in pieces."""

    type: Literal["board"]
    id: str
    title: str
    template: str
    face: str
    one_sided: bool = False  # printed in the single-sided job, with no blank back in duplex


class SetTemplate(Strict):
    """How a game's set is made up (templates/<game-id>/<game-id>-set.yaml): its components in the
    order they print, after the setup page every set opens with."""

    kind: Literal["set"]
    extends: str | None = None
    components: list[Annotated[DeckEntry | SheetEntry | BoardEntry, Field(discriminator="type")]] = Field(min_length=1)


Template = Annotated[
    CardTemplate | BoardTemplate | PageTemplate | SheetTemplate | SetTemplate, Field(discriminator="kind")
]


class Templates(dict):
    """Templates by name, knowing where each value was written (a size that cannot fit the paper
    is reported at the template's own file and line)."""

    def __init__(self, templates: dict, sources: dict[str, Source]):
        super().__init__(templates)
        self.sources = sources

    def locate(self, name: str, *path) -> tuple[Mark, str]:
        return self.sources[name].mark_for(path)


def load_templates(directory: Path, game: str | None = None, also: Sequence[Path] = ()) -> Templates:
    """The templates `game` prints with (the shared ones and its own; None: every game's), by file
    stem, with `extends` resolved; all problems at once. Only they and the templates they extend
    are read (a game's build reads only its own). `also`: more folders laid out as `directory` is,
    for a game kept outside it (the tests' example game: its own in <folder>/<game-id>/)."""
    paths: dict[str, Path] = {}
    problems: list[Problem] = []
    folders = (directory, *also)
    for path in [p for folder in folders for p in sorted(folder.glob("*.yaml")) + sorted(folder.glob("*/*.yaml"))]:
        if path.stem in paths:
            message = f"a second template named {path.stem} (the first: {paths[path.stem]})"
            problems.append(Problem(Mark(str(path), 1, 1), "", message))
        paths.setdefault(path.stem, path)
    names = set(paths)
    wanted = {name for name, path in paths.items() if path.parent in folders or game in (None, path.parent.name)}
    raw: dict[str, Source | None] = {}  # None: unreadable, its problems reported

    def read(name: str) -> Source | None:
        if name not in raw:
            try:
                raw[name] = read_yaml(paths[name])
            except ContentError as err:
                problems.extend(err.problems)
                raw[name] = None
        return raw[name]

    resolved: dict[str, Source] = {}

    def resolve(name: str, chain: tuple[str, ...]) -> Source | None:
        if name in resolved:
            return resolved[name]
        source = read(name)
        if source is None:
            return None
        parent = source.data.get("extends") if isinstance(source.data, dict) else None
        if parent is None:
            resolved[name] = source
            return source
        mark, _ = source.mark_for(("extends",))
        if parent not in names or parent in chain:
            why = "a cycle" if parent in chain else "no such template"
            problems.append(
                Problem(mark, "extends", f"{why} ({expected_got('one of ' + ', '.join(sorted(names)), parent)})")
            )
            return None
        base = resolve(parent, chain + (name,))
        if base is None:
            return None
        resolved[name] = merged(base, source)
        return resolved[name]

    templates = {}
    for name in sorted(wanted):
        source = resolve(name, ())
        if source is None:
            continue
        try:
            templates[name] = validate(Template, source)
        except ContentError as err:
            problems += err.problems
            continue
        if not isinstance(templates[name], SetTemplate):  # a set names no colours
            problems += _check_colour_names(templates[name], source)
    if problems:
        raise ContentError(problems)
    return Templates(templates, resolved)


def _check_colour_names(template, source: Source) -> list[Problem]:
    """Colour references must be a palette name or #rrggbb: caught here, not mid-build."""
    palette = template.colours
    known = ", ".join(sorted(palette)) or "no names defined"
    refs: list[tuple[tuple, str]] = []
    if isinstance(template, CardTemplate):
        refs.append((("background",), template.background))
        for name, region in template.regions.items():
            for attr in ("colour", "fill", "stroke", "highlight", "alternate", "board", "dark", "light"):
                value = getattr(region, attr, None)
                if value is not None:
                    refs.append((("regions", name, attr), value))
    problems = []
    for path, value in refs:
        if value not in palette and not HEX.match(value):
            mark, field = source.mark_for(path)
            problems.append(Problem(mark, field, expected_got(f"#rrggbb or a colour name ({known})", value)))
    return problems
