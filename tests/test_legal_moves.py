"""Every game played from the moves the server offers, on SQLite and PostgreSQL: from seeded
chance, random games in which each caller (a phone, the host, the host playing a seat without a
phone) takes only moves offered to it run to their end. Every offered move is accepted; moves not
offered are refused with a reason and change nothing; no answer is a 5xx; and replaying the stored
log afresh gives the state the server kept."""

from __future__ import annotations

import random

import pytest

from tests.support.legal import options_of, random_table, ruled

RULED = list(ruled())
MOST_STEPS = 1500  # moves a random game may take before it must be over
# Two games a game on SQLite, and one on PostgreSQL: what the rules accept is the same on both; what
# PostgreSQL adds (its transactions, its JSON) one game a game shows.
RUNS = [("sqlite", 1), ("sqlite", 2), ("postgresql", 1)]


@pytest.mark.parametrize(("database_url", "seed"), RUNS, indirect=["database_url"])
@pytest.mark.parametrize("game_id", RULED)
def test_a_random_game_of_offered_moves_is_accepted_to_its_end(client, game_id, seed):
    rng = random.Random(f"{game_id} {seed}")
    tracker = client.application.extensions["play"].tracker(game_id)
    options = options_of(tracker.Options, rng)
    table = random_table(client, game_id, options, rng)
    while table.steps < MOST_STEPS and table.step():
        pass
    state = table.state()
    assert state["phase"] == "over", (table.steps, options)
    assert table.refused, "no move that was not offered was tried"
    assert table.replayed_afresh() == state
