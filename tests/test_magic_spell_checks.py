"""`pnp check magic-spell` on crafted decks: each problem located at its file:line:col."""

from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.games.magic_spell.rules import CreditRule, credits, tile_mix
from pnp.paths import CONTENT

GAME = "magic-spell"
RULE = CreditRule(rare_at_most=2, rare_bonus=2, two_credits_from=9, three_credits_from=12)
WORDS = [
    "alacrity",
    "filch",
    "quixotic",
    "zephyr",
    "mnemonic",
    "pizzazz",
    "lethargy",
    "panacea",
    "rummage",
    "talisman",
    "unravel",
    "wheedle",
    "epiphany",
    "jubilant",
    "kindle",
    "obfuscate",
    "sagacity",
    "vigilance",
]


def card(word: str, pool, changes: dict) -> dict:
    base = {
        "word": word,
        "credits": credits(word, pool, RULE),
        "definition": "A word of power.",
        "mode": "cast",
        "cost": 1,
        "effect": "Gain 1 **spirit**.",
        "unmet": "Nothing happens.",
    }
    return {**base, **changes}


def overlay(root, tiles: int = 100, changes: dict | None = None, words=WORDS) -> str:
    """A --content folder replacing the spell deck (and the tile total); returns the spells file's text."""
    folder = root / GAME
    folder.mkdir(parents=True)
    pool = tile_mix(words, tiles)
    cards = [card(w, pool, (changes or {}).get(w, {})) for w in words]
    text = yaml.safe_dump({"kind": "spell-cards", "cards": cards}, sort_keys=False)
    (folder / "spells.yaml").write_text(text)
    bundled = yaml.safe_load((CONTENT / GAME / "set.yaml").read_text())
    (folder / "set.yaml").write_text(yaml.safe_dump({**bundled, "letter_tiles": tiles}, sort_keys=False))
    return text


def position(text: str, line_start: str, after: str = "") -> tuple[int, int]:
    """1-based line and column of the value on the first line starting with `line_start`."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(line_start):
            return number, line.index(line_start.split(":")[0] if not after else after) + 1
    raise AssertionError(f"{line_start!r} not in the file")


def run(*args):
    return CliRunner().invoke(main, list(args))


def problems(result) -> list[str]:
    assert result.exit_code == 2, result.output + result.stderr
    assert "Traceback" not in result.stderr
    return [line for line in result.stderr.splitlines() if ": " in line and "problem" not in line]


def test_a_clean_crafted_deck_passes(tmp_path):
    overlay(tmp_path / "ov")
    result = run("check", GAME, "--content", str(tmp_path / "ov"))
    assert result.exit_code == 0, result.stderr
    assert "ok magic-spell" in result.output


def test_a_word_the_pool_cannot_spell_is_reported_at_its_line(tmp_path):
    text = overlay(tmp_path / "ov", tiles=30)  # the words need 37 tiles at least
    result = run("build", GAME, "--content", str(tmp_path / "ov"), "--out", str(tmp_path / "out"))
    lines = problems(result)
    line, _ = position(text, "- word: pizzazz")
    spelled = [p for p in lines if f"spells.yaml:{line}:" in p and "cards.5.word" in p]
    assert spelled and "philosopher's stone" in spelled[0] and "more Z" in spelled[0]
    assert not (tmp_path / "out").exists(), "nothing written"


def test_credits_that_disagree_with_the_rule_name_the_expected_value(tmp_path):
    pool = tile_mix(WORDS, 100)
    right = credits("quixotic", pool, RULE)
    wrong = 1 if right != 1 else 2
    text = overlay(tmp_path / "ov", changes={"quixotic": {"credits": wrong}})
    [problem] = problems(run("check", GAME, "--content", str(tmp_path / "ov")))
    word_line, _ = position(text, "- word: quixotic")
    assert f"spells.yaml:{word_line + 1}:" in problem and "cards.2.credits" in problem
    assert f"expected {right} by the credit rule" in problem and problem.endswith(f"got {wrong}")


def test_a_duplicate_word_is_named(tmp_path):
    words = WORDS + ["Filch"]
    overlay(tmp_path / "ov", words=words)
    [problem] = problems(run("check", GAME, "--content", str(tmp_path / "ov")))
    assert f"cards.{len(WORDS)}.word" in problem and "no other spell has" in problem


def test_a_cast_spell_must_say_what_happens_when_it_cannot_be_met(tmp_path):
    overlay(tmp_path / "ov", changes={"zephyr": {"unmet": ""}})
    [problem] = problems(run("check", GAME, "--content", str(tmp_path / "ov")))
    assert "cards.3" in problem and "unmet" in problem


def test_an_effect_must_use_the_rules_terms(tmp_path):
    overlay(tmp_path / "ov", changes={"kindle": {"effect": "Roll two dice and move your pawn."}})
    [problem] = problems(run("check", GAME, "--content", str(tmp_path / "ov")))
    assert "cards.14.effect" in problem and "rules' terms" in problem


def test_a_deck_of_one_credit_spells_makes_the_courseload_too_long(tmp_path):
    words = [
        "aster",
        "bland",
        "cider",
        "delta",
        "eland",
        "fable",
        "gland",
        "haste",
        "inlet",
        "joust",
        "knelt",
        "lemon",
        "manor",
        "noble",
        "ocean",
        "plaid",
        "quest",
        "raven",
    ]
    overlay(tmp_path / "ov", words=words)
    result = run("check", GAME, "--content", str(tmp_path / "ov"))
    assert any("courseload" in p for p in problems(result))


@pytest.mark.parametrize("bad", ["ab", "two words", "wörter", "a" * 14])
def test_a_magic_word_is_5_to_13_plain_letters(tmp_path, bad):
    overlay(tmp_path / "ov", changes={"filch": {"word": bad}})
    lines = problems(run("check", GAME, "--content", str(tmp_path / "ov")))
    assert any("cards.1.word" in p for p in lines)
