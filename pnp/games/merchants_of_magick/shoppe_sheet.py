"""The Merchants of Magick shoppe sheet: one page, laid out by code from the sheet content.

Every word and number comes from the content (shoppe-sheet, merchants-rules, potion-tokens, words);
type sizes, colours and lengths from the sheet template (templates/merchants-of-magick/mm-sheet.yaml). Change a
threshold, a column's dice or a row in the content and the printed sheet follows.

Top to bottom: the title and the shoppe's name; the round grid (a column per round, a row per die)
beside the legend of which die may go in which column; the crafting half (materials as columns,
crafting thresholds are "at least") beside the research half (energies as columns, thresholds "at
most"); the Extra Dice slots, the Sponsored Adventurer track and the potions tally; the score box.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.components.kinds import SheetError, require_named, sheet_words
from pnp.components.templates import SheetTemplate
from pnp.geometry import Rect
from pnp.render import fonts, richtext
from pnp.render.colours import resolve
from pnp.units import MM

LENGTHS = (
    "pad",
    "gap",
    "circle",
    "circle_gap",
    "title_row",
    "grid_row",
    "grid_label",
    "name_col",
    "coins_col",
    "min_row",
    "max_row",
    "track_box",
)
RATIOS = ("circle_text", "small", "legend_share")
LEADING = 1.1


@dataclass(frozen=True)
class Look:
    template: SheetTemplate
    fills: bool

    def colour(self, name: str):
        return resolve(name, self.template.colours)

    def length(self, name: str) -> float:
        return self.template.lengths[name]

    def ratio(self, name: str) -> float:
        return self.template.ratios[name]

    @property
    def pad(self) -> float:
        return self.length("pad")

    @property
    def small(self) -> float:
        return self.ratio("small")

    @property
    def body(self) -> float:
        return self.template.body_size


def look_of(template: SheetTemplate, ink_saver: bool) -> Look:
    require_named(template, "shoppe sheet", LENGTHS, RATIOS)
    return Look(template, not ink_saver)


# --- text and boxes ------------------------------------------------------------------------


def text(
    canvas,
    look: Look,
    words: str,
    box: Rect,
    style="regular",
    size=None,
    colour="ink",
    align="center",
    valign="middle",
    min_size=None,
    field=None,
) -> None:
    """Words fitted to a box, shrinking to `min_size` (never below 6 pt); SheetError if they cannot."""
    if not words:
        return
    size = size or look.body
    lacking = fonts.missing_characters(words, style)
    if lacking:
        raise SheetError(field, f"expected characters the {style} font has, got {''.join(lacking)!r} in {words!r}")
    least = max(6.0, min(size, min_size or look.small))
    fitted = richtext.fit(words, style, box.w, box.h, size, least, LEADING)
    if fitted is None:
        raise SheetError(
            field,
            f"{words!r} does not fit its {box.w / MM:.0f} x {box.h / MM:.0f} mm box on the shoppe sheet "
            f"(expected text that fits at {least:g} pt or larger, got {len(words)} characters)",
        )
    richtext.draw(canvas, fitted, box.x, box.y, box.w, box.h, align, valign, look.colour(colour))


def rect(canvas, look: Look, box: Rect, fill: str | None = None, stroke: str | None = "rule", width=None) -> None:
    do_fill = fill is not None and look.fills
    if do_fill:
        canvas.setFillColor(look.colour(fill))
    if stroke:
        canvas.setStrokeColor(look.colour(stroke))
        canvas.setLineWidth(width or look.template.line_width)
    if do_fill or stroke:
        canvas.rect(box.x, box.y, box.w, box.h, stroke=int(bool(stroke)), fill=int(do_fill))


def heading(canvas, look: Look, words: str, box: Rect, field: str) -> None:
    text(canvas, look, words, box, "bold", look.template.heading_size, "accent", "left", "bottom", field=field)


def columns(x: float, widths: list[float]) -> list[float]:
    xs = [x]
    for w in widths:
        xs.append(xs[-1] + w)
    return xs


# --- the page ------------------------------------------------------------------------------


def draw_shoppe_sheet(canvas, area: Rect, template: SheetTemplate, content, ink_saver: bool) -> None:
    """One shoppe sheet filling `area` (about 204 x 260 mm on A4, 210 x 243 mm on US Letter)."""
    look = look_of(template, ink_saver)
    sheet, rules, words = content["shoppe-sheet"], content["merchants-rules"], content["words"]
    potions = content["potion-tokens"]
    gap = look.length("gap")
    half = look.template.line_width / 2
    area = Rect(area.x + half, area.y + half, area.w - 2 * half, area.h - 2 * half)
    canvas.saveState()
    canvas.setLineWidth(look.template.line_width)

    heading_h = look.template.heading_size * 1.6
    grid_h = (len(sheet.dice) + 1) * look.length("grid_row")
    track_h = heading_h + look.length("track_box") + 3 * look.small * LEADING + look.pad
    score_h = heading_h + look.length("track_box") * 2 + 2 * look.small * LEADING + look.small * 1.6
    head_rows = 2 * look.small * LEADING + 2 * look.pad  # column heading: name, then its dice
    rows = max(len(sheet.crafting), len(sheet.research))
    fixed = look.length("title_row") + grid_h + heading_h + head_rows + track_h + score_h + 4 * gap
    row = min(look.length("max_row"), (area.h - fixed) / rows)
    if row < look.length("min_row"):
        most = int((area.h - fixed) // look.length("min_row"))
        raise SheetError(
            None,
            f"the shoppe sheet's rows need more than this {area.h / MM:.0f} mm high page "
            f"(expected at most {most} rows, got {rows})",
        )
    spare = area.h - fixed - rows * row
    vgap = gap + spare / 4  # spare height widens the gaps between the bands

    top = area.top
    title_block(canvas, look, sheet, Rect(area.x, top - look.length("title_row"), area.w, look.length("title_row")))
    top -= look.length("title_row") + vgap

    legend_w = area.w * look.ratio("legend_share")
    round_grid(canvas, look, sheet, rules, words, Rect(area.x, top - grid_h, area.w - legend_w - gap, grid_h))
    legend(canvas, look, sheet, words, Rect(area.right - legend_w, top - grid_h, legend_w, grid_h))
    top -= grid_h + vgap

    half_w = (area.w - gap) / 2
    body_h = heading_h + head_rows + rows * row
    for side, x in (("crafting", area.x), ("research", area.right - half_w)):
        circle_rows(canvas, look, sheet, words, side, Rect(x, top - body_h, half_w, body_h), heading_h, head_rows, row)
    top -= body_h + vgap

    tracks(canvas, look, sheet, rules, words, potions, Rect(area.x, top - track_h, area.w, track_h), heading_h)
    top -= track_h + vgap
    score_box(canvas, look, sheet, words, Rect(area.x, top - score_h, area.w, score_h), heading_h)
    canvas.restoreState()


def title_block(canvas, look: Look, sheet, box: Rect) -> None:
    title_w = box.w * 0.4
    text(
        canvas,
        look,
        sheet.title,
        Rect(box.x, box.y, title_w, box.h),
        "display",
        look.template.title_size,
        "accent",
        "left",
        "middle",
        min_size=10,
        field="title",
    )
    label = Rect(box.x + title_w, box.y + look.pad, box.w * 0.22, box.h * 0.6)
    text(canvas, look, sheet.shoppe_name, label, "bold", look.body, "ink", "right", "bottom", field="shoppe_name")
    canvas.setStrokeColor(look.colour("rule"))
    canvas.line(label.right + look.pad, box.y + look.pad, box.right, box.y + look.pad)


def round_grid(canvas, look: Look, sheet, rules, words, box: Rect) -> None:
    """A column per round and a row per die: where each round's results are written."""
    label_w = look.length("grid_label")
    col_w = (box.w - label_w) / rules.rounds
    row_h = box.h / (len(sheet.dice) + 1)
    xs = columns(box.x, [label_w] + [col_w] * rules.rounds)
    header = Rect(box.x, box.top - row_h, box.w, row_h)
    rect(canvas, look, header, fill="shade", stroke=None)
    text(
        canvas,
        look,
        words.rounds,
        Rect(xs[0] + look.pad, header.y, label_w - 2 * look.pad, row_h),
        "bold",
        align="left",
        field="rounds",
    )
    for r in range(rules.rounds):
        text(canvas, look, str(r + 1), Rect(xs[r + 1], header.y, col_w, row_h), "bold")
    dice_rows(canvas, look, sheet.dice, box, xs, label_w, row_h, shaded=True)
    rect(canvas, look, box)


def dice_rows(canvas, look: Look, dice, box: Rect, xs: list[float], label_w: float, row_h: float, shaded: bool) -> None:
    """Under a header row, a row per die: its id in the label column (with `shaded`, every other
    row's cells shaded), then the rules between the rows and between the columns `xs`."""
    for i, die in enumerate(dice):
        y = box.top - (i + 2) * row_h
        if shaded and i % 2 and look.fills:
            rect(canvas, look, Rect(box.x + label_w, y, box.w - label_w, row_h), fill="shade", stroke=None)
        text(canvas, look, die.id, Rect(xs[0] + look.pad, y, label_w - 2 * look.pad, row_h), "bold", align="left")
    canvas.setStrokeColor(look.colour("rule"))
    for i in range(1, len(dice) + 1):
        canvas.line(box.x, box.top - i * row_h, box.right, box.top - i * row_h)
    for x in xs[1:-1]:
        canvas.line(x, box.y, x, box.top)


def tints(side: str, count: int) -> list[str]:
    """Alternating light and darker tints of a half's colour: neighbours differ in greyscale too."""
    return [side if i % 2 == 0 else f"{side}_dark" for i in range(count)]


def legend(canvas, look: Look, sheet, words, box: Rect) -> None:
    """Which die may be spent in which column: a die per row, a column per sheet column, a dot
    where it may go."""
    cols = [*sheet.materials, *sheet.energies]
    fills = tints("craft", len(sheet.materials)) + tints("research", len(sheet.energies))
    title_h = look.body * 1.5
    text(
        canvas,
        look,
        words.legend,
        Rect(box.x, box.top - title_h, box.w, title_h),
        "bold",
        look.body,
        "accent",
        "left",
        "top",
        min_size=6,
        field="legend",
    )
    box = Rect(box.x, box.y, box.w, box.h - title_h)
    row_h = box.h / (len(sheet.dice) + 1)
    label_w = look.length("grid_label")
    col_w = (box.w - label_w) / len(cols)
    xs = columns(box.x, [label_w] + [col_w] * len(cols))
    for j, column in enumerate(cols):
        cell = Rect(xs[j + 1], box.y, col_w, box.h)
        rect(canvas, look, cell, fill=fills[j], stroke=None)
        text(
            canvas,
            look,
            column.name,
            Rect(cell.x + 0.3 * MM, box.top - row_h, col_w - 0.6 * MM, row_h),
            "bold",
            look.small,
            min_size=6,
        )
        for i, die in enumerate(sheet.dice):
            if die.id in column.dice:
                cx, cy = cell.x + col_w / 2, box.top - (i + 1.5) * row_h
                canvas.setFillColor(look.colour("ink"))
                canvas.circle(cx, cy, min(row_h, col_w) * 0.18, stroke=0, fill=1)
    dice_rows(canvas, look, sheet.dice, box, xs, label_w, row_h, shaded=False)
    canvas.setLineWidth(look.template.line_width * 2.5)
    canvas.line(xs[1 + len(sheet.materials)], box.y, xs[1 + len(sheet.materials)], box.top)
    rect(canvas, look, box)


def circle_rows(canvas, look: Look, sheet, words, side: str, box: Rect, heading_h: float, head_h: float,
                row_h: float) -> None:  # fmt: skip
    """A half of the sheet: its heading, a name column, a column per material or energy (its name
    and dice above, the rows' circles under it), and the coins column. `side` is crafting (materials,
    results at least the circle's number) or research (energies, at most)."""
    at_least = side == "crafting"
    cols, rows = (sheet.materials if at_least else sheet.energies), getattr(sheet, side)
    sign = words.at_least if at_least else words.at_most
    if at_least:
        notes = [words.categories[item.category] for item in rows]
    else:
        notes = [charm_note(spell, words) for spell in rows]
    heading(canvas, look, getattr(words, side), Rect(box.x, box.top - heading_h, box.w, heading_h), side)
    top = box.top - heading_h
    name_w, coins_w = look.length("name_col"), look.length("coins_col")
    col_w = (box.w - name_w - coins_w) / len(cols)
    circle, circle_gap = look.length("circle"), look.length("circle_gap")
    most, i, column = max((len(v), i, c) for i, r in enumerate(rows) for c, v in r.circles.items())
    if most * circle + (most - 1) * circle_gap > col_w - look.pad:
        field = f"{side}.{i}.circles.{column}"
        room = int((col_w - look.pad + circle_gap) // (circle + circle_gap))
        raise SheetError(
            field,
            f"circles of {circle / MM:g} mm do not fit a {col_w / MM:.0f} mm column "
            f"(expected at most {room} circles, got {most})",
        )
    xs = columns(box.x, [name_w] + [col_w] * len(cols) + [coins_w])
    bottom = top - head_h - len(rows) * row_h
    fills = tints("craft" if at_least else "research", len(cols))
    for j, column in enumerate(cols):
        rect(canvas, look, Rect(xs[j + 1], bottom, col_w, top - bottom), fill=fills[j], stroke=None)
        name = Rect(xs[j + 1], top - head_h / 2, col_w, head_h / 2)
        text(canvas, look, column.name, name, "bold", look.body, "ink", valign="bottom", min_size=6)
        dice = " · ".join(column.dice)
        text(canvas, look, dice, Rect(xs[j + 1], top - head_h, col_w, head_h / 2), "regular", look.small, "ink")
    rect(canvas, look, Rect(xs[-2], bottom, coins_w, top - bottom), fill="shade", stroke=None)
    text(
        canvas,
        look,
        words.coins_short,
        Rect(xs[-2], top - head_h, coins_w, head_h),
        "bold",
        look.small,
        min_size=6,
        field="coins_short",
    )
    text(
        canvas,
        look,
        sign,
        Rect(xs[0] + look.pad, top - head_h, name_w - 2 * look.pad, head_h),
        "display",
        look.template.heading_size,
        "accent",
        "left",
    )
    size = look.ratio("circle_text")
    for i, item in enumerate(rows):
        y = top - head_h - (i + 1) * row_h
        name_box = Rect(xs[0] + look.pad, y, name_w - 2 * look.pad, row_h)
        if notes[i]:
            name_h = look.body * 1.25
            name_y = y + row_h - name_h - look.pad / 2
            text(
                canvas,
                look,
                item.name,
                Rect(name_box.x, name_y, name_box.w, name_h),
                "bold",
                look.body,
                valign="bottom",
                align="left",
                min_size=6.5,
            )
            text(
                canvas,
                look,
                notes[i],
                Rect(name_box.x, y + look.pad / 4, name_box.w, name_y - y - look.pad / 4),
                "italic",
                look.small,
                valign="top",
                align="left",
                min_size=6,
            )
        else:
            text(canvas, look, item.name, name_box, "bold", look.body, align="left", min_size=6.5)
        for j, column in enumerate(cols):
            thresholds = item.circles.get(column.id, [])
            span = len(thresholds) * circle + (len(thresholds) - 1) * circle_gap
            x = xs[j + 1] + (col_w - span) / 2
            for k, threshold in enumerate(thresholds):
                cx, cy = x + k * (circle + circle_gap) + circle / 2, y + row_h / 2
                canvas.setFillColor(look.colour("paper"))
                canvas.setStrokeColor(look.colour("ink"))
                canvas.setLineWidth(look.template.line_width * 1.2)
                canvas.circle(cx, cy, circle / 2, stroke=1, fill=1)
                threshold_in_circle(canvas, look, at_least, str(threshold), cx, cy, size)
        coin = Rect(xs[-2] + look.pad, y + look.pad, coins_w - 2 * look.pad, row_h - 2 * look.pad)
        text(canvas, look, str(item.coins), coin, "bold", look.template.heading_size)
    canvas.setStrokeColor(look.colour("rule"))
    canvas.setLineWidth(look.template.line_width)
    for i in range(len(rows) + 1):
        y = top - head_h - i * row_h
        canvas.line(box.x, y, box.right, y)
    for x in xs[1:-1]:
        canvas.line(x, bottom, x, top)
    rect(canvas, look, Rect(box.x, bottom, box.w, top - bottom))


def draw_sign(canvas, look: Look, at_least: bool, x: float, baseline: float, size: float) -> float:
    """'At least' or 'at most' drawn as lines (an angle over a bar), so it prints in any face and
    copies out of the PDF as nothing rather than as a wrong character; returns its advance."""
    w, h = size * 0.42, size * 0.5
    bottom = baseline + size * 0.12
    canvas.saveState()
    canvas.setStrokeColor(look.colour("ink"))
    canvas.setLineWidth(max(0.5, size * 0.07))
    canvas.setLineCap(1)
    tip, back = (x + w, x) if at_least else (x, x + w)
    path = canvas.beginPath()
    path.moveTo(back, bottom + h)
    path.lineTo(tip, bottom + h * 0.6)
    path.lineTo(back, bottom + h * 0.2)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.line(x, bottom, x + w, bottom)
    canvas.restoreState()
    return w + size * 0.12


def threshold_in_circle(canvas, look: Look, at_least: bool, number: str, cx: float, cy: float, size: float) -> None:
    """The sign and the number, centred in a circle."""
    sign_w = size * 0.54
    number_w = fonts.string_width(number, "bold", size)
    x = cx - (sign_w + number_w) / 2
    baseline = cy - size * 0.36
    draw_sign(canvas, look, at_least, x, baseline, size * 0.85)
    canvas.setFillColor(look.colour("ink"))
    canvas.setFont(fonts.font_name("bold"), size)
    canvas.drawString(x + sign_w, baseline, number)


def charm_note(spell, words) -> str:
    charm = spell.charm
    if charm is None:
        return ""
    parts = []
    if charm.potions:
        parts.append(sheet_words(words.charm_potions, "charm_potions", n=charm.potions))
    if charm.coins_per_order:
        category = words.categories[charm.category].lower()
        parts.append(sheet_words(words.charm_coins, "charm_coins", n=charm.coins_per_order, category=category))
    return "; ".join(parts)


def reward_words(reward, words) -> str:
    parts = []
    if reward.potions:
        parts.append(sheet_words(words.reward_potions, "reward_potions", n=reward.potions))
    if reward.free_circles:
        parts.append(sheet_words(words.reward_circles, "reward_circles", n=reward.free_circles))
    if reward.card_coins:
        parts.append(words.reward_coins)
    return " ".join(parts)


def boxes_with_labels(canvas, look: Look, box: Rect, labels: list[str], size: float, numbered: bool) -> None:
    """A row of write-in squares, each with its label beneath."""
    n = len(labels)
    step = box.w / n
    side = min(size, step - look.pad)
    label_h = box.h - side - look.pad
    for i, label in enumerate(labels):
        x = box.x + i * step + (step - side) / 2
        square = Rect(x, box.top - side, side, side)
        rect(canvas, look, square, fill="paper", stroke="ink")
        if numbered:
            corner = look.small * 1.7
            text(
                canvas,
                look,
                str(i + 1),
                Rect(square.x + 0.4 * MM, square.top - corner, corner, corner),
                "regular",
                look.small,
                "rule",
                "left",
                "top",
                min_size=6,
            )
        text(
            canvas,
            look,
            label,
            Rect(box.x + i * step + 0.3 * MM, box.y, step - 0.6 * MM, label_h),
            "regular",
            look.small,
            valign="top",
            min_size=6,
        )


def tracks(canvas, look: Look, sheet, rules, words, potions, box: Rect, heading_h: float) -> None:
    """The Extra Dice slots, the Sponsored Adventurer track and the potions tally."""
    gap = look.length("gap")
    size = look.length("track_box")
    extra_w = len(sheet.extra_dice) * (size + 3 * MM)
    adventurer_w = len(rules.adventurer_rewards) * 22 * MM
    potions_w = box.w - extra_w - adventurer_w - 2 * gap
    x = box.x
    heading(canvas, look, words.extra_dice, Rect(x, box.top - heading_h, extra_w, heading_h), "extra_dice")
    costs = [
        words.free if cost == 0 else sheet_words(words.extra_cost, "extra_cost", n=cost) for cost in sheet.extra_dice
    ]
    boxes_with_labels(canvas, look, Rect(x, box.y, extra_w, box.h - heading_h), costs, size, True)
    x += extra_w + gap
    heading(
        canvas, look, words.adventurer_track, Rect(x, box.top - heading_h, adventurer_w, heading_h), "adventurer_track"
    )
    rewards = [reward_words(r, words) for r in rules.adventurer_rewards]
    boxes_with_labels(canvas, look, Rect(x, box.y, adventurer_w, box.h - heading_h), rewards, size, True)
    x += adventurer_w + gap
    heading(canvas, look, words.potions_tally, Rect(x, box.top - heading_h, potions_w, heading_h), "potions_tally")
    tally = Rect(x, box.top - heading_h - size, potions_w, size)
    rect(canvas, look, tally, fill="paper", stroke="ink")
    text(
        canvas,
        look,
        potions.note,
        Rect(x, box.y, potions_w, tally.y - box.y - look.pad / 2),
        "regular",
        look.small,
        align="left",
        valign="top",
        min_size=6,
        field="note",
    )


def score_box(canvas, look: Look, sheet, words, box: Rect, heading_h: float) -> None:
    """A box for every line of the score and the total, then the tie-breaks."""
    heading(canvas, look, words.score, Rect(box.x, box.top - heading_h, box.w, heading_h), "score")
    labels = [*sheet.score.values(), sheet.total]
    tie_h = look.small * 1.6
    cells_h = box.h - heading_h - tie_h
    step = box.w / len(labels)
    label_h = 2 * look.small * LEADING + look.pad
    for i, label in enumerate(labels):
        cell = Rect(box.x + i * step, box.top - heading_h - cells_h, step, cells_h)
        last = i == len(labels) - 1
        rect(
            canvas,
            look,
            cell,
            fill="shade" if last else None,
            stroke="ink" if last else "rule",
            width=look.template.line_width * (3 if last else 1),
        )
        text(
            canvas,
            look,
            label,
            Rect(cell.x + look.pad, cell.top - label_h, cell.w - 2 * look.pad, label_h),
            "bold",
            look.small,
            "ink",
            valign="top",
            min_size=6,
        )
    text(
        canvas,
        look,
        words.tie_breaks,
        Rect(box.x, box.y, box.w, tie_h),
        "italic",
        look.small,
        align="left",
        min_size=6,
        field="tie_breaks",
    )
