"""Spells and Potions' print-and-play set: element cards, Spells and Potions cards, reference
cards and tournament score pads. Every word and number comes from the content."""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.faces import reference_faces, titled_back
from pnp.components.kinds import Component, Deck, Sheet
from pnp.components.setup_sheet import setup_sheet
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


def element_faces(content: Content) -> list[Face]:
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
            faces.append(Face(f"sp-element-{suit.id}", values, f"{suit.name} {rank}"))
    return faces


def marker_faces(content: Content) -> list[Face]:
    """One trump marker per element, in the suit's own frame: its icon, letter and the big word."""
    words: Words = content["words"]
    marker = Value("big_rank", words.marker, *content.locate("words", "marker"))
    note = Value("motto", words.marker_note, *content.locate("words", "marker_note"))
    faces = []
    for i, suit in enumerate(content["element-suits"].suits):
        values = (*suit_values(content, i), *TRUMP_CROWN, marker, note)
        faces.append(Face(f"sp-element-{suit.id}", values, f"{suit.name} {words.marker}"))
    return faces


def magic_faces(content: Content) -> list[Face]:
    names = content["words"].card_types
    faces = []
    for i, card in enumerate(content["magic-cards"].cards):
        at = partial(content.locate, "magic-cards", "cards", i)
        face = Face(
            "sp-magic",
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


def with_template(face: Face, templates: dict) -> Face:
    """A suit a user adds has no colour template of its own yet: it takes the plain one."""
    return face if face.template in templates else Face("sp-element", face.values, face.label)


def _score_pad():
    """The score pad's drawing, imported only when a pad is drawn (a deck-only build skips it)."""
    from pnp.games.spells_and_potions.score_pad import draw_score_pad

    return draw_score_pad


def components(content: Content, templates: dict) -> list[Component]:
    words: Words = content["words"]
    named = words.components
    pad = content["score-pad"]
    wizards = sorted(pad.players, reverse=True)
    rest = [
        Deck(
            "elements",
            named["elements"],
            "sp-element",
            tuple(with_template(f, templates) for f in element_faces(content)),
            titled_back(content, "sp-back", "trump", "star", title=("words", "element_back")),
        ),
        Deck(
            "magic",
            named["magic"],
            "sp-magic",
            tuple(magic_faces(content)),
            titled_back(content, "sp-back-magic", "spell", "potion", title=("words", "magic_back")),
        ),
        Deck(
            "reference",
            named["reference"],
            "sp-reference",
            reference_faces(content, "sp-reference"),
            titled_back(content, "sp-back-reference", "question", "star", title=("words", "reference_back")),
        ),
        Deck(
            "markers",
            named["markers"],
            "sp-element",
            tuple(with_template(f, templates) for f in marker_faces(content)),
            titled_back(content, "sp-back-marker", "trump", "star", title=("words", "marker")),
        ),
        Sheet(
            "score-pads",
            named["score-pads"],
            "score-pad",
            len(wizards),
            lambda canvas, area, template, page, printing: _score_pad()(
                canvas, area, template, pad, content["duel-rules"], wizards[page], printing.options.ink_saver
            ),
            source="score-pad",
        ),
    ]
    return [setup_sheet(content["setup"], rest, templates), *rest]
