"""Spellcycles' own demands on its content, beyond each field's type. Pure: the companion runs it too.

- The colours: ids, letters and symbols each unique (a letter or symbol shared by two colours no
  longer tells them apart in grey); the knucklebone names only them; a moon crescent for each
  wizard of the largest table; a deck large enough to deal the long line.
- Each spell: its cells are the colours or the markers; it needs at least one piece; no edge row
  or column of gaps only (a gap must lie on the field, so it would move where the spell is found);
  it fits the field; its pieces can be laid from the stashes; its prestige is the rules' number
  unless its effect says otherwise; its effect data names real colours and pattern features, and
  agrees with its words: every placeholder is a number the data gives, every number above one the
  data gives is printed ("a piece" may stand for one), and a paid-for step matches the cost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from pnp.content.loader import Content, run_checks
from pnp.content.placeholders import PLACEHOLDER
from pnp.content.problems import Problem, expected_got
from pnp.gamedef import game
from pnp.games.spellcycles.kinds import MARKERS, SetRules, SpellCard, Words, step_numbers

DUEL_STEPS = ("gain-essence", "drain-essence")  # what makes a spell a Duel spell


def check(content: Content) -> list[Problem]:
    """Each part's problems, those of the parts whose files validated even when others did not."""
    return run_checks(content, lambda c: _set_problems(c, c["spellcycles-set"]), _spell_card_problems)


def _spell_card_problems(content: Content) -> Iterator[Problem]:
    setup: SetRules = content["spellcycles-set"]
    for i, card in enumerate(content["spell-cards"].cards):
        for path, message in _spell_problems(card, setup, content["words"]):
            yield content.problem("spell-cards", "cards", i, *path, message=message)
    yield from content.repeated_names("spell-cards", "spell")


def _set_problems(content: Content, setup: SetRules) -> Iterator[Problem]:
    def problem(*path, message: str) -> Problem:
        return content.problem("spellcycles-set", *path, message=message)

    yield from content.repeated_attributes("spellcycles-set", "colours", ("id", "letter", "symbol"), "colour")
    ids = [colour.id for colour in setup.colours]
    for face, colour in sorted(setup.knucklebone.items()):
        if colour not in ids:
            yield problem("knucklebone", face, message=expected_got(f"a colour ({', '.join(ids)})", colour, ids))
    if sorted(setup.knucklebone) != list(range(1, 7)):
        yield problem("knucklebone", message="expected a colour for each face of the die, 1 to 6")
    most = game("spellcycles").players[1]
    if setup.crescents < most:
        yield problem(
            "crescents", message=f"expected a moon crescent per wizard, {most} or more, got {setup.crescents}"
        )
    lines = setup.lines
    if not lines.short <= lines.normal <= lines.long:
        yield problem("lines", message="expected short <= normal <= long")
    deck = len(content.whole("spell-cards").cards)
    if deck < lines.long:
        message = f"a deck of {lines.long} spells or more to deal the long line, got {deck}"
        yield content.problem("spell-cards", "cards", message=f"expected {message}")


class _Found(list):
    """A spell's problems as (path within the card, message)."""

    def say(self, *path, message: str) -> None:
        self.append((path, message))


def _spell_problems(card: SpellCard, setup: SetRules, words: Words) -> _Found:
    ids = [colour.id for colour in setup.colours]
    found = _Found()
    pieces = _cell_problems(card, ids, found)
    if card.pieces() == 0:
        found.say("pattern", message="expected a pattern that needs a piece, got only vacant spaces and gaps")
    elif edge := _gap_edge(card.pattern):
        found.say("pattern", message=f"expected a piece or a vacant space on every edge, got only gaps on the {edge}")
    height, width = len(card.pattern), max(map(len, card.pattern))
    if max(height, width) > setup.field:  # the field is square: turning the pattern does not help
        found.say("pattern", message=f"expected a pattern that fits the {setup.field} x {setup.field} field, "
                  f"got {height} row{'s' * (height != 1)} of up to {width} cells")  # fmt: skip
    stash = setup.stash.small + setup.stash.medium + setup.stash.large
    for colour, count in sorted(pieces.items()):
        if count > stash:
            found.say("pattern", message=f"expected at most {stash} {colour} pieces (a stash), got {count}")
    said = words.prestige.lower() in card.effect.lower()
    if card.prestige is not None and card.prestige != card.pieces() and not said:
        found.say("prestige", message=f"expected {card.pieces()} (one per piece the pattern needs), or an effect "
                  f"that says why the card gives another number, got {card.prestige}")  # fmt: skip
    if card.does is None:
        for name in PLACEHOLDER.findall(card.effect):
            found.say("effect", message=f"expected words only in a spell without `does` data, got {{{name}}}")
    else:
        _effect_problems(card, ids, pieces, found)
    return found


def _cell_problems(card: SpellCard, ids: list[str], found: _Found) -> Counter:
    """The pattern's pieces by colour; an unknown colour or marker is reported at its cell."""
    pieces: Counter = Counter()
    for r, row in enumerate(card.pattern):
        if not row:
            found.say("pattern", r, message="expected a row of one cell or more, got none")
        for c, cell in enumerate(row):
            stacked = isinstance(cell, list)
            choices = ids if stacked else ids + list(MARKERS)
            what = "a colour in a stack" if stacked else "a colour or a marker"
            for k, colour in enumerate(cell if stacked else [cell]):
                if colour not in choices:
                    at = ("pattern", r, c) + ((k,) if stacked else ())
                    found.say(*at, message=expected_got(f"{what} ({', '.join(choices)})", colour, choices))
                elif colour not in MARKERS:
                    pieces[colour] += 1
    return pieces


def _gap_edge(pattern: list[list]) -> str | None:
    """The name of an edge of the pattern that holds only gaps, if any."""
    width = max(map(len, pattern))
    rows = [row + ["gap"] * (width - len(row)) for row in pattern]
    edges = {"top row": rows[0], "bottom row": rows[-1], "left column": [row[0] for row in rows],
             "right column": [row[-1] for row in rows]}  # fmt: skip
    return next((name for name, cells in edges.items() if all(cell == "gap" for cell in cells)), None)


def _effect_problems(card: SpellCard, ids: list[str], pieces: Counter, found: _Found) -> None:
    """The effect's data against the colours, the pattern, the cost and the card's words."""
    given: dict[str, set[int]] = {}
    marked = any(cell == "marked" for row in card.pattern for cell in row)
    costs = card.cost.essence if isinstance(card.cost.essence, list) else [card.cost.essence]
    for s, step in enumerate(card.does):
        for name, value in step_numbers(step).items():
            given.setdefault(name, set()).add(value)
        for attribute in ("colour", "beside", "keep"):
            colour = getattr(step, attribute, None)
            if colour in (None, "any"):
                continue
            if colour not in ids:
                found.say("does", s, attribute, message=expected_got(f"a colour ({', '.join(ids)})", colour, ids))
            elif attribute != "colour" and colour not in pieces:
                mine = ", ".join(sorted(pieces))
                found.say(
                    "does", s, attribute, message=f"expected a colour of this spell's pattern ({mine}), got {colour!r}"
                )
        if getattr(step, "which", None) == "marked" and not marked:
            found.say(
                "does", s, "which", message="expected a marked space in the pattern for `which: marked`, got none"
            )
        if getattr(step, "spaces", None) == "paid" and card.cost.essence != "n":
            found.say("does", s, "spaces", message=f"expected `cost: essence: n` for a step paid by the essence "
                      f"spent, got {card.cost.essence!r}")  # fmt: skip
        paid = getattr(step, "if_paid", None)
        if paid is not None and paid not in costs:
            offered = ", ".join(map(str, costs))
            found.say(
                "does",
                s,
                "if_paid",
                message=f"expected one of the essence amounts the cost offers ({offered}), got {paid}",
            )
    # only what the card words as optional may be left undone: the data's `up_to` and the words agree
    says_up_to = "up to" in card.effect.lower()
    optional = [s for s, step in enumerate(card.does) if getattr(step, "up_to", False)]
    for s in optional if not says_up_to else ():
        found.say("does", s, "up_to", message='expected the words to say "up to" for a step that may be left undone')
    choosing = [s for s, step in enumerate(card.does) if _chooses_pieces(step)]
    if says_up_to and choosing and not optional:
        found.say("does", choosing[0], message='expected `up_to: true` on the step the words call "up to"')
    if card.once_a_game and "once a game" not in card.effect.lower():
        found.say("effect", message='expected the words to say "once a game" for a spell with `once_a_game`')
    backs = any(step.do == "move-crescent" and step.direction == "back" for step in card.does)
    if backs and card.source == "ours" and not card.once_a_game:
        found.say("once_a_game", message="expected `once_a_game: true` on a spell of ours sending a crescent back: "
                  "cast again and again, it could keep a game from ending")  # fmt: skip
    if card.duel and not any(step.do in DUEL_STEPS for step in card.does):
        found.say(
            "duel", message="expected a Duel spell to gain or drain essence (a gain-essence or drain-essence step)"
        )
    if card.cost.essence == "n" and not any(getattr(step, "spaces", None) == "paid" for step in card.does):
        found.say("cost", "essence", message="expected a step using the essence paid (`spaces: paid`) for a cost of n")
    written = PLACEHOLDER.findall(card.effect)
    for name in dict.fromkeys(written):
        if name not in given:
            known = ", ".join(f"{{{n}}}" for n in sorted(given)) or "none: the data gives no number"
            found.say("effect", message=f"unknown placeholder (expected one of {known}, got {{{name}}})")
        elif len(given[name]) > 1:
            found.say(
                "effect", message=f"expected {{{name}}} to name one number, got {sorted(given[name])} from two steps"
            )
    for name, values in sorted(given.items()):
        if name not in written and max(values) > 1:
            found.say("effect", message=f"expected the words to print the data's {name} ({max(values)}) as {{{name}}}")


def _chooses_pieces(step) -> bool:
    """A step whose pieces the caster chooses, so that a card may make it optional."""
    return (step.do == "move-pieces" and not step.random) or (step.do == "return-pieces" and step.which == "any")
