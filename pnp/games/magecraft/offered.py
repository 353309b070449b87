"""What the wizard a move is for may do now on the phones, as offers (pnp.rules.offers): the choices
hooks of pnp.games.magecraft.on_phones's moves. Every completion of an offer is a move the engine
accepts; each is read off the engine's own game (its next spell, its payments, its rivals), never a
second copy of a rule. A choice the engine would refuse in some completions (the colour an Attack
takes from a shield an earlier Attack emptied, a Shield's gem from an Academy a Heal emptied) is
left to the engine's default, which never refuses.

- opening_discard: the gems the seat table says, some of the opening hand;
- discard_shield: one or more of the Shield Area's gems;
- cast: one offer a spellbook whose next spell the hand pays (payload "spellbook", label the spell):
  each way to pay it, cheapest first, then its icons' choices (see `icon_picks`);
- cantrip: the gem that pays it, then its icons' choices;
- learn: one offer: each Academy spell the hand pays, each opening the spellbook it goes into and
  each way to pay its learn cost;
- revise: the four gems discarded, and the spell mastered (or none); spellbooks stay as they are.
"""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.magecraft.recorded import RecordedGame, counts_of, game_of, rulebook
from pnp.games.magecraft.rulebook import ATTACK, HEAL, SHIELD, VANISH, WILD, Book
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
    if p != game.player:
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
            picks = [one_of("payment", [_paid(book, pay) for pay in pays]), *icon_picks(book, state, game, spell)]
            found.append(offer({"spellbook": b}, picks, spell.name))
    return found


def cantrip(content: Content, state: dict, mover: str) -> list[dict]:
    book, game, p = _game(content, state, mover)
    if p != game.player:
        return []
    try:
        spell = game.ready_cantrip()
    except RuleError:
        return []
    hand = game.wizard.hand
    gems = [book.colours[c] for c in range(len(hand)) if hand[c] and spell.gem in (WILD, c)]
    if not gems:
        return []
    return [offer(pick=[one_of("gem", gems), *icon_picks(book, state, game, spell)], label=spell.name)]


def icon_picks(book: Book, state: dict, game: RecordedGame, spell) -> list[dict]:
    """The choices a spell's icons leave the caster (a spell or a Cantrip: its `effects`, its
    `special` if any), as the engine resolves them after the payment: Draw, Attack, Heal, Shield,
    Vanish. The rival each Attack strikes when more than one is in the Arena (our ruling
    "targets"), the colours the Heals take (our ruling "heal-empty"), and where each Shield's and
    each Vanish's gem comes from; the colours of the gems Attacks, Shields and Vanishes take are
    the engine's (its default never refuses)."""
    effects, special = spell.effects, getattr(spell, "special", None)
    picks = []
    attacks, rivals = effects[ATTACK], game.rivals()
    if attacks and special != "attack-each" and len(rivals) > 1:
        picks.append(_targets(state, game, rivals, attacks))
    if effects[HEAL]:
        # a Draw before the Heal may send the Discard Area back into an empty bag: the Heal then does nothing
        source = game.wizard.discard if special == "heal-from-discard" else game.academy_gems
        most = min(effects[HEAL], sum(source))
        if most:
            picks.append(some_of("choices.heal", counts_of(book.colours, source), 0, most))
    picks += [one_of(f"choices.shield.{i}.from", list(SHIELD_FROM), SHIELD_FROM) for i in range(effects[SHIELD])]
    picks += [one_of(f"choices.vanish.{i}.from", list(VANISH_FROM), VANISH_FROM) for i in range(effects[VANISH])]
    return picks


def _targets(state: dict, game: RecordedGame, rivals: list[int], attacks: int) -> dict:
    """The rivals the Attacks strike, in any order: each rival at most as often as they stand it (a
    fallen rival is no target). When all of them together stand fewer, every rival falls and the
    game ends before the last Attacks, which then strike no one: each is struck till they fall."""
    borne = {r: min(attacks, game.strikes_borne(r)) for r in rivals}
    players = state["players"]
    if sum(borne.values()) >= attacks:
        return some_of("choices.attack", [({"player": players[r]}, n) for r, n in borne.items()], attacks)
    struck = [{"player": players[r]} for r, n in borne.items() for _ in range(n)]
    return one_of("choices.attack", [struck + struck[-1:] * (attacks - len(struck))])


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
