"""Spells and Potions' print-and-play set: element cards, Spells and Potions cards, reference
cards and tournament score pads. Every word and number comes from the content."""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.faces import reference_faces
from pnp.components.makers import Makers, SetInputs, SheetDrawing
from pnp.content.loader import Content
from pnp.games.spells_and_potions.kinds import ElementSuits, Words

TYPE_ICONS = {"spell": "spell", "counter-spell": "counter", "potion": "potion", "antidote": "antidote"}
TURNED_DIGITS = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}  # how each reads upside down


def rank_text(rank: int, ranks: int) -> str:
    """The rank as printed: with a dot when, upside down in a fanned hand, it reads as another
    rank of the suit (6 and 9 of ten), so no one mistakes which it is."""
    digits = str(rank)
    turned = "".join(TURNED_DIGITS.get(d, "") for d in reversed(digits))
    looks_like_another = len(turned) == len(digits) and turned != digits and not turned.startswith("0")
    return f"{digits}." if looks_like_another and 1 <= int(turned) <= ranks else digits


def suit_values(content: Content, i: int) -> tuple[Value, ...]:
    """What every card in a suit's frame shows of its suit: icons, letters and name."""
    suit = content["element-suits"].suits[i]
    return (
        Value("corner_icon", suit.icon),
        Value("corner_icon_turned", suit.icon),
        Value("letter", suit.letter),
        Value("letter_turned", suit.letter),
        Value("suit", suit.name.upper(), *content.locate("element-suits", "suits", i, "name")),
        Value("centre_icon", suit.icon),
    )


TRUMP_CROWN = (Value("trump_badge", ""), Value("trump_icon", "trump"))


def element_faces(inputs: SetInputs, template: str) -> list[Face]:
    """Every rank of every suit, each suit in its own frame (see suit_template)."""
    content = inputs.content
    suits: ElementSuits = content["element-suits"]
    trump = Value("trump_word", content["words"].trump, *content.locate("words", "trump"))
    faces = []
    for i, suit in enumerate(suits.suits):
        motto = Value("motto", suit.motto, *content.locate("element-suits", "suits", i, "motto"))
        crown = (*TRUMP_CROWN, trump) if suit.id == suits.trump else ()
        for rank in range(1, suits.ranks + 1):
            printed = rank_text(rank, suits.ranks)
            ranks = (Value("rank", printed), Value("rank_turned", printed), Value("big_rank", printed))
            values = (*ranks, *suit_values(content, i), motto, *crown)
            faces.append(Face(suit_template(inputs, template, suit.id), values, f"{suit.name} {rank}"))
    return faces


def marker_faces(inputs: SetInputs, template: str) -> list[Face]:
    """One trump marker per element, in the suit's own frame: its icon, letter and the big word."""
    content = inputs.content
    words: Words = content["words"]
    marker = Value("big_rank", words.marker, *content.locate("words", "marker"))
    note = Value("motto", words.marker_note, *content.locate("words", "marker_note"))
    faces = []
    for i, suit in enumerate(content["element-suits"].suits):
        values = (*suit_values(content, i), *TRUMP_CROWN, marker, note)
        faces.append(Face(suit_template(inputs, template, suit.id), values, f"{suit.name} {words.marker}"))
    return faces


def magic_faces(inputs: SetInputs, template: str) -> list[Face]:
    content = inputs.content
    names = content["words"].card_types
    faces = []
    for i, card in enumerate(content["magic-cards"].cards):
        at = partial(content.locate, "magic-cards", "cards", i)
        face = Face(
            template,
            (
                Value("type", names[card.type].upper(), *at("type")),
                Value("name", card.name, *at("name")),
                Value("art", TYPE_ICONS[card.type]),
                Value("effect", card.effect, *at("effect")),
                Value("flavour", card.flavour, *at("flavour")),
            ),
            card.name,
        )
        faces += [face] * card.count
    return faces


def suit_template(inputs: SetInputs, template: str, suit: str) -> str:
    """A suit's frame, the deck template's variant <template>-<suit id>; a suit a user adds has no
    colour template of its own yet: it takes the plain one."""
    variant = f"{template}-{suit}"
    return variant if variant in inputs.templates else template


def _score_pad():
    """The score pad's drawing, imported only when a pad is drawn (a deck-only build skips it)."""
    from pnp.games.spells_and_potions.score_pad import draw_score_pad

    return draw_score_pad


def score_pads(inputs: SetInputs) -> SheetDrawing:
    """A pad for each table size a tournament has, the largest first."""
    content = inputs.content
    pad = content["score-pad"]
    wizards = sorted(pad.players, reverse=True)

    rulings = content["rulings"].rulings
    # our readings of the two-wizard rules, printed where the table looks for who plays and leads
    two_wizards = (rulings["two-wizard-order"], rulings["tied-duel-leader"])

    def draw(canvas, area, template, page, printing):
        count = wizards[page]
        notes = two_wizards if count == 2 else ()
        _score_pad()(canvas, area, template, pad, content["duel-rules"], count, printing.options.ink_saver, notes)

    return SheetDrawing(len(wizards), draw, source="score-pad")


MAKERS = Makers(
    faces={
        "elements": element_faces,
        "magic": magic_faces,
        "references": reference_faces,
        "markers": marker_faces,
    },
    sheets={"score-pads": score_pads},
)
