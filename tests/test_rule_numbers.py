"""Every number a player reads comes from one place: a rule number changed in a content overlay
changes the printed card and the rule function together."""

from __future__ import annotations

import pytest

from pnp.build import open_game
from pnp.content.game import load_game
from pnp.content.placeholders import fill, format_number
from pnp.content.problems import ContentError
from pnp.games import game
from pnp.games.spells_and_potions.kinds import scoring
from pnp.paths import CONTENT
from pnp.rules import magic_spell, spells_and_potions


def overlay(tmp_path, game_id: str, name: str, old: str, new: str):
    """A content folder whose `name` is ours with `old` replaced by `new`."""
    folder = tmp_path / "ov" / game_id
    folder.mkdir(parents=True)
    text = (CONTENT / game_id / name).read_text(encoding="utf-8")
    assert old in text
    (folder / name).write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path / "ov"


def printed_text(opened, template: str) -> str:
    faces = {f for c in opened.components() if hasattr(c, "faces") for f in c.faces if f.template == template}
    return " ".join(v.text for f in faces for v in f.values)


def test_the_research_cost_changes_on_the_reference_card_the_spirit_track_and_the_rule(tmp_path):
    ms = game("magic-spell")
    ours = open_game(ms, [CONTENT])
    theirs = open_game(ms, [CONTENT, overlay(tmp_path, "magic-spell", "set.yaml", "research: 5", "research: 7")])
    assert "pay 5 spirit" in printed_text(ours, "ms-reference")
    assert "pay 7 spirit" in printed_text(theirs, "ms-reference")
    assert "Research: **−5**" in printed_text(ours, "ms-spirit")
    assert "Research: **−7**" in printed_text(theirs, "ms-spirit")
    spirit = theirs.content["magic-spell-set"].spirit
    assert magic_spell.research(9, spirit) == 2
    with pytest.raises(magic_spell.RuleError, match="Research costs 7 spirit; you have 6"):
        magic_spell.research(6, spirit)


def test_end_of_turn_recovery_follows_the_content(tmp_path):
    folder = overlay(tmp_path, "magic-spell", "set.yaml", "recover_below: 5", "recover_below: 3")
    theirs = open_game(game("magic-spell"), [CONTENT, folder])
    spirit = theirs.content["magic-spell-set"].spirit
    assert [magic_spell.end_of_turn(n, spirit) for n in (2, 3, 4)] == [3, 3, 4]
    assert "End of turn below 3" in printed_text(theirs, "ms-spirit")
    assert "less than **3** spirit" in printed_text(theirs, "ms-spell")  # INDEFATIGABLE says it too


def test_points_per_trick_change_the_score_pad_reference_card_and_duel_score(tmp_path):
    sp = game("spells-and-potions")
    folder = overlay(tmp_path, "spells-and-potions", "rules.yaml", "points_per_trick: 10", "points_per_trick: 5")
    theirs = load_game(sp, [CONTENT, folder])
    assert "5 points a trick" in theirs["score-pad"].how_to
    assert "worth **5 points**" in theirs["reference-card"].sections[2].text
    assert spells_and_potions.duel_score(7, scoring(theirs)) == 35
    assert spells_and_potions.duel_score(7, scoring(load_game(sp, [CONTENT]))) == 70


def test_a_cards_own_numbers_fill_its_text():
    cards = {c.name: c for c in load_game(game("spells-and-potions"), [CONTENT])["magic-cards"].cards}
    assert "**10 more points**" in cards["Gladder's Reward"].effect
    assert "**−10 points**" in cards["Harpier's Penalty"].effect
    assert "Add **2½**" in cards["Merlin's Power Blast"].effect


def test_an_unknown_placeholder_is_a_problem_with_a_suggestion(tmp_path):
    folder = overlay(tmp_path, "magic-spell", "reference.yaml", "{research_cost}", "{reserch_cost}")
    with pytest.raises(ContentError) as caught:
        load_game(game("magic-spell"), [CONTENT, folder])
    [problem] = caught.value.problems
    assert problem.mark.file.endswith("ov/magic-spell/reference.yaml") and problem.field == "sections.0.text"
    assert "got {reserch_cost}; did you mean {research_cost}?" in problem.message


@pytest.mark.parametrize(
    "value, shown", [(12, "12"), (2.5, "2½"), (-10, "−10"), (0.25, "¼"), (1.75, "1¾"), (0.3, "0.3"), ("x", "x")]
)
def test_numbers_print_as_a_player_reads_them(value, shown):
    assert format_number(value) == shown


def test_fill_leaves_names_kept_for_drawing_time():
    assert fill("Duel {n} of {duels}", {"duels": 3}, keep=("n",)) == ("Duel {n} of 3", [])
    assert fill("{nope} {n}", {}, keep=("n",)) == ("{nope} {n}", ["nope"])


def test_no_bundled_text_keeps_a_placeholder_unfilled():
    for game_id in ("magic-spell", "spells-and-potions"):
        opened = open_game(game(game_id), [CONTENT])
        for component in opened.components():
            for face in getattr(component, "faces", ()):
                for value in face.values:
                    assert "{" not in value.text, (game_id, face.label, value.text)
