"""Merchants of Magick's rules as pure functions over plain values (no content models, no
drawing), so the printed sheet's checks, the balance simulation and the companion share them."""

from __future__ import annotations


def meets(side: str, result: int, threshold: int) -> bool:
    """Whether a result may mark a circle: crafting needs at least its number, research at most."""
    return result >= threshold if side == "crafting" else result <= threshold


def potions_needed(side: str, result: int, threshold: int) -> int:
    """The fewest potions (each moves a result by one) that let `result` mark the circle."""
    gap = threshold - result if side == "crafting" else result - threshold
    return max(0, gap)


def orders_per_player(dealt: list[tuple[tuple[int, int], int]], players: int) -> int:
    """How many orders each shoppe holds at this player count: ((from, to), orders) bands."""
    for (low, high), orders in dealt:
        if low <= players <= high:
            return orders
    raise ValueError(f"no order count for {players} players")
