"""Spellcycles at the table (pnp.rules.flow.Rules), in one of two ways of playing (the `mode`
option), each a module of its own:

- `pieces` (pnp.games.spellcycles.real_pieces): the wizards play with owned or printed pieces on a
  real board; the companion keeps what is tedious or secret: essence, the spell line and its moon
  crescents, the knucklebone, and the prestige certificates, dealt face down from a shuffled deck on
  the server;
- `phones` (pnp.games.spellcycles.on_phones): the whole game on the phones; the server holds every
  piece and checks every move.

Either way the rules are the engine's (pnp.games.spellcycles.rules), the one the simulation plays,
kept in the state as data (pnp.games.spellcycles.engine). The moves both ways share are in
pnp.games.spellcycles.turn, the casts in .casts and their offers in .cast_offers.

Chance is the server's: the deal (the spell line, the certificate pile, the starting pieces) and
every knucklebone roll are written into the move's payload; a cast's own chance is a seed in its
payload, with the certificates it gave the caster, so a replay repeats it all. The pile and the
seeds are shown to no one, a wizard's certificates only to that wizard (`view`, `redact`).
"""

from __future__ import annotations

from typing import Literal

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.spellcycles import GAME, turn
from pnp.games.spellcycles.actions import Progress, Start
from pnp.games.spellcycles.engine import book
from pnp.games.spellcycles.kinds import SIZES
from pnp.games.spellcycles.on_phones import PHONES
from pnp.games.spellcycles.real_pieces import PIECES
from pnp.games.spellcycles.rules import Variants
from pnp.rules.flow import ENGINE, HOST_ONLY, JOINING, OVER, PLAYING, TURN, Move, Rules, option
from pnp.rules.table import Entry


class Options(Strict):
    """The home page lists these in this order, the most important first: the way to play, the
    game's length and who goes first; then the rules' variants, our own (Swift Time) last; then
    what applies only with real pieces."""

    mode: Literal["pieces", "phones"] = option(
        turn.PHONES,
        "How to play",
        {turn.PIECES: "Our own pieces on a real board", turn.PHONES: "Everything on the phones"},
        "On the phones the server holds every piece and checks every move. With real pieces the "
        "companion keeps essence, the spell line, the knucklebone and the certificates.",
    )
    line: Literal["short", "normal", "long"] = option(
        "normal",
        "Spell line",
        {"short": "Short (4 spells)", "normal": "Normal (8 spells)", "long": "Long (12 spells)"},
        "How many spells are dealt to the line: the game lasts as long as the crescents take to walk it.",
    )
    first: Literal["chosen", "drawn"] = option(
        "chosen",
        "Who goes first",
        {"chosen": "The host chooses at Start", "drawn": "Drawn by the server"},
        'The rules: "Choose a player to go first." Drawn: the server picks a wizard at random and logs it.',
    )
    stackers: bool = option(
        False, "SpellStackers", description="Pieces may share a space; a spell may ask for a stack."
    )
    accelerando: bool = option(
        False, "Accelerando", description="Once a turn, after Contribute, pay essence to place one more piece."
    )
    duel: bool = option(
        False,
        "Duel",
        description="Each wizard starts with essence and casts earn essence, not prestige; at none you are out.",
    )
    extra_credit: bool = option(
        False,
        "Extra Credit",
        description="Certificates stay face down and count by rank: 2-10 one, J Q K two, ace three.",
    )
    double_plus: bool = option(
        False,
        "Double-Plus Extra Credit",
        description="As Extra Credit; at the end a certificate is turned up and those of its suit count double.",
    )
    swift_time: bool = option(
        False,
        "Swift Time (our variant)",
        description="Ours, not the rules': Reverse Time costs 2 essence and Killing Time 3, not 6 each.",
    )
    cauldron: bool = option(
        True,
        "Track the cauldron's large pieces",
        description="With real pieces only: the knucklebone is rolled again for a colour with no large piece left.",
        shown_when={"mode": turn.PIECES},
    )


def setup(content: Content, options: Options) -> dict:
    """The game's keys (the flow's: phase, players in join order, the engine's wizards 0, 1, ...)."""
    the_book = book(content)
    return {
        "line_length": the_book.lines[options.line],
        "first": options.first,  # who goes first: the host's choice at Start, or the server's draw
        "first_player": None,
        "cauldron_tracked": options.mode == turn.PHONES or options.cauldron,
        "variants": {name: getattr(options, name) for name in Variants.__dataclass_fields__},
        "colours": list(the_book.colours),
        "field_size": the_book.field,
        "rulings": dict(content["rulings"].rulings),
        ENGINE: None,  # the engine's game as data (Game.to_data): holds the pile and every card
        "line": [],  # the dealt spells as a phone shows them
        "start_pieces": {},  # player id -> the large pieces the deal gave them (colour ids)
        "last_roll": None,
        "last_cast": None,
        "scores": {},
        "winners": [],
    }


# --- what each viewer sees ----------------------------------------------------------------

PUBLIC = (
    "way", "phase", "line_length", "first", "first_player", "cauldron_tracked", "variants", "colours", "field_size",
    "rulings",
)  # fmt: skip


WAYS = {turn.PIECES: PIECES, turn.PHONES: PHONES}


def view(state: dict, viewer: str | None) -> dict:
    """The table as a phone or the projector shows it: everything public, and the viewer's own
    certificates (everyone else's only as counts; the pile never); what the way of playing adds."""
    shown = _common_view(state, viewer)
    way = WAYS[state["way"]]
    return shown if way.view is None else way.view(state, viewer, shown)


def _common_view(state: dict, viewer: str | None) -> dict:
    shown = {key: state[key] for key in PUBLIC}
    shown |= {"you": viewer, "sizes": list(SIZES), "last_roll": state["last_roll"], "last_cast": state["last_cast"]}
    game, names = state[ENGINE], state["names"]
    if game is None:
        return shown | {"players": [{"id": pid, "name": names[pid]} for pid in state["players"]], "hand": []}
    over = state["phase"] == OVER
    players = []
    for pid, w in zip(state["players"], game["wizards"], strict=True):
        seat = {"id": pid, "name": names[pid], "essence": w["essence"], "certificates": len(w["certificates"])}
        seat |= {"out": w["out"], "start_pieces": state["start_pieces"][pid]}
        if over:
            seat["score"] = state["scores"][pid]
        players.append(seat)
    mine = game["wizards"][state["players"].index(viewer)]["certificates"] if viewer in state["players"] else []
    crescents = game["crescents"]
    line = [
        {**spell, "position": p, "crescents": crescents.count(p), "active": p in crescents}
        | {"cast": p in game["cast_this_turn"]}
        for p, spell in enumerate(state["line"])
    ]
    shown |= {
        "players": players,
        "hand": [list(c) for c in mine],
        "line": line,
        "crescents": list(crescents),
        "turn": None if over else {"player": _turn(state), "step": game["step"], "number": game["turn"]},
        "pile": len(game["pile"]),
        "marker": list(game["marker"]) if over and game["marker"] is not None else None,
        "scores": state["scores"] if over else {},
        "winners": state["winners"],
        "accelerated": game["accelerated"],
    }
    if state["cauldron_tracked"]:
        shown["cauldron"] = {colour: list(game["cauldron"][c]) for c, colour in enumerate(state["colours"])}
    return shown


def redact(entry: Entry, viewer: str | None) -> dict:
    """The deal without the pile; a cast without its seed, and the certificates it gave only to
    the caster (everyone else: how many)."""
    payload = dict(entry.payload)
    if entry.type == "start" and payload.get("deal"):
        payload["deal"] = {k: v for k, v in payload["deal"].items() if k != "pile"}
    if entry.type == "cast":
        payload.pop("seed", None)
        if viewer != entry.actor:
            payload["cards"] = len(payload.get("cards") or [])
    return payload


def results(state: dict) -> list[dict]:
    """Each wizard's score (empty until the end), essence and certificates, in join order."""
    game = state[ENGINE]
    rows = []
    for p, pid in enumerate(state["players"]):
        w = game["wizards"][p] if game else {"essence": "", "certificates": []}
        rows.append(
            {
                "name": state["names"][pid],
                "score": state["scores"].get(pid, ""),
                "essence": w["essence"],
                "certificates": len(w["certificates"]),
                "winner": pid in state["winners"],
            }
        )
    return rows


def _turn(state: dict) -> str | None:
    if state["phase"] != PLAYING:
        return None
    return state["players"][state[ENGINE]["player"]]


TRACKER = Rules(
    game=GAME,
    players_are="wizards",
    Options=Options,
    moves={
        "start": Move(
            Start, turn.start, HOST_ONLY, stage=JOINING, final=True, draw=turn.draw_deal, choices=turn.start_choices
        ),
        "progress": Move(Progress, turn.progress, TURN, choices=turn.progress_choices),
    },
    setup_game=setup,
    view=view,
    results=results,
    turn=_turn,
    ways=WAYS,
    way_option="mode",
    redact=redact,
)
