"""Spellcycles' rules, as the rules word them (../shared/rules/spellcycles.txt) and as our rulings
(content/spellcycles/rulings.yaml) settle what they leave open: each test quotes the sentence it
checks and lays out enough pieces to tell two readings apart."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.spellcycles.field import LARGE, MEDIUM, SMALL, Piece
from pnp.games.spellcycles.kinds import SpellCard
from pnp.games.spellcycles.pattern import GAP, MARKED, find, quarter_turns, shapes_of
from pnp.games.spellcycles.rulebook import book_of
from pnp.games.spellcycles.rules import OVER, REAP, REFRESH, Game, RuleError, Variants, deal
from pnp.paths import CONTENT

EXAMPLES = [
    "Bippity, Boppity, Blue",
    "Friend of Jack",
    "Might",
    "Translocation",
    "Telekinesis",
    "Implode",
    "Reverse Time",
    "Subtle Drain",
    "Killing Time",
    "Quick Fingers",
]
PLAIN = Variants()  # the rules without a variant
PIPS = {"1": SMALL, "2": MEDIUM, "3": LARGE}


@pytest.fixture(scope="module")
def content():
    return load_game(game("spellcycles"), [CONTENT])


@pytest.fixture(scope="module")
def book(content):
    return book_of(content)


@pytest.fixture(scope="module")
def letters(content):
    return {c.letter: i for i, c in enumerate(content["spellcycles-set"].colours)}


def table(book, *names: str, players: int = 2, variants: Variants = PLAIN) -> Game:
    """A game whose line holds the named spells, every crescent on the first, at Reap."""
    g = Game(book, players, [book.spells.index(book.spell(n)) for n in names], variants)
    g.pile = [(rank, suit) for suit in range(4) for rank in range(1, 14)]
    g.step = REAP
    return g


def lay(g: Game, letters: dict, rows: list[str], at: tuple[int, int] = (0, 0)) -> None:
    """Pieces from the cauldron onto the field: rows of tokens, top first, from `at`: a colour's
    letter and its size in pips (R3 a large red, R1 a small; a bare letter is large), `.` empty."""
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            if token == ".":
                continue
            piece = Piece(letters[token[0]], PIPS[token[1:] or "3"])
            g.cauldron[piece.colour][piece.size] -= 1
            g.field.put((at[0] + r) * g.field.size + at[1] + c, piece)


def space(g: Game, r: int, c: int) -> int:
    return r * g.field.size + c


def found(spell, g: Game, recolours: int = 0) -> list[tuple[int, int, int]]:
    return [(s, origin, k) for s, shape in enumerate(spell.shapes) for origin, k in find(shape, g.field, recolours)]


def tokens(book, rows, letters, *, fill: str) -> list[str]:
    """A spell's pattern as `lay` rows: its colours, a piece of `fill` in marked cells and gaps."""
    letter = {i: ch for ch, i in letters.items()}
    out = []
    for row in rows:
        cells = []
        for cell in row:
            if isinstance(cell, int):
                cells.append(letter[cell])
            elif cell in (MARKED, GAP):
                cells.append(fill)
            else:  # vacant
                cells.append(".")
        out.append(" ".join(cells))
    return out


def absent(rows, letters) -> str:
    """The letter of a colour the pattern does not use."""
    used = {cell for row in rows for cell in row if isinstance(cell, int)}
    return next(ch for ch, i in letters.items() if i not in used)


# --- Finding the rules' ten example spells -------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLES)
def test_each_example_spell_is_found_where_it_is_laid_and_not_when_one_colour_differs(book, letters, name):
    """The rules: "Compare the active spells in the Spell Line the the Casting Field. If you find a
    match, you may cast that spell." ... "spells may only specify Spell Component color and
    sequence". Laid as the card draws it (marked cells and gaps holding a piece of a colour the
    spell does not use), it is found there and only there; with any one colour changed to that
    colour, it is not found (and found again with one recolour paid)."""
    spell = book.spell(name)
    other = absent(spell.rows, letters)
    g = table(book, name)
    lay(g, letters, tokens(book, spell.rows, letters, fill=other), at=(2, 3))
    assert found(spell, g) == [(0, space(g, 2, 3), 0)]
    cells = [(r, c) for r, row in enumerate(spell.rows) for c, cell in enumerate(row) if isinstance(cell, int)]
    assert cells
    for r, c in cells:
        g = table(book, name)
        rows = [list(row) for row in spell.rows]
        rows[r][c] = letters[other]
        lay(g, letters, tokens(book, rows, letters, fill=other), at=(2, 3))
        assert found(spell, g) == [], (r, c)
        assert found(spell, g, recolours=1) == [(0, space(g, 2, 3), 1)], (r, c)


SEQUENCES = [
    # (spell, its colours in a line, the same colours in another order)
    ("Killing Time", "K B R", "K R B"),
    ("Telekinesis", "W Y G", "W G Y"),
    ("Telekinesis", "W Y G", "Y W G"),
]


@pytest.mark.parametrize(("name", "laid", "swapped"), SEQUENCES)
def test_sequence_matters_red_yellow_blue_is_not_red_blue_yellow(book, letters, name, laid, swapped):
    """The rules: "Note that sequence is important. Red, Yellow, Blue is not the same as Red, Blue,
    Yellow." The same three pieces in another order are not the spell, whichever way it turns."""
    spell = book.spell(name)
    g = table(book, name)
    lay(g, letters, [laid], at=(4, 1))
    assert len(found(spell, g)) == 1
    g = table(book, name)
    lay(g, letters, [swapped], at=(4, 1))
    assert found(spell, g) == []
    # in a column too: every quarter turn of the swapped order is still another sequence
    g = table(book, name)
    lay(g, letters, swapped.split(), at=(1, 6))
    assert found(spell, g) == []


def test_a_pattern_is_found_turned_by_a_quarter_turn_but_never_mirrored(book, letters):
    """Our ruling (rotation): "A pattern may be found turned by quarter turns, as a player on any
    side of the field would see it; never mirrored." Reverse Time (blue green over yellow white,
    one step right) is a Z: turned a quarter it is found; its mirror image, an S, is not."""
    spell = book.spell("Reverse Time")
    assert len(spell.shapes) == 4
    turned = ["K B", "Y G", "W K"]  # the card's pattern a quarter turn clockwise (K: not looked at)
    mirror = ["K G B", "W Y K"]  # the card's pattern read in a mirror
    g = table(book, "Reverse Time")
    lay(g, letters, turned, at=(3, 3))
    assert found(spell, g) == [(1, space(g, 3, 3), 0)]
    g = table(book, "Reverse Time")
    lay(g, letters, mirror, at=(3, 3))
    assert found(spell, g) == []
    # every quarter turn, and never a mirror, is among the shapes
    grids = quarter_turns(spell.rows)
    flipped = tuple(tuple(reversed(row)) for row in spell.rows)
    assert len(grids) == 4 and flipped not in grids


def test_a_line_of_two_read_from_the_other_side_is_the_same_spell(book, letters):
    """Our ruling (rotation), a half turn: a wizard across the table reads Might's yellow, white
    as white, yellow. A pattern of two in a line is its own mirror, so turning is all it takes."""
    spell = book.spell("Might")
    g = table(book, "Might")
    lay(g, letters, ["W Y"])
    assert len(found(spell, g)) == 1
    g = table(book, "Might")
    lay(g, letters, ["W", "Y"])
    assert len(found(spell, g)) == 1


def test_the_whole_pattern_gaps_included_lies_on_the_field(book, letters):
    """Our ruling (edge): "The whole pattern, gaps included, must lie on the field." A pattern of
    a red and a gap beside it: a red in the middle of the field is found four ways (the gap on each
    side); in the bottom-right corner, only the two ways whose gap is on the field."""
    shapes = shapes_of(((letters["R"], GAP),), 8)
    assert len(shapes) == 4
    g = table(book, "Might")
    lay(g, letters, ["R"], at=(3, 3))
    assert sum(len(find(shape, g.field)) for shape in shapes) == 4
    g = table(book, "Might")
    lay(g, letters, ["R"], at=(7, 7))
    hits = {i: find(shape, g.field) for i, shape in enumerate(shapes)}
    assert hits == {0: [], 1: [], 2: [(space(g, 7, 6), 0)], 3: [(space(g, 6, 7), 0)]}


def test_a_vacant_cell_must_be_empty_and_a_marked_cell_needs_any_piece(book, letters):
    """Our rulings: "A vacant space must be empty when the spell is cast." and "A marked space
    needs a piece of any colour"."""
    translocation, implode = book.spell("Translocation"), book.spell("Implode")
    g = table(book, "Translocation")
    lay(g, letters, ["B . Y"])
    assert len(found(translocation, g)) == 1
    lay(g, letters, ["G"], at=(0, 1))
    assert found(translocation, g) == []
    g = table(book, "Implode")
    lay(g, letters, ["R B", ". K"])
    assert found(implode, g) == []
    lay(g, letters, ["W1"], at=(1, 0))
    assert len(found(implode, g)) == 1


def test_prestige_is_one_certificate_per_piece_the_pattern_needs_unless_the_card_says(book):
    """The rules: "gain Prestige Certificates equal to the number of Spell Components required by
    the spell, unless the spell itself indicates otherwise." A marked space needs a piece; a
    vacant space and a gap need none; a stack needs each of its pieces; Friend of Jack says it
    gives none."""
    assert book.spell("Translocation").prestige == 2  # blue, vacant, yellow
    assert book.spell("Implode").prestige == 4  # red, blue, marked, black
    assert book.spell("Reverse Time").prestige == 4  # four colours and two gaps
    assert book.spell("Friend of Jack").prestige == 0
    stacked = SpellCard(name="Stacked", pattern=[["green", ["red", "blue"]]], effect="Nothing more.")
    assert stacked.earns() == 3


# --- Casting ---------------------------------------------------------------------------------


def test_reduction_puts_a_piece_one_size_smaller_back_and_small_pieces_go(book, letters):
    """The rules: "The Spell Components on the Field go back to the Cauldron, and Components of the
    same color, but one size smaller, go back to the Field from the Cauldron. Do not replace small
    Spell Components." Bippity's three blues, large, medium and small, with no small blue left in
    the cauldron: all go back first, so the returned small one replaces the medium; the large
    becomes a medium; the small's space is left empty."""
    g = table(book, "Bippity, Boppity, Blue")
    blue = letters["B"]
    g.cauldron[blue] = [1, 5, 5]
    lay(g, letters, ["B3 B2 B1"], at=(5, 2))
    assert g.cauldron[blue] == [0, 4, 4]
    g.cast(0, 0, space(g, 5, 2), random.Random(1), choices=[{}])
    assert g.field.stacks[space(g, 5, 2)] == [Piece(blue, MEDIUM)]
    assert g.field.stacks[space(g, 5, 3)] == [Piece(blue, SMALL)]
    assert g.field.stacks[space(g, 5, 4)] == []
    assert g.cauldron[blue] == [0, 4, 5]  # the small went back and stayed; none is lost
    assert sum(g.cauldron[blue]) + 2 == 1 + 5 + 5


def test_with_no_smaller_piece_in_the_cauldron_the_space_is_left_empty(book, letters):
    """Our ruling (no-smaller): "When the cauldron has no piece one size smaller of a colour, the
    space is left empty." Might's medium yellow finds no small yellow; its large white becomes a
    medium white."""
    g = table(book, "Might")
    yellow, white = letters["Y"], letters["W"]
    g.cauldron[yellow][SMALL] = 0
    lay(g, letters, ["Y2 W3"])
    g.wizards[0].essence = 1
    g.cast(0, 0, 0, random.Random(1))
    assert g.field.stacks[0] == [] and g.field.stacks[1] == [Piece(white, MEDIUM)]
    assert g.cauldron[yellow] == [0, 5, 5] and g.cauldron[white] == [5, 4, 5]


def test_a_cast_pays_its_cost_enacts_its_effect_and_earns_prestige(book, letters):
    """The rules: "1. Pay any costs required by the spell." ... "3. Enact the spell's effects." ...
    "4. ... gain Prestige Certificates equal to the number of Spell Components required". Might:
    "Double your Essence, or gain four Essence, whichever is less": paying 1 of 3 leaves 2, doubled
    to 4 (not 3 + 3, nor 2 + 4), and two certificates."""
    g = table(book, "Might")
    lay(g, letters, ["Y W"])
    g.wizards[0].essence = 3
    done = g.cast(0, 0, 0, random.Random(1))
    assert g.wizards[0].essence == 4
    assert len(g.wizards[0].certificates) == 2 == done.prestige
    g = table(book, "Might")
    lay(g, letters, ["Y W"])
    g.wizards[0].essence = 9
    g.cast(0, 0, 0, random.Random(1))
    assert g.wizards[0].essence == 12  # four at most


def test_a_cast_the_caster_cannot_pay_is_refused_and_changes_nothing(book, letters):
    """The rules: "To cast a spell, 1. Pay any costs required by the spell." Killing Time, with
    one essence short of its cost."""
    cost = book.spell("Killing Time").essence
    assert isinstance(cost, int) and cost >= 2
    g = table(book, "Killing Time")
    lay(g, letters, ["K B R"])
    g.wizards[0].essence = cost - 1
    before = [list(s) for s in g.field.stacks], [list(c) for c in g.cauldron]
    with pytest.raises(RuleError, match=f"Killing Time needs {cost} essence; you have {cost - 1}"):
        g.cast(0, 0, 0, random.Random(1))
    assert ([list(s) for s in g.field.stacks], [list(c) for c in g.cauldron]) == before
    assert g.wizards[0].essence == cost - 1 and not g.wizards[0].certificates


def test_a_choice_of_costs_and_any_n(book, letters):
    """The rules: Quick Fingers "Requirements: 1 or 3 Essence" ("If you spent 3 Essence, you may
    also take a randomly selected large piece"); Telekinesis "Requirements: n Essence"."""
    g = table(book, "Quick Fingers")
    lay(g, letters, ["Y R"])
    g.wizards[0].essence = 5
    with pytest.raises(RuleError, match="1 or 3 essence"):
        g.cast(0, 0, 0, random.Random(1), paid=2)
    g.wizards[0].apothecary = [Piece(letters["G"], LARGE)]
    g.cast(0, 0, 0, random.Random(1), paid=3, choices=[{"to": [20]}])
    assert g.wizards[0].essence == 2
    assert g.field.stacks[20] == [Piece(letters["G"], LARGE)]  # the only piece it could draw
    assert len(g.wizards[0].apothecary) == 1 and g.wizards[0].apothecary[0].size == LARGE
    g = table(book, "Quick Fingers")
    lay(g, letters, ["Y R"])
    g.wizards[0].essence = 5
    g.wizards[0].apothecary = [Piece(letters["G"], LARGE)]
    g.cast(0, 0, 0, random.Random(1), paid=1, choices=[{"to": [20]}])
    assert g.wizards[0].essence == 4 and g.wizards[0].apothecary == []
    g = table(book, "Telekinesis")
    lay(g, letters, ["W Y G"])
    g.wizards[0].essence = 5
    with pytest.raises(RuleError, match="say how much"):
        g.cast(0, 0, 0, random.Random(1))


def test_the_recolour_costs_essence_and_the_piece_is_reduced_in_its_own_colour(book, letters):
    """The rules: "you may spend a point of Essence to change the color of a Spell Component on
    the Casting Field to any other color for the duration of one spell. If you have to replace a
    changed Spell Component, replace it with its original color, not its assumed color." Subtle
    Drain (blue, black) on a blue and a red: one recolour, one essence; the red comes back as a
    medium red, not a black."""
    g = table(book, "Subtle Drain")
    red = letters["R"]
    lay(g, letters, ["B R"])
    assert g.matches(0) == []  # no essence, no recolour
    g.wizards[0].essence = 1
    assert g.matches(0) == [(0, 0, 1)]
    g.wizards[1].essence = 3
    done = g.cast(0, 0, 0, random.Random(1), choices=[{"player": 1}])
    assert done.recolours == 1
    assert g.field.stacks[1] == [Piece(red, MEDIUM)]
    assert g.wizards[0].essence == 1 - 1 + 1 and g.wizards[1].essence == 2


def test_several_recolours_cost_a_point_each_and_must_be_affordable(book, letters):
    """The rules: "You may spend multiple points of Essence to use this effect multiple times."
    Killing Time on three pieces of the wrong colours needs its cost and 3 more."""
    cost = book.spell("Killing Time").essence + 3 * book.recolour
    g = table(book, "Killing Time")
    lay(g, letters, ["W G Y"])
    g.wizards[0].essence = cost - 1
    assert g.matches(0) == []
    with pytest.raises(RuleError, match=f"Killing Time needs {cost} essence; you have {cost - 1}"):
        g.cast(0, 0, 0, random.Random(1))
    g.wizards[0].essence = cost
    assert [k for _, _, k in g.matches(0)] == [3, 3]  # read either way along the line
    g.cast(0, 0, 0, random.Random(1))
    assert g.wizards[0].essence == 0


def test_the_same_spell_is_never_cast_twice_a_turn_but_another_may_follow(book, letters):
    """The rules: "After you've cast a spell, you may cast another spell if conditions permit.
    You may not cast the same spell multiple times in one turn." Subtle Drain is laid twice;
    Might beside it."""
    g = table(book, "Subtle Drain", "Might", players=3)
    g.crescents = [0, 0, 1]
    lay(g, letters, ["B K", ". .", "B K", ". .", "Y W"])
    g.wizards[0].essence = 1
    g.wizards[1].essence = 5
    g.cast(0, 0, 0, random.Random(1), choices=[{"player": 1}])
    assert g.matches(0) == []
    with pytest.raises(RuleError, match="never the same spell twice a turn"):
        g.cast(0, 0, space(g, 2, 0), random.Random(1), choices=[{"player": 1}])
    g.cast(1, 0, space(g, 4, 0), random.Random(1))
    assert len(g.wizards[0].certificates) == 4
    g.progress(0)
    assert g.crescents == [0, 1, 1] and g.player == 1
    g.step = REAP  # the next wizard's Reap: Subtle Drain again, at the other match
    g.wizards[1].essence = 1
    g.cast(0, 0, space(g, 2, 0), random.Random(1), choices=[{"player": 0}])


def test_only_a_spell_with_a_moon_crescent_is_active(book, letters):
    """The rules: "Any spell in the Spell Line with a Moon Crescent on it is an active spell." """
    g = table(book, "Might", "Subtle Drain")
    lay(g, letters, ["B K"])
    assert g.matches(1) == []
    with pytest.raises(RuleError, match="no moon crescent"):
        g.cast(1, 0, 0, random.Random(1), choices=[{"player": 1}])


def test_implode_returns_the_marked_piece_which_is_not_reduced(book, letters):
    """Implode: "Return the piece in the space marked "xxx" to the Cauldron." Our ruling (marked):
    the effect acts on that very piece, so it goes back large, not reduced first."""
    g = table(book, "Implode")
    lay(g, letters, ["R B", "G3 K"])
    g.wizards[0].certificates = [(5, 0)]
    g.cast(0, 0, 0, random.Random(1))
    assert g.field.stacks[space(g, 1, 0)] == []
    assert g.cauldron[letters["G"]] == [5, 5, 5]
    assert g.wizards[0].certificates[0] != (5, 0) and len(g.wizards[0].certificates) == 4


def test_killing_time_returns_its_pieces_and_removes_a_crescent(book, letters):
    """Killing Time: "Return all pieces in this spell ... to the Cauldron. Remove a Moon Crescent
    from the game." The reduced pieces go back, and one of two crescents leaves."""
    g = table(book, "Killing Time", "Might", players=2)
    g.crescents = [0, 1]
    lay(g, letters, ["K B R"])
    g.wizards[0].essence = book.spell("Killing Time").essence
    g.cast(0, 0, 0, random.Random(1), choices=[{}, {"crescent": 1}])
    assert g.field.occupied == 0 and all(c == [5, 5, 5] for c in g.cauldron)
    assert g.crescents == [0]


def test_translocation_swaps_two_pieces_and_friend_of_jack_takes_certificates(book, letters):
    """Translocation: "Select 2 pieces on the Casting Field. You may swap their positions." Friend
    of Jack: "Take up to three Prestige Certificates from one player. Gain no additional
    Prestige". Which three is our ruling: at random (with Extra Credit they lie face down)."""
    g = table(book, "Translocation")
    lay(g, letters, ["B . Y", ". . .", "G . W"])
    g.wizards[0].essence = 2
    g.cast(0, 0, 0, random.Random(1), choices=[{"spaces": [space(g, 2, 0), space(g, 2, 2)]}])
    assert g.field.top(space(g, 2, 0)).colour == letters["W"] and g.field.top(space(g, 2, 2)).colour == letters["G"]
    g = table(book, "Friend of Jack")
    lay(g, letters, ["R K", "K Y"])
    g.wizards[0].essence = 1
    g.wizards[1].certificates = [(2, 0), (3, 0), (4, 0), (5, 0)]
    g.cast(0, 0, 0, random.Random(1), choices=[{"player": 1}])
    assert len(g.wizards[0].certificates) == 3 and len(g.wizards[1].certificates) == 1
    assert sorted(g.wizards[0].certificates + g.wizards[1].certificates) == [(2, 0), (3, 0), (4, 0), (5, 0)]
    kept = set()
    for seed in range(8):  # not always the latest three: a random pick
        g = table(book, "Friend of Jack")
        lay(g, letters, ["R K", "K Y"])
        g.wizards[0].essence = 1
        g.wizards[1].certificates = [(2, 0), (3, 0), (4, 0), (5, 0)]
        g.cast(0, 0, 0, random.Random(seed), choices=[{"player": 1}])
        kept.add(g.wizards[1].certificates[0])
    assert len(kept) > 1


def test_telekinesis_moves_a_piece_beside_the_green_at_most_n_spaces(book, letters):
    """Telekinesis: "Move one piece adjacent to the green piece in this spell (other than the
    yellow spell component) to a vacant space up to n spaces away." Paid 2: three away is refused,
    two away is allowed."""
    g = table(book, "Telekinesis")
    lay(g, letters, ["W Y G R"], at=(0, 0))
    g.wizards[0].essence = 5
    red = space(g, 0, 3)
    with pytest.raises(RuleError, match="3 away; at most 2"):
        g.cast(0, 0, 0, random.Random(1), paid=2, choices=[{"from": red, "to": space(g, 3, 3)}])
    assert g.wizards[0].essence == 5 and g.field.top(red).colour == letters["R"]
    g.cast(0, 0, 0, random.Random(1), paid=2, choices=[{"from": red, "to": space(g, 2, 3)}])
    assert g.field.empty(red) and g.field.top(space(g, 2, 3)).colour == letters["R"]


# --- The turn, the crescents and the end -----------------------------------------------------


class Faces:
    """A knucklebone that rolls the faces given, in turn."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        return self.faces.pop(0)


def test_renew_rolls_again_for_a_colour_with_no_large_piece_and_skips_when_none(book, letters):
    """The rules: "If the color chosen by the Knucklebone has no large components available, roll
    again. If no large spell components are available, skip this step." Red (1) has none left:
    the second roll, yellow (2), is taken."""
    g = table(book, "Might")
    g.step = "renew"
    red, yellow = letters["R"], letters["Y"]
    assert book.knucklebone[:2] == (red, yellow)
    g.cauldron[red][LARGE] = 0
    assert g.renew(Faces(1, 2)) == Piece(yellow, LARGE)
    assert g.cauldron[yellow][LARGE] == 4
    g.step = "renew"
    for sizes in g.cauldron:
        sizes[LARGE] = 0
    assert g.renew(Faces()) is None and g.step == "contribute"


def test_contribute_places_on_an_unoccupied_space_unless_spellstackers(book, letters):
    """The rules: "Contribute: Take a Spell Component from your Apothecary and place it in an
    unoccupied space on the Casting Field." SpellStackers: "Pieces may occupy the same space."
    """
    for stackers in (False, True):
        g = table(book, "Might", variants=Variants(stackers=stackers))
        g.step = "contribute"
        lay(g, letters, ["R"])
        g.wizards[0].apothecary = [Piece(letters["B"], LARGE)]
        if stackers:
            g.contribute(Piece(letters["B"], LARGE), 0)
            assert g.field.stacks[0] == [Piece(letters["R"], LARGE), Piece(letters["B"], LARGE)]
        else:
            with pytest.raises(RuleError, match="taken"):
                g.contribute(Piece(letters["B"], LARGE), 0)


def test_spellstackers_a_stacked_cell_matches_exactly_that_stack(book, letters):
    """Our ruling (stacks): "a stacked cell matches a space holding exactly those colours, bottom
    first, and every piece of it is reduced. A plain colour matches a space whose top piece has
    that colour"."""
    shapes = shapes_of(((letters["G"], (letters["R"], letters["B"])),), 8)
    g = table(book, "Might", variants=Variants(stackers=True))
    lay(g, letters, ["G R"])
    lay(g, letters, [". B"])
    assert find(shapes[0], g.field) == [(0, 0)]
    lay(g, letters, ["W"])  # a white on the green: the plain green cell no longer matches
    assert find(shapes[0], g.field) == []
    g = table(book, "Might", variants=Variants(stackers=True))
    lay(g, letters, ["G B"])
    lay(g, letters, [". R"])  # blue under red: the wrong way up
    assert find(shapes[0], g.field) == []
    g = table(book, "Might", variants=Variants(stackers=True))
    lay(g, letters, ["Y W"])
    lay(g, letters, ["Y1"], at=(0, 1))  # a small yellow on the white: Might's yellow, white is gone
    assert found(book.spell("Might"), g) == []


def test_accelerando_an_extra_piece_for_two_essence_once_a_turn(book, letters):
    """Accelerando: "At the end of the Contribute phase, you may spend two points of Essence to
    place an additional Spell Component on the Casting Field. You may not do this more than once
    per turn."
    """
    g = table(book, "Might", variants=Variants(accelerando=True))
    w = g.wizards[0]
    w.apothecary = [Piece(letters["R"], LARGE), Piece(letters["B"], LARGE)]
    w.essence = 5
    g.accelerate(Piece(letters["R"], LARGE), 10)
    assert w.essence == 5 - book.accelerando == 3
    with pytest.raises(RuleError, match="once a turn"):
        g.accelerate(Piece(letters["B"], LARGE), 11)
    g2 = table(book, "Might")
    g2.wizards[0].apothecary = [Piece(letters["R"], LARGE)]
    g2.wizards[0].essence = 5
    with pytest.raises(RuleError, match="not played"):
        g2.accelerate(Piece(letters["R"], LARGE), 10)


def test_crescents_progress_and_leave_off_the_last_spell_then_the_game_ends(book):
    """The rules: "Progress: Move a Moon Crescent from a spell to the next spell in the Spell Line.
    If you must move a Moon Crescent off of the last spell, then remove that Moon Crescent from the
    game." ... "The game ends when there are no Moon Crescents in play." Two wizards, a line of 4:
    two crescents each move 4 times, so the game lasts 8 turns, not 4 nor 6."""
    rng = random.Random(3)
    g = deal(book, 2, rng, line=4)
    assert g.crescents == [0, 0] and len(g.line) == 4
    turns = 0
    while g.step != OVER:
        g.refresh()
        g.renew(rng)
        g.skip_contribute() if not g.wizard.apothecary else g.contribute(g.wizard.apothecary[0], g.field.empties()[0])
        assert g.active() == sorted(set(g.crescents))
        g.progress(g.crescents[-1])  # the foremost: one crescent runs ahead and leaves first
        turns += 1
        if turns == 4:
            assert g.crescents == [0]  # the first left the line off its last spell
    assert turns == 8 and g.crescents == []
    with pytest.raises(RuleError, match="the game is over"):
        g.refresh()


def test_the_turn_steps_come_in_order(book):
    """The rules: "On your turn: 1. Refresh ... 2. Renew ... 3. Contribute ... 4. Reap ...
    5. Progress"; Refresh: "Take 1 Essence"."""
    rng = random.Random(1)
    g = deal(book, 3, rng)
    assert g.step == REFRESH and all(len(w.apothecary) == book.start_large for w in g.wizards)
    with pytest.raises(RuleError, match="Renew comes at Renew; this is Refresh"):
        g.renew(rng)
    g.refresh()
    assert g.wizards[0].essence == book.refresh == 1
    with pytest.raises(RuleError, match="Progress comes at Reap"):
        g.progress(0)
    g.renew(rng)
    g.contribute(g.wizard.apothecary[0], 0)
    g.progress(0)
    assert g.player == 1 and g.step == REFRESH and g.crescents == [0, 0, 1]


def test_the_game_ends_at_the_end_of_the_turn_the_last_crescent_leaves(book, letters):
    """Our ruling (game-end): "The game ends at the end of the turn in which the last moon
    crescent leaves the line." Killing Time takes the last crescent out in Reap: the wizard may
    still cast, and the game ends at Progress."""
    g = table(book, "Killing Time", "Might", players=2)
    g.crescents = [0, 1]
    g.progress(0)
    g.player, g.step = 0, REAP
    assert g.crescents == [1, 1]
    g.crescents = [0]  # one crescent left, on Killing Time
    lay(g, letters, ["K B R", ". . .", "Y W"])
    g.wizards[0].essence = book.spell("Killing Time").essence
    g.cast(0, 0, 0, random.Random(1))
    assert g.crescents == [] and g.step == REAP
    g.progress()
    assert g.step == OVER


# --- Scoring and the variants -----------------------------------------------------------------

HAND = [(2, 0), (10, 1), (11, 2), (13, 3), (1, 0), (1, 2)]  # (rank, suit): 2, 10, J, K, A, A


def test_the_most_certificates_win_and_ties_share(book):
    """The rules: "The player with the most Prestige Certificates at the end of the game wins."
    Our ruling: "Tied players share the win."
    """
    g = table(book, "Might", players=3)
    g.wizards[0].certificates = HAND[:3]
    g.wizards[1].certificates = HAND[3:]
    g.wizards[2].certificates = HAND[:2]
    assert [g.score(p) for p in range(3)] == [3, 3, 2] and g.winners() == [0, 1]


def test_extra_credit_counts_number_cards_one_royals_two_aces_three(book):
    """Extra Credit: "count cards with 2-10 as one point, royal cards as 2 points, and aces as
    three points." Six cards: 1 + 1 + 2 + 2 + 3 + 3 = 12, and beat seven number cards."""
    g = table(book, "Might", variants=Variants(extra_credit=True))
    g.wizards[0].certificates = list(HAND)
    g.wizards[1].certificates = [(r, 1) for r in range(2, 9)]
    assert book.points == (1, 2, 3)
    assert g.score(0) == 12 and g.score(1) == 7 and g.winners() == [0]
    plain = table(book, "Might")
    plain.wizards[0].certificates = list(HAND)
    plain.wizards[1].certificates = [(r, 1) for r in range(2, 9)]
    assert plain.winners() == [1]


def test_double_plus_flips_the_next_certificate_and_its_suit_counts_double(book):
    """Double-Plus Extra Credit: "Before tallying points at the end of the game flip the next
    Prestige Certificate face-up. This is the Marker. All Prestige Certificates that match the
    suit of the Marker are worth double." The marker is the 7 of suit 0: the 2 and the ace of
    suit 0 count 2 and 6, so 1·2 + 1 + 2 + 2 + 3·2 + 3 = 16."""
    g = table(book, "Might", variants=Variants(double_plus=True))
    g.wizards[0].certificates = list(HAND)
    g.pile = [(4, 3), (7, 0)]
    assert g.score(0) == 12  # no marker before the end
    g.crescents = []
    g.progress()
    assert g.step == OVER and g.marker == (7, 0)
    assert g.score(0) == 16


def test_a_duel_starts_with_essence_awards_essence_and_a_wizard_with_none_is_out(book, letters):
    """Duel: "All players start the game with 5 Essence. When a spell would normally award
    Prestige, it awards Essence instead." Our ruling (duel-out): "a wizard whose essence reaches
    zero is out at once. The last wizard in wins." Subtle Drain takes the last essence of the
    second of two wizards: the caster gains 1 drained and 2 for prestige, and wins at once."""
    g = deal(book, 3, random.Random(1), variants=Variants(duel=True))
    assert [w.essence for w in g.wizards] == [book.duel_essence] * 3 == [5] * 3
    g = table(book, "Subtle Drain", players=2, variants=Variants(duel=True))
    g.wizards[0].essence, g.wizards[1].essence = 3, 1
    lay(g, letters, ["B K"])
    g.cast(0, 0, 0, random.Random(1), choices=[{"player": 1}])
    assert g.wizards[0].essence == 3 + 1 + 2 and not g.wizards[0].certificates
    assert g.wizards[1].out and g.step == OVER and g.winners() == [0]


def test_in_a_duel_a_wizard_may_not_pay_their_own_last_essence(book, letters):
    """Our decision (rules.py): paying the last essence would put the caster out of the Duel."""
    g = table(book, "Might", players=2, variants=Variants(duel=True))
    g.wizards[0].essence = 1
    lay(g, letters, ["Y W"])
    assert g.matches(0) == []
    with pytest.raises(RuleError, match="out of the Duel"):
        g.cast(0, 0, 0, random.Random(1))


def test_moves_take_plain_data_as_a_log_carries_it(book, letters):
    """A companion folds a log of moves through the engine: a piece as [colour, size] and a space
    off the field are read or refused in words, never a crash."""
    g = table(book, "Might")
    g.step = "contribute"
    g.wizards[0].apothecary = [Piece(letters["Y"], LARGE)]
    g.contribute([letters["Y"], LARGE], 5)
    assert g.field.top(5) == Piece(letters["Y"], LARGE) and g.step == REAP
    with pytest.raises(RuleError, match="no space -1"):
        g.cast(0, 0, -1, random.Random(1))
    with pytest.raises(RuleError, match="not on the field there"):
        g.cast(0, 0, 5, random.Random(1))


def test_a_spell_without_effect_data_is_cast_and_left_to_the_table(book, letters):
    """A wizard's own spell may give its effect in words only (`does` omitted): the engine pays,
    reduces and awards prestige, and applies no effect; the table resolves it by hand."""
    own = replace(book.spell("Might"), name="Our Might", does=None)
    ours = replace(book, spells=(*book.spells, own))
    g = table(ours, "Our Might")
    lay(g, letters, ["Y W"])
    g.wizards[0].essence = 3
    done = g.cast(0, 0, 0, random.Random(1))
    assert done.spell == "Our Might" and g.wizards[0].essence == 2  # paid 1, gained nothing
    assert len(g.wizards[0].certificates) == 2
    assert g.field.top(0) == Piece(letters["Y"], MEDIUM)


def test_refused_moves_say_why_in_words(book, letters):
    """Each refusal is a sentence a player can act on, whatever nonsense a log holds."""
    g = table(book, "Might", "Subtle Drain", players=2)
    g.crescents = [0, 1]
    with pytest.raises(RuleError, match="name the spell whose moon crescent moves"):
        g.progress()
    with pytest.raises(RuleError, match="no moon crescent is on spell 3 of the line"):
        g.progress(2)
    g.step = "contribute"
    g.wizards[0].apothecary = [Piece(letters["R"], LARGE)]
    with pytest.raises(RuleError, match=r"holds no piece \[9, 7\] \(no such colour or size\)"):
        g.contribute([9, 7], 0)
    with pytest.raises(RuleError, match="your apothecary holds no small red"):
        g.contribute([letters["R"], SMALL], 0)
    with pytest.raises(RuleError, match="the field has no space 64"):
        g.contribute([letters["R"], LARGE], 64)


def test_the_game_is_for_two_to_five_wizards():
    """The rules give no range: their "Moon Crescents: Chess pieces or checkers equal to the number
    of players." leaves it open, and FACTS.md (the rules' page) says about 2-5 (its GameDef's
    players, which `pnp sim` and the companion read)."""
    assert game("spellcycles").players == (2, 5)
