"""Merchants of Magick at the table (pnp.rules.flow.Rules): the rounds and their phases, the dice
every phone shows, who is ready, the Masteries in play, and each player's sheet, on paper or on
the phone.

The moves, each in the module of its idea: the round (rounds: roll, advance, ready), the sheets
(sheets: the choice and the claims; digital_sheet: spend, free, deliver; paper_sheet: mastery,
scores), and the two ways the cards come to the table, the table option `cards` (cards_dealt:
the companion deals them; cards_printed: the group deals its printed cards, the host enters the
Masteries and digital sheets their cards). The rules engine's table is kept as data under
state["engine"] (shoppe); what the phones show is derived after every move (table_view).

At a table in an event the host's Roll takes the event's dice for the round (pnp.rules.chance),
and the organiser's roll reaches every table waiting for it, as the actor EVENT.
"""

from __future__ import annotations

from typing import Literal

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.merchants_of_magick import GAME, digital_sheet, paper_sheet, rounds, sheets
from pnp.games.merchants_of_magick.actions import PHASES
from pnp.games.merchants_of_magick.cards_printed import ROOM
from pnp.games.merchants_of_magick.kinds import SCORE_LINES
from pnp.games.merchants_of_magick.shoppe import PHASE_NAMES, book, mastery_card
from pnp.games.merchants_of_magick.table_view import ranking, results, settle, view
from pnp.games.merchants_of_magick.ways import WAYS
from pnp.rules.flow import ENGINE, Rules, option


class Options(Strict):
    cards: Literal["dealt", "printed"] = option(
        "dealt",
        "Cards",
        {"dealt": "The companion deals them", "printed": "Printed cards on the table"},
        "Who deals the Adventurers, the Orders and the Masteries.",
    )


def setup(content: Content, _options: Options) -> dict:
    """The game's keys (the flow's: phase, players, names, room; and way, the option `cards`)."""
    return {
        "round": 0,  # the round being played, or about to be rolled
        "rounds": book(content).rules.rounds,
        "round_phase": PHASES[0],  # the round's phase (rounds.py)
        "dice": {},  # this round's results, once rolled
        "rolls": [],  # every round's {round, dice}
        "sheets": {},  # id -> "paper" or "digital"
        "ready": [],  # ids done with the round's phase
        "masteries": [],  # the cards in play, as dicts
        "apprentice": [],  # the names of those showing their Apprentice side
        "mastered": {},  # id -> names of the Masteries a paper sheet scored
        "claimed_now": [],  # Masteries paper sheets scored in this Mastery phase
        "papers": {},  # id -> a paper sheet's box: {lines, fulfilled, potions}
        ENGINE: None,  # the rules engine's table (Table.to_data) once started
        "seats": {},  # id -> what the phones show about that player (settled after every move)
        "standings": [],  # [{place, id}], best first
        "rating": None,  # solo: the title the score earns
        "waiting": [],  # solo: the orders waiting to enter the shoppe
    }


def layout(content: Content) -> dict:
    """The sheet and the cards, as the phones draw them: sent once, not with every event."""
    cards, sheet = book(content), content["shoppe-sheet"]
    return {
        "dice": [{"id": die, "faces": faces} for die, faces in cards.sheet.dice],
        "rounds": cards.rules.rounds,
        "phase_names": PHASE_NAMES,
        "columns": [
            {"id": c.id, "name": c.name, "side": c.side, "dice": sorted(c.dice, key=dict(cards.sheet.dice).get)}
            for c in cards.sheet.columns
        ],
        "rows": [
            {
                "name": row.name,
                "side": row.side,
                "kind": row.kind,
                "coins": row.coins,
                "circles": [{"column": c.column, "threshold": c.threshold} for c in row.circles],
                "charm": {"potions": row.charm_potions, "coins": row.charm_coins, "category": row.charm_category}
                if row.charm_potions or row.charm_coins
                else None,
            }
            for row in cards.sheet.rows
        ],
        "extra_dice": list(cards.sheet.extra_dice),
        "results_per_round": cards.rules.results_per_round,
        "score_lines": [{"id": line, "label": sheet.score[line]} for line in SCORE_LINES],
        "total": sheet.total,
        "rewards": [
            {"potions": r.potions, "free_circles": r.free_circles, "card_coins": r.card_coins}
            for r in cards.rules.adventurer_rewards
        ],
        "ratings": [{"title": title, "least": least} for title, least in cards.rules.ratings],
        "orders": sorted({str(order) for order in cards.orders}),
        "adventurers": [hero.name for hero in cards.adventurers],
        "masteries": [mastery_card(card) for card in cards.masteries],
        "leaderboard": {  # an event's words for its rows: who, the score, then the tie-breaks as ranking orders them
            "player": "Merchant",
            "total": "Coins",
            "ties": [
                {"key": "fulfilled", "name": "Orders", "one": "order", "many": "orders"},
                {"key": "potions", "name": "Potions", "one": "potion", "many": "potions"},
            ],
        },
    }


TRACKER = Rules(
    game=GAME,
    players_are="merchants",
    Options=Options,
    moves={**rounds.MOVES, **sheets.MOVES, **digital_sheet.MOVES, **paper_sheet.MOVES},
    setup_game=setup,
    view=view,
    results=results,
    room=lambda options: GAME.players if options.cards == "dealt" else (GAME.players[0], ROOM),
    ways={name: way.WAY for name, way in WAYS.items()},
    way_option="cards",
    joined=sheets.joined,
    left=sheets.left,
    settle=settle,
    layout=layout,
    ranking=ranking,
    round_done=rounds.round_done,
)
