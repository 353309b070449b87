"""What the wizard a move is for may do now on the phones, as offers (pnp.rules.offers): the choices
hooks of pnp.games.magecraft.on_phones's moves. Every completion of an offer is a move the engine
accepts; each is read off the engine's own game (its next spell, its payments, its rivals, the
areas as they stand), never a second copy of a rule.

- opening_discard: the gems the seat table says, some of the opening hand;
- discard_shield: one or more of the Shield Area's gems;
- cast: one offer a spellbook whose next spell the hand pays (payload "spellbook", label the spell):
  each way to pay it, cheapest first; its icons then wait, each for its own `resolve`;
- cantrip: the gem that pays it; its icons then wait as a spell's;
- resolve: while a spell's icons wait, one offer for each kind still waiting (the caster's order
  is which they resolve next), with its choices as the areas stand now: the rival an Attack
  strikes and the colour it takes from their shield (or HP), the colour a Heal takes, where a
  Shield's or a Vanish's gem comes from and its colour;
- learn: one offer: each Academy spell the hand pays, each opening the spellbook it goes into and
  each way to pay its learn cost;
- revise: the four gems discarded, and the spell mastered (or none); spellbooks stay as they are.
"""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.recorded import RecordedGame, counts_of, game_of, rulebook
from pnp.games.magecraft.rulebook import WILD, Book
from pnp.games.magecraft.rules import DISCARD_SHIELD, OPENING, RuleError, payments
from pnp.rules.flow import ENGINE
from pnp.rules.offers import offer, one_of, option, some_of

SHIELD_FROM = {"academy": "the Academy", "discard": "your Discard Area"}
VANISH_FROM = {"hand": "your hand", "hp": "your HP Area"}


def _game(content: Content, state: dict, mover: str) -> tuple[Book, RecordedGame, int]:
    book = rulebook(content)
    return book, game_of(book, state), state["players"].index(mover)


def _paid(book: Book, pay: list[int | None]) -> dict:
    """A payment as an option: the colour ids it names (None: the golden gem's slot), in words."""
    value = [None if c is None else book.colours[c] for c in pay]
    return option(value, ", ".join("golden" if c is None else book.names[c] for c in pay))


def opening_discard(content: Content, state: dict, mover: str) -> list[dict]:
    if not state[ENGINE]["opening"][state["players"].index(mover)]:  # asked of every seat at every move
        return []
    book, game, p = _game(content, state, mover)
    due = game.opening[p]
    if game.phase != OPENING or not due:
        return []
    return [offer(pick=[some_of("gems", counts_of(book.colours, game.wizards[p].hand), due)])]


def discard_shield(content: Content, state: dict, mover: str) -> list[dict]:
    book, game, p = _game(content, state, mover)
    shield = game.wizards[p].shield
    if game.phase != DISCARD_SHIELD or p != game.player or not sum(shield):
        return []
    return [offer(pick=[some_of("gems", counts_of(book.colours, shield), 1, sum(shield))])]


def cast(content: Content, state: dict, mover: str) -> list[dict]:
    book, game, p = _game(content, state, mover)
    if p != game.player or game.resolving:
        return []
    w = game.wizard
    found = []
    for b in range(book.spellbooks):
        try:
            card, _position = game.next_to_cast(b)
        except RuleError:
            continue
        spell = book.spells[card.spell]
        pays = payments(spell.cast, w.hand, w.golden)
        if pays:
            picks = [one_of("payment", [_paid(book, pay) for pay in pays])]
            found.append(offer({"spellbook": b, "one_by_one": True}, picks, spell.name))
    return found


def cantrip(content: Content, state: dict, mover: str) -> list[dict]:
    book, game, p = _game(content, state, mover)
    if p != game.player or game.resolving:
        return []
    try:
        spell = game.ready_cantrip()
    except RuleError:
        return []
    hand = game.wizard.hand
    gems = [book.colours[c] for c in range(len(hand)) if hand[c] and spell.gem in (WILD, c)]
    if not gems:
        return []
    return [offer({"one_by_one": True}, [one_of("gem", gems)], spell.name)]


def resolve(content: Content, state: dict, mover: str) -> list[dict]:
    """One offer for each kind of icon of the spell being cast still waiting, whichever the caster
    resolves next, with its choices as the areas stand now (after the icons resolved before it)."""
    book, game, p = _game(content, state, mover)
    if p != game.player or not game.resolving:
        return []
    return [
        offer({"icon": icon}, _icon_picks(book, state, game, icon), icon.capitalize())
        for icon, waiting in zip(ICONS, game.pending, strict=True)
        if waiting
    ]


def _icon_picks(book: Book, state: dict, game: RecordedGame, icon: str) -> list[dict]:
    """An icon's choices: none for a Draw (or an Attack on every rival), none either when it finds
    no gem to move (it does nothing)."""
    w, special = game.wizard, game.pending_special
    words = dict(zip(book.colours, book.names, strict=True))

    def colours(gems: list[int]) -> list[dict]:
        return [one_of("colour", [book.colours[c] for c in range(len(gems)) if gems[c]], words)] if sum(gems) else []

    def sources(named: dict[str, list[int]], said: dict[str, str]) -> list[dict]:
        held = [option(key, said[key], colours(gems)) for key, gems in named.items() if sum(gems)]
        return [one_of("from", held)] if held else []

    if icon == "attack" and special != "attack-each":
        players, names = state["players"], state["names"]
        rivals = [(players[r], game.wizards[r]) for r in game.rivals()]
        return [one_of("rival", [option(r, names[r], colours(x.shield if sum(x.shield) else x.hp)) for r, x in rivals])]
    if icon == "heal":
        return colours(w.discard if special == "heal-from-discard" else game.academy_gems)
    if icon == "shield":
        return sources({"academy": game.academy_gems, "discard": w.discard}, SHIELD_FROM)
    if icon == "vanish":
        return sources({"hand": w.hand, "hp": w.hp}, VANISH_FROM)
    return []


def learn(content: Content, state: dict, mover: str) -> list[dict]:
    book, game, p = _game(content, state, mover)
    if p != game.player or not game.casting_open:
        return []
    hand = game.wizard.hand
    spells = []
    for i in game.academy_order:
        spell = book.spells[i]
        pays = payments(spell.learn, hand) if game.academy_spells[i] else []
        if pays:
            books = one_of(
                "spellbook", list(range(book.spellbooks)), {b: f"Spellbook {b + 1}" for b in range(book.spellbooks)}
            )
            spells.append(
                option(spell.name, spell.name, [books, one_of("payment", [_paid(book, pay) for pay in pays])])
            )
    return [offer(pick=[one_of("spell", spells)])] if spells else []


def revise(content: Content, state: dict, mover: str) -> list[dict]:
    book, game, p = _game(content, state, mover)
    w = game.wizard
    if p != game.player or not game.casting_open or sum(w.hand) < book.revision:
        return []
    masters = [option(None, "none")] + [
        option([b, i], book.spells[card.spell].name)
        for b, cards in enumerate(w.books)
        for i, card in enumerate(cards)
        if not card.mastered
    ]
    return [offer(pick=[some_of("gems", counts_of(book.colours, w.hand), book.revision), one_of("master", masters)])]
