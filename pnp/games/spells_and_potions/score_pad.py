"""The Ritual Tournament score pad: one page for 4, 3 or 2 wizards, laid out from the area it gets.

Who sits where, who partners whom and who leads come from `pnp.games.spells_and_potions.rules`;
every word from the content's score-pad kind; type sizes, colours, lengths and column weights
from the sheet template (templates/spells-and-potions/score-pad.yaml). This module only places and draws them.

Top to bottom: title; the how-to box and the names block beside a seat compass; the duel table
(one row per duel); the totals table (one row per wizard).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import Color

from pnp.components.kinds import SheetError, require_named, sheet_words
from pnp.components.templates import SheetTemplate
from pnp.games.spells_and_potions.kinds import DuelRules, ScorePad
from pnp.games.spells_and_potions.rules import SEATS, Duel, Player, tournament, wizards
from pnp.geometry import Rect
from pnp.render import fonts, richtext
from pnp.render.colours import resolve
from pnp.units import MM

ANGLE = {"north": 90, "east": 0, "south": -90, "west": 180}  # compass positions, degrees
# The template's named lengths and ratios this layout reads (see templates/spells-and-potions/score-pad.yaml).
LENGTHS = ("pad", "gap", "name_row", "min_row", "max_row", "compass_height", "max_extra_gap", "how_to_height")
RATIOS = ("header", "left", "hint", "min_hint", "how_to_min", "col_duel", "col_seat", "col_leads", "col_who_leads",
          "col_team", "col_fixed_team", "col_wizard", "col_duel_total", "col_total")  # fmt: skip


@dataclass(frozen=True)
class Look:
    """The template's colours, sizes, lengths and ratios, as the drawing uses them."""

    ink: Color
    rule: Color
    shade: Color
    accent: Color
    fills: bool
    line: float
    title: float
    heading: float
    body: float
    length: dict[str, float]
    ratio: dict[str, float]

    @property
    def hint(self) -> float:
        return max(self.ratio["min_hint"], self.body * self.ratio["hint"])

    @property
    def pad(self) -> float:
        return self.length["pad"]


def look_of(template: SheetTemplate, ink_saver: bool) -> Look:
    require_named(template, "score pad", LENGTHS, RATIOS)
    colour = lambda name: resolve(name, template.colours)
    return Look(
        colour("ink"),
        colour("rule"),
        colour("shade"),
        colour("accent"),
        not ink_saver,
        template.line_width,
        template.title_size,
        template.heading_size,
        template.body_size,
        template.lengths,
        template.ratios,
    )


@dataclass(frozen=True)
class Cell:
    text: str = ""
    hint: str = ""  # small grey note in the top-left corner of a write-in cell
    bold: bool = False
    field: str | None = None  # the content field its text or hint comes from, for a problem if it cannot fit


def draw_score_pad(
    canvas,
    area: Rect,
    template: SheetTemplate,
    pad: ScorePad,
    rules: DuelRules,
    count: int,
    ink_saver: bool,
    rulings: tuple[str, ...] = (),
) -> None:
    """One tournament score pad for 4, 3 or 2 wizards, filling `area`.

    The area is a printable region of an A4 or US Letter page, about 204 x 260 mm or
    210 x 243 mm; it must look right in both. SheetError names what cannot be drawn."""
    duels = tournament(count, rules.duels)
    players = wizards(count)
    look = look_of(template, ink_saver)
    cell_pad, block_gap, name_row = look.pad, look.length["gap"], look.length["name_row"]
    compass_h, header = look.length["compass_height"], look.ratio["header"]
    rotates = len(duels) > 1 and duels[0].seating != duels[1].seating
    half = look.line / 2  # strokes on the edge stay inside the area
    area = Rect(area.x + half, area.y + half, area.w - 2 * half, area.h - 2 * half)

    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(area.x, area.y, area.w, area.h)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setLineWidth(look.line)

    title_h = look.title * 1.5
    heading_h = look.heading * 1.7
    left_w = area.w * look.ratio["left"] - block_gap / 2
    how_to = _fit(
        pad.how_to,
        "how_to",
        "regular",
        left_w - 2 * cell_pad,
        look.length["how_to_height"],
        look.body,
        look.ratio["how_to_min"],
    )
    how_to_h = how_to.height + 2 * cell_pad

    names_h = heading_h + len(players) * name_row

    # One row height for both tables; what is left over widens the gaps between blocks a little.
    fixed = title_h + max(compass_h, how_to_h + block_gap + names_h) + 2 * heading_h + 3 * block_gap
    units = (header + len(duels)) + (header + len(players))
    row = min(look.length["max_row"], (area.h - fixed) / units)
    if row < look.length["min_row"]:
        most = int((area.h - fixed) // look.length["min_row"])
        raise SheetError(
            None,
            f"a score pad for {count} wizards needs more than this {area.h / MM:.0f} mm high page "
            f"(expected at most {most} rows of duels and wizards, got {units})",
        )
    gap = block_gap + min(look.length["max_extra_gap"], max(0.0, area.h - fixed - units * row) / 3)
    band_h = max(compass_h, how_to_h + gap + names_h)

    top = area.top
    _text(
        canvas,
        sheet_words(pad.heading, "heading", title=pad.title, players=pad.players[count]),
        Rect(area.x, top - title_h, area.w, title_h),
        "display",
        look.title,
        look.accent,
        align="left",
        field="title",
    )
    top -= title_h

    box = Rect(area.x, top - how_to_h, left_w, how_to_h)
    _box(canvas, look, box)
    inner = _inset(box, cell_pad, cell_pad)
    richtext.draw(canvas, how_to, inner.x, inner.y, inner.w, inner.h, "left", "middle", look.ink)
    names_top = box.y - gap
    _heading(canvas, look, pad.wizards, "wizards", Rect(area.x, names_top - heading_h, left_w, heading_h))
    _names(
        canvas,
        look,
        Rect(area.x, names_top - heading_h - len(players) * name_row, left_w, len(players) * name_row),
        players,
        duels[0] if rotates else None,
        pad,
    )
    compass = Rect(area.x + left_w + block_gap, top - band_h, area.w - left_w - block_gap, band_h)
    _compass(canvas, look, compass, duels, rotates, pad, rulings)
    top -= band_h + gap

    _heading(canvas, look, pad.duel_scores, "duel_scores", Rect(area.x, top - heading_h, area.w, heading_h))
    top = _table(canvas, look, area.x, top - heading_h, area.w, row, *_duel_table(pad, look, duels, rotates))
    top -= gap

    _heading(canvas, look, pad.wizard_scores, "wizard_scores", Rect(area.x, top - heading_h, area.w, heading_h))
    top = _table(
        canvas, look, area.x, top - heading_h, area.w, row, *_totals_table(pad, look, duels, players), strong=-1
    )
    top -= gap

    lines = int((top - area.y - heading_h) // name_row)
    if lines >= 2:
        _heading(canvas, look, pad.notes, "notes", Rect(area.x, top - heading_h, area.w, heading_h))
        canvas.setStrokeColor(look.rule)
        for i in range(1, lines + 1):
            y = top - heading_h - i * name_row + cell_pad
            canvas.line(area.x, y, area.right, y)
    canvas.restoreState()


# --- what the tables say -------------------------------------------------------------------


def _name(who: Player, pad: ScorePad) -> str:
    """A wizard's full name ('Wizard A'); a Companion's short one."""
    return (
        _short(who, pad)
        if who.companion
        else sheet_words(pad.wizard_name, "wizard_name", letter=pad.letters[who.number])
    )


def _name_field(who: Player) -> str:
    """The content field a name comes from (_name)."""
    if not who.companion:
        return "wizard_name"
    return "companion" if who.number is None else "own_companion"


def _short(who: Player, pad: ScorePad) -> str:
    """A wizard's letter ('A'); the shared Companion ('Companion'); a wizard's own ("A's Companion")."""
    if not who.companion:
        return pad.letters[who.number]
    if who.number is None:
        return pad.companion
    return sheet_words(pad.own_companion, "own_companion", letter=pad.letters[who.number])


def _team(pair: tuple[Player, Player], pad: ScorePad) -> str:
    """A partnership by its wizards' letters, wizards first: 'A + C', 'B + Companion'."""
    first, second = sorted(pair, key=lambda who: (who.companion, who.number or 0))
    name = lambda who: pad.companion if who.companion else _short(who, pad)
    return sheet_words(pad.team, "team", first=name(first), second=name(second))


def _and(items: list[str], pad: ScorePad) -> str:
    """'East, South and West', with the content's joiner for the last two."""
    if len(items) == 1:
        return items[0]
    return sheet_words(pad.joiner, "joiner", first=", ".join(items[:-1]), last=items[-1])


def _duel_table(pad: ScorePad, look: Look, duels: list[Duel], rotates: bool):
    """Column weights, headers and rows of the duel table."""
    first = duels[0]
    seats = [seat for seat, _ in first.seating] if rotates else []
    # Rotating teams are named by their seats (who is in them shows in each cell); fixed ones by their wizard.
    teams = [
        sheet_words(pad.team, "team", first=pad.seats[first.seat_of(a)], second=pad.seats[first.seat_of(b)])
        if rotates
        else _team((a, b), pad)
        for a, b in first.partnerships
    ]
    r = look.ratio
    leads_weight, team_weight = (
        (r["col_leads"], r["col_team"]) if rotates else (r["col_who_leads"], r["col_fixed_team"])
    )
    weights = [r["col_duel"]] + [r["col_seat"]] * len(seats) + [leads_weight] + [team_weight] * 2
    headers = [
        ("", None),
        *[(pad.seats[seat], f"seats.{seat}") for seat in seats],
        (pad.leads, "leads") if rotates else (pad.who_leads, "who_leads"),
        *[(team, "team" if rotates else None) for team in teams],
    ]
    rows = []
    for duel in duels:
        if duel.leader is not None:
            seat = pad.seats[duel.seat_of(duel.leader)]
            leads = Cell(
                sheet_words(pad.leader, "leader", who=_short(duel.leader, pad), seat=seat), bold=True, field="leader"
            )
        elif duel.number == 1:
            leads = Cell(hint=pad.chosen_first, field="chosen_first")
        else:
            later = sheet_words(pad.chosen_later, "chosen_later", n=duel.number - 1)
            leads = Cell(hint=later, field="chosen_later")
        rows.append(
            [
                Cell(sheet_words(pad.duel, "duel", n=duel.number), bold=True, field="duel"),
                *[Cell(_short(who, pad), bold=True) for seat, who in duel.seating if seat in seats],
                leads,
                *[Cell(hint=_team(pair, pad) if rotates else "") for pair in duel.partnerships],
            ]
        )
    return weights, headers, rows


def _totals_table(pad: ScorePad, look: Look, duels: list[Duel], players: list[Player]):
    """Column weights, headers and rows of the totals table; each duel cell names the team to copy."""
    r = look.ratio
    weights = [r["col_wizard"]] + [r["col_duel_total"]] * len(duels) + [r["col_total"]]
    headers = [
        (pad.wizard, "wizard"),
        *[(sheet_words(pad.duel, "duel", n=d.number), "duel") for d in duels],
        (pad.total, "total"),
    ]
    rows = [
        [
            Cell(_name(who, pad), bold=True, field=_name_field(who)),
            *[Cell(hint=_team(next(p for p in d.partnerships if who in p), pad)) for d in duels],
            Cell(),
        ]
        for who in players
    ]
    return weights, headers, rows


# --- drawing -------------------------------------------------------------------------------


def _inset(box: Rect, dx: float, dy: float) -> Rect:
    return Rect(box.x + dx, box.y + dy, box.w - 2 * dx, box.h - 2 * dy)


def _fit(text: str, field: str | None, style: str, w: float, h: float, size: float, min_size: float = 6.0):
    """Text fitted to a box; SheetError naming the content field (None: drawn from the rules) if it cannot."""
    fitted = richtext.fit(text, style, w, h, size, min(size, min_size), 1.15)
    if fitted is None:
        raise SheetError(
            field,
            f"text does not fit its {w / MM:.0f} x {h / MM:.0f} mm box on the score pad "
            f"(expected text that fits at {min(size, min_size):g} pt or larger, got {len(text)} characters)",
        )
    return fitted


def _text(
    canvas, text: str, box: Rect, style: str, size: float, colour, align="center", valign="middle", field=None
) -> None:
    if text:
        fitted = _fit(text, field, style, box.w, box.h, size)
        richtext.draw(canvas, fitted, box.x, box.y, box.w, box.h, align, valign, colour)


def _box(canvas, look: Look, box: Rect) -> None:
    canvas.setStrokeColor(look.rule)
    canvas.setFillColor(look.shade)
    canvas.rect(box.x, box.y, box.w, box.h, stroke=1, fill=int(look.fills))


def _heading(canvas, look: Look, text: str, field: str, box: Rect) -> None:
    _text(
        canvas,
        text,
        Rect(box.x, box.y + look.pad / 2, box.w, box.h - look.pad / 2),
        "bold",
        look.heading,
        look.accent,
        align="left",
        valign="bottom",
        field=field,
    )


def _cell(canvas, look: Look, box: Rect, cell: Cell) -> None:
    inner = _inset(box, look.pad, look.pad)
    if cell.hint:
        hint_h = min(inner.h, look.hint * 2.4)
        _text(
            canvas,
            cell.hint,
            Rect(inner.x, inner.top - hint_h, inner.w, hint_h),
            "italic",
            look.hint,
            look.rule,
            align="left",
            valign="top",
            field=cell.field,
        )
    _text(canvas, cell.text, inner, "bold" if cell.bold else "regular", look.body, look.ink, field=cell.field)


def _table(
    canvas,
    look: Look,
    x: float,
    top: float,
    width: float,
    row: float,
    weights: list[float],
    headers: list[tuple[str, str | None]],  # each header's text and the content field it comes from
    rows: list[list[Cell]],
    strong: int | None = None,
) -> float:
    """Draw a header row and write-in rows from `top` down; return the table's bottom."""
    xs = [x]
    for w in weights:
        xs.append(xs[-1] + width * w / sum(weights))
    header_h = row * look.ratio["header"]
    bottom = top - header_h - row * len(rows)
    if look.fills:
        canvas.setFillColor(look.shade)
        canvas.rect(x, top - header_h, width, header_h, stroke=0, fill=1)
    for i, (text, field) in enumerate(headers):
        box = Rect(xs[i], top - header_h, xs[i + 1] - xs[i], header_h)
        _text(canvas, text, _inset(box, look.pad, look.pad / 2), "bold", look.body, look.accent, field=field)
    for r, cells in enumerate(rows):
        y = top - header_h - (r + 1) * row
        for i, cell in enumerate(cells):
            _cell(canvas, look, Rect(xs[i], y, xs[i + 1] - xs[i], row), cell)
    canvas.setStrokeColor(look.rule)
    for y in [top - header_h - r * row for r in range(len(rows))]:
        canvas.line(x, y, x + width, y)
    for xi in xs[1:-1]:
        canvas.line(xi, bottom, xi, top)
    canvas.rect(x, bottom, width, top - bottom)
    if strong is not None:
        canvas.saveState()
        canvas.setStrokeColor(look.accent)
        canvas.setLineWidth(look.line * 3)
        left, right = xs[strong - 1 if strong < 0 else strong], xs[strong if strong < 0 else strong + 1]
        inset = look.line * 1.5  # keep the thick outline inside the table, and the area
        canvas.rect(left + inset, bottom + inset, right - left - 2 * inset, top - bottom - 2 * inset)
        canvas.restoreState()
    return bottom


def _names(canvas, look: Look, box: Rect, players: list[Player], first: Duel | None, pad: ScorePad) -> None:
    """A write-in line per wizard, with their seat in duel 1 when seats rotate."""
    starts = {seat: sheet_words(pad.starts, "starts", seat=pad.seats[seat]) for seat in SEATS}
    names = {who: _name(who, pad) for who in players}
    label_w = max(fonts.string_width(name, "bold", look.body) for name in names.values()) + 2 * look.pad
    seat_w = max(fonts.string_width(s, "italic", look.hint) for s in starts.values()) + 2 * look.pad if first else 0
    canvas.setStrokeColor(look.rule)
    row_h = box.h / len(players)
    for i, who in enumerate(players):
        y = box.top - (i + 1) * row_h
        _text(
            canvas,
            names[who],
            Rect(box.x, y, label_w, row_h * 0.6),
            "bold",
            look.body,
            look.ink,
            align="left",
            valign="bottom",
            field=_name_field(who),
        )
        canvas.line(box.x + label_w, y + look.pad, box.right - seat_w, y + look.pad)
        if first:
            _text(
                canvas,
                starts[first.seat_of(who)],
                Rect(box.right - seat_w + look.pad, y, seat_w - look.pad, row_h * 0.6),
                "italic",
                look.hint,
                look.rule,
                align="left",
                valign="bottom",
            )


def _compass(
    canvas, look: Look, box: Rect, duels: list[Duel], rotates: bool, pad: ScorePad, rulings: tuple[str, ...] = ()
) -> None:
    """The four seats, North at the top, with arrows for who moves after each duel and a note."""
    after = duels[1] if rotates else duels[0]
    moves = {seat: after.seat_of(who) for seat, who in duels[0].seating if after.seat_of(who) != seat}
    staying = [seat for seat, _ in duels[0].seating if seat not in moves]
    if rotates:
        words = lambda seats: _and([pad.seats[seat] for seat in seats], pad)
        note = sheet_words(pad.rotation, "rotation", moving=words(moves), staying=words(staying))
    else:
        note = " ".join((pad.no_rotation, *rulings))  # the rulings that say who plays and leads
    field = "rotation" if rotates else "no_rotation"
    fitted = _fit(note, field, "regular", box.w - 2 * look.pad, box.h / 3, look.hint * 1.2, look.ratio["min_hint"])
    note_h = fitted.height + 2 * look.pad
    canvas.setStrokeColor(look.rule)
    canvas.rect(box.x, box.y, box.w, box.h)
    richtext.draw(
        canvas,
        fitted,
        box.x + look.pad,
        box.y + look.pad,
        box.w - 2 * look.pad,
        fitted.height,
        "center",
        "middle",
        look.ink,
    )

    # Under each seat: who never leaves it (all seats, when nobody moves).
    subs = {
        seat: "" if seat in moves else _short(who, pad) + (f" {pad.stays}" if rotates else "")
        for seat, who in duels[0].seating
    }
    size, small = look.body, look.hint
    label_h = size * 1.2 + small * 1.3
    label_w = look.pad + max(
        max(fonts.string_width(pad.seats[seat], "bold", size), fonts.string_width(subs[seat], "regular", small))
        for seat in SEATS
    )
    diagram = Rect(box.x + look.pad, box.y + note_h, box.w - 2 * look.pad, box.h - note_h - look.pad)
    radius = max(
        4 * MM, min(20 * MM, (diagram.h - 2 * label_h - 2 * look.pad) / 2, (diagram.w - 2 * label_w - 2 * look.pad) / 2)
    )
    cx, cy = diagram.x + diagram.w / 2, diagram.y + diagram.h / 2
    canvas.setStrokeColor(look.rule)
    side = radius * 0.9
    canvas.rect(cx - side / 2, cy - side / 2, side, side)  # the table
    for seat in SEATS:
        dx, dy = round(math.cos(math.radians(ANGLE[seat]))), round(math.sin(math.radians(ANGLE[seat])))
        lx = cx + dx * (radius + look.pad + label_w / 2) - label_w / 2
        ly = cy + dy * (radius + look.pad + label_h / 2) - label_h / 2
        seat_box = Rect(lx, ly + small * 1.3, label_w, size * 1.2)
        _text(canvas, pad.seats[seat], seat_box, "bold", size, look.accent, field=f"seats.{seat}")
        _text(canvas, subs[seat], Rect(lx, ly, label_w, small * 1.3), "regular", small, look.ink)
    canvas.setStrokeColor(look.accent)
    for start, end in moves.items():
        _arrow(canvas, cx, cy, radius, ANGLE[start], ANGLE[end])


def _arrow(canvas, cx: float, cy: float, r: float, start: float, end: float) -> None:
    """A clockwise arc on the circle from one seat's angle to another's, with an open arrowhead."""
    gap = 12.0
    sweep = (start - end) % 360
    canvas.arc(cx - r, cy - r, cx + r, cy + r, end + gap, sweep - 2 * gap)
    tip = math.radians(end + gap)
    px, py = cx + r * math.cos(tip), cy + r * math.sin(tip)
    heading = tip - math.pi / 2  # clockwise tangent
    for turn in (math.radians(150), math.radians(-150)):
        a = heading + turn
        canvas.line(px, py, px + 4 * math.cos(a), py + 4 * math.sin(a))
