"""A figure's spread over many games (median and quartiles), and how a summary reads it."""

from __future__ import annotations

from statistics import median, quantiles


def spread(values: list[float]) -> dict:
    """{"median": ..., "quartiles": [lower, upper]} of `values` (one value is all three)."""
    q = quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return {"median": median(values), "quartiles": [q[0], q[2]]}


def spread_text(figure: dict, unit: str = "") -> str:
    """A spread as a summary prints it: "median 44 turns, quartiles 33-57"."""
    low, high = figure["quartiles"]
    return f"median {figure['median']:g}{unit}, quartiles {low:g}-{high:g}"


def first_seat_text(wins: float, players: int) -> str:
    """How often the first seat wins, beside a fair share of the games: the seat order's advantage."""
    return f"first player wins: {wins:.1%} (a fair share is {1 / players:.1%})"
