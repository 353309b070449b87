"""Spellcycles' rules as the rules give them by default, our retunes only as a named variant a
table opts into, and every effect the cards do not word as optional made (issue 33). Each test
quotes the rules' sentence it checks and sets up enough pieces to tell two readings apart."""

from __future__ import annotations

import random

import pytest

from pnp.games.spellcycles.field import LARGE, Piece
from pnp.games.spellcycles.rules import RuleError, Variants
from tests import test_spellcycles_rules as rules_tests
from tests.test_spellcycles_rules import lay, space, table

content, book, letters = rules_tests.content, rules_tests.book, rules_tests.letters  # the fixtures
SWIFT = Variants(swift_time=True)


@pytest.mark.parametrize(("name", "rules", "ours"), [("Reverse Time", 6, 2), ("Killing Time", 6, 3)])
def test_the_rules_costs_by_default_and_ours_only_in_swift_time(book, letters, name, rules, ours):
    """The rules: Reverse Time "Requirements: 6 Essence"; Killing Time "Requirements: 6 Essence".
    At a plain table the cast needs 6 and a wizard holding our cheaper cost is refused; at a Swift
    Time table our cost is enough."""
    pattern = {"Reverse Time": ["B G .", ". Y W"], "Killing Time": ["K B R"]}[name]
    g = table(book, name, "Might")
    lay(g, letters, pattern)
    g.wizards[0].essence = ours
    with pytest.raises(RuleError, match=f"{name} needs {rules} essence; you have {ours}"):
        g.cast(0, 0, 0, random.Random(1), choices=[{"crescent": 0}, {"crescent": 0}])
    g.wizards[0].essence = rules
    g.cast(0, 0, 0, random.Random(1), choices=[{"crescent": 0}, {"crescent": 0}])
    assert g.wizards[0].essence == 0
    g = table(book, name, "Might", variants=SWIFT)
    lay(g, letters, pattern)
    g.wizards[0].essence = ours
    g.cast(0, 0, 0, random.Random(1), choices=[{"crescent": 0}, {"crescent": 0}])
    assert g.wizards[0].essence == 0
    assert book.spell(name).essence == rules and book.swift.spell(name).essence == ours


def test_quick_fingers_puts_a_piece_on_the_field_it_is_not_left_undone(book, letters):
    """Quick Fingers: "Put a randomly selected piece from your Apothecary on the Casting Field."
    Not worded "up to" or "may": with a piece in the apothecary and empty squares, a cast naming
    no square is refused and changes nothing; one naming a square puts the piece there."""
    g = table(book, "Quick Fingers")
    lay(g, letters, ["Y R"])
    g.wizards[0].essence = 1
    g.wizards[0].apothecary = [Piece(letters["G"], LARGE)]
    with pytest.raises(RuleError, match="Quick Fingers: name 1 empty space"):
        g.cast(0, 0, 0, random.Random(1), paid=1)
    assert g.wizards[0].essence == 1 and g.wizards[0].apothecary == [Piece(letters["G"], LARGE)]
    g.cast(0, 0, 0, random.Random(1), paid=1, choices=[{"to": [20]}])
    assert g.field.stacks[20] == [Piece(letters["G"], LARGE)] and g.wizards[0].apothecary == []


def test_quick_fingers_with_an_empty_apothecary_has_nothing_to_put(book, letters):
    """Quick Fingers with nothing in the apothecary: the effect happens as far as it can (no
    piece to put), so the cast needs no square."""
    g = table(book, "Quick Fingers")
    lay(g, letters, ["Y R"])
    g.wizards[0].essence = 1
    g.cast(0, 0, 0, random.Random(1), paid=1)
    assert g.wizards[0].essence == 0


def test_tidecaller_lifts_a_piece_and_a_spell_worded_up_to_may_lift_none(book, letters):
    """Ours: Tidecaller "Lift 1 piece from anywhere on the field into your apothecary" must lift
    one; Scatter Sparks "Send up to 2 pieces ... back to the cauldron" may send none."""
    g = table(book, "Tidecaller")
    lay(g, letters, ["B W B", ". . .", "R . ."])
    with pytest.raises(RuleError, match="Tidecaller: choose 1 piece of the field"):
        g.cast(0, 0, 0, random.Random(1))
    g.cast(0, 0, 0, random.Random(1), choices=[{"from": [space(g, 2, 0)]}])
    assert g.wizards[0].apothecary == [Piece(letters["R"], LARGE)]
    g = table(book, "Scatter Sparks")
    lay(g, letters, ["R Y R", ". . .", "B . ."])
    g.wizards[0].essence = 1
    g.cast(0, 0, 0, random.Random(1))
    assert g.field.top(space(g, 2, 0)) == Piece(letters["B"], LARGE)


def test_telekinesis_moves_a_piece_when_one_can_move(book, letters):
    """Telekinesis: "Move one piece adjacent to the green piece in this spell (other than the
    yellow spell component) to a vacant space up to n spaces away." A red diagonally beside the
    green (our ruling: adjacency and distance count diagonals) must move: a cast naming no move is
    refused; with nothing beside the green, nothing moves and the cast needs no choice."""
    g = table(book, "Telekinesis")
    lay(g, letters, ["W Y G", ". . . R"])
    g.wizards[0].essence = 3
    red = space(g, 1, 3)
    with pytest.raises(RuleError, match="Telekinesis: choose the piece to move"):
        g.cast(0, 0, 0, random.Random(1), paid=1)
    g.cast(0, 0, 0, random.Random(1), paid=1, choices=[{"from": red, "to": space(g, 2, 4)}])
    assert g.field.empty(red) and g.field.top(space(g, 2, 4)).colour == letters["R"]
    g = table(book, "Telekinesis")
    lay(g, letters, ["W Y G", ". . . . R"])  # two squares from the green: not beside it
    g.wizards[0].essence = 3
    g.cast(0, 0, 0, random.Random(1), paid=1)
    assert g.field.top(space(g, 1, 4)).colour == letters["R"]
    assert g.field.top(space(g, 0, 2)) == Piece(letters["G"], LARGE - 1)


def test_long_night_dealt_last_cannot_send_crescents_back_again_and_again(book, letters):
    """The rules: "The game ends when there are no Moon Crescents in play." Our Long Night sends a
    crescent back a spell; dealt last, cast every turn, it would keep two crescents on the line
    forever. It is cast once a game: the second time, on a later turn, is refused."""
    g = table(book, "Might", "Long Night", players=2)
    g.crescents = [1, 1]
    lay(g, letters, ["K . K"])
    g.wizards[0].essence = 6
    g.cast(1, 0, 0, random.Random(1), choices=[{"crescent": 1}])
    assert g.crescents == [0, 1]
    g.progress(0)  # the turn ends; the next wizard finds Long Night again
    g.step = "reap"
    lay(g, letters, [". . . K . K"])
    g.wizards[1].essence = 6
    assert g.matches(1) == []
    with pytest.raises(RuleError, match="Long Night is cast once a game, and has been"):
        g.cast(1, 0, 3, random.Random(1), choices=[{"crescent": 1}])
