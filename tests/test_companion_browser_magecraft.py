"""Magecraft on phones in real Chromium at 360 x 640 with touch, against the real server (its chance
seeded: every run deals the same gems).

On the phones: Ada opens the table (and plays), Bo joins; the lobby starts it; the first seat's
opening discard is tapped. On the first turn the caster's phone shows a Cast for each spellbook
whose next spell the hand pays, and nothing else (the issue's "Cast this (hand short)"), and a
Learn only on the Academy spells it can pay; an Attack cast by a tap reaches the other phone
within a second. Each page is at most two screens tall. With four wizards the host plays their own
seat and a seat without a phone: an Attack at the rival chosen, a spell learned into the spellbook
tapped, a Revision. With printed gems: one phone runs the duel dashboard for two seats kept on it.
The home page offers all five games. Screenshots, light and dark, land in output/screenshots/."""

from __future__ import annotations

import json
import random

from playwright.sync_api import expect

from pnp.gamedef import games
from pnp.rules.offers import sample
from tests.support.browser import FIRST_LOAD_MS, PHONE, in_the_dark, join, open_table, phone, shot, tokens
from tests.support.http import call, server

GAME = "magecraft"
WIDE = "() => document.documentElement.scrollWidth"  # wider than the phone: a sideways scroll
TALL = "() => document.documentElement.scrollHeight"
SHORT = 2 * PHONE["viewport"]["height"]  # the short page: two screens at most
KY_TURNS = 2


def dark(chromium, page, port: int, code: str, ready: str, name: str) -> None:
    """The same phone in the dark: its own context with the same storage (so the same seat)."""
    night = in_the_dark(chromium, page, f"http://127.0.0.1:{port}/t/{code}", lambda p: p.get_by_test_id(ready).first)
    shot(night, f"magecraft-{name}-dark")
    night.context.close()


class Seats:
    """The table over the API: each seat's token and `?as=` (the host's for a seat without a phone)."""

    def __init__(self, port: int, code: str):
        self.port, self.path = port, f"/api/tables/{code}"
        self.calls: dict[str, tuple[str, str]] = {}  # player id -> (token, query)

    def seen(self, pid: str | None = None) -> dict:
        token, query = self.calls[pid] if pid else (None, "")
        status, table = call(self.port, "GET", self.path + query, token=token)
        assert status == 200, table
        return table

    def do(self, pid: str, type_: str, **payload) -> dict:
        token, query = self.calls[pid]
        status, table = call(self.port, "POST", f"{self.path}/actions{query}", {"type": type_, **payload}, token)
        assert status == 200, table
        return table["state"]

    def discard_openings(self) -> None:
        for p in self.seen()["state"]["players"]:
            if p["to_discard"]:
                hand = self.seen(p["id"])["state"]["hand"]
                self.do(
                    p["id"], "opening_discard", gems=[c for c, n in hand.items() for _ in range(n)][: p["to_discard"]]
                )

    def refresh_until(self, pid: str) -> None:
        """Each wizard before `pid` refreshes (a whole turn in one move) until it is `pid`'s turn."""
        for _ in range(len(self.calls)):
            turn = self.seen()["state"]["turn"]["player"]
            if turn == pid:
                return
            self.do(turn, "refresh")
        raise AssertionError(f"never {pid}'s turn")

    def to_the_end(self, rng: random.Random) -> dict:
        """Each wizard casts the first spell offered, else refreshes, until the game ends."""
        for _ in range(600):
            state = self.seen()["state"]
            if state["phase"] != "playing":
                return state
            turn = state["turn"]["player"] if state["turn"] else None
            mover = turn or next(p["id"] for p in state["players"] if p["to_discard"])
            moves = self.seen(mover)["moves"]
            made = next((m for m in moves if m["type"] in ("opening_discard", "resolve", "cast")), None)
            made = made or next(m for m in moves if m["type"] == "refresh")
            self.do(mover, made["type"], **sample(made, rng))
        raise AssertionError("the game did not end")


def resolve_all(page, seats: Seats, pid: str) -> None:
    """Tap Resolve on the first icon still waiting, as its choices stand on the phone, until none waits."""
    for _ in range(12):
        table = seats.seen(pid)
        turn = table["state"]["turn"]
        if not turn or not turn["resolving"]:
            return
        page.get_by_test_id("resolving").get_by_role("button", name="Resolve").first.click()
        page.wait_for_function(f"() => Spellpress.table.seq > {table['seq']}", timeout=3000)
    raise AssertionError("the icons never all resolved")


def a_phone(chromium, port: int, code: str, kept: dict):
    """A phone holding `kept` as its storage for the table (a seat's token, the host's)."""
    page = phone(chromium)
    page.add_init_script(f"localStorage.setItem('spellpress:{code}', {json.dumps(json.dumps(kept))})")
    page.goto(f"http://127.0.0.1:{port}/t/{code}")
    return page


def test_the_home_page_offers_all_five_games(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        page = phone(chromium)
        page.goto(f"http://127.0.0.1:{port}/")
        offered = page.locator("#game option").evaluate_all("options => options.map(o => o.value)")
        trackable = sorted(g.id for g in games().values() if g.tracker)
        assert len(trackable) == 5 and "magecraft" in trackable
        assert sorted(offered) == trackable


def test_two_phones_cast_only_what_the_hand_pays_and_the_damage_reaches_the_other(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        ada = phone(chromium)
        code = open_table(ada, port, GAME, "Ada", mode="phones")
        bo = phone(chromium)
        bo.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(bo, "Bo")
        ada.get_by_test_id("lobby-names").filter(has_text="Ada, Bo").wait_for(timeout=3000)
        expect(ada.get_by_test_id("mode")).to_have_text(
            "Everything on the phones: the server keeps every bag and hand."
        )
        shot(ada, "magecraft-joining")
        assert ada.locator("#game button").count() == 0  # Start is the lobby's
        ada.locator("#lobby").get_by_role("button", name="Start the game").click()
        ada.get_by_test_id("turn").filter(has_text="Opening hands").wait_for(timeout=3000)
        pages = {tokens(p, code)["player_id"]: p for p in (ada, bo)}
        seats = Seats(port, code)
        seats.calls = {pid: (tokens(p, code)["token"], "") for pid, p in pages.items()}

        # The first seat's opening discard by taps, the other's through the API.
        first = next(p for p in seats.seen()["state"]["players"] if p["to_discard"] == 2)
        page = pages[first["id"]]
        page.get_by_test_id("opening-hand").wait_for(timeout=3000)
        shot(page, "magecraft-opening")
        for _ in range(2):
            page.get_by_test_id("opening-hand").locator("button:enabled").first.click()
        page.get_by_role("button", name="Discard", exact=True).click()
        expect(page.get_by_test_id("opening-hand")).to_have_count(0, timeout=3000)  # discarded before the API's
        seats.discard_openings()

        # The first turn: a Cast for each spellbook whose next spell the hand pays, and only those.
        table = seats.seen(seats.seen()["state"]["turn"]["player"])
        me, state = table["state"]["turn"]["player"], table["state"]
        caster, other = pages[me], next(p for pid, p in pages.items() if pid != me)
        rival = next(p for p in state["players"] if p["id"] != me)
        caster.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)
        casts = [m for m in table["moves"] if m["type"] == "cast"]
        shown = caster.locator("[data-testid^=cast-]").evaluate_all("rows => rows.map(r => r.dataset.testid)")
        assert shown == [f"cast-{m['payload']['spellbook']}" for m in casts]
        assert "hand short" not in caster.locator("#game").inner_text()
        assert caster.evaluate(TALL) <= SHORT and other.evaluate(TALL) <= SHORT
        shot(caster, "magecraft-turn")
        # Learn only on the Academy spells the hand pays (the issue: every Learn was refused)
        caster.get_by_test_id("jump-academy").click()
        learnable = [o["value"] for m in table["moves"] if m["type"] == "learn" for o in m["pick"][0]["one_of"]]
        learn = caster.get_by_test_id("academy").get_by_role("button", name="Learn")
        assert learn.count() == len(learnable)
        for name in learnable:
            expect(caster.get_by_test_id(f"academy-{name}").get_by_role("button", name="Learn")).to_be_visible()
        shot(caster, "magecraft-academy")
        caster.get_by_test_id("jump-turn").click()

        hand = table["state"]["hand"]
        # Magic Missile (Spellbook 2) costs a Fire: offered exactly when the hand holds one
        assert ("Magic Missile" in [m["label"] for m in casts]) == bool(hand["fire"])

        # The first spell offered, by a tap: the gems its Draws drew are named only on the caster's phone.
        first_cast = casts[0]
        caster.get_by_test_id(f"cast-{first_cast['payload']['spellbook']}").get_by_role("button", name="Cast").click()
        expect(other.get_by_test_id("last")).to_contain_text(f"cast {first_cast['label']}", timeout=1000)
        # its icons wait, each resolved by a tap, in the order the caster takes them (Meditation: two Draws)
        expect(caster.get_by_test_id("resolving")).to_contain_text(f"{first_cast['label']}: resolve its icons")
        assert not caster.get_by_role("button", name="Refresh: end the turn").count()  # nothing else till they are
        resolve_all(caster, seats, me)
        assert caster.locator("#act-error").inner_text() == ""
        name = next(p["name"] for p in state["players"] if p["id"] == me)
        history = call(port, "GET", f"{seats.path}/history", token=seats.calls[me][0])[1]["history"]
        drawn = history[-1]["payload"]["drawn"]
        assert history[-1]["type"] == "resolve" and drawn
        said = ", ".join(gem.capitalize() for gem in drawn)
        for page in (caster, other):
            page.get_by_test_id("jump-history").click()
        expect(caster.locator("#history li", has_text=f"{name} resolved").first).to_contain_text(
            f"drew {said}", timeout=3000
        )
        expect(other.locator("#history li", has_text=f"{name} resolved").first).to_contain_text(
            "drew 1 gem", timeout=3000
        )
        assert said not in other.locator("#history").inner_text()
        shot(other, "magecraft-history")
        for page in (caster, other):
            page.get_by_test_id("jump-turn").click()
        caster.get_by_role("button", name="Refresh: end the turn").click()
        other.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)

        # The seed's third turn offers Magic Missile: an Attack by a tap, and the rival has no
        # shield, so their HP falls on the other phone within a second.
        seats.do(seats.seen()["state"]["turn"]["player"], "refresh")
        table = seats.seen(seats.seen()["state"]["turn"]["player"])
        me, state = table["state"]["turn"]["player"], table["state"]
        caster, other = pages[me], next(p for pid, p in pages.items() if pid != me)
        rival = next(p for p in state["players"] if p["id"] != me)
        attack = next(m for m in table["moves"] if m["type"] == "cast" and m["label"] == "Magic Missile")
        caster.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)
        hp = rival["hp_total"]
        assert rival["shield_total"] == 0
        other.get_by_test_id("jump-boards").click()  # the rival's own board among the boards
        expect(other.get_by_test_id(f"hp-{rival['id']}")).to_have_text(str(hp), timeout=3000)
        caster.get_by_test_id(f"cast-{attack['payload']['spellbook']}").get_by_role("button", name="Cast").click()
        # the Attack's choices: the rival, and the colour of the HP gem it takes (the printed symbols)
        colours = caster.get_by_test_id("resolve-attack-colour")
        colours.wait_for(timeout=3000)
        symbols = {g["id"]: g["symbol"] for g in state["gems"]}
        for button in colours.locator("button").all():
            colour = button.get_attribute("data-value")
            assert button.locator("svg path").get_attribute("d") == symbols[colour]
        shot(caster, "magecraft-resolve")
        assert caster.evaluate(WIDE) <= PHONE["viewport"]["width"]
        taken = colours.locator("button").last
        colour = taken.get_attribute("data-value")
        taken.click()
        caster.get_by_test_id("resolve-attack").get_by_role("button", name="Resolve").click()
        expect(other.get_by_test_id(f"hp-{rival['id']}")).to_have_text(str(hp - 1), timeout=1000)
        assert seats.seen()["state"]["last"]["changes"][rival["id"]] == {"hp": {colour: -1}}  # the gem chosen
        expect(other.get_by_test_id(f"spell-{me}-1-0").locator(".mc-gem").first).to_have_attribute("aria-label", "Fire")
        assert other.evaluate(TALL) <= SHORT
        shot(other, "magecraft-boards")
        other.get_by_test_id("jump-turn").click()
        expect(other.get_by_test_id("last-cast")).to_contain_text("cast Magic Missile")
        assert caster.locator("#act-error").inner_text() == ""
        assert caster.evaluate(WIDE) <= PHONE["viewport"]["width"]
        # the other phone shows no hand but its own
        assert other.get_by_test_id("my-hand").locator("[data-gem]").count() == sum(
            seats.seen(rival["id"])["state"]["hand"].values()
        )
        shot(caster, "magecraft-cast")
        shot(other, "magecraft-other")
        dark(chromium, caster, port, code, "turn", "cast")
        dark(chromium, other, port, code, "turn", "other")
        # our rulings, folded under the turn, open on a tap and read as the content says, bold and all
        rulings = other.get_by_test_id("rulings")
        rulings.locator("summary").click()
        expect(rulings.locator("strong", has_text="each Attack")).to_be_visible()

        # To the end through the API: the winner and the defeated on both phones.
        final = seats.to_the_end(random.Random(1))
        winner = next(p["name"] for p in final["players"] if p["id"] == final["winner"])
        for page in (ada, bo):
            page.get_by_test_id("jump-turn").click()
            page.get_by_test_id("over").filter(has_text=f"{winner} wins").wait_for(timeout=3000)
        shot(ada, "magecraft-over")
        for page in (ada, bo):
            assert page.dialogs == []


def test_with_printed_gems_one_phone_runs_the_duel(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        host = phone(chromium)
        code = open_table(host, port, GAME, mode="gems")
        for name in ("Ada", "Bo", "Cy", "Di"):  # four seats kept on the host's phone
            host.fill("#seat-name", name)
            host.click("#seat-form button")
            host.get_by_test_id("lobby-names").filter(has_text=name).wait_for(timeout=3000)
        host.locator("#lobby").get_by_role("button", name="Start the game").click()
        host.get_by_test_id("dashboard").wait_for(timeout=3000)
        state = call(port, "GET", f"/api/tables/{code}")[1]["state"]
        first, second, *others = state["players"]
        # each seat's opening hand said for it
        expect(host.get_by_test_id(f"opening-{first['id']}")).to_have_text("Seat 1: opening hand draw 4, discard 2")
        expect(host.get_by_test_id(f"opening-{second['id']}")).to_have_text("Seat 2: opening hand draw 4, discard 1")
        expect(host.get_by_test_id("turn")).to_have_text(f"{first['name']}'s turn: Discard Shield")
        # no − on a count holding none, no + on a full HP Area: the server would refuse them
        assert host.get_by_role("button", name=f"Shield −1 for {first['name']}").count() == 0
        assert host.get_by_role("button", name=f"HP +1 for {first['name']}").count() == 0
        seat = host.get_by_test_id(f"seat-{second['id']}")
        seat.get_by_role("button", name=f"HP −1 for {second['name']}").click()
        expect(host.get_by_test_id(f"hp-{second['id']}")).to_have_text("11", timeout=3000)
        host.get_by_role("button", name=f"Score +1 for {first['name']}").click()
        expect(host.get_by_test_id(f"score-{first['id']}")).to_have_text("1", timeout=3000)
        host.get_by_role("button", name="Next phase").click()
        expect(host.get_by_test_id("turn")).to_have_text(f"{first['name']}'s turn: Casting", timeout=3000)
        shot(host, "magecraft-gems")
        assert host.evaluate(WIDE) <= PHONE["viewport"]["width"] and host.evaluate(TALL) <= SHORT
        dark(chromium, host, port, code, "dashboard", "gems")
        # to the end: the third and fourth seats fall, then the second's last HP is taken by a tap
        host_token = tokens(host, code)["host_token"]
        for seat, change in [(p, -12) for p in others] + [(second, -10)]:
            count = {"type": "count", "player": seat["id"], "area": "hp", "change": change}
            assert call(port, "POST", f"/api/tables/{code}/actions", count, host_token)[0] == 200
        expect(host.get_by_test_id(f"hp-{second['id']}")).to_have_text("1", timeout=3000)
        host.get_by_role("button", name=f"HP −1 for {second['name']}").click()
        host.get_by_test_id("over").filter(has_text=f"{first['name']} wins").wait_for(timeout=3000)
        expect(host.get_by_test_id(f"seat-{second['id']}")).to_contain_text("defeated")
        shot(host, "magecraft-gems-over")
        assert host.dialogs == []


def test_the_host_plays_a_seat_without_a_phone_a_target_learning_and_a_revision(chromium, tmp_path):
    """Four wizards, the bag odds on: the host's phone plays Ada (the host's own seat) and Ky (no
    phone of his own); Bo and Cy have phones. On Ky's turn, played on the host's phone, the page is
    two screens at most, as is a waiting wizard's; an Attack strikes the rival chosen on the phone
    (not the first in seat order); a spell learned from the Academy goes to the left of the
    spellbook tapped; and the next wizard revises: four gems, a spell moved and one mastered."""
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        _, opened = call(port, "POST", "/api/tables", {"game": GAME, "options": {"mode": "phones", "bag_odds": True}})
        code, host = opened["code"], opened["host_token"]
        seats = Seats(port, code)
        _, ada = call(port, "POST", f"{seats.path}/players", {"name": "Ada"}, host)
        _, ky = call(port, "POST", f"{seats.path}/seats", {"name": "Ky"}, host)
        ky = ky["player_id"]
        seats.calls = {ada["player_id"]: (host, ""), ky: (host, f"?as={ky}")}
        pages = {ada["player_id"]: a_phone(chromium, port, code, {"host_token": host, **ada})}
        for name in ("Bo", "Cy"):
            _, seat = call(port, "POST", f"{seats.path}/players", {"name": name})
            seats.calls[seat["player_id"]] = (seat["token"], "")
            pages[seat["player_id"]] = a_phone(chromium, port, code, seat)
        hosting = pages[ada["player_id"]]
        hosting.get_by_test_id("lobby-names").filter(has_text="Ada, Ky, Bo, Cy").wait_for(timeout=FIRST_LOAD_MS)
        hosting.locator("#lobby").get_by_role("button", name="Start the game").click()
        hosting.get_by_test_id("turn").filter(has_text="Opening hands").wait_for(timeout=3000)
        seats.discard_openings()
        for _ in range(KY_TURNS):  # Ky's turns that only refresh: the seed's next one is offered an Attack
            seats.refresh_until(ky)
            seats.do(ky, "refresh")
        seats.refresh_until(ky)
        hosting.locator("#seat-chips").get_by_role("button", name="Ky").click()
        hosting.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)
        hosting.wait_for_function(f"() => Spellpress.table.state.turn.player === {json.dumps(ky)}")
        table = seats.seen(ky)
        state = table["state"]
        order = [p["id"] for p in state["players"]]
        rivals = order[order.index(ky) + 1 :] + order[: order.index(ky)]
        waiting = pages[next(pid for pid in rivals if pid in pages and pid != ada["player_id"])]
        waiting.get_by_test_id("turn").filter(has_text="Ky's turn").wait_for(timeout=3000)
        assert hosting.evaluate(TALL) <= SHORT and waiting.evaluate(TALL) <= SHORT
        shot(hosting, "magecraft-kept-turn")
        shot(waiting, "magecraft-waiting")
        # the bag odds: what is left in Ky's own bag, as the server counts it
        expect(hosting.get_by_test_id("odds")).to_contain_text(
            f"Left in your bag: {sum(state['bag_contents'].values())}"
        )
        assert seats.seen()["state"]["bag_contents"] is None  # a follower sees no bag

        # An Attack at the second rival, chosen on the phone.
        attack = next(
            m for m in table["moves"] if m["type"] == "cast" and state["spells"][m["label"]]["effects"].get("attack")
        )
        # not the engine's first choice (the first rival in seat order), and one with a phone of its own
        spared = rivals[0]
        struck = next(pid for pid in rivals[1:] if pid in pages and pages[pid] is not hosting)
        pages[struck].get_by_test_id("jump-boards").click()
        hp = {p["id"]: p["hp_total"] for p in state["players"]}
        hosting.get_by_test_id(f"cast-{attack['payload']['spellbook']}").get_by_role("button", name="Cast").click()
        names = {p["id"]: p["name"] for p in state["players"]}
        hosting.get_by_test_id("resolve-attack-rival").get_by_role("button", name=names[struck]).click()
        expect(
            hosting.get_by_test_id("resolve-attack-rival").get_by_role("button", name=names[struck])
        ).to_have_attribute("aria-pressed", "true")
        shot(hosting, "magecraft-target")
        assert hosting.evaluate(WIDE) <= PHONE["viewport"]["width"]
        resolve_all(hosting, seats, ky)
        expect(pages[struck].get_by_test_id(f"hp-{struck}")).to_have_text(str(hp[struck] - 1), timeout=1000)
        shown = seats.seen()["state"]["players"]
        assert next(p["hp_total"] for p in shown if p["id"] == spared) == hp[spared]

        # Learning: the first spell the hand pays, to Spellbook 3's left.
        [learn] = [m for m in seats.seen(ky)["moves"] if m["type"] == "learn"]
        spell = learn["pick"][0]["one_of"][0]["value"]
        hosting.get_by_role("button", name="Learn: in the Academy").click()
        hosting.get_by_test_id(f"academy-{spell}").get_by_role("button", name="Learn").click()
        hosting.get_by_test_id("learn").get_by_role("button", name="Spellbook 3").click()
        hosting.get_by_test_id("turn").filter(has_text="Your turn: Learning or Revision").wait_for(timeout=3000)
        books = next(p for p in seats.seen()["state"]["players"] if p["id"] == ky)["spellbooks"]
        assert books[2][0]["spell"] == spell
        hosting.get_by_role("button", name="Refresh: end the turn").click()
        expect(hosting.get_by_test_id("turn")).not_to_contain_text("Your turn", timeout=3000)

        # The next wizard revises: four gems, Meditation moved down to Spellbook 2, Magic Missile mastered.
        after = seats.seen()["state"]["turn"]["player"]
        assert after == rivals[0] and after in pages
        reviser = pages[after]
        reviser.get_by_test_id("turn").filter(has_text="Your turn").wait_for(timeout=3000)
        reviser.get_by_role("button", name="Revise: discard 4, rearrange, master one").click()
        for _ in range(4):
            reviser.get_by_test_id("revise-hand").locator("button:enabled").first.click()
        revise = reviser.get_by_test_id("revise")
        revise.locator(".mc-book").nth(0).get_by_role("button", name="To the spellbook below").click()
        revise.locator(".mc-book").nth(1).locator(".mc-spell").filter(has_text="Magic Missile").get_by_role(
            "button", name="Master"
        ).click()
        shot(reviser, "magecraft-revise")
        assert reviser.evaluate(WIDE) <= PHONE["viewport"]["width"]
        revise.get_by_role("button", name="Revise", exact=True).click()
        reviser.get_by_test_id("turn").filter(has_text="Learning or Revision").wait_for(timeout=3000)
        books = next(p for p in seats.seen()["state"]["players"] if p["id"] == after)["spellbooks"]
        assert [[c["spell"] for c in b] for b in books][:2] == [[], ["Magic Missile", "Meditation"]]
        assert books[1][0]["mastered"] and not books[1][1]["mastered"]
        reviser.get_by_test_id("jump-boards").click()
        expect(reviser.get_by_test_id(f"spell-{after}-1-0")).to_contain_text("★ Magic Missile")
        for page in pages.values():
            assert page.dialogs == []
