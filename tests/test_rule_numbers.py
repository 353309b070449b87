"""Every number and word a player reads comes from one place: a rule number changed in a content
overlay changes the printed card and the rule function together; a word changed there is printed."""

from __future__ import annotations

import pytest

from pnp.build import open_game
from pnp.content.game import load_game
from pnp.content.placeholders import fill, format_number
from pnp.content.problems import ContentError
from pnp.gamedef import game
from pnp.games.magic_spell import rules as magic_spell
from pnp.games.spells_and_potions import rules as spells_and_potions
from pnp.games.spells_and_potions.kinds import scoring
from pnp.paths import CONTENT
from tests.conftest import bundled, invoke
from tests.conftest import overlay as conftest_overlay
from tests.support.pdfcards import BuiltPdf


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
    assert "worth **5 points**" in theirs["reference-card"].cards[0].sections[2].text
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
    assert problem.mark.file.endswith("ov/magic-spell/reference.yaml") and problem.field == "cards.0.sections.0.text"
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
        opened = bundled(game_id)
        for component in opened.components():
            for face in getattr(component, "faces", ()):
                for value in face.values:
                    assert "{" not in value.text, (game_id, face.label, value.text)


def test_every_name_on_the_score_pads_comes_from_the_content(tmp_path):
    """Seats, wizards' names and letters, the Companion and how a team is written: a translated
    score-pad file prints a pad with none of our English names left."""
    ours = (CONTENT / "spells-and-potions" / "score-pad.yaml").read_text(encoding="utf-8")
    words = {
        "{north: North, east: East, south: South, west: West}": "{north: Nord, east: Est, south: Sud, west: Ouest}",
        "letters: [A, B, C, D]": "letters: [Q, R, S, T]",
        'wizard_name: "Wizard {letter}"': 'wizard_name: "Mage {letter}"',
        "companion: Companion": "companion: Familier",
        'own_companion: "{letter}\'s Companion"': 'own_companion: "Familier de {letter}"',
        'team: "{first} + {second}"': 'team: "{first} & {second}"',
        "3 wizards and the Companion": "3 mages et le Familier",
        "2 wizards and their Companions": "2 mages et leurs Familiers",
        "their own Companion": "their own Familier",
        'leader: "{who} ({seat})"': 'leader: "{who}, {seat}"',
        'heading: "{title} — {players}"': 'heading: "{players} · {title}"',
    }
    for old, new in words.items():
        assert old in ours, old
        ours = ours.replace(old, new)
    # the two-wizard pad also prints our rulings on who plays and leads: their file is translated too
    rulings = (CONTENT / "spells-and-potions" / "rulings.yaml").read_text(encoding="utf-8")
    assert "Companion" in rulings
    rulings = rulings.replace("Companion", "Familier")
    root = conftest_overlay(tmp_path / "ov", "spells-and-potions", {"score-pad.yaml": ours, "rulings.yaml": rulings})
    out = tmp_path / "out"
    only_pads = ("--only", "score-pads", "--backs", "none")  # fronts only: no blank backs between the pads
    result = invoke("build", "spells-and-potions", "--content", str(root), *only_pads, "--out", str(out))
    assert result.exit_code == 0, result.output
    pdf = BuiltPdf(next(out.glob("*.pdf")))
    four, three, two = (pdf.text(page) for page in range(len(pdf)))
    for pad, count in ((four, 4), (three, 3), (two, 2)):
        assert all(f"Mage {letter}" in pad for letter in "QRST"[:count]), pad
        assert not any(english in pad for english in ("Wizard A", "North", "Companion", " + ")), pad
    assert all(seat in four for seat in ("Nord", "Est", "Sud", "Ouest"))
    assert "Nord & Sud" in four and "Est & Ouest" in four  # the rotating teams, by seat
    assert "Q & S" in four  # duel 1's team, by letter
    assert "Familier" in three and "Q & Familier" in three
    assert "S, Ouest" in three and "R, Ouest" in three  # who leads each duel, and from where
    assert three.startswith("3 mages et le Familier · Ritual Tournament")
    assert "Familier de Q" in two and "Q & Familier" in two
