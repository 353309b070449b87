"""Spells and Potions: 40 element cards, 12 Spells and Potions cards, reference cards, score pads."""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.kinds import Component, Deck, Sheet
from pnp.components.score_pad import draw_score_pad
from pnp.content.loader import Content
from pnp.content.problems import Problem, expected_got
from pnp.content.spells_and_potions import KINDS, ElementSuits, MagicCards
from pnp.games.shared import reference_face, titled_back
from pnp.render.icons import ICON_NAMES

ID = "spells-and-potions"
TITLE = "Spells and Potions"
__all__ = ["ID", "TITLE", "KINDS", "check", "components"]

HANDS = 4  # the deck is dealt into four hands, the Companions' included
MAGIC_PER_HAND = 3
TYPE_ICONS = {"spell": "spell", "counter-spell": "counter", "potion": "potion", "antidote": "antidote"}
TYPE_NAMES = {"spell": "Spell", "counter-spell": "Counter-spell", "potion": "Potion", "antidote": "Antidote"}


def check(content: Content) -> list[Problem]:
    """The rules' own demands on the content, beyond what each field's type says."""
    suits: ElementSuits = content["element-suits"]
    magic: MagicCards = content["magic-cards"]
    problems = []
    ids = [s.id for s in suits.suits]
    if suits.trump not in ids:
        problems.append(
            content.problem(
                "element-suits", "trump", message=expected_got("a suit id (" + ", ".join(ids) + ")", suits.trump)
            )
        )
    for field in ("id", "letter", "icon"):
        seen: set[str] = set()
        for i, suit in enumerate(suits.suits):
            value = getattr(suit, field)
            if value in seen:
                problems.append(
                    content.problem(
                        "element-suits", "suits", i, field, message=expected_got(f"a {field} no other suit has", value)
                    )
                )
            seen.add(value)
            if field == "icon" and value not in ICON_NAMES:
                problems.append(
                    content.problem(
                        "element-suits",
                        "suits",
                        i,
                        field,
                        message=expected_got("an icon name (" + ", ".join(ICON_NAMES) + ")", value),
                    )
                )
    total_magic = sum(card.count for card in magic.cards)
    if total_magic < HANDS * MAGIC_PER_HAND:
        problems.append(
            content.problem(
                "magic-cards",
                "cards",
                message=expected_got(
                    f"at least {HANDS * MAGIC_PER_HAND} cards in all (3 for each of 4 hands)", total_magic
                ),
            )
        )
    deck = suits.ranks * len(suits.suits) + total_magic
    if deck % HANDS:
        problems.append(
            content.problem(
                "magic-cards",
                "cards",
                message=expected_got(
                    f"element and magic cards that deal evenly into {HANDS} hands (a multiple of {HANDS}; "
                    f"add or remove cards)",
                    deck,
                ),
            )
        )
    return problems


def element_faces(content: Content) -> list[Face]:
    suits: ElementSuits = content["element-suits"]
    faces = []
    for i, suit in enumerate(suits.suits):
        motto = content.locate("element-suits", "suits", i, "motto")
        for rank in range(1, suits.ranks + 1):
            values = [
                Value("rank", str(rank)),
                Value("rank_turned", str(rank)),
                Value("corner_icon", suit.icon),
                Value("corner_icon_turned", suit.icon),
                Value("letter", suit.letter),
                Value("letter_turned", suit.letter),
                Value("suit", suit.name.upper(), *content.locate("element-suits", "suits", i, "name")),
                Value("centre_icon", suit.icon),
                Value("big_rank", str(rank)),
                Value("motto", suit.motto, *motto),
            ]
            if suit.id == suits.trump:
                values += [Value("trump_badge", ""), Value("trump_icon", "trump"), Value("trump_word", "TRUMP")]
            faces.append(Face(f"sp-element-{suit.id}", tuple(values), f"{suit.name} {rank}"))
    return faces


def magic_faces(content: Content) -> list[Face]:
    faces = []
    for i, card in enumerate(content["magic-cards"].cards):
        at = partial(content.locate, "magic-cards", "cards", i)
        face = Face(
            "sp-magic",
            (
                Value("type", TYPE_NAMES[card.type].upper(), *at("type")),
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


def components(content: Content, templates: dict) -> list[Component]:
    title = content["game"].title
    ref = content["reference-card"]
    pad = content["score-pad"]
    return [
        Deck(
            "elements",
            "Element cards",
            "sp-element",
            tuple(with_template(f, templates) for f in element_faces(content)),
            titled_back("sp-back", title, "trump", "star"),
        ),
        Deck(
            "magic",
            "Spells and Potions cards",
            "sp-magic",
            tuple(magic_faces(content)),
            titled_back("sp-back-magic", title, "spell", "potion"),
        ),
        Deck(
            "reference",
            "Reference cards",
            "sp-reference",
            (reference_face(content, "sp-reference"),) * ref.copies,
            titled_back("sp-back-reference", "Reference", "question", "star"),
        ),
        Sheet(
            "score-pads",
            "Tournament score pads",
            "score-pad",
            3,
            lambda canvas, area, template, page, saver: draw_score_pad(canvas, area, template, pad, 4 - page, saver),
        ),
    ]
