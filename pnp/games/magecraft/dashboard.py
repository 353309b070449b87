"""Magecraft with printed gems and boards: the duel dashboard one phone can run for the whole table
(a `Way` of pnp.games.magecraft.tracker). It keeps HP, Shield and Score per wizard as counted on the
boards, whose turn it is and which phase, defeats and the winner; anyone at the table, or the host,
changes a count (`count`) or moves the turn on (`next_phase`) for everyone.

State: "board": {"seats": [{"hp", "shield", "score", "out"}] in seat order, "player": the seat
whose turn it is, "phase": the index of its phase in PHASES, "turn": its number from 1}.
"""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.magecraft.bodies import GEMS_MOST, Count, NextPhase, Start
from pnp.games.magecraft.recorded import rulebook
from pnp.games.magecraft.start import dealing, order_drawn, seated
from pnp.rules.flow import HOST_ONLY, JOINING, OVER, PLAYING, TABLE, Move, Way
from pnp.rules.offers import offer, whole_number
from pnp.rules.table import Refused

PHASES = ("discard-shield", "casting", "learning", "refresh")  # a turn's, as the rules order them
AREAS = {"hp": "HP Area", "shield": "Shield Area", "score": "Score Area"}


def setup(content: Content, state: dict) -> dict:
    return {**state, "board": None}


def _deal(content: Content, state: dict, actor: str, action: Start, chance) -> Start:
    rng = dealing(state, chance)
    return action.model_copy(update={"deal": None if rng is None else {"order": order_drawn(state, rng)}})


def _start(content: Content, state: dict, _host: str, action: Start) -> dict:
    state = seated(state, action.deal)
    seats = [{"hp": rulebook(content).hp, "shield": 0, "score": 0, "out": False} for _ in state["players"]]
    return {**state, "board": {"seats": seats, "player": 0, "phase": 0, "turn": 1}}


def _count(content: Content, state: dict, _mover: str, action: Count) -> dict:
    """A count changed by hand; then who is defeated, and whether someone has won."""
    book = rulebook(content)
    if action.player not in state["players"]:
        raise Refused("No such wizard at this table.")
    board = state["board"]
    p = state["players"].index(action.player)
    seat = dict(board["seats"][p])
    value = seat[action.area] + action.change
    name = state["names"][action.player]
    if value < 0:
        raise Refused(f"{name}'s {AREAS[action.area]} holds {seat[action.area]} gems, not {-action.change}.")
    if action.area == "hp" and value > book.hp:
        raise Refused(f"An HP Area holds at most {book.hp} gems; a Heal beyond that scores instead.")
    if action.area == "score" and value > book.score_to_win:  # the game ended as it reached it
        raise Refused(f"A Score Area wins at {book.score_to_win} gems; {name}'s holds {seat['score']}.")
    if value > GEMS_MOST:
        raise Refused(f"No table has {value} gems for one {AREAS[action.area]}.")
    seat[action.area] = value
    seat["out"] = seat["hp"] == 0
    seats = [seat if q == p else s for q, s in enumerate(board["seats"])]
    state = {**state, "board": {**board, "seats": seats}}
    scorer = next((q for q, s in enumerate(seats) if s["score"] >= book.score_to_win), None)
    alive = [q for q, s in enumerate(seats) if not s["out"]]
    if scorer is not None:
        return {**state, "phase": OVER, "winner": state["players"][scorer], "ended": "score"}
    if len(alive) == 1:
        return {**state, "phase": OVER, "winner": state["players"][alive[0]], "ended": "hp"}
    if seats[board["player"]]["out"]:  # the wizard whose turn it is fell: the next one's turn
        return _next_phase(content, {**state, "board": {**state["board"], "phase": len(PHASES) - 1}})
    return state


def _next_phase(content: Content, state: dict, _mover: str = "", _action: NextPhase | None = None) -> dict:
    board = state["board"]
    if board["phase"] + 1 < len(PHASES):
        return {**state, "board": {**board, "phase": board["phase"] + 1}}
    seats, n = board["seats"], len(board["seats"])
    following = next(q % n for q in range(board["player"] + 1, board["player"] + n + 1) if not seats[q % n]["out"])
    return {**state, "board": {**board, "player": following, "phase": 0, "turn": board["turn"] + 1}}


def _count_choices(content: Content, state: dict, _mover: str) -> list[dict]:
    """Each wizard's each count, changed by as much as it holds down to none, and up to a full HP
    Area or the Score that wins."""
    book = rulebook(content)
    most = {"hp": book.hp, "shield": GEMS_MOST, "score": book.score_to_win}
    return [
        offer({"player": pid, "area": area}, [whole_number("change", -seat[area], most[area] - seat[area])])
        for pid, seat in zip(state["players"], state["board"]["seats"], strict=True)
        for area in AREAS
    ]


def turn(state: dict) -> str:
    return state["players"][state["board"]["player"]]


def view(state: dict, _viewer: str | None, shown: dict) -> dict:
    """The common view with each wizard's counts, and whose turn and which phase."""
    board = state["board"]
    if board is not None:
        for seat, counts in zip(shown["players"], board["seats"], strict=True):
            seat |= counts
    now = None
    if board is not None and state["phase"] == PLAYING:
        now = {"player": turn(state), "phase": PHASES[board["phase"]], "number": board["turn"]}
    return shown | {"turn": now, "defeated": [s["id"] for s in shown["players"] if s["out"]]}


def results(state: dict, p: int) -> tuple[int, int] | None:
    """Wizard `p`'s Score and HP, once the game has begun."""
    if state["board"] is None:
        return None
    seat = state["board"]["seats"][p]
    return seat["score"], seat["hp"]


WAY = Way(
    title="printed gems and boards",
    moves={
        "start": Move(Start, _start, HOST_ONLY, stage=JOINING, draw=_deal),
        "count": Move(Count, _count, TABLE, choices=_count_choices),
        "next_phase": Move(NextPhase, _next_phase, TABLE),
    },
    setup=setup,
    view=view,
)
