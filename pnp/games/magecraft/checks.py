"""Magecraft's own demands on its content, beyond each field's type. Pure: the companion runs it too.

- The gems: ids, letters and symbols each unique (a letter or symbol shared by two colours no
  longer tells them apart in grey); none called "wild", the cost any colour pays; some basic.
- Each spell: a name of its own; its learn and cast costs name only the gems and Wild; its cast
  cost is payable from a hand of the rules' size, or says it is not (`beyond_hand`), and says so
  only when true.
- The deck holds the starting spells and the spells of every Academy, and enough others to deal
  the random sets; the printed copies seat the most wizards at their starting spells and fill
  each size of Academy; the gems fill every wizard's bag and HP Area and each size of Academy
  (3-4 wizards with two copies of the game).
- Each character's Cantrip costs one gem of the set or Wild; enough characters for the most wizards.
"""

from __future__ import annotations

from collections.abc import Iterator

from pnp.content.loader import Content, run_checks
from pnp.content.problems import Problem, expected_got
from pnp.gamedef import game
from pnp.games.magecraft.kinds import WILD, SetRules, SpellCard

COPIES_AT = {2: 1, 3: 2, 4: 2}  # copies of the game a table of this many wizards plays with (FACTS)


def check(content: Content) -> list[Problem]:
    """Each part's problems, those of the parts whose files validated even when others did not."""
    return run_checks(content, _set_gem_problems, _spell_card_problems, _deck_problems, _character_problems)


def _payable(rules: SetRules) -> list[str]:
    return [g.id for g in rules.gems] + [WILD]


def _set_gem_problems(content: Content) -> Iterator[Problem]:
    return _gem_problems(content, content["magecraft-set"])


def _spell_card_problems(content: Content) -> Iterator[Problem]:
    rules: SetRules = content["magecraft-set"]
    payable = _payable(rules)
    for i, card in enumerate(content["spell-cards"].cards):
        for path, message in _spell_problems(card, rules, payable):
            yield content.problem("spell-cards", "cards", i, *path, message=message)
    yield from content.repeated_names("spell-cards", "spell")


def _gem_problems(content: Content, rules: SetRules) -> Iterator[Problem]:
    yield from content.repeated_attributes("magecraft-set", "gems", ("id", "letter", "symbol"), "gem")
    for i, gem in enumerate(rules.gems):
        if gem.id == WILD:
            message = f"expected a gem id other than {WILD!r}, the cost any colour pays"
            yield content.problem("magecraft-set", "gems", i, "id", message=message)
    if not any(gem.basic for gem in rules.gems):
        yield content.problem(
            "magecraft-set", "gems", message="expected a basic gem or more (basic: true): bags and HP start with them"
        )


def _spell_problems(card: SpellCard, rules: SetRules, payable: list[str]) -> Iterator[tuple[tuple, str]]:
    for cost in ("learn", "cast"):
        for j, gem in enumerate(getattr(card, cost)):
            if gem not in payable:
                yield (cost, j), expected_got(f"a gem ({', '.join(payable)})", gem, payable)
    over = len(card.cast) > rules.hand
    if over and not card.beyond_hand:
        message = (
            f"expected a cast cost a hand of {rules.hand} gems can pay, got {len(card.cast)} gems "
            "(say beyond_hand: true if the spellbook's Draws are meant to pay it)"
        )
        yield ("cast",), message
    if card.beyond_hand and not over:
        yield ("beyond_hand",), f"expected beyond_hand only on a cast cost over {rules.hand} gems, got {len(card.cast)}"


def _deck_problems(content: Content) -> Iterator[Problem]:
    rules: SetRules = content["magecraft-set"]
    cards = content.whole("spell-cards").cards  # what the whole deck holds
    names = {card.name.casefold() for card in cards}
    for field in ("starting", "basic"):
        for j, name in enumerate(getattr(rules, field)):
            if name.casefold() not in names:
                message = expected_got("a spell of the deck", name, [c.name for c in cards])
                yield content.problem("magecraft-set", field, j, message=message)
    fixed = {n.casefold() for n in rules.starting + rules.basic}
    others = sum(key not in fixed for key in names)
    if others < rules.random_sets:
        message = (
            f"expected {rules.random_sets} spells or more besides the starting and basic ones "
            f"to deal the Academy's random sets, got {others}"
        )
        yield content.problem("spell-cards", "cards", message=message)
    yield from _copies_problems(content, rules)


def _copies_problems(content: Content, rules: SetRules) -> Iterator[Problem]:
    """Cards and gems enough for each size of table; a shortfall once, at the smallest it shows."""
    _, most = game("magecraft").players
    short_of: set[object] = set()
    for players in range(2, most + 1):
        copies = COPIES_AT[players]
        in_copies = f"in {copies} {'copy' if copies == 1 else 'copies'} of the game"
        cards_per_spell = rules.copies if players == 2 else rules.melee[players].cards_per_spell
        needed = max(players, cards_per_spell)  # each wizard's starting spells; the Academy's sets
        if needed > rules.copies * copies and "cards" not in short_of:
            short_of.add("cards")
            message = (
                f"expected {needed} cards of each spell for {players} wizards, got {rules.copies * copies} {in_copies}"
            )
            yield content.problem("magecraft-set", "copies", message=message)
        each = rules.academy_gems if players == 2 else rules.melee[players].gems_per_colour
        for i, gem in enumerate(rules.gems):
            needed = each + players * (rules.bag_each + rules.hp_each) * gem.basic
            if needed > gem.count * copies and i not in short_of:
                short_of.add(i)
                held = f", {rules.bag_each + rules.hp_each} a wizard" if gem.basic else ""
                message = (
                    f"expected {needed} {gem.name} gems or more for {players} wizards (Academy {each}{held}), "
                    f"got {gem.count * copies} {in_copies}"
                )
                yield content.problem("magecraft-set", "gems", i, "count", message=message)


def _character_problems(content: Content) -> Iterator[Problem]:
    payable = _payable(content["magecraft-set"])
    characters = content["characters"].characters
    for i, character in enumerate(characters):
        gem = character.cantrip.gem
        if gem not in payable:
            message = expected_got(f"a gem ({', '.join(payable)})", gem, payable)
            yield content.problem("characters", "characters", i, "cantrip", "gem", message=message)
    _, most = game("magecraft").players
    if len(characters) < most:
        message = f"expected a character for each of {most} wizards, got {len(characters)}"
        yield content.problem("characters", "characters", message=message)
