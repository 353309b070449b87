"""Magic Spell: the spell deck, ingredient tiles derived from it, spirit tracks, turn references."""

from __future__ import annotations

from collections import Counter

from pnp.components.card import Face, Value
from pnp.components.kinds import Component, Deck
from pnp.content.loader import Content
from pnp.content.magic_spell import KINDS, RULE_TERMS, SetRules, SpellCard
from pnp.content.problems import Problem, expected_got
from pnp.games.shared import reference_face, titled_back
from pnp.render.icons import ICON_NAMES
from pnp.rules import magic_spell as rules

ID = "magic-spell"
TITLE = "Magic Spell"
__all__ = ["ID", "TITLE", "KINDS", "check", "components"]

TURNED_ALIKE = set("MWNZ")  # read as another letter upside down or turned: underlined
AVERAGE_SPELLS = (3.5, 6.5)  # a courseload should take about this many spells


def spells(content: Content) -> list[SpellCard]:
    return content["spell-cards"].cards


def pool(content: Content) -> Counter:
    return rules.tile_mix([s.word for s in spells(content)], content["magic-spell-set"].letter_tiles)


def credit_rule(content: Content) -> rules.CreditRule:
    return rules.CreditRule(**content["magic-spell-set"].credits.model_dump())


def printed_credits(content: Content) -> list[int]:
    """Each spell's credits as printed: as written, or by the rule where left out."""
    tiles, rule = pool(content), credit_rule(content)
    return [card.credits or rules.credits(card.word, tiles, rule) for card in spells(content)]


def check(content: Content) -> list[Problem]:
    setup: SetRules = content["magic-spell-set"]
    cards, tiles, rule = spells(content), pool(content), credit_rule(content)
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        word = card.word.upper()
        if word in seen:
            problems.append(
                content.problem(
                    "spell-cards",
                    "cards",
                    i,
                    "word",
                    message=expected_got(f"a word no other spell has (card {seen[word] + 1} is {word})", card.word),
                )
            )
        seen.setdefault(word, i)
        short = rules.missing(word, tiles)
        if short:
            lacking = ", ".join(f"{n} more {letter}" for letter, n in sorted(short.items()))
            problems.append(
                content.problem(
                    "spell-cards",
                    "cards",
                    i,
                    "word",
                    message=expected_got(
                        f"a word the {setup.letter_tiles}-tile pool can spell without a philosopher's stone "
                        f"(it needs {lacking})",
                        card.word,
                    ),
                )
            )
        expected = rules.credits(word, tiles, rule)
        if card.credits is not None and card.credits != expected:
            rare = rules.rare_letters(word, tiles, rule)
            problems.append(
                content.problem(
                    "spell-cards",
                    "cards",
                    i,
                    "credits",
                    message=expected_got(
                        f"{expected} by the credit rule ({len(word)} letters + {len(rare)} rare x {rule.rare_bonus} "
                        f"= {rules.points(word, tiles, rule)} points in this deck's tile mix; leave `credits` out "
                        f"to let the rule decide)",
                        card.credits,
                    ),
                )
            )
        if not any(term in card.effect.lower() for term in RULE_TERMS):
            problems.append(
                content.problem(
                    "spell-cards",
                    "cards",
                    i,
                    "effect",
                    message=expected_got(
                        "an effect written with the rules' terms (" + ", ".join(RULE_TERMS) + ")", card.effect
                    ),
                )
            )
    low, high = AVERAGE_SPELLS
    need = rules.spells_for_courseload(printed_credits(content), setup.courseload[0])
    if not low <= need <= high:
        problems.append(
            content.problem(
                "spell-cards",
                "cards",
                message=expected_got(
                    f"credits that make a {setup.courseload[0]}-credit courseload take {low} to {high} spells "
                    "on average",
                    f"{need:.1f} spells",
                ),
            )
        )
    if len(cards) < 4 * setup.players:
        problems.append(
            content.problem(
                "spell-cards",
                "cards",
                message=expected_got(
                    f"at least {4 * setup.players} spells (a full homework of 4 for each of {setup.players} players)",
                    len(cards),
                ),
            )
        )
    for i, stone in enumerate(setup.philosophers_stones):
        if stone not in ICON_NAMES:
            problems.append(
                content.problem(
                    "magic-spell-set",
                    "philosophers_stones",
                    i,
                    message=expected_got("an icon name (" + ", ".join(ICON_NAMES) + ")", stone),
                )
            )
    if not 0 <= setup.spirit.start <= setup.spirit.track_to:
        problems.append(
            content.problem(
                "magic-spell-set",
                "spirit",
                "start",
                message=expected_got(f"a start on the track (0 to {setup.spirit.track_to})", setup.spirit.start),
            )
        )
    return problems


def spell_face(content: Content, i: int, card: SpellCard, credits: int) -> Face:
    at = lambda field: content.locate("spell-cards", "cards", i, field)  # noqa: E731
    mode = (
        "ALWAYS ON"
        if card.mode == "always"
        else f"CAST FOR {card.cost} :spirit: SPIRIT"
        if card.cost
        else "CAST FOR FREE"
    )
    values = [
        Value("word", card.word.upper(), *at("word")),
        Value("credits", str(credits)),
        Value("credit_word", "CREDIT" if credits == 1 else "CREDITS"),
        Value("definition", card.definition, *at("definition")),
        Value("mode", mode, *at("mode")),
        Value("effect", card.effect, *at("effect")),
    ]
    if card.unmet:
        values.append(Value("unmet", card.unmet, *at("unmet")))
    return Face("ms-spell", tuple(values), card.word.upper())


def tile_faces(content: Content) -> list[Face]:
    faces = []
    for letter, count in sorted(pool(content).items()):
        values = (Value("letter", letter),) + ((Value("underline", ""),) if letter in TURNED_ALIKE else ())
        faces += [Face("ms-tile", values, f"tile {letter}")] * count
    for stone in content["magic-spell-set"].philosophers_stones:
        faces.append(Face("ms-stone", (Value("icon", stone), Value("note", "ANY")), f"philosopher's stone {stone}"))
    return faces


def aid_faces(content: Content) -> list[Face]:
    setup: SetRules = content["magic-spell-set"]
    spirit = setup.spirit
    track = Face(
        "ms-spirit",
        (
            Value("title", "SPIRIT"),
            Value("icon", "spirit"),
            Value("track", f"0-{spirit.track_to} start {spirit.start}"),
            Value(
                "note",
                f"Start on **{spirit.start}** :star:. Rest: **+2**. End of turn below 5: **+1**. "
                "Research: **−5**. Weave again: **−1**.",
            ),
        ),
        "spirit track",
    )
    return [track] * setup.players + [reference_face(content, "ms-reference")] * content["reference-card"].copies


def components(content: Content, templates: dict) -> list[Component]:
    title = content["game"].title
    return [
        Deck(
            "spells",
            "Spell cards",
            "ms-spell",
            tuple(
                spell_face(content, i, card, credits)
                for i, (card, credits) in enumerate(zip(spells(content), printed_credits(content), strict=True))
            ),
            titled_back("ms-back", title, "credit"),
        ),
        Deck(
            "tiles",
            "Ingredient tiles",
            "ms-tile",
            tuple(tile_faces(content)),
            Face("ms-tile-back", (Value("emblem", "spell"),), "tile back"),
        ),
        Deck(
            "aids",
            "Spirit tracks and turn references",
            "ms-spirit",
            tuple(aid_faces(content)),
            titled_back("ms-aid-back", title, "spirit"),
        ),
    ]
