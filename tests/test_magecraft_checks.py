"""`pnp check magecraft` on crafted content: each problem at its file:line:col, all at once, exit 2."""

from __future__ import annotations

import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.paths import CONTENT

GAME = "magecraft"


def bundled(name: str) -> dict:
    return yaml.safe_load((CONTENT / GAME / name).read_text())


def overlay(root, name: str, data: dict) -> str:
    """A --content folder replacing one of the game's files with `data`; returns the file's text."""
    folder = root / "ov" / GAME
    folder.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(data, sort_keys=False)
    (folder / name).write_text(text)
    return text


def with_cards(changes: dict[str, dict], extra: list[dict] = ()) -> dict:
    """The bundled deck with some spells changed by name, and `extra` spells added."""
    deck = bundled("spells.yaml")
    deck["cards"] = [{**card, **changes.get(card["name"], {})} for card in deck["cards"]] + list(extra)
    return deck


def line_of(text: str, start: str, nth: int = 0) -> int:
    """The 1-based number of the nth line starting (after indentation and "- ") with `start`."""
    return [n for n, line in enumerate(text.splitlines(), 1) if line.lstrip(" -").startswith(start)][nth]


def problems(tmp_path) -> list[str]:
    result = CliRunner().invoke(main, ["check", GAME, "--content", str(tmp_path / "ov")])
    assert result.exit_code == 2, result.output + result.stderr
    assert "Traceback" not in result.stderr
    return [line for line in result.stderr.splitlines() if ".yaml:" in line]


def test_the_shipped_content_passes():
    result = CliRunner().invoke(main, ["check", GAME])
    assert result.exit_code == 0, result.stderr
    assert f"ok {GAME}" in result.output


def test_a_gem_that_is_not_a_colour_or_wild_is_named_at_its_place_with_the_nearest(tmp_path):
    text = overlay(tmp_path, "spells.yaml", with_cards({"Ember Dart": {"learn": ["fier"], "cast": ["fire", "wyld"]}}))
    learn, cast = problems(tmp_path)
    assert f"spells.yaml:{line_of(text, 'fier')}:" in learn
    assert "cards.6.learn.0" in learn and "'fier'" in learn and "did you mean 'fire'" in learn
    assert f"spells.yaml:{line_of(text, 'wyld')}:" in cast
    assert "cards.6.cast.1" in cast and "did you mean 'wild'" in cast


def test_a_cast_cost_a_hand_cannot_pay_must_say_so_and_only_then(tmp_path):
    """Rules: "Each player draws 4 gems from their bag to create a hand." A cost of five gems is
    payable only after Draws in its spellbook: allowed when the card says beyond_hand, not otherwise."""
    five = ["fire", "water", "earth", "light", "wild"]
    deck = with_cards({"Kindle": {"cast": five}, "Ember Dart": {"beyond_hand": True}})
    overlay(tmp_path, "spells.yaml", deck)
    found = problems(tmp_path)
    assert len(found) == 2, found
    dart, kindle = found
    assert "cards.6.beyond_hand" in dart and "over 4 gems, got 2" in dart
    assert "cards.20.cast" in kindle and "a hand of 4 gems can pay, got 5 gems" in kindle and "beyond_hand" in kindle


def test_names_the_set_relies_on_must_be_in_the_deck_and_names_are_unique(tmp_path):
    deck = with_cards({"Meditation": {"name": "Meditations"}, "Kindle": {"name": "fireball"}})
    overlay(tmp_path, "spells.yaml", deck)
    found = problems(tmp_path)
    assert len(found) == 2, found
    twice, missing = found
    assert "cards.20.name" in twice and "'fireball'" in twice and "also spell 6" in twice
    assert "set.yaml:" in missing and "starting.0" in missing and "'Meditation'" in missing
    assert "did you mean 'Meditations'" in missing


def test_the_academy_needs_enough_other_spells_for_its_random_sets(tmp_path):
    deck = bundled("spells.yaml")
    deck["cards"] = deck["cards"][:14]  # the 6 named spells and 8 of ours: the Academy deals 9
    overlay(tmp_path, "spells.yaml", deck)
    [found] = problems(tmp_path)
    assert "spells.yaml:" in found and "expected 9 spells or more besides" in found and "got 8" in found


def test_gems_and_cards_must_fill_every_size_of_table_once_each(tmp_path):
    """Rules: "Place 8 Fire, 8 Water, 8 Earth, 8 Light and 8 Darkness gems in the Academy", each
    wizard holds 3 of each basic colour in the bag and 3 in HP; with 4 wizards, 16 of each colour
    and 4 cards a spell from two copies. A shortfall is named once, at the smallest table it shows."""
    rules = bundled("set.yaml")
    rules["gems"][0]["count"] = 19  # 2 wizards: 8 + 2 x 6 = 20 Fire
    rules["gems"][4]["count"] = 7  # Darkness: 8 for the Academy
    rules["gems"][1]["count"] = 19  # Water likewise
    rules["melee"][4]["cards_per_spell"] = 5  # two copies hold 4 a spell
    text = overlay(tmp_path, "set.yaml", rules)
    found = problems(tmp_path)
    assert len(found) == 4, found  # each once, though 3 and 4 wizards fall short too
    fire, water, darkness, cards = sorted(found, key=lambda problem: int(problem.split(":")[1]))
    assert (
        "gems.0.count" in fire
        and "expected 20 Fire gems or more for 2 wizards (Academy 8, 6 a wizard), got 19 in 1 copy" in fire
    )
    assert "gems.1.count" in water and "expected 20 Water gems" in water
    assert (
        "gems.4.count" in darkness and "expected 8 Darkness gems or more for 2 wizards (Academy 8), got 7" in darkness
    )
    assert (
        f"set.yaml:{line_of(text, 'copies')}:" in cards
        and "expected 5 cards of each spell for 4 wizards, got 4 in 2 copies" in cards
    )


def test_every_problem_across_files_is_reported_at_once(tmp_path):
    overlay(tmp_path, "spells.yaml", with_cards({"Kindle": {"cast": ["fire", "fire", "fire", "fire", "fire"]}}))
    characters = bundled("characters.yaml")
    characters["characters"][0]["cantrip"]["gem"] = "shadow"
    characters["characters"] = characters["characters"][:3]
    overlay(tmp_path, "characters.yaml", characters)
    rules = bundled("set.yaml")
    rules["gems"][2]["letter"] = "F"  # Earth printed F, like Fire: a grey print confuses them
    overlay(tmp_path, "set.yaml", rules)
    found = problems(tmp_path)
    assert len(found) == 4, found
    joined = "\n".join(found)
    assert "gems.2.letter" in joined and "no other gem has, got 'F' (as Fire has)" in joined
    assert "cards.20.cast" in joined
    assert "characters.0.cantrip.gem" in joined and "'shadow'" in joined
    assert "expected a character for each of 4 wizards, got 3" in joined


def test_a_wrong_shape_is_one_plain_message_each(tmp_path):
    deck = with_cards(
        {"Kindle": {"effects": {}}, "Chain Sparks": {"text": ""}, "Ember Dart": {"effects": {"attack": 99}}},
        [{"name": "Wildfire", "cast": [], "effects": {"attack": 1}}],
    )
    overlay(tmp_path, "spells.yaml", deck)
    found = problems(tmp_path)
    assert len(found) == 4, found
    joined = "\n".join(found)
    assert "cards.6.effects.attack" in joined and "99" in joined
    assert "cards.20" in joined and "at least one effect icon" in joined
    assert "cards.22" in joined and "text saying what attack-each does" in joined
    assert "cards.25.cast" in joined
