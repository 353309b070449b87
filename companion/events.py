"""Events: one roll sequence for many tables (a club night, a convention hall, players at home).

An organiser creates an event and gets its code; each table joins it by opening a table in it
(`open_table`). The organiser rolls round by round; each roll comes from the event's secret seed
(pnp.rules.chance.seeded_die) and reaches every table waiting for that round at once, in one
write. The organiser sees how many tables have finished the round last rolled (the game's
`round_done`), and a roll ahead of tables still playing it goes out only once confirmed, so a
second tap cannot roll past the room. A table that fell behind takes the event's rolls one by one
when its host taps Roll. SHA-256 of the seed
is shown from the start and the seed itself once the event ends, so anyone can recompute every
roll. The leaderboard ranks the results of every table's players with the game's tie-breaks.
"""

from __future__ import annotations

from datetime import UTC, datetime

from companion.context import NotFound, event_channel
from companion.play import Play
from companion.store.schema import EventInfo, TableInfo
from pnp.rules.chance import SeededChance, new_seed, seed_digest, seeded_die
from pnp.rules.standings import numbered_places
from pnp.rules.table import EVENT, Refused, Table, parse_action


class EventNotFound(NotFound):
    """No event has that code."""


class StillPlaying(Refused):
    """A roll ahead of tables still playing the round before, not confirmed."""

    def __init__(self, progress: dict):
        self.progress = progress
        r, finished, of = progress["round"], progress["finished"], progress["of"]
        super().__init__(
            f"{finished} of {of} tables have finished round {r}; {of - finished} still playing it. "
            f"Confirm to roll round {r + 1} ahead of them."
        )


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
        return self.store.events.create(game, name, new_seed())

    def info(self, code: str) -> EventInfo:
        info = self.store.events.info(code)
        if info is None:
            raise EventNotFound(code)
        return info

    def organiser(self, code: str, token: str) -> bool:
        return bool(token) and self.store.events.organiser_of(code, token)

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

    def progress(self, info: EventInfo, states: list[dict]) -> dict:
        """How many of the tables that have begun (`states`: every table's) have finished the round
        last rolled, as the game tells (its tracker's `round_done`)."""
        done = self.play.tracker(info.game).round_done
        rounds = [r for r in map(done, states) if r is not None] if done else []
        return {"round": info.rolled, "finished": sum(r >= info.rolled for r in rounds), "of": len(rounds)}

    def summary(self, code: str) -> dict:
        """What anyone may see: the seed's digest always, the seed only once the event has ended;
        how many tables have finished the round last rolled."""
        info = self.info(code)
        layout = self._layout(info)
        tables = self.store.events.tables(code)
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
            "tables": len(tables),
            # each table's kept replay, brought up to date: only what is newer is read
            "progress": self.progress(info, [self.play.replays.replayed(table).state for table in tables]),
        }

    def open_table(self, code: str, options: dict) -> tuple[str, str]:
        """A table of the event's game in the event: its code and its host's token."""
        info = self.info(code)
        if info.ended_at:
            raise Refused("This event has ended.")
        return self.play.create(info.game, options, event=info.code)

    def roll(self, code: str, round_: int, ahead: bool = False) -> tuple[dict, int]:
        """Roll `round_` (the next one) and bring it to every table waiting for it, in one write:
        the roll, and how many tables took it. While a table that has begun is still playing the
        round before, StillPlaying unless the organiser confirmed rolling `ahead`; two organisers
        tapping at once give one roll: the second is refused."""
        info = self.info(code)
        action = parse_action(self.play.tracker(info.game), "roll", {"round": round_})
        chance = SeededChance(info.seed, round_)  # the seed never changes: read before the write

        def rolled(event: EventInfo, tables: list[tuple[TableInfo, int]], read_after) -> tuple[dict, dict[str, dict]]:
            if event.ended_at:
                raise Refused("This event has ended.")
            rounds = self._layout(event)["rounds"]
            if round_ <= event.rolled:
                raise Refused(f"Round {round_} is already rolled.")
            if event.rolled >= rounds:
                raise Refused(f"All {rounds} rounds are rolled.")
            if round_ != event.rolled + 1:
                raise Refused(f"The next roll is round {event.rolled + 1}.")
            at_hand = self.play.replays.at_seqs(tables, read_after)
            progress = self.progress(event, [at_hand[t.code].state for t, _ in tables])
            if progress["finished"] < progress["of"] and not ahead:
                raise StillPlaying(progress)
            checked.clear()  # a write tried again starts afresh
            for table, _ in tables:
                before = at_hand[table.code]
                try:
                    payload, state = self.play.moves.applied(table, before.state, EVENT, action, chance)
                except Refused:
                    continue  # not started, or behind: its host's Roll takes the event's rounds in turn
                checked[table.code] = (before, payload, state)
            return {"rolled": round_}, {table: payload for table, (_, payload, _) in checked.items()}

        checked: dict[str, tuple[Table, dict, dict]] = {}  # by code: the table before, what the rules made of it
        info, entries = self.store.events.append(code, EVENT, "roll", rolled)
        for table, entry in entries.items():
            before, _, state = checked[table]
            # its streams render the roll without applying it again
            self.play.replays.keep(table, entry.seq, Table(state, (*before.standing, entry)))
            self.play.hub.publish(table, entry.seq)
        self.play.hub.publish(event_channel(code), round_)
        return self.rolls(info)[-1], len(entries)

    def end(self, code: str) -> dict:
        """End the event and reveal its seed."""

        def ended(info: EventInfo) -> dict:
            if info.ended_at:
                raise Refused("This event has already ended.")
            return {"ended_at": datetime.now(UTC)}

        self.store.events.change(code, ended)
        self.play.hub.publish(event_channel(code), 0)
        return self.summary(code)

    def leaderboard(self, code: str) -> list[dict]:
        """Every started table's players, ranked across the event with the game's tie-breaks."""
        info = self.info(code)
        tracker = self.play.tracker(info.game)
        rows = []
        for table, log in self.store.events.logs(code).items():
            state = self.play.replays.replayed(table, log).state
            rows += [{"table": table, **row} for row in tracker.results(state) if "total" in row]
        # the event's place, not the table's
        return [{**rows[i], "place": place} for place, i in numbered_places([tracker.ranking(row) for row in rows])]
