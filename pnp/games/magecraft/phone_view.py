"""What each viewer sees of a Magecraft table on the phones: every wizard's public board (HP,
Shield, Score and Discard Areas by colour, bag and hand sizes, spellbooks with the gems paid onto
them, the golden gem), the Academy, whose turn and how far it has gone; a wizard's own hand, and
their own bag's contents only at a table with bag odds on. No one sees another's hand or bag.
The whole shape is in pnp.games.magecraft.tracker's text."""

from __future__ import annotations

from pnp.games.magecraft.kinds import ICONS
from pnp.games.magecraft.recorded import counts_of
from pnp.games.magecraft.rules import CASTING, DISCARD_SHIELD, OPENING
from pnp.rules.flow import ENGINE, PLAYING

AREAS = ("hp", "shield", "score", "discard")  # a board's public areas, by gem colour


def view(state: dict, viewer: str | None, shown: dict) -> dict:
    book = state["shown"]
    colours = book["colours"]
    shown |= {
        "spells": book["spells"],
        "hand": {},
        "bag_contents": None,
        "last": state["last"],
        "last_cast": state["last_cast"],
    }
    game = state[ENGINE]
    if game is None:
        return shown | {"turn": None, "defeated": [], "academy": None}
    for seat, w in zip(shown["players"], game["wizards"], strict=True):
        seat |= _board(book, w, game["opening"][seat["seat"]])
    if viewer in state["players"]:
        mine = game["wizards"][state["players"].index(viewer)]
        shown["hand"] = counts_of(colours, mine["hand"])
        if state["bag_odds"]:
            shown["bag_contents"] = counts_of(colours, mine["bag"])
    turn = None
    if state["phase"] == PLAYING and game["phase"] != OPENING:
        current = game["wizards"][game["player"]]
        pending = game.get("pending", [0] * len(ICONS))
        turn = {
            "player": state["players"][game["player"]],
            "phase": game["phase"],
            # what the phones and the projector both call it: a Discard Shield with no shield gem is the casting's start
            "step": CASTING if game["phase"] == DISCARD_SHIELD and not sum(current["shield"]) else game["phase"],
            "resolving": None
            if not any(pending)
            else {"spell": game["pending_spell"], "icons": {i: n for i, n in zip(ICONS, pending, strict=True) if n}},
            "number": game["turn"],
            "spellbook": None if game["spellbook"] < 0 else game["spellbook"],
            "next_spell": game["next_spell"],
            "cantrip_cast": game["cantrip_cast"],
        }
    academy = {
        "spells": [{"name": name, "cards": cards} for name, cards in game["academy"]],
        "gems": counts_of(colours, game["academy_gems"]),
    }
    defeated = [s["id"] for s in shown["players"] if s["out"]]
    return shown | {"turn": turn, "defeated": defeated, "academy": academy}


def _board(book: dict, w: dict, to_discard: int) -> dict:
    """A wizard's board as everyone sees it: no hand, no bag, only their sizes."""
    colours = book["colours"]
    character = None if w["character"] is None else book["characters"][w["character"]]
    seat = {area: counts_of(colours, w[area]) for area in AREAS}
    seat |= {f"{area}_total": sum(w[area]) for area in ("hp", "shield", "score")}
    seat |= {"bag": sum(w["bag"]), "hand": sum(w["hand"]), "to_discard": to_discard, "out": w["out"]}
    seat |= {
        "character": None if character is None else character["name"],
        "cantrip": None if character is None else character["cantrip"],
        "spellbooks": [
            [
                {"spell": name, "mastered": mastered, "paid": [colours[c] for c in paid]}
                for name, mastered, paid in cards
            ]
            for cards in w["books"]
        ],
        "golden": _gem(colours, w["golden"]),
        "cantrip_paid": _gem(colours, w["cantrip_paid"]),
    }
    return seat


def _gem(colours: list[str], c: int) -> str | None:
    return colours[c] if c >= 0 else None
