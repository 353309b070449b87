"""The choices each Magic Spell move offers a student now (pnp.rules.offers), read from the state by
the moves' own rules (pnp.games.magic_spell.moves): every completion is a move the handler accepts.
A choice the rules share with the move's other completions (the turn's action not yet taken, weaving
under way) is the flow's to try, with the offer's first completion; here only what each option needs."""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.magic_spell.moves import card_refusal, partners, stones_free, words
from pnp.rules.offers import offer, one_of, option, whole_number

_STONE = {False: "without a philosopher's stone", True: "with a philosopher's stone"}


def first(content: Content, state: dict, _host: str) -> list[dict]:
    """Who goes first: any student who has joined (the first to join, if the host does not say)."""
    students = [option(pid, state["names"][pid]) for pid in state["players"]]
    return [offer(pick=[one_of("first", students)])] if students else []


def scrounge(content: Content, state: dict, mover: str) -> list[dict]:
    """Whether the ingredient scrounged was woven straight into a spell (then weaving goes on)."""
    return [offer(pick=[one_of("woven", [False, True])])]


def cast(content: Content, state: dict, mover: str) -> list[dict]:
    """The spells of the student's spellbook that are cast, and that they can pay for."""
    student = state["students"][mover]
    castable = [
        option(card["spell"], f"{card['spell'].upper()} · {card['cost']}")
        for card in state["deck"]
        if card["mode"] == "cast" and card["spell"] in words(student) and card["cost"] <= student["spirit"]
    ]
    return [offer(pick=[one_of("spell", castable)])] if castable else []


def complete(content: Content, state: dict, mover: str) -> list[dict]:
    """The spells no one holds; outside weaving, naming a card of the student's whose effect weaves
    now; with a philosopher's stone woven in only while one is left to weave."""
    held = {spell for student in state["students"].values() for spell in words(student)}
    free = [option(card["spell"], card["spell"].upper()) for card in state["deck"] if card["spell"] not in held]
    if not free:
        return []
    picks = [one_of("spell", free)]
    if stones_free(content, state) > 0:
        picks.append(one_of("stone", [False, True], _STONE))
    if state["woven"]:
        return [offer(pick=picks)]
    cards = [word for word in words(state["students"][mover]) if card_refusal(state, mover, word) is None]
    return [offer(pick=[one_of("by_card", cards), *picks])] if cards else []


def give_spell(content: Content, state: dict, mover: str) -> list[dict]:
    """A spell of the student's to a student they may trade with now: neither is taking a turn,
    unless the rules let the turn's student trade (two students between turns, PARLEY)."""
    book = words(state["students"][mover])
    to = [option(pid, state["names"][pid]) for pid in partners(state, mover)]
    return [offer(pick=[one_of("spell", book), one_of("to", to)])] if book and to else []


def spirit(content: Content, state: dict, mover: str) -> list[dict]:
    """A spell's effect on a student's spirit: down to none, or up."""
    have = state["students"][mover]["spirit"]
    return [offer(pick=[whole_number("delta", -min(have, 99), 99)])]


def stone(content: Content, state: dict, mover: str) -> list[dict]:
    """Philosopher's stones given up to the laboratory (those held; they leave the game) or gained
    (those neither held nor out of the game); and, apart, stones given up onto a spell being woven
    or into a trade, which stay in play."""
    low, high = -min(state["students"][mover]["stones"], 99), min(stones_free(content, state), 99)
    made = [offer(pick=[whole_number("delta", low, high)])] if low < high else []
    if low < 0:
        made.append(offer({"in_play": True}, pick=[whole_number("delta", low, -1)]))
    return made
