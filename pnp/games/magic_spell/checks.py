"""Magic Spell's own demands on its content, beyond each field's type: pure, the companion runs them too."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from pnp.content.loader import Content, run_checks
from pnp.content.problems import Problem, expected_got
from pnp.games.magic_spell import rules
from pnp.games.magic_spell.kinds import RULE_TERMS, SetRules, SpellCard

AVERAGE_SPELLS = (3.5, 6.5)  # a courseload should take about this many spells


def spells(content: Content) -> list[SpellCard]:
    """The whole deck: the tile mix, and so every word's credits, depend on every word in it."""
    return content.whole("spell-cards").cards


def pool(content: Content) -> Counter:
    return rules.tile_mix([s.word for s in spells(content)], content["magic-spell-set"].letter_tiles)


def credit_rule(content: Content) -> rules.CreditRule:
    return rules.CreditRule(**content["magic-spell-set"].credits.model_dump())


def printed_credits(content: Content) -> list[int]:
    """Each spell's credits as printed: as written, or by the rule where left out."""
    tiles, rule = pool(content), credit_rule(content)
    return [card.credits or rules.credits(card.word, tiles, rule) for card in spells(content)]


def check(content: Content) -> list[Problem]:
    """Each part's problems, those of the parts whose files validated even when others did not."""
    return run_checks(content, _spell_problems, _set_problems)


def _spell_problems(content: Content) -> Iterator[Problem]:
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
    homework = setup.limits.homework
    if len(cards) < homework * setup.players:
        problems.append(
            content.problem(
                "spell-cards",
                "cards",
                message=expected_got(
                    f"at least {homework * setup.players} spells (a full homework of {homework} for each of "
                    f"{setup.players} players)",
                    len(cards),
                ),
            )
        )
    yield from problems


def _set_problems(content: Content) -> Iterator[Problem]:
    setup: SetRules = content["magic-spell-set"]
    homework = setup.limits.homework
    spirit = setup.spirit
    for field, value, bound, what in (
        ("start", spirit.start, spirit.track_to, "a start on the track"),
        ("recover_below", spirit.recover_below, spirit.track_to, "a threshold on the track"),
    ):
        if value > bound:
            yield content.problem(
                "magic-spell-set", "spirit", field, message=expected_got(f"{what} (0 to {bound})", value)
            )
    if setup.start.homework > homework:
        yield content.problem(
            "magic-spell-set",
            "start",
            "homework",
            message=expected_got(f"a starting hand within the homework limit ({homework})", setup.start.homework),
        )
