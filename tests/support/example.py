"""The tests' example game (tests/example_game/) told to the companion as `companion serve` is told
of a game kept outside pnp.games: by the environment (its package, content folder and panel's
folder), in this process and in a server's it starts."""

from __future__ import annotations

from pathlib import Path

from companion import GAME_PANELS_VARIABLE, GAMES_VARIABLE

EXAMPLE = Path(__file__).resolve().parents[1] / "example_game"
CONTENT_ROOT, TEMPLATES_ROOT, PANELS = EXAMPLE / "content", EXAMPLE / "templates", EXAMPLE / "panel"


def tell_the_companion(monkeypatch) -> None:
    monkeypatch.setenv(GAMES_VARIABLE, "tests.example_game")
    monkeypatch.setenv(GAME_PANELS_VARIABLE, str(PANELS))
    monkeypatch.setenv("SPELLPRESS_CONTENT", str(CONTENT_ROOT))
    monkeypatch.setenv("PYTHONPATH", str(EXAMPLE.parents[1]))  # a server's workers import tests.example_game
