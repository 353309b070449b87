"""Events: one roll sequence for many tables (a club night, a convention hall, players at home).

An organiser creates an event and gets its code; each table joins it by opening a table in it
(`open_table`). The organiser rolls round by round; each roll comes from the event's secret seed
(pnp.rules.chance.seeded_die) and reaches every table waiting for that round at once. A table
that fell behind takes the event's rolls one by one when its host taps Roll. SHA-256 of the seed
is shown from the start and the seed itself once the event ends, so anyone can recompute every
roll. The leaderboard ranks the results of every table's players with the game's tie-breaks.
"""

from __future__ import annotations

from datetime import UTC, datetime

from companion.db import EventInfo
from companion.play import NotFound, Play, Seat, event_channel
from pnp.rules.chance import new_seed, seed_digest, seeded_die
from pnp.rules.table import EVENT, Refused, numbered_places


class EventNotFound(NotFound):
    """No event has that code."""


class Events:
    def __init__(self, play: Play):
        self.play = play
        self.store = play.store

    def games(self) -> list[str]:
        """The games an event can run, as each game declares (GameDef.events)."""
        return [gid for gid, game in self.play.trackable().items() if game.events]

    def create(self, game: str, name: str) -> tuple[str, str]:
        """A new event: its code and the organiser's token."""
        if game not in self.games():
            raise ValueError(game)
        return self.store.create_event(game, name, new_seed())

    def info(self, code: str) -> EventInfo:
        info = self.store.event(code)
        if info is None:
            raise EventNotFound(code)
        return info

    def organiser(self, code: str, token: str) -> bool:
        return bool(token) and self.store.organiser_of(code, token)

    def _layout(self, info: EventInfo) -> dict:
        return self.play.tracker(info.game).layout(self.play.content(info.game))

    def board(self, code: str) -> dict:
        """The game's words for the leaderboard's columns (its layout's `leaderboard`)."""
        return self._layout(self.info(code))["leaderboard"]

    def rolls(self, info: EventInfo, dice: list[dict] | None = None) -> list[dict]:
        """Every round rolled so far, recomputed from the seed (`dice`: the layout's, if at hand)."""
        dice = dice or self._layout(info)["dice"]
        return [
            {"round": r, "dice": {d["id"]: seeded_die(info.seed, r, d["id"], d["faces"]) for d in dice}}
            for r in range(1, info.rolled + 1)
        ]

    def summary(self, code: str) -> dict:
        """What anyone may see: the seed's digest always, the seed only once the event has ended."""
        info = self.info(code)
        layout = self._layout(info)
        return {
            "code": info.code,
            "name": info.name,
            "game": info.game,
            "title": self.play.trackable()[info.game].title,
            "rounds": layout["rounds"],
            "dice": layout["dice"],  # each die's id and faces
            "leaderboard": layout["leaderboard"],  # the game's words for its columns
            "rolled": info.rolled,
            "rolls": self.rolls(info, layout["dice"]),
            "seed_sha256": seed_digest(info.seed),
            "seed": info.seed if info.ended_at else None,
            "ended": info.ended_at is not None,
            "tables": len(self.store.event_tables(code)),
        }

    def open_table(self, code: str, options: dict) -> tuple[str, str]:
        """A table of the event's game in the event: its code and its host's token."""
        info = self.info(code)
        if info.ended_at:
            raise Refused("This event has ended.")
        return self.play.create(info.game, options, event=info.code)

    def roll(self, code: str, round_: int) -> tuple[dict, int]:
        """Roll `round_` (the next one) and bring it to every table waiting for it: the roll, and
        how many tables took it. Two organisers tapping at once give one roll: the second is refused."""

        def next_round(info: EventInfo) -> dict:
            if info.ended_at:
                raise Refused("This event has ended.")
            rounds = self._layout(info)["rounds"]
            if round_ <= info.rolled:
                raise Refused(f"Round {round_} is already rolled.")
            if info.rolled >= rounds:
                raise Refused(f"All {rounds} rounds are rolled.")
            if round_ != info.rolled + 1:
                raise Refused(f"The next roll is round {info.rolled + 1}.")
            return {"rolled": round_}

        info = self.store.change_event(code, next_round)
        reached = 0
        for table in self.store.event_tables(code):
            try:
                self.play.act(table, Seat(EVENT), "roll", {"round": round_})
                reached += 1
            except Refused:
                pass  # not started, or behind: its host's Roll takes the event's rounds in turn
        self.play.hub.publish(event_channel(code), round_)
        return self.rolls(info)[-1], reached

    def end(self, code: str) -> dict:
        """End the event and reveal its seed."""

        def ended(info: EventInfo) -> dict:
            if info.ended_at:
                raise Refused("This event has already ended.")
            return {"ended_at": datetime.now(UTC)}

        self.store.change_event(code, ended)
        self.play.hub.publish(event_channel(code), 0)
        return self.summary(code)

    def leaderboard(self, code: str) -> list[dict]:
        """Every started table's players, ranked across the event with the game's tie-breaks."""
        info = self.info(code)
        tracker = self.play.tracker(info.game)
        rows = []
        for table, log in self.store.event_logs(code).items():
            state = self.play.replayed(table, log).state
            rows += [{"table": table, **row} for row in tracker.results(state) if "total" in row]
        # the event's place, not the table's
        return [{**rows[i], "place": place} for place, i in numbered_places([tracker.ranking(row) for row in rows])]
