"""The Spellpress companion: a Flask app for phones at the table.

`create_app()` builds it (flaskr's factory): configuration from the environment, an instance
folder for the default SQLite database, the schema migrated on start, one blueprint per area
(the JSON API and live events in api.py, the phone pages in views.py). What a test sets apart is
configuration too: the games (`GAMES`) and where chance comes from (`CHANCE`, seeded).

A game kept outside pnp.games (the tests' example game, tests/example_game/) is configuration
as well: its package joins GAMES, its content folder CONTENT and its panel's folder GAME_PANELS.
`companion serve` reads them from the environment (SPELLPRESS_GAMES, SPELLPRESS_CONTENT and
SPELLPRESS_GAME_PANELS), so its workers, each building its own app, all have them.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from flask import Flask

from companion.address import PUBLIC_URL_VARIABLE, checked_public_url, configured_lan_address
from companion.computers import PAUSE, in_background
from companion.events import Events
from companion.play import Play
from pnp.gamedef import GameDef, game_in, games

# `companion serve --limits-storage` and `--trusted-proxies`, for its workers (companion/guesses.py)
LIMITS_STORAGE_VARIABLE = "SPELLPRESS_LIMITS_STORAGE"
TRUSTED_PROXIES_VARIABLE = "SPELLPRESS_TRUSTED_PROXIES"
# A seed for every table's chance, for tests and demonstrations only: anyone who knows it knows the dice.
CHANCE_SEED_VARIABLE = "SPELLPRESS_CHANCE_SEED"
# Games kept outside pnp.games: their packages by module name, separated by commas, and the folders
# of their phone panels, separated like PATH
GAMES_VARIABLE = "SPELLPRESS_GAMES"
# Seconds a computer player "thinks" before each move (default companion.computers.PAUSE)
COMPUTER_PAUSE_VARIABLE = "SPELLPRESS_COMPUTER_PAUSE"
GAME_PANELS_VARIABLE = "SPELLPRESS_GAME_PANELS"
MAX_BODY = 16 * 1024  # no action, name or option list comes near this; anything larger is refused with 413


def instance_folder(configured: str | None = None) -> str:
    """Where the default database (and a self-signed certificate) live: as configured, else
    COMPANION_INSTANCE, else Flask's instance folder for this package."""
    return configured or os.environ.get("COMPANION_INSTANCE") or Flask(__name__).instance_path


def configured_games() -> dict[str, GameDef]:
    """Every game of pnp.games, and those the environment names besides (GAMES_VARIABLE)."""
    named = [package.strip() for package in os.environ.get(GAMES_VARIABLE, "").split(",") if package.strip()]
    return {**games(), **{game.id: game for game in map(game_in, named)}}


def folders(variable: str) -> list[Path]:
    """The folders an environment variable names, separated like PATH."""
    return [Path(p) for p in os.environ.get(variable, "").split(os.pathsep) if p]


def seeded(seed: str | None) -> random.Random | None:
    """The chance a seed in the environment asks for (None: the operating system's secure generator)."""
    return None if not seed else random.Random(seed)


def pause(text: str | None) -> float:
    """The computer players' pause the environment asks for, in seconds (0 to 10), else the default."""
    if not text:
        return PAUSE
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 10:
        raise ValueError(f"{COMPUTER_PAUSE_VARIABLE}: expected seconds from 0 to 10, got {text!r}")
    return seconds


def create_app(test_config: dict | None = None) -> Flask:
    test_config = test_config or {}
    app = Flask(
        __name__, instance_path=instance_folder(test_config.get("INSTANCE_PATH")), instance_relative_config=True
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{Path(app.instance_path) / 'companion.sqlite'}",
        # the same --content overlay folders `pnp build` takes, separated like PATH
        CONTENT=folders("SPELLPRESS_CONTENT"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        KEEPALIVE_SECONDS=15.0,
        # where phones reach the app, for join links and QR codes (companion/address.py)
        PUBLIC_URL=os.environ.get(PUBLIC_URL_VARIABLE),
        LAN_ADDRESS=configured_lan_address(),
        # where wrong join codes are counted, and how many proxies in front say who asked (companion/guesses.py)
        RATELIMIT_STORAGE_URI=os.environ.get(LIMITS_STORAGE_VARIABLE) or "memory://",
        TRUSTED_PROXIES=int(os.environ.get(TRUSTED_PROXIES_VARIABLE) or 0),
        # the games tables may be opened for, by id (a test adds a game of its own here), and folders
        # beside static/games/ where a game kept outside the companion has its panel
        GAMES=configured_games(),
        GAME_PANELS=folders(GAME_PANELS_VARIABLE),
        # every table's dice and shuffles: None, the operating system's secure generator; a seeded
        # random.Random in tests, so each test deals the same cards every run
        CHANCE=seeded(os.environ.get(CHANCE_SEED_VARIABLE)),
        # seconds a computer player "thinks" before each of its moves, shown on the phones
        COMPUTER_PAUSE=pause(os.environ.get(COMPUTER_PAUSE_VARIABLE)),
        # True: a computer's moves are made within the request that woke it, in one order (tests)
        COMPUTERS_INLINE=False,
    )
    app.config.update(test_config)
    if app.config["PUBLIC_URL"]:
        app.config["PUBLIC_URL"] = checked_public_url(app.config["PUBLIC_URL"])
    app.json.sort_keys = False

    inline = app.config["COMPUTERS_INLINE"]
    run = (lambda work: work()) if inline else in_background
    play = app.extensions["play"] = Play.open(
        app.config["DATABASE_URL"],
        app.config["CONTENT"],
        app.config["GAMES"],
        app.config["CHANCE"],
        app.config["COMPUTER_PAUSE"],
        run,
    )
    run(play.computers.resume_all)  # a computer's turn a stopped server left undone
    app.extensions["events"] = Events(app.extensions["play"])
    from companion import api, guesses, headers, views

    guesses.configured(app)
    headers.configured(app)

    app.register_blueprint(api.bp)
    app.register_blueprint(views.bp)
    return app
