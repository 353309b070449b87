"""One flow for every game: the lifecycle of a table, its seats, Start, who may make each move, the
moves as data, and the legal moves offered to each caller (boardgame.io's `flow` is the model: the
game never writes this bookkeeping itself).

A game at the table is a `Rules`: its options, its moves (type -> `Move`: the body a phone sends,
the handler that makes it, who may make it, when, and the ways to make it now), its setup and its
view. The flow owns four keys of every table's state:

- `phase`: "joining" (seats are taken), then "playing" once the host starts, then "over";
- `players`: the seated players' ids, in join order until the game seats them at its start;
- `names`: each player's name;
- `room`: the fewest and the most players the table seats (the game's, or its options');
- `computers`: the seats a computer player plays, with its level (pnp.rules.computer), once the
  host seats one (a table without any has no such key).

Every other key is the game's. The flow refuses, in one wording for every game, a move made before
the start or after the end, a Start with too few or too many players, a join to a full or begun
table, and a move the caller may not make (its role); the game's handler sees only a move the
flow let through, for the seat it is for (`mover`).

Who may make a move (`Move.who`):

- HOST_ONLY: the host (the table's own moves: Start, the next phase of a round);
- HOST_OR_EVENT: the host, or the organiser of the table's event (its dice);
- TABLE: anyone at the table, the host or a seated player: a shared record (a trick won, the
  counts on printed boards), made by any phone for everyone;
- TURN: the player whose turn it is;
- SEAT: any seated player, for their own seat (ready, a sheet's mark, a trade between turns).

A seat without a phone is the host's to play: the host makes its TURN and SEAT moves as that seat
(the server checks it has no phone, and records the host as who made the move for it). A seat held
by a phone is its own: the host may make only the moves the game declares as corrections
(`Move.correction`: a score, essence or HP put right), for any seat, named in the field the
declaration gives. A computer player's seat has no phone either, but the host never plays it: the server makes its moves
(companion.computers), only in a way of playing whose every decision the server sees (`Way.computers`,
or `Rules.computers` for a game played one way), and never at a table of computers only.
A replay checks only the roles, which the state decides (an older log's host
move naming a seat in `player` replays as made for it).

Ways of playing: a game played in several ways (printed gems or the phones; real pieces or the
phones) declares each as a `Way`, its own moves and what it adds to the setup, the start and the
view, in a module of its own; the table's option named by `Rules.way_option` picks one. A move of
another way is refused with that way's words.

Legal moves (`offers`): what a caller may do now, for each seat and role they hold, as the moves a
phone draws its buttons from, a computer player chooses among and a property test plays. An offer
(pnp.rules.offers) is a move's type, the body it sends, and the choices still open in it; every
completion of an offer is a move the server accepts. A move that takes no choices is offered when
the rules accept it now (it is tried on the state); a move with choices is offered as its
`choices` hook lays them out, when the rules accept its first completion.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import BaseModel, Field

from pnp.gamedef import GameDef
from pnp.rules.chance import Unrolled
from pnp.rules.offers import first, offer
from pnp.rules.table import EVENT, HOST, Entry, NotYours, Refused

JOINING, PLAYING, OVER = "joining", "playing", "over"
START = "start"  # the move that ends the joining: its checks are the flow's

# Who may make a move.
HOST_ONLY = "host"
HOST_OR_EVENT = "host or event"
TABLE = "table"
TURN = "turn"
SEAT = "seat"

Handler = Callable[[Any, dict, str, BaseModel], dict]  # (content, state, mover, action) -> the state after it
Choices = Callable[[Any, dict, str], list[dict]]  # (content, state, mover) -> the offers of one move type
# (content, state, actor, action, chance) -> the action with what the server's chance adds to it
Draw = Callable[[Any, dict, str, BaseModel, Any], BaseModel]
ENGINE = "engine"  # the state's key for a game's engine as data (its `to_data()`; `from_data(book, data)` back)


def option(
    default: Any,
    title: str,
    labels: Mapping[Any, str] | None = None,
    description: str | None = None,
    shown_when: Mapping[str, Any] | None = None,
) -> Any:
    """A field of a tracker's Options as a player reads it: its title, what it changes, and each
    choice's words (the JSON schema's `labels`, keyed by the value as text), so the page that
    opens a table shows words, never the raw values it sends; `shown_when` (the schema's
    `shown_when`): the other options' values under which it applies, the page hiding it otherwise.
    A yes/no option takes only true or false: "yes", 1 or "no" is refused naming the field, never
    read as a guess."""
    extra = {"labels": {str(value): words for value, words in labels.items()}} if labels else {}
    if shown_when:
        extra["shown_when"] = dict(shown_when)
    extra = extra or None
    strict = True if isinstance(default, bool) else None
    return Field(default, title=title, description=description, json_schema_extra=extra, strict=strict)


def computers(state: dict) -> dict[str, str]:
    """The seats computer players play, with their levels."""
    return state.get("computers", {})


def per_content(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`build(content)` made once per content object and kept (a few at most): a replay applies
    hundreds of moves, each needing what a game derives from its content."""
    held: dict[int, tuple[Any, Any]] = {}

    def cached(content):
        entry = held.get(id(content))
        if entry is None or entry[0] is not content:  # an id may be reused by new content
            if len(held) > 16:
                held.clear()
            entry = held[id(content)] = (content, build(content))
        return entry[1]

    return cached


@dataclass(frozen=True)
class Move:
    """One type of move, as data: the body a phone sends (`body`, a pydantic model), the handler
    that makes it, who may make it, in which stage of the table, and the ways to make it now."""

    body: type[BaseModel]
    handler: Handler
    who: str = TURN
    stage: str = PLAYING  # JOINING for the start and what is set before it
    # the body's field naming the seat a correction is for ("player", "wizard"): the host may make it
    # for a seat held by a phone, a player for their own seat
    correction: str | None = None
    final: bool = False  # never taken back: a roll, a deal (undoing it would be a redraw)
    # the offers of this move for `mover` now (pnp.rules.offers); None: a move without choices,
    # offered with its default body when the rules accept it
    choices: Choices | None = None
    # what the server's chance adds to it before it is checked and logged (the dice of a roll, a
    # deal), so a phone never chooses it and a replay repeats it
    draw: Draw | None = None


@dataclass(frozen=True)
class Way:
    """One way of playing a game: its own moves, and what it adds to the common setup, start and view."""

    title: str  # what a refusal calls it: "printed gems and boards"
    moves: Mapping[str, Move]
    setup: Callable[[Any, dict], dict] | None = None  # (content, state) -> the state with this way's keys
    view: Callable[[dict, str | None, dict], dict] | None = None  # (state, viewer, the common view) -> the view
    computers: bool = False  # the server sees everything a seat decides from: computer players may sit
    strategy: Any = None  # what the strong computer level needs (pnp.rules.computer's Strategy); None: no strong level


@dataclass(frozen=True)
class Caller:
    """Who asks: the seat whose own moves they make (a phone's, or a seat without a phone that the
    host plays as it), and whether they hold the host's rights."""

    seat: str | None = None
    host: bool = False

    @property
    def actors(self) -> list[str]:
        """The actors this caller's moves are made as: their seat, and the host."""
        return [a for a in (self.seat, HOST if self.host else None) if a is not None]


@dataclass(frozen=True)
class Rules:
    """A game at the table: what the flow runs (pnp.rules.table's Tracker)."""

    game: GameDef
    players_are: str  # what the game calls its players, plural: "wizards"
    Options: type[BaseModel]
    moves: Mapping[str, Move]  # the moves every way of playing has (the start, unless each way has its own)
    setup_game: Callable[[Any, BaseModel], dict]  # (content, options) -> the game's own keys
    view: Callable[[dict, str | None], dict]
    results: Callable[[dict], list[dict]]
    # (options) -> the fewest and the most players a table of them seats; None: the game's (GameDef.players)
    room: Callable[[BaseModel], tuple[int, int]] | None = None
    turn: Callable[[dict], str | None] = lambda state: None  # whose turn it is (None: no one's now)
    ways: Mapping[str, Way] = field(default_factory=dict)
    way_option: str = ""  # the Options field that picks the way of playing
    joined: Callable[[dict, str], dict] | None = None  # (state, player id) -> the game's keys for a new seat
    left: Callable[[dict, str], dict] | None = None  # (state, player id) -> the state without `joined`'s keys
    computers: bool = False  # a game played one way: as Way.computers
    strategy: Any = None  # and as Way.strategy
    # (content, state) -> what is derived anew after every move (a summary, the winner), not when
    # a move is only tried
    settle: Callable[[Any, dict], dict] | None = None
    layout: Callable[[Any], dict] | None = None
    final_entry: Callable[[Entry], str | None] | None = None
    ranking: Callable[[dict], tuple] | None = None
    redact: Callable[[Entry, str | None], Mapping[str, Any]] | None = None
    round_done: Callable[[dict], int | None] | None = None
    who: Mapping[str, Any] = field(default_factory=dict)  # empty: the flow checks who, in `apply`

    @property
    def title(self) -> str:
        return self.game.title

    def seats(self, options: BaseModel) -> tuple[int, int]:
        """The fewest and the most players a table with these options seats."""
        return self.room(options) if self.room is not None else self.game.players

    def draw(self, content, state: dict, actor: str, action: BaseModel, chance) -> BaseModel:
        """`action` with what the server's chance adds to it (its move's `draw`), if anything. Only
        a move the flow lets through is drawn for: one refused for its stage or its maker is left as
        it came, and `apply` says why (a game's draw never meets a state its move cannot be made in)."""
        type_ = self.type_of(action)
        move = self.in_effect(state).get(type_)
        if move is None or move.draw is None:
            return action
        try:
            self._checked(state, actor, action, type_, move)
        except Refused:
            return action
        return move.draw(content, state, actor, action, chance)

    # --- what the table's log needs (pnp.rules.table) -------------------------------------

    @cached_property
    def actions(self) -> dict[str, type[BaseModel]]:
        """Every move's body by type, of every way of playing: what a phone may send."""
        found = {name: move.body for name, move in self.moves.items()}
        for way in self.ways.values():
            found |= {name: move.body for name, move in way.moves.items()}
        return found

    @cached_property
    def final(self) -> frozenset[str]:
        every = [self.moves, *(way.moves for way in self.ways.values())]
        return frozenset(name for moves in every for name, move in moves.items() if move.final)

    def seated(self, state: dict) -> Collection[str]:
        return state["names"]

    def setup(self, content, options: BaseModel) -> dict:
        state = {"phase": JOINING, "players": [], "names": {}, **self.setup_game(content, options)}
        if self.ways:
            state["way"] = getattr(options, self.way_option)
            way = self.ways[state["way"]]
            if way.setup is not None:
                state = way.setup(content, state)
        state["room"] = list(self.seats(options))
        return state

    def join(self, state: dict, player_id: str, name: str, computer: str | None = None) -> dict:
        """A player sits down (a second join renames them); no one joins once the game has begun,
        or past the most the game seats. `computer`: the level of the computer player that takes
        the seat, refused where the server cannot see what it would decide from."""
        if player_id in state["names"]:
            return {**state, "names": {**state["names"], player_id: name}}
        if state["phase"] != JOINING:
            raise Refused("The game has begun: no one joins now.")
        most = state["room"][1]
        if len(state["players"]) >= most:
            raise Refused(f"{self.title} is for at most {most} {self.players_are}, and they are all here.")
        if computer is not None:
            if why := self.no_computers(state):
                raise Refused(why)
            state = {**state, "computers": {**computers(state), player_id: computer}}
        state = {**state, "players": [*state["players"], player_id], "names": {**state["names"], player_id: name}}
        return self.joined(state, player_id) if self.joined is not None else state

    def leave(self, state: dict, player_id: str) -> dict:
        """A computer player leaves its seat before the start (a person's seat stays: their phone
        holds its token)."""
        if player_id not in computers(state):
            raise Refused("Only a computer player leaves its seat.")
        if state["phase"] != JOINING:
            raise Refused("The game has begun: every seat plays to the end.")
        if self.joined is not None and self.left is None:
            raise ValueError(f"{self.title} seats players with `joined` but declares no `left`")
        names = {pid: name for pid, name in state["names"].items() if pid != player_id}
        rest = {pid: level for pid, level in computers(state).items() if pid != player_id}
        players = [pid for pid in state["players"] if pid != player_id]
        state = {**state, "players": players, "names": names, "computers": rest}
        return self.left(state, player_id) if self.left is not None else state

    def no_computers(self, state: dict) -> str | None:
        """Why this table seats no computer players, or None when it may: a computer decides from
        what its seat sees, so the server must see all of it (no printed pieces or hands)."""
        way = self.ways[state["way"]] if self.ways else None
        if way.computers if way else self.computers:
            return None
        played = f" played with {way.title}" if way else ""
        return (
            f"{self.title}{played} has no computer players: its pieces are on the table, where the server "
            "cannot see them."
        )

    def seen(self, state: dict, viewer: str | None) -> dict:
        """The game's view of the table for `viewer`, each computer player named as one ("Ada
        (computer)"), so no phone or projector takes its moves for a person's."""
        playing = computers(state)
        if playing:
            names = {pid: f"{name} (computer)" if pid in playing else name for pid, name in state["names"].items()}
            state = {**state, "names": names}
        return self.view(state, viewer)

    def in_effect(self, state: dict) -> Mapping[str, Move]:
        """The moves of this table's way of playing."""
        return {**self.moves, **self.ways[state["way"]].moves} if self.ways else self.moves

    def apply(self, content, state: dict, actor: str, action: BaseModel, trial: bool = False) -> dict:
        """The state after `actor`'s `action`, or Refused (NotYours) saying why not, in the flow's
        words for what every game shares and the game's for its own rules. A `trial` only asks
        whether the rules accept it: what `settle` derives is left undone."""
        type_ = self.type_of(action)
        move = self.in_effect(state).get(type_)
        if move is None:
            raise Refused(f"This table plays with {self.ways[state['way']].title}: that move is not part of it.")
        mover = self._checked(state, actor, action, type_, move)
        state = move.handler(content, state, mover, action)
        return state if trial or self.settle is None else self.settle(content, state)

    def type_of(self, action: BaseModel) -> str:
        return self._types[type(action)]

    @cached_property
    def _types(self) -> dict[type[BaseModel], str]:
        return {model: name for name, model in self.actions.items()}

    # --- the flow's checks, in one wording -------------------------------------------------

    def _checked(self, state: dict, actor: str, action: BaseModel, type_: str, move: Move) -> str:
        """The seat (or HOST) a move is for, once the flow lets it through: made in its stage, by
        someone who may make it, and a start with the players the table seats."""
        try:
            mover = self._mover(state, actor, action, move)  # a move never theirs is refused as that first
        except NotYours:
            raise
        except Refused:  # not theirs now (another's turn): unless the game is not at this move's stage at all
            self._in_stage(state, move)
            raise
        self._in_stage(state, move)
        if type_ == START:
            self._can_start(state)
        return mover

    def _in_stage(self, state: dict, move: Move) -> None:
        phase = state["phase"]
        if phase == move.stage:
            return
        if move.stage == JOINING:
            raise Refused("The game has already begun.")
        raise Refused("The game has not begun yet." if phase == JOINING else "The game is over.")

    def _can_start(self, state: dict) -> None:
        fewest, most = state["room"]
        joined = len(state["players"])
        if joined and all(pid in computers(state) for pid in state["players"]):
            raise Refused("A table of computer players only does not start: a person plays too.")
        if joined < fewest:
            have = f"{joined} {'has' if joined == 1 else 'have'} joined"
            raise Refused(f"{self.title} needs at least {fewest} {self.players_are}; {have}.")
        if joined > most:  # a table's count set by its options
            raise Refused(f"{self.title} is for at most {most} {self.players_are}; {joined} have joined.")

    def _mover(self, state: dict, actor: str, action: BaseModel, move: Move) -> str:
        """The seat (or HOST) a move is made for, once `actor` may make it: NotYours when never
        theirs, Refused when not theirs now (another's turn)."""
        seated = actor in state["names"]
        if move.who == HOST_ONLY:
            if actor != HOST:
                raise NotYours("Only the host does that.")
            return HOST
        if move.who == HOST_OR_EVENT:
            if actor not in (HOST, EVENT):
                raise NotYours("Only the host does that.")
            return actor
        if move.correction is not None:
            named = getattr(action, move.correction, None) or actor
            if actor != HOST and named != actor:
                raise NotYours("You can only put your own numbers right; the host puts anyone's right.")
            if named not in state["names"]:
                raise Refused("No such player at this table.")
            return named
        if move.who == TABLE:
            if actor != HOST and not seated:
                raise NotYours("Only the players at this table and the host do that.")
            return actor
        named = getattr(action, "player", None) or None
        if actor == HOST:  # the host plays a seat without a phone (the server checked it has none)
            mover = named or self.turn(state)
            if mover is None or mover not in state["names"]:
                raise Refused("Name the player this move is for.")
            if mover in computers(state):
                raise NotYours(f"{state['names'][mover]} is a computer player: it makes its own moves.")
        else:
            if not seated:
                raise NotYours("Join the table to play.")
            if named and named != actor:
                raise NotYours("You can only make your own moves.")
            mover = actor
        if move.who == TURN and state["phase"] == PLAYING:
            current = self.turn(state)
            if current is not None and mover != current:
                raise Refused(f"It is {state['names'][current]}'s turn.")
        return mover

    # --- authority: who the server lets make a move as whom --------------------------------

    def actor_for(self, state: dict, caller: Caller, type_: str, action: BaseModel) -> str:
        """The actor `caller`'s move is recorded as: HOST for the host's own moves and corrections
        of another's seat, else the caller's seat. NotYours when the caller may not make it: a
        seat's move asked by the host as no seat, a host's move by a player."""
        move = self.in_effect(state).get(type_)
        if move is None or move.who in (HOST_ONLY, HOST_OR_EVENT):
            return HOST if caller.host else caller.seat or HOST
        if move.correction is not None:
            named = getattr(action, move.correction, None)
            if caller.host and (caller.seat is None or (named and named != caller.seat)):
                return HOST
            return caller.seat or HOST
        if caller.seat is not None:
            return caller.seat
        if not caller.host:
            raise NotYours("Join the table to play.")
        if move.who == TABLE:
            return HOST
        raise NotYours("A seat's move is made as that seat: the host plays a seat without a phone as it (?as=).")

    # --- legal moves ------------------------------------------------------------------------

    def offers(self, content, state: dict, caller: Caller, chance) -> list[dict]:
        """Every move `caller` may make now (pnp.rules.offers), for each seat and role they hold:
        a move without choices when the rules accept it (tried with `chance.trial()`, so nothing
        real is drawn), a move with choices as its hook lays them out."""
        found, trial = [], chance.trial()  # one throwaway generator for every move tried here
        for type_, move in self.in_effect(state).items():
            for actor, mover in self._makers(state, caller, move):
                for made in move.choices(content, state, mover) if move.choices else [offer()]:
                    payload = dict(made["payload"])
                    if move.correction is not None and mover != HOST:
                        payload[move.correction] = mover
                    made = {"type": type_, "for": mover, **made, "payload": payload}
                    # a move with choices is tried with its first completion: the hook lays them out,
                    # the rules say whether the move is open now at all
                    if self.accepts(content, state, actor, type_, first(made), trial):
                        found.append(made)
        return found

    def _makers(self, state: dict, caller: Caller, move: Move) -> list[tuple[str, str]]:
        """(actor, mover) for each way `caller` could make `move`: as the host, as their seat, and
        a correction for each seat the host may put right."""
        if move.stage != state["phase"]:
            return []
        if move.who in (HOST_ONLY, HOST_OR_EVENT):
            return [(HOST, HOST)] if caller.host else []
        if move.correction is not None:
            if caller.host:
                return [(HOST if pid != caller.seat else pid, pid) for pid in state["players"]]
            return [(caller.seat, caller.seat)] if caller.seat in state["names"] else []
        if caller.seat in state["names"]:
            if move.who == TURN and self.turn(state) not in (None, caller.seat):
                return []
            return [(caller.seat, caller.seat)]
        if move.who == TABLE and caller.host:
            return [(HOST, HOST)]
        return []

    def accepts(self, content, state: dict, actor: str, type_: str, payload: dict, trial) -> bool:
        """Whether the rules accept this move now, tried on `state` with `trial`, a chance whose
        draws are thrown away (a chance's `trial()`)."""
        try:
            action = self.draw(content, state, actor, self.actions[type_].model_validate(payload), trial)
            self.apply(content, state, actor, action, trial=True)
        except (Refused, ValueError, Unrolled):
            return False
        return True
