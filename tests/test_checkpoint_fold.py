"""A checkpoint and the entries after it fold to the whole log's state, in every game the companion
tracks (companion.moves keeps one every CHECKPOINT_EVERY entries): after a seeded random game of
offered moves with undos mixed in, at tables covering every way of playing and option of each game
(tests/support/legal.py: covering_options), the state at any entry, kept as the database keeps it
(through JSON), extended by the entries after it equals the state of the whole log; and one that
an undo after it reaches back into is refused (None, the server then folds from further back),
never folded wrong."""

from __future__ import annotations

import json
import random
from contextlib import suppress

import pytest

from pnp.rules.table import HOST, UNDO, Refused, Table, extend, replay
from tests.support.legal import covering_options, ruled, way_of
from tests.support.tracked import TrackedTable, content_of

MOVES = 60  # moves a game makes, the undone ones among them
TAKEN_BACK = 0.25  # the share of moves their maker takes back straight away (when the rules let them)
TABLES = [
    pytest.param(game_id, options, n, id="-".join(filter(None, (game_id, way_of(rules, options), str(n)))))
    for game_id, rules in ruled().items()
    for n, options in enumerate(covering_options(rules, random.Random(game_id)))
]


def played(game_id: str, options: dict, seed: int) -> TrackedTable:
    """A random game of offered moves (tests/support/tracked.py) between as many players as the
    seed deals, some moves taken back by their maker and a game over by the host (it goes on), so
    every game's log holds undos, whatever it draws and however soon it could end."""
    rules, rng = ruled()[game_id], random.Random(f"{game_id} {seed}")
    fewest, most = rules.seats(rules.Options(**options))
    players = [f"p{n}" for n in range(1, rng.randint(fewest, min(most, 4)) + 1)]
    table = TrackedTable(rules, content_of(game_id), players, seed, **options)
    for _ in range(MOVES):
        actor = table.offered_move(rng)
        if actor is None:  # no one has a move: the game is over, and the host takes back its end
            try:
                table.undo(HOST)
            except Refused:  # its last move was a draw, never taken back: over it stays
                break
        elif rng.random() < TAKEN_BACK:
            with suppress(Refused):  # a draw is never taken back, nor a move later ones depend on
                table.undo(actor)
    return table


@pytest.mark.parametrize(("game_id", "options", "seed"), TABLES)
def test_a_checkpoint_and_the_entries_after_it_fold_to_the_whole_logs_state(game_id, options, seed):
    table = played(game_id, options, seed)
    tracker, content, log = table.tracker, table.content, table.log
    whole = replay(tracker, content, table.options, log).state
    assert whole == table.state  # the moves made one by one, and the undos, are the log's fold
    undone = [e.payload["seq"] for e in log if e.type == UNDO]
    assert len(undone) >= 3, undone
    folded = refused = 0
    for seq in sorted({*range(0, len(log) + 1, 5), *undone}):  # a checkpoint at entry `seq`
        kept = json.loads(json.dumps(replay(tracker, content, table.options, log[:seq]).state))
        after = extend(tracker, content, Table(kept, ()), log[seq:], seq)
        if any(e.type == UNDO and e.payload["seq"] <= seq for e in log[seq:]):
            assert after is None, seq
            refused += 1
        else:
            assert after is not None and after.state == whole, seq
            folded += 1
    assert folded and refused
