"""`pnp check spellcycles` on crafted decks: each problem at its file:line:col, all at once, exit 2."""

from __future__ import annotations

import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.paths import CONTENT

GAME = "spellcycles"


def spell(name: str, **changes) -> dict:
    base = {
        "name": name,
        "pattern": [["red", "blue"]],
        "effect": "Draw **{amount}** essence from the pool.",
        "does": [{"do": "gain-essence", "amount": 2}],
    }
    return {**base, **changes}


FILLER = [spell(f"Filler {n}") for n in range(12)]  # enough to deal the long line


def overlay(root, cards: list[dict], set_changes: dict | None = None) -> str:
    """A --content folder whose deck is `cards` then the filler (both bundled spell files replaced);
    returns the crafted file's text."""
    folder = root / GAME
    folder.mkdir(parents=True)
    text = yaml.safe_dump({"kind": "spell-cards", "cards": cards or [spell("Only")]}, sort_keys=False)
    (folder / "spells-rules.yaml").write_text(text)
    (folder / "spells.yaml").write_text(yaml.safe_dump({"kind": "spell-cards", "cards": FILLER}, sort_keys=False))
    if set_changes:
        bundled = yaml.safe_load((CONTENT / GAME / "set.yaml").read_text())
        (folder / "set.yaml").write_text(yaml.safe_dump({**bundled, **set_changes}, sort_keys=False))
    return text


def line_of(text: str, start: str, nth: int = 0) -> int:
    """The 1-based number of the nth line starting (after indentation and "- ") with `start`."""
    found = [n for n, line in enumerate(text.splitlines(), 1) if line.lstrip(" -").startswith(start)]
    return found[nth]


def problems(tmp_path) -> list[str]:
    result = CliRunner().invoke(main, ["check", GAME, "--content", str(tmp_path / "ov")])
    assert result.exit_code == 2, result.output + result.stderr
    assert "Traceback" not in result.stderr
    return [line for line in result.stderr.splitlines() if "spells-rules.yaml:" in line or "set.yaml:" in line]


def test_the_shipped_deck_passes():
    result = CliRunner().invoke(main, ["check", GAME])
    assert result.exit_code == 0, result.stderr
    assert f"ok {GAME}" in result.output


def test_a_crafted_clean_deck_passes(tmp_path):
    overlay(tmp_path / "ov", [spell("Clean", pattern=[["green", "vacant"], ["marked", "gap"]])])
    result = CliRunner().invoke(main, ["check", GAME, "--content", str(tmp_path / "ov")])
    assert result.exit_code == 0, result.stderr


def test_an_unknown_colour_is_named_at_its_cell_with_the_nearest_colour(tmp_path):
    text = overlay(tmp_path / "ov", [spell("Purple Haze", pattern=[["red", "bleu"]])])
    [problem] = problems(tmp_path)
    assert f"spells-rules.yaml:{line_of(text, 'bleu')}:" in problem
    assert "cards.0.pattern.0.1" in problem and "a colour or a marker" in problem
    assert "'bleu'" in problem and "blue" in problem.split("got")[1]  # the near miss is suggested


def test_every_problem_of_a_deck_is_reported_at_once(tmp_path):
    cards = [
        spell("Too Wide", pattern=[["red"] * 9]),
        spell("Nothing Needed", pattern=[["vacant", "gap"]]),
        spell("Gap Edge", pattern=[["red", "gap"], ["gap", "gap"]]),
        spell("Greedy Stack", pattern=[["red"] * 8] * 2),  # 16 red: a stash holds 15
        spell("Free Lunch", prestige=5),
    ]
    text = overlay(tmp_path / "ov", cards)
    found = problems(tmp_path)
    assert len(found) == 5, found
    wide, nothing, edge, stash, prestige = found
    assert "cards.0.pattern" in wide and "fits the 8 x 8 field" in wide and "1 row of up to 9 cells" in wide
    assert "cards.1.pattern" in nothing and "needs a piece" in nothing
    assert "cards.2.pattern" in edge and "only gaps on the bottom row" in edge
    assert "cards.3.pattern" in stash and "at most 15 red pieces" in stash and "got 16" in stash
    assert f"spells-rules.yaml:{line_of(text, 'prestige: 5')}:" in prestige
    assert "cards.4.prestige" in prestige and "expected 2 (one per piece" in prestige and prestige.endswith("got 5")


def test_a_prestige_override_must_be_said_on_the_card(tmp_path):
    """Rules: "gain Prestige Certificates equal to the number of Spell Components required by the
    spell, unless the spell itself indicates otherwise." Two readings: any number goes, or the card
    must say so. Ours: it must say so, so a card saying it passes and a silent one does not."""
    said = spell("Said", prestige=0, effect="Draw **{amount}** essence. This spell earns no prestige of its own.")
    overlay(tmp_path / "ov", [said, spell("Silent", prestige=0)])
    [problem] = problems(tmp_path)
    assert "cards.1.prestige" in problem


def test_effect_words_and_data_must_agree(tmp_path):
    cards = [
        spell("Unnamed Number", effect="Draw some essence.", does=[{"do": "gain-essence", "amount": 3}]),
        spell("Unknown Placeholder", effect="Draw **{count}** essence."),
        spell("Words Only", effect="Draw **{amount}** essence.", does=None),
        spell("Stray Colour", effect="Take {count} pieces.",
              does=[{"do": "move-pieces", "count": 2, "colour": "purple", "source": "cauldron", "to": "apothecary"}]),
        spell("Beside Nothing", effect="Move a piece {spaces} spaces.",
              does=[{"do": "move-piece", "beside": "green", "spaces": 2}]),
        spell("Not Marked", effect="Send it back.", does=[{"do": "return-pieces", "which": "marked"}]),
        spell("Paid What", cost={"essence": [1, 2]}, effect="Take {count} pieces, paid {if_paid}.",
              does=[{"do": "move-pieces", "count": 2, "source": "cauldron", "to": "apothecary", "if_paid": 3}]),
        spell("Dry Duel", duel=True, effect="Send it back.", does=[{"do": "swap-pieces"}]),
    ]  # fmt: skip
    overlay(tmp_path / "ov", [{k: v for k, v in c.items() if v is not None} for c in cards])
    found = problems(tmp_path)
    by_card: dict[int, str] = {}
    for problem in found:
        card = int(problem.split("cards.")[1].split(".")[0])
        by_card[card] = by_card.get(card, "") + problem
    assert len(found) == 9 and len(by_card) == 8, found
    assert "print the data's amount (3) as {amount}" in by_card[0]
    # the words name a number the data lacks, and leave out the one it gives: both said
    assert "unknown placeholder" in by_card[1] and "got {count}" in by_card[1]
    assert "print the data's amount (2) as {amount}" in by_card[1]
    assert "words only" in by_card[2] and "{amount}" in by_card[2]
    assert "does.0.colour" in by_card[3] and "'purple'" in by_card[3]
    assert "does.0.beside" in by_card[4] and "colour of this spell's pattern" in by_card[4]
    assert "does.0.which" in by_card[5] and "marked space" in by_card[5]
    assert "does.0.if_paid" in by_card[6] and "(1, 2)" in by_card[6]
    assert "cards.7.duel" in by_card[7] and "gain or drain essence" in by_card[7]


def test_a_number_of_one_may_be_written_as_a_word(tmp_path):
    one = spell("One Piece", effect="Lift a piece into your apothecary.",
                does=[{"do": "move-pieces", "count": 1, "source": "field", "to": "apothecary"}])  # fmt: skip
    overlay(tmp_path / "ov", [one])
    result = CliRunner().invoke(main, ["check", GAME, "--content", str(tmp_path / "ov")])
    assert result.exit_code == 0, result.stderr


def test_colours_must_stay_apart_and_the_die_name_only_them(tmp_path):
    bundled = yaml.safe_load((CONTENT / GAME / "set.yaml").read_text())
    colours = [dict(c) for c in bundled["colours"]]
    colours[1]["letter"] = colours[0]["letter"]  # yellow printed R, like red: grey prints confuse them
    overlay(tmp_path / "ov", [], {"colours": colours, "knucklebone": {**bundled["knucklebone"], 6: "purple"},
                                  "crescents": 3})  # fmt: skip
    found = problems(tmp_path)
    assert len(found) == 3, found  # the letter once: on the second colour to use it
    letter, die, crescents = found
    assert "colours.1.letter" in letter and "no other colour has" in letter
    assert "knucklebone.6" in die and "'purple'" in die
    assert "crescents" in crescents and "5 or more" in crescents


def test_a_deck_too_small_for_the_long_line_is_named(tmp_path):
    folder = tmp_path / "ov" / GAME
    folder.mkdir(parents=True)
    for name in ("spells-rules.yaml", "spells.yaml"):
        (folder / name).write_text(yaml.safe_dump({"kind": "spell-cards", "cards": [spell(name)]}))
    result = CliRunner().invoke(main, ["check", GAME, "--content", str(tmp_path / "ov")])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert "a deck of 12 spells or more to deal the long line, got 2" in result.stderr


def test_a_cell_or_a_cost_of_the_wrong_shape_gets_one_plain_message(tmp_path):
    cards = [
        spell("Lonely Stack", pattern=[["red", ["blue"]]]),
        spell("Dear Spell", cost={"essence": 10**20}),
        spell("Odd Choice", cost={"essence": [3, 1]}),
    ]
    overlay(tmp_path / "ov", cards)
    found = problems(tmp_path)
    assert len(found) == 3, found  # one each, not one per kind of value the field could take
    stack, dear, odd = found
    assert "cards.0.pattern.0.1:" in stack and "a stack of 2 to 5 colours, bottom first (this one has 1)" in stack
    assert "cards.1.cost.essence:" in dear and "a number from 0 to 20" in dear and str(10**20) in dear
    assert "cards.2.cost.essence:" in odd and "smallest first" in odd
