"""A computer player's choices (pnp.rules.computer), away from the companion: whole games played by
computers alone through the rules, and the fair-play property of issue 36, "a computer player's
decisions are unchanged when the hidden parts of the state it cannot see are changed (same seat
view, same seed, same move)"."""

from __future__ import annotations

import copy
import random

import pytest

from pnp.content.game import load_game
from pnp.gamedef import games
from pnp.paths import CONTENT
from pnp.rules.chance import SecureChance
from pnp.rules.computer import LEVELS, choose, moves_for
from pnp.rules.flow import OVER, PLAYING, Caller
from pnp.rules.offers import first
from pnp.rules.table import HOST, parse_action

PHONES = {"mode": "phones"}


def begun(game_id: str, options: dict, seed: int, players: int = 2):
    """A table of `game_id` begun with `players` seats, p2 onwards computers (easy): (rules,
    content, state, chance)."""
    game = games()[game_id]
    rules, content = game.load("tracker"), load_game(game, [CONTENT])
    chance = SecureChance(random.Random(seed))
    state = rules.setup(content, rules.Options(**options))
    for n in range(1, players + 1):
        state = rules.join(state, f"p{n}", f"Wizard {n}", None if n == 1 else "easy")
    [offered] = [o for o in rules.offers(content, state, Caller(None, True), chance) if o["type"] == "start"]
    start = rules.draw(content, state, HOST, parse_action(rules, "start", first(offered), sent=True), chance)
    return rules, content, rules.apply(content, state, HOST, start), chance


def made(rules, content, state, seat, chosen, chance) -> dict:
    type_, body = chosen
    action = rules.draw(content, state, seat, parse_action(rules, type_, body, sent=True), chance)
    return rules.apply(content, state, seat, action)


@pytest.mark.parametrize("game_id", ["magecraft", "spellcycles"])
def test_computers_play_a_game_to_its_end_making_only_moves_the_rules_accept(game_id):
    """Every seat an easy computer's (the first one's too, for this test): each move it makes is
    accepted, and the game ends."""
    rules, content, state, chance = begun(game_id, PHONES, seed=11, players=3)
    for _ in range(3000):
        if state["phase"] == OVER:
            break
        seat, chosen = next(
            (pid, found) for pid in state["players"] if (found := choose(rules, content, state, pid, "easy", chance))
        )
        state = made(rules, content, state, seat, chosen, chance)
    assert state["phase"] == OVER


def test_a_computer_plays_only_its_own_seats_moves_and_no_correction():
    """It takes no move offered for another seat, nor a correction of a number (Spellcycles' host
    puts essence right; a computer's seat never does)."""
    rules, content, state, chance = begun("spellcycles", PHONES, seed=3)
    seat = rules.turn(state)
    offered = moves_for(rules, content, state, seat, chance.trial())
    assert offered and {o["for"] for o in offered} == {seat}
    assert all(rules.in_effect(state)[o["type"]].correction is None for o in offered)
    assert "essence" not in {o["type"] for o in offered}


def test_an_unknown_level_is_refused_by_name():
    rules, content, state, chance = begun("magecraft", PHONES, seed=1)
    with pytest.raises(ValueError, match="no computer level 'grandmaster'; the levels are easy"):
        choose(rules, content, state, "p2", "grandmaster", chance)
    assert set(LEVELS) >= {"easy"}


def hidden_changed_magecraft(state: dict, seat: str, rng: random.Random) -> dict:
    """The state with another wizard's hand and bag dealt anew from the gems the two hold between
    them, sizes kept: what `seat` sees of them (their sizes) is the same."""
    changed = copy.deepcopy(state)
    for p, pid in enumerate(state["players"]):
        if pid == seat:
            continue
        wizard = changed["engine"]["wizards"][p]
        pool = [colour for area in ("hand", "bag") for colour, n in enumerate(wizard[area]) for _ in range(n)]
        rng.shuffle(pool)
        size = sum(wizard["hand"])
        for area, gems in (("hand", pool[:size]), ("bag", pool[size:])):
            wizard[area] = [gems.count(colour) for colour in range(len(wizard[area]))]
    return changed


@pytest.mark.parametrize("seed", range(6))
def test_a_computers_move_is_the_same_whatever_it_cannot_see(seed):
    """Fair play: the other wizard's hand and bag changed (the computer's view the same, checked
    first), the same seed gives the same move, at every step of a game."""
    rules, content, state, chance = begun("magecraft", PHONES, seed=seed)
    rng, compared = random.Random(seed), 0
    for _ in range(400):
        if state["phase"] != PLAYING:
            break
        for seat in state["players"]:
            changed = hidden_changed_magecraft(state, seat, rng)
            if changed == state:
                continue  # nothing hidden to change (an empty hand and bag)
            assert rules.view(changed, seat) == rules.view(state, seat)
            once = choose(rules, content, state, seat, "easy", SecureChance(random.Random(seed * 1000 + compared)))
            again = choose(rules, content, changed, seat, "easy", SecureChance(random.Random(seed * 1000 + compared)))
            assert once == again
            compared += 1
        seat, chosen = next(
            (pid, found) for pid in state["players"] if (found := choose(rules, content, state, pid, "easy", chance))
        )
        state = made(rules, content, state, seat, chosen, chance)
    assert compared > 50
