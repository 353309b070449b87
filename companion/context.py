"""What every part of play shares (companion.play): the store, the hub that wakes the live
streams, the games the companion tracks (create_app's configuration) with their content, each
table's game and options (read once: they never change), where each table's chance comes from,
and the announcing of a change to the streams that follow it."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from companion.kept import Kept
from companion.live import Hub
from companion.store import Store
from companion.store.database import normalize_code
from companion.store.schema import TableInfo
from pnp.content.game import load_game
from pnp.content.loader import Content
from pnp.gamedef import GameDef
from pnp.rules.bodies import strictly
from pnp.rules.chance import SecureChance, SeededChance
from pnp.rules.flow import Rules


class NotFound(Exception):
    """No table has that code."""


class Context:
    def __init__(self, store: Store, hub: Hub, layers: list[Path], games: dict[str, GameDef], rng=None):
        self.store, self.hub, self.layers = store, hub, layers
        self.games = games  # the games the companion may track, by id (create_app's configuration)
        # where every table's dice and shuffles come from: None, the operating system's secure
        # generator; a seeded random.Random in tests, which deals the same cards every run
        self.rng: random.Random | None = rng
        self._infos: Kept[TableInfo] = Kept()

    def close(self) -> None:
        """Release the database connections and stop listening (tests, and the server's master)."""
        self.hub.close()
        self.store.close()

    # --- games --------------------------------------------------------------------------

    def trackable(self) -> dict[str, GameDef]:
        """The games the companion tracks, by id."""
        return {gid: g for gid, g in self.games.items() if g.tracker}

    def tracker(self, game_id: str) -> Rules:
        return self.trackable()[game_id].load("tracker")

    def content(self, game_id: str) -> Content:
        return _content(self.games[game_id], tuple(self.layers))

    # --- tables -------------------------------------------------------------------------

    def info(self, code: str) -> TableInfo:
        """The table's game, options and event, which never change: read once, then remembered
        (a roll's streams ask for every table of an event). NotFound for an unknown code."""
        info = self._infos.get(normalize_code(code) or "")
        if info is None:
            info = self.store.tables.info(code)
            if info is None:
                raise NotFound(code)
            self._infos.put(info.code, info)
        return info

    def options(self, info: TableInfo) -> BaseModel:
        return self.tracker(info.game).Options.model_validate(info.options)

    def create(self, game_id: str, options: dict, event: str | None = None) -> tuple[str, str]:
        """A new table (in `event`, if given): its join code and the host's token. Options are
        validated first."""
        validated = strictly(self.tracker(game_id).Options, options)
        return self.store.tables.create(game_id, validated.model_dump(mode="json"), event)

    def chance(self, info: TableInfo) -> SecureChance | SeededChance:
        """Where this table's dice come from: its event's seed, or the secure generator (the
        configured one, seeded, in tests)."""
        rng = self.rng or random.SystemRandom()
        if info.event is None:
            return SecureChance(rng)
        event = self.store.events.info(info.event)
        return SeededChance(event.seed, event.rolled, rng)

    def announce(self, info: TableInfo, seq: int) -> None:
        """Wake the table's streams, and its event's (whose leaderboard may have changed)."""
        self.hub.publish(info.code, seq)
        if info.event is not None:
            self.hub.publish(event_channel(info.event), seq)


@cache
def _content(game: GameDef, layers: tuple[Path, ...]) -> Content:
    """A game's content with the overlays, loaded once per process: the same cards `pnp build` prints."""
    return load_game(game, list(layers))


def event_channel(code: str) -> str:
    """The hub's name for an event's streams (beside its tables', which are their codes)."""
    return f"event:{normalize_code(code) or code}"
