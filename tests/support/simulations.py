"""What each game's simulation tests check alike."""

from __future__ import annotations


def assert_seeded(book, play_games, figures) -> None:
    """The same seed plays the same games, and gives the same figures, in one worker process or
    two (pnp.sim.pool seeds game `i` by (seed, i) wherever it is played); another seed, others."""
    one = list(play_games(book, 3, 100, seed=7, workers=1))
    two = list(play_games(book, 3, 100, seed=7, workers=2))
    other = list(play_games(book, 3, 100, seed=8, workers=1))
    assert one == two
    assert figures(book, one, 3, 7) == figures(book, two, 3, 7)
    assert one != other
