"""A spell's effects as data (the vocabulary of pnp.games.spellcycles.kinds), enacted on the Game
of pnp.games.spellcycles.rules, which hands itself in (`game`): this module never imports it.

Each effect is a dict (its `do` and its numbers, as the content gives them) and takes a dict of
the caster's choices, plain data a log can carry:
  drain-essence      {"player": p}  (not with `each`)
  take-certificates  {"player": p}  (from a player: up to `amount` of theirs, at random)
  move-pieces        {"pieces": [[colour, size], ...]}  chosen from the cauldron or apothecary,
                     {"from": [space, ...]}  chosen from the field,
                     {"to": [space, ...]}  where pieces put on the field go, one space each
  swap-pieces        {"spaces": [a, b]}  two spaces whose top pieces trade places
  move-piece         {"from": space, "to": space}
  return-pieces      {"spaces": [space, ...]}  with `which: any`
  move-crescent      {"crescent": position}  and remove-crescent: the line position of the crescent
Only what a card words as optional may be left undone: a swap ("may"), and pieces moved or sent
back where the data says `up_to` (the card's "up to"); every other effect happens as far as the
table allows (a piece must move when one can; which moon crescent must be named whenever
crescents sit on different spells). Chance (a random piece, the
knucklebone) comes from the random.Random handed in.
"""

from __future__ import annotations

from random import Random

from pnp.games.spellcycles.casting import Casting, RuleError
from pnp.games.spellcycles.field import Piece
from pnp.games.spellcycles.rulebook import Book

SIZES = ("small", "medium", "large")


def enact(game, cast: Casting, effect: dict, choice: dict, rng: Random) -> None:
    ENACT[effect["do"]](game, cast, effect, choice, rng)


def _other(game, cast: Casting, choice: dict, what: str) -> int:
    p = choice.get("player")
    if not isinstance(p, int) or not 0 <= p < len(game.wizards) or p == cast.player:
        raise RuleError(f"{cast.spell.name}: choose another wizard to {what}")
    if game.wizards[p].out:
        raise RuleError(f"{cast.spell.name}: that wizard is out of the Duel")
    return p


def gain_essence(game, cast, effect, choice, rng) -> None:
    w = game.wizards[cast.player]
    amount = effect["amount"]
    if effect.get("at_most_held"):
        amount = min(amount, w.essence)
    w.essence += amount


def drain_essence(game, cast, effect, choice, rng) -> None:
    if effect.get("each"):
        targets = [p for p, w in enumerate(game.wizards) if p != cast.player and not w.out]
    else:
        targets = [_other(game, cast, choice, "drain")]
    for p in targets:
        victim = game.wizards[p]
        taken = min(effect["amount"], victim.essence)
        victim.essence -= taken
        game.wizards[cast.player].essence += taken
        game.check_out(p)


def take_certificates(game, cast, effect, choice, rng) -> None:
    caster = game.wizards[cast.player]
    if effect["source"] == "pile":
        caster.certificates.extend(game.draw_certificate(rng) for _ in range(effect["amount"]))
        return
    victim = game.wizards[_other(game, cast, choice, "take certificates from")]
    # our ruling: taken at random (with Extra Credit they lie face down; the taker cannot choose)
    for _ in range(min(effect["amount"], len(victim.certificates))):
        caster.certificates.append(victim.certificates.pop(rng.randrange(len(victim.certificates))))


def fits(book: Book, effect: dict, piece: Piece) -> bool:
    """Whether a move-pieces effect may move `piece` (its colour and size, or any)."""
    colour, size = effect.get("colour", "any"), effect.get("size", "any")
    return (colour == "any" or book.colours[piece.colour] == colour) and (size == "any" or SIZES[piece.size] == size)


def move_pieces(game, cast, effect, choice, rng) -> None:
    """Up to `count` pieces from one place to another: chosen, or drawn blind (`random`)."""
    if effect.get("if_paid") and cast.paid < effect["if_paid"]:
        return
    name, source, to, count = cast.spell.name, effect["source"], effect["to"], effect["count"]
    field, caster = game.field, game.wizards[cast.player]
    least = 0 if effect.get("up_to") else min(count, len(movable(game, cast, effect)))
    spaces = list(choice.get("to", ())) if to == "field" else None
    if spaces is not None:
        if len(set(spaces)) != len(spaces):
            raise RuleError(f"{name}: one piece to a space")
        for space in spaces:
            game.check_space(space, name)
        if len(spaces) < least:
            raise RuleError(f"{name}: name {least} empty space{'s' * (least != 1)} for the pieces it puts on the field")
        count = min(count, len(spaces))
    # what leaves the source
    if source == "field":
        taken = list(choice.get("from", ()))
        if len(taken) > count or len(set(taken)) != len(taken):
            raise RuleError(f"{name}: at most {count} pieces, each once")
        for space in taken:
            top = field.top(space) if 0 <= space < len(field.stacks) else None
            if top is None or not fits(game.book, effect, top):
                raise RuleError(f"{name}: space {space} holds no piece this spell may move")
        if len(taken) < least:
            raise RuleError(f"{name}: choose {least} piece{'s' * (least != 1)} of the field")
        pieces = [field.take(space) for space in taken]
    else:
        if source == "cauldron":
            pool = [Piece(c, s) for c, sizes in enumerate(game.cauldron) for s, n in enumerate(sizes) for _ in range(n)]
        else:
            pool = list(caster.apothecary)
        pool = [p for p in pool if fits(game.book, effect, p)]
        if effect.get("random"):
            pieces = [pool.pop(rng.randrange(len(pool))) for _ in range(min(count, len(pool)))]
        else:
            pieces = [Piece(*p) for p in choice.get("pieces", ())]
            if len(pieces) > count:
                raise RuleError(f"{name}: at most {count} pieces")
            if len(pieces) < min(least, count):
                raise RuleError(f"{name}: choose {min(least, count)} piece{'s' * (least != 1)} from the {source}")
            for piece in pieces:
                if piece not in pool:
                    raise RuleError(f"{name}: the {source} holds no {game.describe(piece)} this spell may move")
                pool.remove(piece)
        for piece in pieces:
            if source == "cauldron":
                game.cauldron[piece.colour][piece.size] -= 1
            else:
                caster.apothecary.remove(piece)
    # where it goes
    if to == "field":
        if len(pieces) > len(spaces):
            raise RuleError(f"{name}: name a space for each piece put on the field")
        for piece, space in zip(pieces, spaces, strict=False):
            field.put(space, piece)
    elif to == "apothecary":
        caster.apothecary.extend(pieces)
    else:
        for piece in pieces:
            game.cauldron[piece.colour][piece.size] += 1


def movable(game, cast: Casting, effect: dict) -> list:
    """What a move-pieces effect could move now: the pieces its source holds that it may move, no
    more than the field has room for when they go onto it. A card not worded "up to" moves
    `count` of them, or all there are."""
    field, caster = game.field, game.wizards[cast.player]
    if effect["source"] == "field":
        found = [s for s in range(len(field.stacks)) if not field.empty(s) and fits(game.book, effect, field.top(s))]
    elif effect["source"] == "cauldron":
        found = [Piece(c, s) for c, sizes in enumerate(game.cauldron) for s, n in enumerate(sizes) for _ in range(n)]
        found = [p for p in found if fits(game.book, effect, p)]
    else:
        found = [p for p in caster.apothecary if fits(game.book, effect, p)]
    if effect["to"] == "field":
        room = len(field.stacks) if game.variants.stackers else len(field.empties())
        found = found[:room]
    return found


def swap_pieces(game, cast, effect, choice, rng) -> None:
    spaces = choice.get("spaces")
    if not spaces:
        return
    field = game.field
    held = [s for s in spaces if 0 <= s < len(field.stacks) and not field.empty(s)]
    if len(spaces) != 2 or len(set(held)) != 2:
        raise RuleError(f"{cast.spell.name}: choose two spaces that hold pieces")
    a, b = spaces
    pa, pb = field.take(a), field.take(b)
    field.put(a, pb)
    field.put(b, pa)


def move_piece(game, cast, effect, choice, rng) -> None:
    """One piece next to the spell's piece of `beside` (not one of the spell's) to a vacant space
    at most `spaces` away, counted as a king steps."""
    field, name = game.field, cast.spell.name
    if "from" not in choice:
        if moves_of_piece(game, cast, effect):
            raise RuleError(f"{name}: choose the piece to move and where (it must move when it can)")
        return
    source, to = choice["from"], choice.get("to")
    centre = _centre(game, cast, effect)
    reach = cast.paid if effect["spaces"] == "paid" else effect["spaces"]
    own = set(cast.pieces) | set(cast.marked)
    n = len(field.stacks)
    if not (isinstance(source, int) and 0 <= source < n) or field.empty(source) or source in own:
        raise RuleError(f"{name}: choose a piece that is not part of the spell")
    if field.distance(source, centre) != 1:
        raise RuleError(f"{name}: the piece must be next to the spell's {effect['beside']}")
    if not (isinstance(to, int) and 0 <= to < n) or not field.empty(to):
        raise RuleError(f"{name}: move it to a vacant space")
    if field.distance(source, to) > reach:
        raise RuleError(f"{name}: that space is {field.distance(source, to)} away; at most {reach}")
    field.put(to, field.take(source))


def _centre(game, cast: Casting, effect: dict) -> int:
    return cast.spell.shapes[cast.shape].space_of(cast.origin, game.book.colour(effect["beside"]))


def moves_of_piece(game, cast: Casting, effect: dict) -> dict[int, list[int]]:
    """Each piece a move-piece effect may move (next to the spell's piece of `beside`, diagonals
    too, not one of the spell's own), with the vacant spaces in reach of it."""
    field = game.field
    centre = _centre(game, cast, effect)
    reach = cast.paid if effect["spaces"] == "paid" else effect["spaces"]
    own = set(cast.pieces) | set(cast.marked)
    found = {}
    for s in range(len(field.stacks)):
        if field.empty(s) or s in own or field.distance(s, centre) != 1:
            continue
        to = [t for t in field.empties() if field.distance(s, t) <= reach]
        if to:
            found[s] = to
    return found


def return_pieces(game, cast, effect, choice, rng) -> None:
    field = game.field
    keep = effect.get("keep")
    kept = game.book.colour(keep) if keep else None
    if effect["which"] == "marked":
        lifted = [field.take(s) for s in cast.marked if not field.empty(s)]
    elif effect["which"] == "spell":
        lifted = []
        for space, count in cast.replaced.items():
            pieces = [field.take(space) for _ in range(count)][::-1]
            for piece in pieces:
                if piece.colour == kept:
                    field.put(space, piece)
                else:
                    lifted.append(piece)
    else:
        spaces = list(choice.get("spaces", ()))
        if len(spaces) > effect.get("count", 1) or len(set(spaces)) != len(spaces):
            raise RuleError(f"{cast.spell.name}: at most {effect.get('count', 1)} pieces, each once")
        if any(not 0 <= s < len(field.stacks) or field.empty(s) for s in spaces):
            raise RuleError(f"{cast.spell.name}: choose spaces that hold pieces")
        held = sum(not field.empty(s) for s in range(len(field.stacks)))
        least = 0 if effect.get("up_to") else min(effect.get("count", 1), held)
        if len(spaces) < least:
            raise RuleError(f"{cast.spell.name}: choose {least} piece{'s' * (least != 1)} to send back")
        lifted = [field.take(s) for s in spaces]
    for piece in lifted:
        game.cauldron[piece.colour][piece.size] += 1


def _crescent(game, cast: Casting, choice: dict) -> int | None:
    if not game.crescents:
        return None
    position = choice.get("crescent")
    if position is None and len(set(game.crescents)) == 1:
        return game.crescents[0]
    if position not in game.crescents:
        raise RuleError(f"{cast.spell.name}: choose a spell with a moon crescent on it")
    return position


def move_crescent(game, cast, effect, choice, rng) -> None:
    """Our ruling: moved back past the first spell it stops on it; forward past the last it leaves."""
    position = _crescent(game, cast, choice)
    if position is None:
        return
    spaces = effect["spaces"]
    if spaces == "roll":
        spaces = rng.randint(1, 6)
        cast.rolled.append(spaces)
    step = -spaces if effect["direction"] == "back" else spaces
    game._move_crescent(position, position + step)


def remove_crescent(game, cast, effect, choice, rng) -> None:
    position = _crescent(game, cast, choice)
    if position is not None:
        game.crescents.remove(position)


# the effects a table playing with real pieces leaves to the companion: the rest act on the board
OFF_THE_BOARD = frozenset({"gain-essence", "drain-essence", "take-certificates", "move-crescent", "remove-crescent"})

ENACT = {
    "gain-essence": gain_essence,
    "drain-essence": drain_essence,
    "take-certificates": take_certificates,
    "move-pieces": move_pieces,
    "swap-pieces": swap_pieces,
    "move-piece": move_piece,
    "return-pieces": return_pieces,
    "move-crescent": move_crescent,
    "remove-crescent": remove_crescent,
}
