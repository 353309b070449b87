"""Magecraft at the table (pnp.rules.flow.Rules), in one of two ways of playing, the table's `mode`:

- `gems`: printed gems and boards; the companion is a duel dashboard one phone can run for the
  whole table (pnp.games.magecraft.dashboard);
- `phones` (the default): the whole game on the phones, the server holding every bag and hand
  (pnp.games.magecraft.on_phones; what each move offers: pnp.games.magecraft.offered).

Roles: the host starts; with printed gems anyone at the table, or the host, changes a count or
moves the phase on for everyone; on the phones each seat discards from its own opening hand, and
the wizard whose turn it is makes the turn's moves. The host makes a seat's moves only for a seat
without a phone: nothing of a seat held by a phone is the host's to put right.

Colours are the content's gem ids ("fire", "water", "earth", "light", "darkness"); gem counts are
dicts colour -> count, every colour present. Player ids are the table's. Spellbooks and the spells
in them are numbered from 0, left to right.

View (`view(state, viewer)`), for every viewer; on the phones nobody sees another's hand, and a
bag's contents only its owner at a table with `bag_odds` on:

    {
      "mode": "gems" | "phones", "bag_odds": bool,
      "phase": "joining" | "playing" | "over",
      "you": viewer (a player id, "host", or null for the projector / a follower),
      "colours": [colour id, ...],            # the content's order
      "gems": [{"id", "name", "letter", "symbol"}, ...], # each colour's printed name, letter and
                                              # symbol (SVG path data in a 0..1 box: the printed shape)
      "words": {"phases": {"discard-shield": "Discard Shield", "casting": ..., "learning": ...,
                "refresh": ...}, "hp", "shield", "score", "discard", "cantrip", "spellbook",
                "mastered", "learn", "cast": the board's words; "wild": a Wild cost's letter},
      "score_to_win": 20, "hp_full": 12,
      "seat_table": [{"draw": 4, "discard": 2}, ...],  # the opening hand by seat, first seat first
      "rulings": {key: text (markdown **bold**)},
      "players": [                           # join order while joining; seat order once started
        # both ways:
        {"id", "name", "seat": 0-based or null before the start, "out": bool (defeated),
         "opening": {"draw": n, "discard": n} or null before the start,
         # gems: counts by hand
         "hp": n, "shield": n, "score": n,
         # phones, instead:
         "hp": {colour: n}, "shield": {colour: n}, "score": {colour: n}, "discard": {colour: n},
         "hp_total": n, "shield_total": n, "score_total": n,
         "bag": n (its size), "hand": n (its size), "to_discard": n (opening gems still to discard),
         "character": name or null, "cantrip": {"name", "gem": colour id or "wild",
                     "effects": {icon: n}} or null,
         "spellbooks": [[{"spell": name, "mastered": bool, "paid": [colour id, ...]}, ...] x 3],
         "golden": colour id or null (the golden gem waiting for the next spell),
         "cantrip_paid": colour id or null (the gem on the Cantrip this turn)}
      ],
      "turn": null (joining, over, or phones' opening discards) or
        gems:   {"player": id, "phase": "discard-shield" | "casting" | "learning" | "refresh", "number": n}
        phones: {"player": id, "phase": "discard-shield" | "casting" | "studied" (learned or
                 revised: only Refresh is left), "step": the phase the phones and the projector
                 show (Discard Shield with no shield gem to discard: "casting"),
                 "resolving": {"spell": name, "icons": {icon: n}} (the icons of the spell being
                 cast still waiting) or null, "number": n, "spellbook": n or null (chosen this
                 turn), "next_spell": n (its next spell to cast), "cantrip_cast": bool},
      "winner": id or null, "ended": "hp" | "score" | null, "defeated": [id, ...],
      # phones only:
      "hand": {colour: n} (the viewer's own; {} for the host, the projector and followers),
      "bag_contents": {colour: n} or null (the viewer's own bag, only with bag_odds on),
      "academy": {"spells": [{"name", "cards": n}, ...] (as dealt: the basic ones first),
                  "gems": {colour: n}} (null before the start),
      "spells": {name: {"learn": [colour id or "wild"], "cast": [...], "effects": {icon: n}, "text",
                        "special": id or null}},   # every spell that can be in play
      "last": the latest move's "done" (see Payloads) or null,
      "last_cast": the latest cast's or Cantrip's "done" (it stays after a Refresh) or null
    }

What the wizard whose turn it is can pay for is not in the view: it is in their offers (the
table's `moves`, pnp.games.magecraft.offered).

Payloads (pnp.games.magecraft.bodies; fields marked "server" are the server's: ByServer, refused from a phone):

    start            {"deal": server}  gems: {"order": [id, ...]}; phones: {"order": [id, ...],
                     "characters": [name, ...] (by seat), "academy": [name, ...] (the random sets),
                     "drawn": [[colour, ...] per seat]}
    count            gems: {"player": id, "area": "hp" | "shield" | "score", "change": int}
    next_phase       gems: {}  the next phase; after Refresh, the next wizard's turn
    opening_discard  {"gems": [colour, ...], "player": id (older logs: the host, for a seat)}
    discard_shield   {"gems": [colour, ...]}
    cast             {"spellbook": n, "payment": [colour or null per cost slot] or null (null: the
                     engine pays), "choices": {"attack": [{"player": id, "colour": c}], "heal": [c],
                     "shield": [{"from": "academy" | "discard", "colour": c}],
                     "vanish": [{"from": "hand" | "hp", "colour": c}]}}
                     "one_by_one": bool (the phones' way: no choices; each icon waits for its resolve)
    cantrip          {"gem": colour or null, "choices": as for cast, "one_by_one": bool}
    resolve          {"icon": "draw" | "attack" | "heal" | "shield" | "vanish", "rival": id (an
                     Attack's), "from": "academy" | "discard" | "hand" | "hp" (a Shield's or a
                     Vanish's), "colour": c or null (null: the source's most plentiful)}: one
                     waiting icon of the spell being cast, the one the caster takes next
    learn            {"spell": name, "spellbook": n, "payment": [...] or null}
    revise           {"gems": [four colours], "arrangement": [[[book, position], ...] x 3] or null,
                     "master": [book, position] (in the new arrangement) or null}
    refresh          {}  ends the turn
    every phones move, server: "drawn": [colour, ...] (the gems it drew, in order) and "done":
                     {"player": id, "move": type, "spell": name or null (a cast's or learning's
                      spell, or the Cantrip's name), "spellbook": n or null, "position": n or null
                      (the spell's place in it), "paid": [colour, ...] (a cast's, Cantrip's or
                      learning's payment, slot by slot, the golden gem's too), "reshuffled": bool
                      (the bag ran out and the Discard Area went back into it),
                      "changes": {id: {area: {colour: change}}}}
                     ("changes": what the move did to the public areas (hp, shield, score, discard)
                      and the Academy ("academy": {"gems": {...}}), never a hand or a bag)

`redact(entry, viewer)`: a draw's gems only to the wizard who drew them (anyone else: how many, as
"drawn": n), the opening hands likewise, seeds never (none are recorded).
"""

from __future__ import annotations

from typing import Literal

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.magecraft import GAME, dashboard, on_phones
from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.phone_view import AREAS
from pnp.games.magecraft.recorded import rulebook
from pnp.games.magecraft.rulebook import WILD, Book
from pnp.outlines import GEM_SYMBOLS, svg_path
from pnp.rules.flow import JOINING, PLAYING, Rules, option
from pnp.rules.table import Entry

GEMS, PHONES = "gems", "phones"
WAYS = {GEMS: dashboard, PHONES: on_phones}


class Options(Strict):
    mode: Literal["gems", "phones"] = option(
        PHONES,
        "Gems",
        {GEMS: "Printed gems and boards", PHONES: "Everything on the phones"},
        "With printed gems the companion keeps HP, Shield, Score, the turn and its phase.",
    )
    bag_odds: bool = option(
        False, "Bag odds", description="On the phones: each wizard sees what is left in their own bag."
    )


def setup(content: Content, options: Options) -> dict:
    """The keys both ways share (the flow's: phase, players in join order, then seat order, the
    engine's wizards 0, 1, ...; names; the way, `mode`)."""
    return {
        "bag_odds": options.bag_odds,
        "shown": _shown(content, rulebook(content)),  # what the view tells of the content: colours, words, spells
        "rulings": dict(content["rulings"].rulings),
        "winner": None,
        "ended": None,
    }


def view(state: dict, viewer: str | None) -> dict:
    """The table as a phone or the projector shows it (the module's text gives its shape)."""
    book = state["shown"]
    started = state["phase"] != JOINING
    shown = {
        "mode": state["way"],
        "bag_odds": state["bag_odds"],
        "phase": state["phase"],
        "you": viewer,
        **{key: book[key] for key in ("colours", "gems", "words", "score_to_win", "hp_full", "seat_table")},
        "rulings": state["rulings"],
        "winner": state["winner"],
        "ended": state["ended"],
        "players": [
            {
                "id": pid,
                "name": state["names"][pid],
                "seat": p if started else None,
                "opening": book["seat_table"][p] if started else None,
                "out": False,
            }
            for p, pid in enumerate(state["players"])
        ],
    }
    return WAYS[state["way"]].WAY.view(state, viewer, shown)


def _shown(content: Content, book: Book) -> dict:
    """What the view tells of the content, as JSON-ready data."""
    words = content["words"]

    def cost(gems: tuple[int, ...]) -> list[str]:
        return ["wild" if c == WILD else book.colours[c] for c in gems]

    def icons(effects: tuple[int, ...]) -> dict[str, int]:
        return {icon: n for icon, n in zip(ICONS, effects, strict=True) if n}

    return {
        "colours": list(book.colours),
        "gems": [
            {"id": g.id, "name": g.name, "letter": g.letter, "symbol": svg_path(GEM_SYMBOLS[g.symbol])}
            for g in content["magecraft-set"].gems
        ],
        "words": {
            "phases": dict(zip(dashboard.PHASES, words.phases, strict=True)),
            **{key: getattr(words, key) for key in (*AREAS, "cantrip", "spellbook", "mastered", "learn", "cast")},
            "wild": words.wild_letter,
        },
        "score_to_win": book.score_to_win,
        "hp_full": book.hp,
        "seat_table": [{"draw": d, "discard": x} for d, x in book.seats],
        "spells": {
            s.name: {
                "learn": cost(s.learn),
                "cast": cost(s.cast),
                "effects": icons(s.effects),
                "special": s.special,
                "text": card.text,  # what the icons cannot say (rich text), "" for most
            }
            for s, card in zip(book.spells, content["spell-cards"].cards, strict=True)
        },
        "characters": [
            {
                "name": c.name,
                "cantrip": {
                    "name": c.cantrip.name,
                    "gem": cost((c.cantrip.gem,))[0],
                    "effects": icons(c.cantrip.effects),
                },
            }
            for c in book.characters
        ],
    }


def redact(entry: Entry, viewer: str | None) -> dict:
    """A draw's gems only to the wizard who drew them; anyone else learns how many."""
    payload = dict(entry.payload)
    if entry.type == "start" and payload.get("deal") and "drawn" in payload["deal"]:
        deal = payload["deal"]
        hands = [hand if pid == viewer else len(hand) for pid, hand in zip(deal["order"], deal["drawn"], strict=True)]
        payload["deal"] = {**deal, "drawn": hands}
    elif "drawn" in payload:
        done = payload.get("done") or {}
        if viewer != done.get("player", entry.actor):
            payload["drawn"] = len(payload["drawn"])
    return payload


def final_entry(entry: Entry) -> str | None:
    """Why an entry can never be taken back: the start deals, and a draw is never redrawn."""
    if entry.type == "start":
        return "The start cannot be taken back."
    if entry.payload.get("drawn"):
        return "That move drew gems from a bag: a draw is never taken back."
    return None


def results(state: dict) -> list[dict]:
    """Each wizard's Score and HP (totals) in seat order, and who won."""
    rows = []
    for p, pid in enumerate(state["players"]):
        score, hp = WAYS[state["way"]].results(state, p) or ("", "")
        rows.append({"name": state["names"][pid], "score": score, "hp": hp, "winner": pid == state["winner"]})
    return rows


def turn(state: dict) -> str | None:
    """The wizard whose turn it is (no one's before the start, after the end, and on the phones
    while the opening hands are discarded)."""
    return WAYS[state["way"]].turn(state) if state["phase"] == PLAYING else None


TRACKER = Rules(
    game=GAME,
    players_are="wizards",
    Options=Options,
    moves={},  # each way has its own start: the deal it draws
    setup_game=setup,
    view=view,
    results=results,
    turn=turn,
    ways={GEMS: dashboard.WAY, PHONES: on_phones.WAY},
    way_option="mode",
    final_entry=final_entry,
    redact=redact,
)
