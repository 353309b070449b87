"""The API's small helpers every companion test uses: a table opened and joined, a token as a
header, an error answer read, the whole history read page by page, the latest move undone as the
table page names it."""

from __future__ import annotations

from pnp.rules.table import HOST, RESERVED

GAME = "magic-spell"


def open_table(client, game=GAME, options=None):
    res = client.post("/api/tables", json={"game": game, "options": options or {}})
    assert res.status_code == 201, res.json
    return res.json


def join(client, code, name):
    res = client.post(f"/api/tables/{code}/players", json={"name": name})
    assert res.status_code == 201, res.json
    return res.json


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def whole_history(client, code, headers=None) -> list[dict]:
    """Every entry of the table's history, oldest first, read as a phone scrolls back: the newest
    page, then each `earlier` one."""
    path, entries, before = f"/api/tables/{code}/history", [], None
    while True:
        page = client.get(path if before is None else f"{path}?before={before}", headers=headers or {}).json
        entries[:0] = page["history"]
        before = page["earlier"]
        if before is None:
            return entries


def undo_latest(client, code, headers):
    """POST /undo as the table page does: naming the caller's latest move that stands in the
    history it reads (the host's: anyone's), else the newest entry (the server says why not)."""
    you = client.get(f"/api/tables/{code}", headers=headers).json["you"]
    history = client.get(f"/api/tables/{code}/history", headers=headers).json["history"]
    standing = [e for e in history if e["type"] not in RESERVED and not e["undone"]]
    mine = [e for e in standing if you["actor"] == HOST or e["actor"] == you["actor"]]
    seq = (mine or history)[-1]["seq"]
    return client.post(f"/api/tables/{code}/undo", json={"seq": seq}, headers=headers)


def error_of(res, status, field=None):
    assert res.status_code == status, (res.status_code, res.data[:300])
    assert res.is_json, res.data[:300]
    err = res.json["error"]
    assert err["status"] == status and err["reason"]
    if field is not None:
        assert err["field"] == field, err
    return err
