"""Merchants of Magick at the table: the rounds and their phases, the dice every phone shows, who
is ready, the Masteries in play, and each player's sheet, on paper or on the phone
(pnp.rules.table.Tracker).

A round: the host (or, at a table in an event, the event's organiser) rolls; the Resource phase
shows the dice; in the Crafting and Research phase players spend them; the Mastery phase scores
the Masteries; the Customer phase moves the orders on (solo: shifts the line), except after the
last round, which ends the game. Players tap Ready; the host sees how many are and advances. A
roll for the next round finishes what is left of this one, so an event's organiser sets the pace
of every table.

At a table in an event the host's Roll takes the event's dice for the round (pnp.rules.chance),
and the organiser's roll reaches every table waiting for it, as the actor EVENT.

Cards: "dealt" (the companion deals the Masteries, each player's Sponsored Adventurer and orders,
with the rules' re-deal) or "printed" (the group deals its printed cards; the host enters the
Masteries, and digital-sheet players their adventurer and the orders in front of them).

Sheets: a "digital" sheet is marked here and every mark is checked by the rules engine
(pnp.games.merchants_of_magick.rules), which fills its score box; a "paper" sheet's player enters the
score box's lines, fulfilled orders and potions, and says which Masteries they scored (so the
cards flip), and their order claims are taken on their word.

The state holds the engine's table as plain values (Table.dump) and, refreshed after every move,
each player's seat (their summary, and the whole sheet for their own phone) and the standings.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Literal

from pydantic import Field

from pnp.content.loader import Content
from pnp.content.validate import Strict
from pnp.games.merchants_of_magick import GAME
from pnp.games.merchants_of_magick.kinds import CATEGORIES, SCORE_LINES
from pnp.games.merchants_of_magick.rulebook import book_of
from pnp.games.merchants_of_magick.rules import (
    Book,
    MasteryCard,
    Merchant,
    OrderCard,
    RuleError,
    Table,
    deal,
)
from pnp.rules.table import (
    HOST_ONLY,
    HOST_OR_EVENT,
    PLAYER,
    Chance,
    GameTracker,
    Refused,
    Who,
    numbered_places,
    option,
    per_content,
)

PHASES = ("resource", "crafting", "mastery", "customer")
PHASE_NAMES = {
    "setup": "Setting up",
    "resource": "Resource",
    "crafting": "Crafting and Research",
    "mastery": "Mastery",
    "customer": "Customer",
    "over": "Game over",
}
SOLO_CUSTOMER = "Order shift"  # the solo variant's Customer phase
PRINTED_MOST = 100  # players at one table with printed cards: a room with its own sheets
Phase = Literal[PHASES]  # type: ignore[valid-type]
Count = Annotated[int, Field(ge=0, le=999)]


class Options(Strict):
    cards: Literal["dealt", "printed"] = option(
        "dealt",
        "Cards",
        {"dealt": "The companion deals them", "printed": "Printed cards on the table"},
        "Who deals the Adventurers, the Orders and the Masteries.",
    )


class Start(Strict):
    """Begin the game (host): the companion deals, or the printed cards are on the table."""

    deal: dict | None = None  # the server's deal; whatever a phone sends here is replaced


class Roll(Strict):
    """Roll the dice for `round` (host; the organiser at an event's tables)."""

    round: int = Field(ge=1, le=99)
    dice: dict[str, int] | None = None  # the server's dice; whatever a phone sends here is replaced


class Advance(Strict):
    """End `phase` (host); naming it makes a second tap of the same button harmless."""

    phase: Phase


class Ready(Strict):
    """Done with `phase` (a player)."""

    phase: Phase


class ChooseSheet(Strict):
    """Play on paper or on the phone (a player, before the first roll)."""

    kind: Literal["paper", "digital"]


class Spend(Strict):
    """Spend this round's `die` result, moved by `adjust` potions, on circle `circle` of `row`."""

    die: str = Field(min_length=1, max_length=20)
    row: str = Field(min_length=1, max_length=40)
    circle: int = Field(ge=0, le=50)
    adjust: int = Field(0, ge=-30, le=30)


class Free(Strict):
    """Mark a circle an adventurer's reward gave, with no die."""

    row: str = Field(min_length=1, max_length=40)
    circle: int = Field(ge=0, le=50)


class Claim(Strict):
    """Claim the order in shoppe slot `slot` (face-up orders, left to right)."""

    slot: int = Field(ge=0, le=20)
    order: str | None = None  # the server names the order, for the history; whatever a phone sends is replaced


class Deliver(Strict):
    """Fill the Sponsored Adventurer's order of `category`."""

    category: Literal[CATEGORIES]  # type: ignore[valid-type]


class ScoreMastery(Strict):
    """A paper sheet reached Mastery `card` this Mastery phase (so it flips at the phase's end)."""

    card: str = Field(min_length=1, max_length=40)


class Scores(Strict):
    """A paper sheet's score box: coins per line, fulfilled orders and potions (the tie-breaks)."""

    lines: dict[Literal[SCORE_LINES], Count] = Field(default_factory=dict)  # type: ignore[valid-type]
    fulfilled: Count = 0
    potions: Count = 0


class SetMasteries(Strict):
    """The printed Mastery cards in play (host, before the start, with printed cards)."""

    material: str = Field(min_length=1, max_length=40)
    energy: str = Field(min_length=1, max_length=40)


class SetCards(Strict):
    """A digital sheet's printed cards: its Sponsored Adventurer and the orders now in its shoppe."""

    adventurer: str | None = Field(None, max_length=40)
    shop: list[str] = Field(default_factory=list, max_length=8)  # orders as printed, "Fiery Ring of the Elves"


actions: dict[str, type[Strict]] = {
    "start": Start,
    "roll": Roll,
    "advance": Advance,
    "ready": Ready,
    "sheet": ChooseSheet,
    "spend": Spend,
    "free": Free,
    "claim": Claim,
    "deliver": Deliver,
    "mastery": ScoreMastery,
    "scores": Scores,
    "masteries": SetMasteries,
    "cards": SetCards,
}

_book = per_content(book_of)  # the rules' book of this content, built once


# --- setting up ---------------------------------------------------------------------------


def setup(content: Content, options: Options) -> dict:
    book = _book(content)
    return {
        "cards": options.cards,
        "phase": "setup",
        "round": 0,  # the round being played, or about to be rolled
        "rounds": book.rules.rounds,
        "most": GAME.players[1],  # merchants with dealt cards: the rules' most at one table
        "dice": {},  # this round's results, once rolled
        "rolls": [],  # every round's {round, dice}
        "players": [],  # ids in join order (seats around the table)
        "names": {},
        "sheets": {},  # id -> "paper" or "digital"
        "ready": [],  # ids done with the current phase
        "masteries": [],  # the cards in play, as dicts
        "apprentice": [],  # the names of those showing their Apprentice side
        "mastered": {},  # id -> names of the Masteries a paper sheet scored
        "claimed_now": [],  # Masteries paper sheets scored in this Mastery phase
        "papers": {},  # id -> {lines, fulfilled, potions}
        "engine": None,  # the rules engine's table (Table.dump) once started
        "seats": {},  # id -> what the phones show about that player (refreshed after every move)
        "standings": [],
        "step": 0,  # moves applied; a seat's `rev` is the step its sheet last changed at
    }


def join(state: dict, player_id: str, name: str) -> dict:
    if player_id in state["names"]:  # a second join renames
        return _seat_names({**state, "names": {**state["names"], player_id: name}})
    if state["phase"] != "setup":
        raise Refused("This game has begun; follow it from this phone, or join the next one.")
    most = PRINTED_MOST if state["cards"] == "printed" else state["most"]
    if len(state["players"]) >= most:
        raise Refused(f"This table is full: {most} merchants.")
    state = {
        **state,
        "players": [*state["players"], player_id],
        "names": {**state["names"], player_id: name},
        "sheets": {**state["sheets"], player_id: "paper"},
        "papers": {**state["papers"], player_id: {"lines": {}, "fulfilled": 0, "potions": 0}},
        "mastered": {**state["mastered"], player_id: []},
    }
    return _seat_names(state)


def _seat_names(state: dict) -> dict:
    """Before the start there is no engine: the seats are names and sheet choices."""
    names = state["names"]
    if state["engine"] is not None:  # a player renamed themselves after the start
        seats = {pid: {**seat, "name": names[pid]} for pid, seat in state["seats"].items()}
        return {**state, "seats": seats, "standings": [{**s, "name": names[s["id"]]} for s in state["standings"]]}
    seats = {
        pid: {
            "id": pid,
            "name": names[pid],
            "sheet": state["sheets"][pid],
            "rev": state["step"],
            **_paper_seat(state, pid),  # zeros until the start: one shape for every seat
        }
        for pid in state["players"]
    }
    return {**state, "seats": seats}


# --- moves --------------------------------------------------------------------------------


def apply(content: Content, state: dict, actor: str, action: Strict) -> dict:
    book = _book(content)
    try:
        state = _HANDLERS[type(action)](book, state, actor, action)
    except RuleError as err:
        raise Refused(_sentence(str(err))) from None
    return _refreshed(book, {**state, "step": state["step"] + 1})


def _sentence(reason: str) -> str:
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")


def _playing(state: dict) -> None:
    if state["phase"] == "setup":
        raise Refused("The game has not begun yet.")
    if state["phase"] == "over":
        raise Refused("The game is over.")


def _start(book: Book, state: dict, _actor: str, action: Start) -> dict:
    if state["phase"] != "setup":
        raise Refused("The game has already begun.")
    fewest = GAME.players[0]
    if len(state["players"]) < fewest:
        raise Refused(f"At least {fewest} merchant{'s' if fewest != 1 else ''} must join first.")
    if state["cards"] == "dealt":
        heroes = len(book.adventurers)
        if len(state["players"]) > heroes:
            raise Refused(f"{len(state['players'])} merchants need as many Sponsored Adventurers; there are {heroes}.")
        if action.deal is None:
            raise Refused("The deal is missing.")  # the server draws one whenever it can deal
        table = _dealt(book, action.deal)
    else:
        if len(state["masteries"]) != 2:
            raise Refused("Choose the Material and the Energy Mastery in play first.")
        chosen = {card.name: card for card in book.masteries}
        masteries = [chosen[card["name"]] for card in state["masteries"]]
        table = Table(book, [Merchant(book.sheet) for _ in state["players"]], [], masteries)
    masteries = [_mastery(card) for card in table.masteries]
    state = {**state, "phase": "resource", "round": 1, "masteries": masteries, "engine": table.dump()}
    return _touched(state, state["players"])


def _set_masteries(book: Book, state: dict, _actor: str, action: SetMasteries) -> dict:
    if state["cards"] != "printed":
        raise Refused("The companion deals the Masteries at this table.")
    if state["phase"] != "setup":
        raise Refused("The Masteries are set once the game has begun.")
    cards = []
    for kind, name in (("material", action.material), ("energy", action.energy)):
        card = next((c for c in book.masteries if c.name == name and c.type == kind), None)
        if card is None:
            known = ", ".join(c.name for c in book.masteries if c.type == kind)
            raise Refused(f"There is no {kind} Mastery called {name}; the cards are {known}.")
        cards.append(_mastery(card))
    return {**state, "masteries": cards}


def _roll(book: Book, state: dict, _actor: str, action: Roll) -> dict:
    _playing(state)
    due = state["round"] + 1 if state["dice"] else state["round"]
    if action.round < due:
        raise Refused(f"Round {action.round} is already rolled.")
    if due > state["rounds"]:
        raise Refused(f"Round {state['rounds']} was the last.")
    if action.round > due:
        raise Refused(f"This table is at round {due}; it cannot take round {action.round}'s roll yet.")
    faces = dict(book.sheet.dice)
    if action.dice is None or set(action.dice) != set(faces):
        raise Refused("The roll needs a result for each die.")  # the server always draws them
    for die, result in action.dice.items():
        if not 1 <= result <= faces[die]:
            raise Refused(f"A {die} shows 1 to {faces[die]}, not {result}.")
    table = Table.load(book, state["engine"])  # one load and one dump for every phase the roll moves through
    while state["dice"]:  # what is left of the round before: its Mastery and Customer phases
        state = _phase_after(state, table)
        if state["phase"] == "over":
            raise Refused(f"Round {state['rounds']} was the last.")
    table.start_round(action.dice)
    rolls = [*state["rolls"], {"round": action.round, "dice": dict(action.dice)}]
    state = {**state, "dice": dict(action.dice), "rolls": rolls, "ready": [], "engine": table.dump()}
    return _touched(state, _digital(state))


def _advance(book: Book, state: dict, _actor: str, action: Advance) -> dict:
    _playing(state)
    if action.phase != state["phase"]:
        raise Refused(f"The {PHASE_NAMES[action.phase]} phase is over; this is the {_phase_name(state)} phase.")
    if not state["dice"]:
        raise Refused(f"Roll the dice for round {state['round']} first.")
    return _next_phase(book, state)


def _next_phase(book: Book, state: dict) -> dict:
    """The phase after this one, doing what ending this one does."""
    table = Table.load(book, state["engine"])
    state = _phase_after(state, table)
    return {**state, "engine": table.dump()}


def _phase_after(state: dict, table: Table) -> dict:
    """The phase after this one, on `table` (the engine's table as `state` holds it), which moves
    on with it: the state returned leaves the engine to the caller's dump (a roll moves through
    several phases and dumps once)."""
    phase = state["phase"]
    if phase == "resource":
        return {**state, "phase": "crafting", "ready": []}
    if phase == "crafting":
        scored = table.mastery_phase()
        state = {**state, "phase": "mastery", "ready": [], "claimed_now": []}
        return _touched(state, [state["players"][p] for p, _, _ in scored])
    if phase == "mastery":
        # "they immediately claim that Order": before the orders move (or the game ends), a
        # digital sheet claims every order it can fill; a free circle still owed holds the phase
        owing = [pid for pid in _digital(state) if table.merchants[state["players"].index(pid)].free_circles]
        if owing:
            raise Refused(f"{state['names'].get(owing[0], 'A player')} has a free circle to mark first.")
        for pid in _digital(state):
            # a delivery's reward may be a free circle, the player's choice: so held, not made for them
            m = table.merchants[state["players"].index(pid)]
            hero = m.adventurer
            items = hero.items if hero else ()
            due = [c for c, item in items if c not in m.delivered and m.done(item) and m.done(hero.enchantment)]
            if due:
                raise Refused(f"{state['names'].get(pid, 'A player')} can deliver their adventurer's {due[0]} first.")
        for pid in _digital(state):
            m = table.merchants[state["players"].index(pid)]
            while claimable := [slot for slot, order in enumerate(m.shop) if m.can_fill(order)]:
                _claim_in(table, m, claimable[0], state["cards"] == "printed")
        # Cards scored in this phase flip at its end, whoever scored them: digital or paper.
        table.flipped.update(state["claimed_now"])
        state = {**state, "apprentice": sorted(table.flipped), "claimed_now": [], "ready": []}
        if state["round"] >= state["rounds"]:
            return {**state, "phase": "over"}
        return {**state, "phase": "customer"}
    # Customer: the orders move one space clockwise, and the next round awaits its roll.
    if state["cards"] == "dealt":
        table.customer_phase()
    else:
        _printed_customer_phase(table, [state["sheets"][pid] == "digital" for pid in state["players"]])
    state = {**state, "phase": "resource", "round": state["round"] + 1, "dice": {}, "ready": []}
    return _touched(state, state["players"])


def _printed_customer_phase(table: Table, digital: list[bool]) -> None:
    """Printed cards move as the engine moves dealt ones (one space to the left, each leftmost to
    the right end of the next line), so a digital sheet keeps what it entered. Only the cards it
    cannot know are left to enter: a revealed replacement and a newcomer from a paper sheet."""
    lines = [m.line() for m in table.merchants]
    for i, m in enumerate(table.merchants):
        if not digital[i]:
            continue
        # solo's newcomer comes from the printed waiting line, which the companion does not see
        incoming = lines[i - 1][:1] if digital[i - 1] and len(lines) > 1 else []
        m.lay([(card, True) for card, up in lines[i][1:] + incoming if up])  # face down: not known


def _ready(book: Book, state: dict, actor: str, action: Ready) -> dict:
    _playing(state)
    if action.phase != state["phase"]:
        raise Refused(f"The {PHASE_NAMES[action.phase]} phase is over; this is the {_phase_name(state)} phase.")
    if actor in state["ready"]:
        return state
    return {**state, "ready": [*state["ready"], actor]}


def _choose_sheet(book: Book, state: dict, actor: str, action: ChooseSheet) -> dict:
    if state["rolls"]:
        raise Refused("Choose paper or phone before the first roll.")
    return _touched({**state, "sheets": {**state["sheets"], actor: action.kind}}, [actor])


def _on_sheet(state: dict, actor: str) -> None:
    _playing(state)
    if state["sheets"][actor] != "digital":
        raise Refused("Your sheet is on paper; mark it there.")


def _spending(state: dict) -> None:
    if not state["dice"]:
        raise Refused(f"Round {state['round']} is not rolled yet.")
    if state["phase"] not in ("resource", "crafting"):
        raise Refused("The Crafting and Research phase is over for this round.")


def _merchant_move(move):
    """A move on the player's own digital sheet, through the rules engine."""

    def handler(book: Book, state: dict, actor: str, action) -> dict:
        _on_sheet(state, actor)
        table = Table.load(book, state["engine"])
        move(state, table, table.merchants[state["players"].index(actor)], action)
        return _touched({**state, "engine": table.dump()}, [actor])

    return handler


def _spend(state: dict, table: Table, m: Merchant, action: Spend) -> None:
    _spending(state)
    table.spend(m, action.die, action.row, action.circle, action.adjust)


def _free(state: dict, table: Table, m: Merchant, action: Free) -> None:
    # owed at once, whatever the phase: a delivery in the Mastery phase (round 10's too) gives one
    if not state["dice"]:
        raise Refused(f"Round {state['round']} is not rolled yet.")
    table.mark_free(m, action.row, action.circle)


def _deliver(state: dict, table: Table, m: Merchant, action: Deliver) -> None:
    _claiming(state)
    table.deliver(m, action.category)


def _claiming(state: dict) -> None:
    _playing(state)
    if state["phase"] == "customer":
        raise Refused("Orders are claimed before the Customer phase.")


def _claim(book: Book, state: dict, actor: str, action: Claim) -> dict:
    _claiming(state)
    if state["cards"] != "dealt" and state["sheets"][actor] == "paper":
        raise Refused("Your orders are printed cards; claim them on the table.")
    table = Table.load(book, state["engine"])
    merchant = table.merchants[state["players"].index(actor)]
    _claim_in(table, merchant, action.slot, state["cards"] == "printed", state["sheets"][actor] == "digital")
    return _touched({**state, "engine": table.dump()}, [actor])


def _claim_in(table: Table, merchant: Merchant, slot: int, printed: bool, checked: bool = True) -> None:
    spaces = merchant.line()
    order = table.claim(merchant, slot, checked=checked)
    if printed:
        # the printed replacement lies face down in the claimed card's space; the companion cannot
        # see it, so the claimed card stands in for it until the Customer phase reveals it
        space = [i for i, (_, up) in enumerate(spaces) if up][slot]
        merchant.lay([*merchant.line()[:space], (order, False), *merchant.line()[space:]])


def _score_mastery(book: Book, state: dict, actor: str, action: ScoreMastery) -> dict:
    if state["phase"] != "mastery":
        raise Refused("Masteries are scored in the Mastery phase.")
    if state["sheets"][actor] != "paper":
        raise Refused("Your digital sheet scores its Masteries itself.")
    if action.card not in [card["name"] for card in state["masteries"]]:
        raise Refused(f"{action.card} is not a Mastery in play.")
    if action.card in state["mastered"][actor]:
        raise Refused(f"You have already scored {action.card}; each merchant scores each Mastery once.")
    state = {
        **state,
        "mastered": {**state["mastered"], actor: [*state["mastered"][actor], action.card]},
        "claimed_now": sorted({*state["claimed_now"], action.card}),
    }
    return _touched(state, [actor])


def _scores(book: Book, state: dict, actor: str, action: Scores) -> dict:
    _started(state)
    if state["sheets"][actor] != "paper":
        raise Refused("Your digital sheet fills its score box itself.")
    paper = {"lines": dict(action.lines), "fulfilled": action.fulfilled, "potions": action.potions}
    return _touched({**state, "papers": {**state["papers"], actor: paper}}, [actor])


def _set_cards(book: Book, state: dict, actor: str, action: SetCards) -> dict:
    _started(state)
    if state["cards"] != "printed":
        raise Refused("The companion dealt your cards at this table.")
    if state["sheets"][actor] != "digital":
        raise Refused("Only a digital sheet needs its cards entered.")
    table = Table.load(book, state["engine"])
    merchant = table.merchants[state["players"].index(actor)]
    if action.adventurer is not None:
        heroes = {hero.name: hero for hero in book.adventurers}
        if action.adventurer not in heroes:
            raise Refused(f"There is no Sponsored Adventurer called {action.adventurer}.")
        if merchant.delivered and merchant.adventurer and merchant.adventurer.name != action.adventurer:
            raise Refused(f"You have delivered to {merchant.adventurer.name} already.")
        merchant.adventurer = heroes[action.adventurer]
    by_label = {str(order): order for order in book.orders}
    unknown = [label for label in action.shop if label not in by_label]
    if unknown:
        raise Refused(f"There is no order card {unknown[0]}.")
    merchant.shop = [by_label[label] for label in action.shop]  # face up; face-down stand-ins stay
    return _touched({**state, "engine": table.dump()}, [actor])


def _started(state: dict) -> None:
    if state["phase"] == "setup":
        raise Refused("The game has not begun yet.")


_HANDLERS = {
    Start: _start,
    SetMasteries: _set_masteries,
    Roll: _roll,
    Advance: _advance,
    Ready: _ready,
    ChooseSheet: _choose_sheet,
    Spend: _merchant_move(_spend),
    Free: _merchant_move(_free),
    Deliver: _merchant_move(_deliver),
    Claim: _claim,
    ScoreMastery: _score_mastery,
    Scores: _scores,
    SetCards: _set_cards,
}

# Who may make each action (the rules never see an actor who may not).
_HOST = Who(HOST_ONLY, "Only the table's host does that.")
_MERCHANT = Who(PLAYER, "Join the table to play.")
who = {
    "start": _HOST,
    "masteries": _HOST,
    "roll": Who(HOST_OR_EVENT, "Only the host rolls the dice."),
    "advance": _HOST,
    **dict.fromkeys(("ready", "sheet", "spend", "free", "deliver", "claim", "mastery", "scores", "cards"), _MERCHANT),
}


# --- what the server's chance adds --------------------------------------------------------


def draw(content: Content, state: dict, actor: str, action: Strict, chance: Chance) -> Strict:
    """The dice of a roll and the deal of a start, from the server's chance, never a phone's; and
    the name of the order a claim takes, so the log says what was claimed."""
    book = _book(content)
    if isinstance(action, Claim):
        return action.model_copy(update={"order": _order_in(book, state, actor, action.slot)})
    if isinstance(action, Roll):
        return action.model_copy(update={"dice": chance.dice(action.round, book.sheet.dice)})
    if isinstance(action, Start):
        dealt = None
        players = len(state["players"])
        if state["cards"] == "dealt" and state["phase"] == "setup" and 0 < players <= len(book.adventurers):
            dealt = _deal_record(deal(book, players, chance.rng))
        return action.model_copy(update={"deal": dealt})
    return action


def _order_in(book: Book, state: dict, actor: str, slot: int) -> str | None:
    if state["engine"] is None or actor not in state["players"]:
        return None
    shop = state["engine"]["merchants"][state["players"].index(actor)]["shop"]
    return str(book.orders[shop[slot]]) if slot < len(shop) else None


def _deal_record(table: Table) -> dict:
    """A deal as the log keeps it: card names and the orders' places in the book's deck."""
    index = {order: i for i, order in reversed(list(enumerate(table.book.orders)))}
    return {
        "masteries": [card.name for card in table.masteries],
        "adventurers": [m.adventurer.name for m in table.merchants],
        "shops": [[index[order] for order in m.shop] for m in table.merchants],
        "deck": [index[order] for order in table.deck],
        "waiting": [index[order] for order in table.waiting],
    }


def _dealt(book: Book, record: dict) -> Table:
    heroes = {hero.name: hero for hero in book.adventurers}
    cards = {card.name: card for card in book.masteries}
    merchants = [
        Merchant(book.sheet, heroes[name], shop=[book.orders[i] for i in shop])
        for name, shop in zip(record["adventurers"], record["shops"], strict=True)
    ]
    return Table(
        book,
        merchants,
        [book.orders[i] for i in record["deck"]],
        [cards[name] for name in record["masteries"]],
        waiting=[book.orders[i] for i in record["waiting"]],
    )


# --- what the phones show -----------------------------------------------------------------


def _touched(state: dict, players: list[str]) -> dict:
    """Mark these players' sheets changed at this move, so their phones fetch them again."""
    step = state["step"] + 1
    seats = {pid: {**seat, "rev": step} if pid in players else seat for pid, seat in state["seats"].items()}
    return {**state, "seats": seats}


def _digital(state: dict) -> list[str]:
    return [pid for pid in state["players"] if state["sheets"][pid] == "digital"]


def _refreshed(book: Book, state: dict) -> dict:
    """Every seat's summary and sheet, and the standings, from the engine and the paper scores."""
    if state["engine"] is None:
        return _seat_names(state)
    table = Table.load(book, state["engine"])
    seats = {}
    for pid, merchant in zip(state["players"], table.merchants, strict=True):
        seat = _paper_seat(state, pid) if state["sheets"][pid] == "paper" else _digital_seat(table, merchant)
        seat |= _cards_seat(merchant)
        seats[pid] = {
            "id": pid,
            "name": state["names"][pid],
            "sheet": state["sheets"][pid],
            "rev": state["seats"].get(pid, {}).get("rev", 0),
            **seat,
        }
    standings = []
    for place, p in numbered_places([ranking(seat) for seat in seats.values()]):
        seat = seats[state["players"][p]]
        standings.append({"place": place, **{k: seat[k] for k in ("id", "name", "total", "fulfilled", "potions")}})
    rating = book.rules.rating(standings[0]["total"]) if len(seats) == 1 else None
    waiting = [_order(order) for order in table.waiting]
    return {**state, "seats": seats, "standings": standings, "rating": rating, "waiting": waiting}


def _paper_seat(state: dict, pid: str) -> dict:
    paper = state["papers"][pid]
    lines = {line: paper["lines"].get(line, 0) for line in SCORE_LINES}
    return {
        "lines": lines,
        "total": sum(lines.values()),
        "fulfilled": paper["fulfilled"],
        "potions": paper["potions"],
        "mastered": state["mastered"][pid],
    }


def _digital_seat(table: Table, m: Merchant) -> dict:
    lines = m.score()
    return {
        "lines": lines,
        "total": sum(lines.values()),
        "fulfilled": m.fulfilled(),
        "potions": m.potions,
        "mastered": sorted(m.mastery),
        "marked": m.marked,
        "completed": m.completed,
        "extra_used": m.extra_used,
        "next_cost": table.slot_cost(m),
        "spent": m.spent,
        "used": sorted(m.used),
        "free_circles": m.free_circles,
        "delivered": m.delivered,
        "claimable": [slot for slot, order in enumerate(m.shop) if m.can_fill(order)],
        "reach": table.reach(m),  # the phone dims the circles the chosen die cannot reach
    }


def _cards_seat(m: Merchant) -> dict:
    hero = m.adventurer
    return {
        "adventurer": None
        if hero is None
        else {"name": hero.name, "items": dict(hero.items), "enchantment": hero.enchantment, "coins": hero.coins},
        "shop": [_order(order) for order in m.shop],
        "face_down": len(m.face_down),
        "claimed": [_order(order) for order in m.claimed],
    }


@cache  # one dict a card, shared by every state that shows it (none is changed in place): a roll shows every shop anew
def _order(order: OrderCard) -> dict:
    return {
        "label": str(order),
        "item": order.item,
        "prefix": order.prefix,
        "suffix": order.suffix,
        "coins": order.coins,
        "double": order.double,
    }


def _mastery(card: MasteryCard) -> dict:
    return {k: getattr(card, k) for k in ("name", "type", "column", "circles", "master", "apprentice")}


def _phase_name(state: dict) -> str:
    if state["phase"] == "customer" and len(state["players"]) == 1:
        return SOLO_CUSTOMER
    return PHASE_NAMES[state["phase"]]


SUMMARY = ("id", "name", "sheet", "rev", "total", "fulfilled", "potions", "mastered")
SHARED = ("cards", "phase", "round", "rounds", "dice", "rolls", "standings", "step")


def view(state: dict, actor: str | None) -> dict:
    """The table as every phone sees it (its players' summaries), and the caller's own seat whole."""
    ready = set(state["ready"])
    seats = state["seats"]
    players = [
        {**{k: seats[pid][k] for k in SUMMARY if k in seats[pid]}, "ready": pid in ready} for pid in state["players"]
    ]
    apprentice = set(state["apprentice"])
    table = {k: state[k] for k in SHARED}
    engine = state["engine"]
    return {
        **table,
        "phase_name": _phase_name(state),
        "phases": list(PHASES if state["round"] < state["rounds"] else PHASES[:3]),  # no Customer after the last
        "masteries": [
            {**card, "side": "apprentice" if card["name"] in apprentice else "master"} for card in state["masteries"]
        ],
        "players": players,
        "ready_count": len(ready),
        "solo": len(state["players"]) == 1,
        "rating": state.get("rating"),
        "waiting": state.get("waiting", []),  # solo: the orders waiting to enter the shoppe
        "orders_left": None if engine is None else len(engine["deck"]),
        "you": actor,
        "mine": seats.get(actor),
    }


def ranking(row: dict) -> tuple:
    """Most coins, then most fulfilled orders, then most potions (equal: a shared place)."""
    return row["total"], row["fulfilled"], row["potions"]


def round_done(state: dict) -> int | None:
    """The last round this table has played to its end: its Crafting and Research phase over, or
    every merchant Ready in it (what is left of a round, the next roll finishes). None before the
    start."""
    if state["phase"] == "setup":
        return None
    if state["phase"] == "over":
        return state["rounds"]
    crafted = state["phase"] in ("mastery", "customer") or (
        state["phase"] == "crafting" and set(state["players"]) <= set(state["ready"])
    )
    return state["round"] if state["dice"] and crafted else state["round"] - 1


def results(state: dict) -> list[dict]:
    """One row per merchant, best first: the score box, the tie-breaks, the place."""
    seats = state["seats"]
    rows = []
    for standing in state["standings"]:
        seat = seats[standing["id"]]
        row = {"place": standing["place"], "player": seat["id"], "name": seat["name"], "sheet": seat["sheet"]}
        row |= {line: seat["lines"][line] for line in SCORE_LINES}
        row |= {"total": seat["total"], "fulfilled": seat["fulfilled"], "potions": seat["potions"]}
        if state.get("rating") is not None or len(state["players"]) == 1:
            row["rating"] = state.get("rating") or ""
        rows.append(row)
    if not rows:  # before the start: the names
        rows = [
            {"place": "", "player": pid, "name": state["names"][pid], "sheet": state["sheets"][pid]}
            for pid in state["players"]
        ]
    return rows


def layout(content: Content) -> dict:
    """The sheet and the cards, as the phones draw them: sent once, not with every event."""
    book, sheet = _book(content), content["shoppe-sheet"]
    return {
        "dice": [{"id": die, "faces": faces} for die, faces in book.sheet.dice],
        "rounds": book.rules.rounds,
        "phase_names": {phase: PHASE_NAMES[phase] for phase in PHASES},
        "columns": [
            {"id": c.id, "name": c.name, "side": c.side, "dice": sorted(c.dice, key=dict(book.sheet.dice).get)}
            for c in book.sheet.columns
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
            for row in book.sheet.rows
        ],
        "extra_dice": list(book.sheet.extra_dice),
        "results_per_round": book.rules.results_per_round,
        "score_lines": [{"id": line, "label": sheet.score[line]} for line in SCORE_LINES],
        "total": sheet.total,
        "rewards": [
            {"potions": r.potions, "free_circles": r.free_circles, "card_coins": r.card_coins}
            for r in book.rules.adventurer_rewards
        ],
        "ratings": [{"title": title, "least": least} for title, least in book.rules.ratings],
        "orders": sorted({str(order) for order in book.orders}),
        "adventurers": [hero.name for hero in book.adventurers],
        "masteries": [_mastery(card) for card in book.masteries],
        "leaderboard": {  # an event's words for its rows: who, the score, then the tie-breaks as ranking orders them
            "player": "Merchant",
            "total": "Coins",
            "ties": [
                {"key": "fulfilled", "name": "Orders", "one": "order", "many": "orders"},
                {"key": "potions", "name": "Potions", "one": "potion", "many": "potions"},
            ],
        },
    }


TRACKER = GameTracker(
    "merchants-of-magick",
    Options,
    actions,
    setup,
    join,
    apply,
    view,
    results,
    draw=draw,
    layout=layout,
    final=frozenset({"start", "roll"}),
    ranking=ranking,
    who=who,
    seated=lambda state: state["names"],
    round_done=round_done,
)
