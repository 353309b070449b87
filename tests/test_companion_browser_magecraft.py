"""Magecraft on phones in real Chromium at 360 x 640 with touch, against the real server.

On the phones: Ada opens the table (and plays), Bo joins; the opening discards and the turns that
only refresh go through the API until the wizard to play holds a Fire and no Light. That wizard's
phone then taps Spellbook 1 (Meditation, a Light) and Cast: the server refuses, and the phone shows
its reason in the engine's words. Then Spellbook 2, its Fire paid by a tap, Cast: Magic Missile
strikes, and the other phone shows the rival's HP one lower within a second. The other phone never
shows the caster's hand. With printed gems: one phone runs the duel dashboard for two seats kept on
it (counts, the phase, the winner). The home page offers all five games. Screenshots, light and
dark, land in output/screenshots/."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from pnp.gamedef import games
from tests.support.browser import PHONE, in_the_dark, join, open_table, phone, shot, tokens
from tests.support.http import call, server

GAME = "magecraft"
WIDE = "() => document.documentElement.scrollWidth"  # wider than the phone: a sideways scroll


def dark(chromium, page, port: int, code: str, ready: str, name: str) -> None:
    """The same phone in the dark: its own context with the same storage (so the same seat)."""
    night = in_the_dark(chromium, page, f"http://127.0.0.1:{port}/t/{code}", lambda p: p.get_by_test_id(ready).first)
    shot(night, f"magecraft-{name}-dark")
    night.context.close()


def test_the_home_page_offers_all_five_games(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        page = phone(chromium)
        page.goto(f"http://127.0.0.1:{port}/")
        offered = page.locator("#game option").evaluate_all("options => options.map(o => o.value)")
        trackable = sorted(g.id for g in games().values() if g.tracker)
        assert len(trackable) == 5 and "magecraft" in trackable
        assert sorted(offered) == trackable


def test_two_phones_a_refusal_then_a_spell_whose_damage_reaches_the_other_phone(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        ada = phone(chromium)
        code = open_table(ada, port, GAME, "Ada", mode="phones")
        bo = phone(chromium)
        bo.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(bo, "Bo")
        ada.get_by_test_id("joined").filter(has_text="2 wizards: Ada, Bo").wait_for(timeout=3000)
        shot(ada, "magecraft-joining")
        ada.get_by_role("button", name="Start the game").click()
        ada.get_by_test_id("turn").filter(has_text="Opening hands").wait_for(timeout=3000)
        seats = {tokens(p, code)["player_id"]: (p, tokens(p, code)["token"]) for p in (ada, bo)}
        path = f"/api/tables/{code}"

        def seen(pid: str | None = None) -> dict:
            return call(port, "GET", path, token=seats[pid][1] if pid else None)[1]["state"]

        def do(pid: str, kind: str, **payload) -> dict:
            status, table = call(port, "POST", f"{path}/actions", {"type": kind, **payload}, seats[pid][1])
            assert status == 200, table
            return table["state"]

        # The first seat's opening discard by taps, the other's through the API.
        state = seen()
        first = next(p for p in state["players"] if p["to_discard"] == 2)
        page = seats[first["id"]][0]
        page.get_by_test_id("opening-hand").wait_for(timeout=3000)
        shot(page, "magecraft-opening")
        for _ in range(2):
            page.get_by_test_id("opening-hand").locator("button:enabled").first.click()
        page.get_by_role("button", name="Discard", exact=True).click()
        # the tap's move reaches the server before the script makes the other's: none is made twice
        give_up = time.monotonic() + 3
        while next(p for p in seen()["players"] if p["id"] == first["id"])["to_discard"]:
            assert time.monotonic() < give_up, "the tapped opening discard never reached the server"
            time.sleep(0.05)
        for p in seen()["players"]:
            if p["to_discard"]:
                hand = seen(p["id"])["hand"]
                do(p["id"], "opening_discard", gems=[next(c for c, n in hand.items() if n)] * p["to_discard"])
        # Turns that only refresh, until the wizard to play holds a Fire and no Light.
        for _ in range(60):
            state = seen()
            me = state["turn"]["player"]
            hand = seen(me)["hand"]
            if hand["fire"] and not hand["light"]:
                break
            do(me, "refresh")
        else:
            pytest.fail("no wizard held a Fire without a Light in 60 turns")
        caster, (other, _) = seats[me][0], next(v for k, v in seats.items() if k != me)
        rival = next(p for p in state["players"] if p["id"] != me)
        caster.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)
        name = next(p["name"] for p in state["players"] if p["id"] == me)
        other.get_by_test_id("turn").filter(has_text=f"{name}'s turn").wait_for(timeout=3000)

        # Spellbook 3 is Mana Tricks: where its Vanish gem comes from is asked (the hand first, else HP).
        caster.get_by_test_id(f"book-{me}-2").get_by_role("button", name="Cast this").click()
        vanish = caster.get_by_test_id("pay").get_by_label("Vanish gems from")
        assert vanish.locator("option").all_inner_texts() == [
            "your hand (empty: your HP Area)",
            "your hand only",
            "your HP Area",
        ]
        # Spellbook 1 is Meditation, paid with a Light: the hand has none, and the server says so.
        caster.get_by_test_id(f"book-{me}-0").get_by_role("button", name="Cast this").click()
        caster.get_by_test_id("pay").filter(has_text="Meditation").wait_for(timeout=3000)
        caster.get_by_role("button", name="Cast Meditation").click()
        expect(caster.locator("#act-error")).to_contain_text("Meditation needs Light", timeout=3000)
        expect(caster.locator("#act-error")).to_contain_text("your hand has no Light")
        shot(caster, "magecraft-refused")

        # Spellbook 2: Magic Missile, its Fire paid by a tap; the rival has no shield, so HP falls.
        assert rival["shield_total"] == 0
        hp = rival["hp_total"]
        expect(other.get_by_test_id(f"hp-{rival['id']}")).to_have_text(str(hp), timeout=3000)
        caster.locator("#act-error").click()  # a tap closes the refusal
        caster.get_by_test_id(f"book-{me}-1").get_by_role("button", name="Cast this").click()
        caster.get_by_test_id("pay").filter(has_text="Magic Missile").wait_for(timeout=3000)
        caster.get_by_test_id("pay").locator("[data-gem=fire]").first.click()
        expect(caster.get_by_test_id("slot-0")).to_have_attribute(
            "aria-label", "Slot 1: paid with Fire; tap to take it back"
        )
        shot(caster, "magecraft-paying")
        assert caster.evaluate(WIDE) <= PHONE["viewport"]["width"]
        caster.get_by_role("button", name="Cast Magic Missile").click()
        # the other phone shows the damage within a second (from its stream)
        expect(other.get_by_test_id(f"hp-{rival['id']}")).to_have_text(str(hp - 1), timeout=1000)
        expect(other.get_by_test_id(f"score-{me}")).to_have_text("1", timeout=1000)
        expect(other.get_by_test_id("last")).to_contain_text("cast Magic Missile")
        assert caster.locator("#act-error").inner_text() == ""
        after = seen(me)
        assert after["players"][[p["id"] for p in after["players"]].index(me)]["spellbooks"][1][0]["paid"] == ["fire"]
        # the caster's paid Fire sits on the card on both phones
        for page in (caster, other):
            expect(page.get_by_test_id(f"spell-{me}-1-0").locator(".mc-gem")).to_have_attribute("aria-label", "Fire")
        # the other phone shows no hand of the caster's: only how many gems it holds
        assert other.get_by_test_id("my-hand").locator("[data-gem]").count() == len(
            [c for c, n in seen(rival["id"])["hand"].items() for _ in range(n)]
        )
        shot(caster, "magecraft-cast")
        shot(other, "magecraft-other")
        dark(chromium, caster, port, code, "turn", "cast")
        dark(chromium, other, port, code, "turn", "other")

        # The Academy, and the history in words.
        other.get_by_test_id("jump-academy").click()
        other.get_by_test_id("academy").wait_for(timeout=3000)
        # our rulings, folded under the Academy, open on a tap and read as the content says, bold and all
        rulings = other.get_by_test_id("rulings")
        rulings.locator("summary").click()
        expect(rulings.locator("strong", has_text="each Attack")).to_be_visible()
        # a spell whose icons are not enough says the rest in words, wherever the Academy has one
        for spell_name, spell in seen(rival["id"])["spells"].items():
            dealt = other.get_by_test_id(f"academy-{spell_name}")
            if spell["text"] and dealt.count():
                expect(dealt).to_contain_text(spell["text"].replace("**", ""))
        shot(other, "magecraft-academy")
        other.get_by_test_id("jump-history").click()
        other.locator("#history li", has_text="cast Magic Missile").wait_for(timeout=3000)
        shot(other, "magecraft-history")
        # Refresh by a tap: the gems drawn are named only on the caster's phone; the other reads a count.
        caster.get_by_test_id("jump-boards").click()
        caster.get_by_role("button", name="Refresh: discard and draw 4, end the turn").click()
        other.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)
        drawn = next(
            e
            for e in reversed(call(port, "GET", f"{path}/history", token=seats[me][1])[1]["history"])
            if e["type"] == "refresh"
        )
        said = ", ".join(gem.capitalize() for gem in drawn["payload"]["drawn"])
        caster.get_by_test_id("jump-history").click()
        expect(caster.locator("#history li", has_text=f"{name}: refreshed").first).to_contain_text(
            f"drew {said}", timeout=3000
        )
        expect(other.locator("#history li", has_text=f"{name}: refreshed").first).to_contain_text(
            "drew 4 gems", timeout=3000
        )
        assert said not in other.locator("#history").inner_text()

        # To the end through the API (each wizard casts what its hand pays, then refreshes): the
        # winner and the defeated on both phones.
        for _ in range(400):
            state = seen()
            if state["phase"] != "playing":
                break
            me = state["turn"]["player"]
            for book in range(3):
                if call(port, "POST", f"{path}/actions", {"type": "cast", "spellbook": book}, seats[me][1])[0] == 200:
                    break
            if seen()["phase"] == "playing":
                do(me, "refresh")
        final = seen()
        assert final["phase"] == "over"
        winner = next(p["name"] for p in final["players"] if p["id"] == final["winner"])
        for page in (ada, bo):
            page.get_by_test_id("over").filter(has_text=f"{winner} wins").wait_for(timeout=3000)
        shot(ada, "magecraft-over")
        for page in (ada, bo):
            assert page.dialogs == []


def test_with_printed_gems_one_phone_runs_the_duel(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        host = phone(chromium)
        code = open_table(host, port, GAME, mode="gems")
        for name in ("Ada", "Bo"):
            host.fill("#seat-name", name)
            host.click("#seat-form button")
            host.get_by_test_id("joined").filter(has_text=name).wait_for(timeout=3000)
        host.get_by_role("button", name="Start the game").click()
        host.get_by_test_id("dashboard").wait_for(timeout=3000)
        state = call(port, "GET", f"/api/tables/{code}")[1]["state"]
        first, second = state["players"]
        # each seat's opening hand said for it
        expect(host.get_by_test_id(f"opening-{first['id']}")).to_have_text("Seat 1: opening hand draw 4, discard 2")
        expect(host.get_by_test_id(f"opening-{second['id']}")).to_have_text("Seat 2: opening hand draw 4, discard 1")
        expect(host.get_by_test_id("turn")).to_have_text(f"{first['name']}'s turn: Discard Shield")
        seat = host.get_by_test_id(f"seat-{second['id']}")
        seat.get_by_role("button", name=f"HP −1 for {second['name']}").click()
        expect(host.get_by_test_id(f"hp-{second['id']}")).to_have_text("11", timeout=3000)
        host.get_by_role("button", name=f"Score +1 for {first['name']}").click()
        expect(host.get_by_test_id(f"score-{first['id']}")).to_have_text("1", timeout=3000)
        host.get_by_role("button", name="Next phase").click()
        expect(host.get_by_test_id("turn")).to_have_text(f"{first['name']}'s turn: Casting", timeout=3000)
        shot(host, "magecraft-gems")
        assert host.evaluate(WIDE) <= PHONE["viewport"]["width"]
        dark(chromium, host, port, code, "dashboard", "gems")
        # a refusal in words: a shield holds no fewer than none
        host.get_by_role("button", name=f"Shield −1 for {first['name']}").click()
        expect(host.locator("#act-error")).to_contain_text("Shield Area holds 0 gems", timeout=3000)
        host.locator("#act-error").click()
        # to the end: the second seat's last HP taken by taps
        host_token = tokens(host, code)["host_token"]
        count = {"type": "count", "player": second["id"], "area": "hp", "change": -10}
        assert call(port, "POST", f"/api/tables/{code}/actions", count, host_token)[0] == 200
        expect(host.get_by_test_id(f"hp-{second['id']}")).to_have_text("1", timeout=3000)
        host.get_by_role("button", name=f"HP −1 for {second['name']}").click()
        host.get_by_test_id("over").filter(has_text=f"{first['name']} wins").wait_for(timeout=3000)
        expect(host.get_by_test_id(f"seat-{second['id']}")).to_contain_text("defeated")
        shot(host, "magecraft-gems-over")
        assert host.dialogs == []


def test_three_phones_a_target_chosen_learning_revision_and_the_bag_odds(chromium, tmp_path):
    """A table of three with the bag odds on: an Attack strikes the rival chosen on the phone (not
    the first in seat order), a spell learned from the Academy goes to the left of the spellbook
    tapped, and the next wizard revises: four gems discarded, a spell moved and one mastered."""
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        _, opened = call(port, "POST", "/api/tables", {"game": GAME, "options": {"mode": "phones", "bag_odds": True}})
        code, host = opened["code"], opened["host_token"]
        path = f"/api/tables/{code}"
        pages, seats = {}, {}
        for name in ("Ada", "Bo", "Cy"):
            page = phone(chromium)
            page.goto(f"http://127.0.0.1:{port}/t/{code}")
            join(page, name)
            pid = tokens(page, code)["player_id"]
            pages[pid], seats[pid] = page, tokens(page, code)["token"]
        assert call(port, "POST", f"{path}/actions", {"type": "start"}, host)[0] == 200

        def seen(pid: str | None = None) -> dict:
            return call(port, "GET", path, token=seats[pid] if pid else None)[1]["state"]

        def do(pid: str, kind: str, **payload) -> dict:
            status, table = call(port, "POST", f"{path}/actions", {"type": kind, **payload}, seats[pid])
            assert status == 200, table
            return table["state"]

        for p in seen()["players"]:
            if p["to_discard"]:
                hand = seen(p["id"])["hand"]
                do(p["id"], "opening_discard", gems=[c for c, n in hand.items() for _ in range(n)][: p["to_discard"]])
        # Refresh until the wizard to play holds a Fire and a Water (Magic Missile, then Minor Cure
        # learned) and the next holds the four gems a Revision discards (an opening hand may hold fewer).
        for _ in range(80):
            state = seen()
            me = state["turn"]["player"]
            hand = seen(me)["hand"]
            ids = [p["id"] for p in state["players"]]
            following = ids[(ids.index(me) + 1) % len(ids)]
            if hand["fire"] and hand["water"] and sum(seen(following)["hand"].values()) >= 4:
                break
            do(me, "refresh")
        else:
            pytest.fail("no wizard held a Fire and a Water in 80 turns")
        page = pages[me]
        order = [p["id"] for p in state["players"]]
        rivals = [pid for pid in order[order.index(me) + 1 :] + order[: order.index(me)]]
        struck, spared = rivals[1], rivals[0]  # the second rival, not the engine's first
        page.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)

        # The bag odds: what is left in the wizard's own bag, as the server counts it.
        bag = seen(me)["bag_contents"]
        odds = page.get_by_test_id("odds")
        expect(odds).to_contain_text(f"Left in your bag: {sum(bag.values())}")
        assert all(seen(pid)["bag_contents"] is not None for pid in order)
        assert seen()["bag_contents"] is None  # a follower sees no bag

        page.get_by_test_id(f"book-{me}-1").get_by_role("button", name="Cast this").click()
        page.get_by_test_id("pay").locator("[data-gem=fire]").first.click()
        target = page.get_by_test_id("pay").get_by_label("The Attack strikes")
        names = {p["id"]: p["name"] for p in state["players"]}
        target.select_option(struck)
        shot(page, "magecraft-target")
        page.get_by_role("button", name="Cast Magic Missile").click()
        expect(pages[struck].get_by_test_id(f"hp-{struck}")).to_have_text("11", timeout=1000)
        expect(pages[spared].get_by_test_id(f"hp-{spared}")).to_have_text("12")
        expect(page.get_by_test_id("last")).to_contain_text(f"{names[struck]}'s HP −1")

        # Learning: Minor Cure (its learn cost a Water), tapped in the Academy, to Spellbook 3's left.
        page.get_by_role("button", name="Learn a spell: choose it in the Academy").click()
        page.get_by_test_id("academy-Minor Cure").get_by_role("button", name="Learn").click()
        page.get_by_test_id("learn").get_by_role("button", name="Spellbook 3").click()
        page.get_by_test_id("turn").filter(has_text="Your turn: Learning or Revision").wait_for(timeout=3000)
        mine = next(p for p in seen()["players"] if p["id"] == me)
        assert [c["spell"] for c in mine["spellbooks"][2]] == ["Minor Cure", "Mana Tricks"]
        expect(page.get_by_test_id(f"spell-{me}-2-0")).to_contain_text("Minor Cure")
        page.get_by_role("button", name="Refresh: discard and draw 4, end the turn").click()
        expect(page.get_by_test_id("turn")).not_to_contain_text("Your turn", timeout=3000)  # the turn moved on

        # The next wizard revises: four gems, Meditation moved down to Spellbook 2, Magic Missile mastered.
        after = seen()["turn"]["player"]
        assert after == following
        reviser = pages[after]
        reviser.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)
        reviser.get_by_test_id("revise").locator("summary").click()
        for _ in range(4):
            reviser.get_by_test_id("revise-hand").locator("button:enabled").first.click()
        revise = reviser.get_by_test_id("revise")
        revise.locator(".mc-book").nth(0).get_by_role("button", name="▼").click()
        revise.locator(".mc-book").nth(1).locator(".mc-spell").filter(has_text="Magic Missile").get_by_role(
            "button", name="Master"
        ).click()
        shot(reviser, "magecraft-revise")
        assert reviser.evaluate(WIDE) <= PHONE["viewport"]["width"]
        revise.get_by_role("button", name="Revise", exact=True).click()
        reviser.get_by_test_id("turn").filter(has_text="Learning or Revision").wait_for(timeout=3000)
        books = next(p for p in seen()["players"] if p["id"] == after)["spellbooks"]
        assert [[c["spell"] for c in b] for b in books] == [[], ["Magic Missile", "Meditation"], ["Mana Tricks"]]
        assert books[1][0]["mastered"] and not books[1][1]["mastered"]
        expect(reviser.get_by_test_id(f"spell-{after}-1-0")).to_contain_text("Mastered")
        for p in pages.values():
            assert p.dialogs == []
