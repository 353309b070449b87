"""The history says what happened in words, in real Chromium. Every Magic Spell move type, with
each of its bodies' boolean choices either way, is written by the panel's describe as a sentence;
every game, every way of playing, is played from the moves its server offers (the move made least
so far first, now and then one taken back) and every entry its host is sent reads as a sentence of
the panel's or the table's own, never a raw type name, true/false or a JSON body; a semester's
history is read at 360 px (output/screenshots/history-magic-spell.png, to be looked at)."""

from __future__ import annotations

import random
import re
from collections import Counter

from companion import create_app
from pnp.games.magic_spell.tracker import TRACKER
from tests.support.browser import FIRST_LOAD_MS, phone, shot
from tests.support.http import HttpTable, call, free_port, server
from tests.support.legal import covering_options, random_table, ruled, way_of
from tests.support.phones import Phone

# what a sentence holds for a field it names (the rest of each body is left empty)
SAMPLE = {"spell": "verve", "by_card": "zenith", "delta": 1}
RAW = re.compile(r"_|\b(true|false|null|undefined|none|delta|in_play|by_card|woven|player)\b|[{}\[\]]", re.I)
# what no sentence of any game holds: a field's name, a yes/no or a body as the code spells them
RAW_ANY = re.compile(r"_|\b(true|false|null|undefined|NaN)\b|[{}\[\]]|object Object")
WALK = 60  # moves each table is played from its offers
TAKE_BACK_EVERY = 15  # the host takes back the latest move this often (an undo has its line too)


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
        "Bo gained a philosopher's stone",
        "Bo completed VERVE, a philosopher's stone in it (out of the game)",
        "Bo wove an ingredient into a spell",
        "Ada ended their turn",
        "Ada scrounged and kept it or put it back",
        "Host started the semester",
    ]
    page.get_by_test_id("jump-history").click()
    shot(page, "history-magic-spell")


def played(client) -> list[tuple[str, str, str, str]]:
    """A table of every way of playing every game, played from its offers: (game, way, code, host token)."""
    tables = []
    for game, rules in ruled().items():
        covering = covering_options(rules, random.Random(game), least=1)
        for options in {way_of(rules, options): options for options in covering}.values():  # one a way
            rng = random.Random(f"history {game} {options}")
            table = random_table(client, game, options, rng, made=Counter())
            for step in range(1, WALK + 1):
                if step % TAKE_BACK_EVERY == 0:
                    table.take_back()
                elif not table.step():
                    break
            tables.append((game, way_of(rules, options), table.code, table.host))
    return tables


def test_every_games_history_reads_in_words(chromium, tmp_path):
    database = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    config = {"TESTING": True, "DATABASE_URL": database, "INSTANCE_PATH": str(tmp_path), "CHANCE": random.Random(7)}
    app = create_app(config)  # its own SQLite file, which the real server then serves to Chromium
    tables = played(app.test_client())
    with server(database, tmp_path, port=free_port()) as port:
        for game, way, code, host in tables:
            page = Phone(chromium, port, code, {"host_token": host}, host).page
            page.wait_for_function("() => Spellpress.table", timeout=FIRST_LOAD_MS)
            entries = call(port, "GET", f"/api/tables/{code}/history?limit=500", token=host)[1]["history"]
            said = page.evaluate("(entries) => entries.map((e) => Spellpress.describe(e))", entries)
            lines = {f"{e['seq']} {e['type']} {e['payload']}": words for e, words in zip(entries, said, strict=True)}
            assert len({e["type"] for e in entries}) > 3, (game, way)  # the walk went beyond the joins
            assert [k for k, v in lines.items() if not v] == [], (game, way)  # every entry has its sentence
            assert {k: v for k, v in lines.items() if RAW_ANY.search(v)} == {}, (game, way)
            if page.get_by_test_id("jump-history").count():
                page.get_by_test_id("jump-history").click()
            shown = page.locator("#history li").all_inner_texts()
            assert shown and not [line for line in shown if RAW_ANY.search(line) or "made a move" in line], (game, way)
            page.context.close()
