"""Who won and in what place: a game's totals ranked, ties sharing a place (a game's end, an
event's leaderboard)."""

from __future__ import annotations

from collections.abc import Mapping


def top_scorers(totals: Mapping[str, float]) -> list[str]:
    """Everyone with the highest total, in the totals' order: a tie shares the win."""
    best = max(totals.values(), default=None)
    return [who for who, total in totals.items() if total == best]


def places(keys: list[tuple]) -> list[list[int]]:
    """Indexes of `keys` by place, best (highest key) first; equal keys share a place."""
    ranked: list[list[int]] = []
    for p in sorted(range(len(keys)), key=lambda p: keys[p], reverse=True):
        if ranked and keys[ranked[-1][0]] == keys[p]:
            ranked[-1].append(p)
        else:
            ranked.append([p])
    return ranked


def numbered_places(keys: list[tuple]) -> list[tuple[int, int]]:
    """(place, index) best first, as a tournament numbers them: two sharing 1st, the next is 3rd."""
    numbered, place = [], 1
    for group in places(keys):
        numbered += [(place, p) for p in group]
        place += len(group)
    return numbered
