"""A checkpoint and the entries after it fold to the whole log's state, in every game the companion
tracks (companion.play keeps one every CHECKPOINT_EVERY entries): after a game played with undos,
the state at any entry, kept as the database keeps it (through JSON), extended by the entries
after it equals the state of the whole log; and one that an undo after it reaches back into is
refused (None, the server then folds from further back), never folded wrong."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game, games
from pnp.paths import CONTENT
from pnp.rules.table import HOST, RESERVED, UNDO, Entry, Refused, Table, extend, replay, undo_target
from tests import test_magecraft_tracker, test_spellcycles_tracker
from tests.support.tracked import TrackedTable


def tracked(game_id: str, players: list[str], **options) -> TrackedTable:
    return TrackedTable(game(game_id).load("tracker"), load_game(game(game_id), [CONTENT]), players, **options)


def magic_spell() -> TrackedTable:
    table = tracked("magic-spell", ["ann", "bo"])
    table.do(HOST, "start")
    for _ in range(12):
        table.do(table.turn, "rest")
        table.do(table.turn, "end_turn")
    return table


def spells_and_potions() -> TrackedTable:
    table = tracked("spells-and-potions", ["a", "b", "c", "d"])
    table.do(HOST, "start")
    for duel in range(2):
        for n in range(13):
            table.do("a", "trick", team=(n + duel) % 2)
        table.do("a", "end_duel")
    return table


def merchants() -> TrackedTable:
    table = tracked("merchants-of-magick", ["a", "b"])  # both sheets on paper
    table.do(HOST, "start")
    for round_ in (1, 2, 3):
        table.do(HOST, "roll", round=round_)
        for phase in table.view(HOST)["round_phases"]:
            for player in ("a", "b"):
                table.do(player, "ready", phase=phase)
            table.do(HOST, "advance", phase=phase)
    return table


def spellcycles() -> TrackedTable:
    table = test_spellcycles_tracker.started(mode="phones")
    rng = random.Random(5)
    for _ in range(12):
        test_spellcycles_tracker.play_turn(table, rng, lambda t: None)
    return table


def magecraft() -> TrackedTable:
    table = test_magecraft_tracker.started(("a", "b"), 1)
    test_magecraft_tracker.opening(table, lambda t: None)
    rng = random.Random(1)
    for _ in range(12):
        test_magecraft_tracker.play_turn(table, rng, lambda t: None)
    return table


PLAYED = {
    "magecraft": magecraft,
    "magic-spell": magic_spell,
    "merchants-of-magick": merchants,
    "spellcycles": spellcycles,
    "spells-and-potions": spells_and_potions,
}


def with_undos(table: TrackedTable, every: int = 4) -> list[Entry]:
    """The table's log with, after every `every`th move that may be taken back, its undo and the
    same move again: the game goes on as it went, its log now holding undos."""
    assert not any(e.type == UNDO for e in table.log)
    log: list[Entry] = []
    for n, entry in enumerate(table.log):
        log.append(replace(entry, seq=len(log) + 1))
        if n % every or entry.type in RESERVED:
            continue
        try:
            target = undo_target(table.tracker, table.content, table.options, log, entry.actor)
        except Refused:
            continue
        if target.seq == log[-1].seq:
            log.append(Entry(len(log) + 1, entry.actor, UNDO, {"seq": target.seq}))
            log.append(replace(entry, seq=len(log) + 1))
    return log


def test_every_game_the_companion_tracks_has_a_played_game_here():
    assert set(PLAYED) == {gid for gid, g in games().items() if g.tracker}


@pytest.mark.parametrize("game_id", sorted(PLAYED))
def test_a_checkpoint_and_the_entries_after_it_fold_to_the_whole_logs_state(game_id):
    table = PLAYED[game_id]()
    tracker, content, options = table.tracker, table.content, table.options
    log = with_undos(table)
    whole = replay(tracker, content, options, log).state
    assert whole == table.state  # the undos and their moves again leave the game as it went
    undone = [e.payload["seq"] for e in log if e.type == UNDO]
    assert len(undone) >= 3
    folded = refused = 0
    for seq in sorted({*range(0, len(log) + 1, 5), *undone}):  # a checkpoint at entry `seq`
        kept = json.loads(json.dumps(replay(tracker, content, options, log[:seq]).state))
        after = extend(tracker, content, Table(kept, ()), log[seq:], seq)
        if any(e.type == UNDO and e.payload["seq"] <= seq for e in log[seq:]):
            assert after is None, seq
            refused += 1
        else:
            assert after is not None and after.state == whole, seq
            folded += 1
    assert folded and refused
