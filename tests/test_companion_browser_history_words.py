"""The history says what happened in words, in real Chromium: every Magic Spell move type, with each
of its bodies' boolean choices either way, is written by the panel's describe as a sentence, never
a raw type name, a field name, true/false or a JSON body; and a semester's history read at 360 px
(output/screenshots/history-magic-spell.png, to be looked at)."""

from __future__ import annotations

import re

from pnp.games.magic_spell.tracker import TRACKER
from tests.support.browser import FIRST_LOAD_MS, phone, shot
from tests.support.http import HttpTable

# what a sentence holds for a field it names (the rest of each body is left empty)
SAMPLE = {"spell": "verve", "by_card": "zenith", "delta": 1}
RAW = re.compile(r"_|\b(true|false|null|undefined|none|delta|in_play|by_card|woven|player)\b|[{}\[\]]", re.I)


def bodies(type_: str, to: str) -> list[dict]:
    """A body of `type_` for each value of each of its boolean fields, and the sign of `delta`;
    `to` the student a spell is given to, or who goes first."""
    fields = TRACKER.actions[type_].model_fields
    base = {name: {**SAMPLE, "to": to, "first": to}[name] for name in fields if name in {*SAMPLE, "to", "first"}}
    made = [base]
    for name, field in fields.items():
        if field.annotation is bool:
            made += [{**body, name: True} for body in made]
        if name == "delta":
            made += [{**body, "delta": -2} for body in made]
    return made


def test_every_magic_spell_move_is_a_sentence(chromium, live):
    table = HttpTable(live, "magic-spell", {}, ("Ada", "Bo"))
    page = phone(chromium)
    page.goto(f"http://127.0.0.1:{live}/t/{table.code}")
    page.locator("#history li").first.wait_for(state="attached", timeout=FIRST_LOAD_MS)
    ada, bo = table.tokens
    entries = [{"type": type_, "payload": body} for type_ in TRACKER.moves for body in bodies(type_, bo)]
    said = page.evaluate(
        """(entries) => entries.map((e) => window.SpellpressGames["magic-spell"].describe(e, Spellpress.table))""",
        entries,
    )
    lines = dict(zip((f"{e['type']} {e['payload']}" for e in entries), said, strict=True))
    assert all(lines.values()), [k for k, v in lines.items() if not v]  # every move type has its sentence
    assert {k: v for k, v in lines.items() if RAW.search(v)} == {}
    assert lines[f"give_spell {{'spell': 'verve', 'to': '{bo}'}}"] == "gave VERVE to Bo"
    assert lines["stone {'delta': -2}"] != lines["stone {'delta': -2, 'in_play': True}"]


def test_a_semesters_history_reads_in_words_at_360_px(chromium, live):
    table = HttpTable(live, "magic-spell", {}, ("Ada", "Bo"))
    ada, bo = table.tokens
    table.ok("host", "start", first=ada)
    table.ok(ada, "scrounge")
    table.ok(ada, "end_turn")
    table.ok(bo, "weave")
    table.ok(bo, "complete_spell", spell="verve", stone=True)
    table.ok(bo, "stone", delta=1)
    page = phone(chromium)
    page.goto(f"http://127.0.0.1:{live}/t/{table.code}")
    page.locator("#history li", has_text="completed VERVE").wait_for(state="attached", timeout=FIRST_LOAD_MS)
    lines = page.locator("#history li").all_inner_texts()
    assert lines[:6] == [
        "Bo: gained a philosopher's stone",
        "Bo: completed VERVE, a philosopher's stone in it (out of the game)",
        "Bo: wove an ingredient into a spell",
        "Ada: ended their turn",
        "Ada: scrounged and kept it or put it back",
        "Host: started the semester",
    ]
    page.get_by_test_id("jump-history").click()
    shot(page, "history-magic-spell")
