"""Every number a move carries is bounded by what the game can hold (issue 34): beyond any table's
holding, the body is malformed (422, as the OpenAPI document's bounds say); within the body's
bounds but beyond this table's, the rules refuse it (409) and nothing changes. A Magecraft table
with printed gems once ended on a score of 10**30; Spellcycles took an essence change of -10**30."""

from __future__ import annotations

import pytest

from tests.support.api import error_of
from tests.support.inprocess import ApiTable

HUGE = 10**30


def player(table: ApiTable, pid: str) -> dict:
    return next(p for p in table.state()["players"] if p["id"] == pid)


@pytest.mark.parametrize("area", ["hp", "shield", "score"])
def test_a_magecraft_count_beyond_any_board_is_malformed_and_beyond_this_one_refused(client, area):
    table = ApiTable(client, "magecraft", ("Ada", "Bo"), {"mode": "gems"})
    table.start()
    before = table.state()
    for change in (HUGE, -HUGE, 100, -100):
        error_of(table.act("host", "count", player=table.players[0], area=area, change=change), 422, "change")
    held = player(table, table.players[0])[area]
    most = {"hp": 12, "shield": 99, "score": 20}[area]  # the rules' HP (3 of each of 4 colours) and Score
    over = table.act("host", "count", player=table.players[0], area=area, change=most - held + 1)
    assert over.status_code == (422 if area == "shield" else 409), over.json  # a Shield Area: any board's most
    assert table.reason("host", "count", player=table.players[0], area=area, change=-held - 1)
    assert table.state() == before
    offered = [o for o in table.offers("host", "count") if o["payload"] == {"player": table.players[0], "area": area}]
    assert offered[0]["pick"] == [{"field": "change", "range": [-held, most - held]}]  # what the server takes
    table.ok("host", "count", player=table.players[0], area=area, change=most - held)  # the most it holds


def test_a_spellcycles_essence_change_beyond_any_pool_is_malformed_and_beyond_any_wizard_refused(client):
    table = ApiTable(client, "spellcycles", ("Ada", "Bo"), {"mode": "pieces"})
    table.start()
    wizard = table.players[0]
    for change in (HUGE, -HUGE, 201, -201):
        error_of(table.act("host", "essence", wizard=wizard, change=change), 422, "change")
    table.ok("host", "essence", wizard=wizard, change=5)  # so the most it may gain is within the body's bounds
    before = table.state()
    held = next(p for p in before["players"] if p["id"] == wizard)["essence"]
    assert "essence" in table.reason("host", "essence", wizard=wizard, change=-held - 1)
    assert "essence" in table.reason("host", "essence", wizard=wizard, change=200 - held + 1)
    assert table.state() == before
