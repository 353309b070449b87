"""Spellcycles on three phones in real Chromium at 360 x 640 with touch: the host (not playing)
and two wizards at a table on the phones. The early turns go through the API, laying the first
active spell's pattern on the field; the last piece is placed by taps (the knucklebone's button,
a piece of the apothecary, a square), the matched squares light up, the caster taps Cast, and the
other wizard's phone shows the pieces reduced within 3 s. Then a table with real pieces: roll,
cast by hand, progress. Screenshots, light and dark, land in output/screenshots/ and /tmp."""

from __future__ import annotations

import json
import shutil

import pytest
from playwright.sync_api import expect

from tests.support.browser import FIRST_LOAD_MS, SHOTS, in_the_dark, join, open_table, phone, shot, tokens
from tests.support.http import call, free_port, server

GAME = "spellcycles"
SIZE = 8
ORIGIN = (2, 2)  # where the script lays the pattern: whole on the field, away from its edges


def snap(page, name: str) -> None:
    """A full-page screenshot into output/screenshots/ and a copy at /tmp/sc-phone-<name>.png."""
    shot(page, f"spellcycles-{name}")
    shutil.copy(SHOTS / f"spellcycles-{name}.png", f"/tmp/sc-phone-{name}.png")


def planned(pattern: list) -> list[tuple[int, str | None]]:
    """The spaces the pattern needs a piece on, laid at ORIGIN: (space, colour or None for any)."""
    cells = []
    for r, row in enumerate(pattern):
        for c, cell in enumerate(row):
            if cell in ("vacant", "gap"):
                continue
            assert not isinstance(cell, list), "no stacks without SpellStackers"
            cells.append(((ORIGIN[0] + r) * SIZE + ORIGIN[1] + c, None if cell == "marked" else cell))
    return cells


def pick(apothecary: list, colour: str | None) -> int:
    """The piece to lay: one of the wanted colour if held (else any: a recolour pays for it)."""
    return next((i for i, (c, _) in enumerate(apothecary) if c == colour), 0)


def moved(crescents: list[int], k: int) -> int:
    """The crescent to move on, bringing one to spell `k` and keeping one there."""
    before = [p for p in crescents if p < k]
    if before:
        return max(before)
    beyond = [p for p in crescents if p > k]
    return beyond[0] if beyond else k  # two or more on k: one stays


def test_three_phones_lay_a_pattern_and_cast_it(chromium, tmp_path):
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        host = phone(chromium)
        code = open_table(host, port, GAME, mode="phones")
        ada, bo = phone(chromium), phone(chromium)
        for page, name in ((ada, "Ada"), (bo, "Bo")):
            page.goto(f"http://127.0.0.1:{port}/t/{code}")
            join(page, name)
        host.get_by_test_id("joined").filter(has_text="2 wizards: Ada, Bo").wait_for(timeout=3000)
        host.get_by_role("button", name="Start the game").click()
        for page in (ada, bo):
            page.get_by_test_id("field").wait_for(timeout=3000)
        seats = {tokens(p, code)["player_id"]: (p, tokens(p, code)["token"]) for p in (ada, bo)}
        path = f"/api/tables/{code}"

        def seen() -> dict:
            return call(port, "GET", path)[1]["state"]

        def do(pid, kind, **payload) -> dict:
            status, table = call(port, "POST", f"{path}/actions", {"type": kind, **payload}, seats[pid][1])
            assert status == 200, table
            return table["state"]

        state = seen()
        # the first spell that asks no certificates (no one holds any yet); the crescents, all on
        # the first spell at the start, are moved on to it
        target = next(sp for sp in state["line"] if not sp["certificates"])
        k = target["position"]
        assert state["turn"]["step"] == "renew"
        cells = planned(target["pattern"])
        # every turn but the last through the API: Renew, a piece on the pattern's next space, Progress
        while len(cells) > 1 or not state["line"][k]["active"]:
            me = state["turn"]["player"]
            do(me, "renew")
            if len(cells) > 1:
                apothecary = next(p for p in seen()["players"] if p["id"] == me)["apothecary"]
                space, colour = cells.pop(0)
                state = do(me, "contribute", piece=apothecary[pick(apothecary, colour)], space=space)
            else:
                state = do(me, "skip_contribute")
            assert not [m for m in state["matches"] if m["position"] == k]  # not whole yet (others may match)
            state = do(me, "progress", position=moved(state["crescents"], k))
        # The last turn by taps on the caster's phone.
        me = state["turn"]["player"]
        caster, (other, _) = seats[me][0], next(v for k, v in seats.items() if k != me)
        caster.get_by_test_id("turn").filter(has_text="Your turn: Renew").wait_for(timeout=3000)
        # the pieces the knucklebone gave may be of other colours: the host corrects the caster's
        # essence so that the recolours (and a cost of "any") are in reach
        fix = {"type": "essence", "wizard": me, "change": 10}
        assert call(port, "POST", f"{path}/actions", fix, tokens(host, code)["host_token"])[0] == 200
        other.get_by_test_id("turn").filter(has_text="Renew").wait_for(timeout=3000)
        caster.get_by_role("button", name="Roll the knucklebone").click()
        caster.get_by_test_id("turn").filter(has_text="Your turn: Contribute").wait_for(timeout=3000)
        rolled = seen()["last_roll"]
        # the roll's colour by name and letter on the other phone, from its stream
        other.get_by_test_id("roll").filter(has_text=rolled["colours"][-1].capitalize()).wait_for(timeout=3000)
        apothecary = next(p for p in seen()["players"] if p["id"] == me)["apothecary"]
        space, colour = cells.pop()
        caster.get_by_test_id(f"piece-{pick(apothecary, colour)}").click()
        caster.get_by_test_id(f"space-{space}").click()
        caster.get_by_test_id("matches").wait_for(timeout=3000)
        state = seen()
        caster.get_by_test_id("matches").get_by_role("button", name=target["name"]).first.click()
        match = next(m for m in state["matches"] if m["position"] == k)
        lit = caster.locator(".sc-square.sc-lit")
        assert sorted(int(x) for x in lit.evaluate_all("els => els.map(e => e.dataset.space)")) == match["squares"]
        snap(caster, "reap")
        # The same phones in the dark: their own contexts, the same storage (so the same seats).
        for page, name in ((caster, "reap"), (host, "host")):
            night = in_the_dark(
                chromium, page, f"http://127.0.0.1:{port}/t/{code}", lambda p: p.get_by_test_id("field")
            )
            if page is caster:
                night.locator(".sc-square.sc-lit").first.wait_for(timeout=3000)
            snap(night, f"{name}-dark")

        # The pattern's pieces on the other phone before and after the cast: reduced one size
        # (or moved, as the spell's effect says): the other phone shows what the server holds.
        squares = match["squares"]
        assert all(state["field"][s][-1][1] == "large" for s in squares if state["field"][s])
        for s in squares:
            if state["field"][s]:
                other.locator(f"[data-testid=space-{s}] .sc-large").wait_for(timeout=3000)
        caster.get_by_role("button", name=f"Cast {target['name']}").click()
        caster.get_by_test_id("last-cast").wait_for(timeout=3000)
        assert caster.locator("#act-error").inner_text() == ""
        after = seen()
        assert [after["field"][s] for s in squares] != [state["field"][s] for s in squares]
        for s in squares:
            shown = other.locator(f"[data-testid=space-{s}] .sc-piece")
            if after["field"][s]:
                colour, size = after["field"][s][-1]
                shown = shown.and_(other.locator(f".sc-{size}")).filter(
                    has_text=colour[0].upper() if colour != "black" else "K"
                )
                shown.wait_for(timeout=3000)
            else:
                expect(shown).to_have_count(0, timeout=3000)
        other.get_by_test_id("last-cast").filter(has_text=f"cast {target['name']}").wait_for(timeout=3000)
        # the caster's certificates, rank and suit, on the caster's phone only; the others see a count
        hand = call(port, "GET", path, token=seats[me][1])[1]["state"]["hand"]
        expect(caster.get_by_test_id("hand").locator("li")).to_have_count(len(hand), timeout=3000)
        expect(other.get_by_test_id("hand").locator("li")).to_have_count(0)
        expect(other.get_by_test_id(f"certificates-{me}")).to_have_text(str(len(hand)), timeout=3000)
        snap(other, "after-cast")
        caster.get_by_test_id("jump-spells").click()
        caster.get_by_test_id(f"spell-{k}").filter(has_text="cast this turn").wait_for(timeout=3000)
        snap(caster, "spells")

        other.get_by_test_id("jump-history").click()
        other.locator("#history li", has_text=f"cast {target['name']}").wait_for(timeout=3000)
        other.locator("#history li", has_text="placed a large").first.wait_for(timeout=3000)
        snap(other, "history")

        for page in (host, ada, bo):
            assert page.dialogs == []


def test_with_real_pieces_roll_cast_by_hand_and_progress(chromium, tmp_path):
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        ada = phone(chromium)
        code = open_table(ada, port, GAME, "Ada", mode="pieces")
        bo = phone(chromium)
        bo.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(bo, "Bo")
        ada.get_by_role("button", name="Start the game").click()
        ada.get_by_test_id("turn").filter(has_text="Your turn: Renew").wait_for(timeout=3000)
        assert ada.get_by_test_id("field").count() == 0  # the board is a real one
        # the first spell that neither asks nor takes certificates (its prestige is then all the
        # caster's certificates), its crescent brought on by turns through the API
        path, state = f"/api/tables/{code}", call(port, "GET", f"/api/tables/{code}")[1]["state"]
        k = next(
            sp["position"]
            for sp in state["line"]
            if not sp["certificates"] and not any(e["do"] == "take-certificates" for e in sp["effects"] or ())
        )
        seats = {tokens(p, code)["player_id"]: tokens(p, code)["token"] for p in (ada, bo)}
        ada_id = tokens(ada, code)["player_id"]
        while not (state["line"][k]["active"] and state["turn"]["player"] == ada_id):
            me = state["turn"]["player"]
            for kind, payload in (("renew", {}), ("progress", {"position": moved(state["crescents"], k)})):
                status, table = call(port, "POST", f"{path}/actions", {"type": kind, **payload}, seats[me])
                assert status == 200, table
            state = table["state"]
        ada.get_by_test_id("turn").filter(has_text="Your turn: Renew").wait_for(timeout=3000)
        ada.get_by_role("button", name="Roll the knucklebone").click()
        ada.get_by_test_id("turn").filter(has_text="Your turn: Reap").wait_for(timeout=3000)
        _, table = call(port, "GET", f"/api/tables/{code}")
        state = table["state"]
        bo.get_by_test_id("roll").filter(has_text=state["last_roll"]["colours"][-1].capitalize()).wait_for(timeout=3000)

        # Essence by hand up to the spell's cost, then the spell cast by hand.
        spell = state["line"][k]
        cost = (
            spell["essence"]
            if isinstance(spell["essence"], int)
            else 1
            if spell["essence"] == "n"
            else spell["essence"][0]
        )
        me = next(p for p in state["players"] if p["id"] == ada_id)
        for n in range(max(0, cost - me["essence"])):
            ada.get_by_test_id(f"wizard-{me['id']}").get_by_role("button", name="+").click()
            ada.get_by_test_id(f"wizard-{me['id']}").locator(".sc-essence .live").filter(
                has_text=str(me["essence"] + n + 1)
            ).wait_for(timeout=3000)
        form = ada.get_by_test_id("cast-by-hand")
        form.locator("select[name=spell]").select_option(str(spell["position"]))
        if spell["essence"] == "n":  # a cost of a choice is chosen; a fixed one is the spell's
            form.locator("input[name=paid]").fill(str(cost))
        form.get_by_role("button", name="Cast").click()
        # the cast recorded, or refused with the server's reason (which fails the next line)
        cast_or_refused = (
            "() => document.querySelector('[data-testid=last-cast]')"
            " || document.getElementById('act-error').textContent"
        )
        ada.wait_for_function(cast_or_refused)
        assert ada.locator("#act-error").inner_text() == ""
        bo.get_by_test_id("last-cast").filter(has_text=f"cast {spell['name']}").wait_for(timeout=3000)
        _, table = call(port, "GET", f"/api/tables/{code}")
        assert next(p for p in table["state"]["players"] if p["id"] == ada_id)["certificates"] == spell["prestige"]
        snap(ada, "pieces")
        # the tracked cauldron's large pieces, put right by hand (a piece taken from the box)
        ada.get_by_test_id("jump-more").click()
        colour = state["colours"][0]
        large = table["state"]["cauldron"][colour][2]
        pot = ada.get_by_test_id("cauldron").locator(".sc-pot").first
        expect(pot).to_contain_text(f"{large} large")
        pot.get_by_role("button", name="−").click()
        expect(pot).to_contain_text(f"{large - 1} large", timeout=3000)
        assert call(port, "GET", path)[1]["state"]["cauldron"][colour][2] == large - 1
        ada.get_by_test_id("jump-table").click()

        before = [s["crescents"] for s in table["state"]["line"]]
        ada.get_by_role("button", name=f"From {spell['name']}").click()
        bo.get_by_test_id("turn").filter(has_text="Your turn: Renew").wait_for(timeout=3000)
        ada.get_by_test_id("turn").filter(has_text="Bo's turn").wait_for(timeout=3000)
        _, table = call(port, "GET", f"/api/tables/{code}")
        after = [s["crescents"] for s in table["state"]["line"]]
        p = spell["position"]  # one crescent moved on, from the spell tapped to the next
        assert (after[p], after[p + 1]) == (before[p] - 1, before[p + 1] + 1)
        url = f"http://127.0.0.1:{port}/t/{code}"
        night = in_the_dark(chromium, ada, url, lambda p: p.get_by_test_id("turn").filter(has_text="Bo's turn"))
        snap(night, "pieces-dark")

        # To the end through the API (Renew and Progress a turn): the last crescent off the line
        # ends the game, and every phone shows the winner and the engine's scores.
        state = call(port, "GET", path)[1]["state"]
        while state["phase"] == "playing":
            me = state["turn"]["player"]
            crescents = state["crescents"]
            for kind, payload in (("renew", {}), ("progress", {"position": crescents[-1]})):
                status, table = call(port, "POST", f"{path}/actions", {"type": kind, **payload}, seats[me])
                assert status == 200, table
            state = table["state"]
        names = {p["id"]: p["name"] for p in state["players"]}
        won = " and ".join(names[w] for w in state["winners"])
        for page in (ada, bo):
            page.get_by_test_id("over").filter(has_text=won).wait_for(timeout=3000)
        for p in state["players"]:
            expect(bo.get_by_test_id(f"wizard-{p['id']}").locator("td").last).to_have_text(
                str(state["scores"][p["id"]])
            )
        snap(bo, "over")


def doing(effect: dict):
    """Whether a spell of the line has an effect like `effect` (these keys and values)."""
    return lambda spell: any(effect.items() <= e.items() for e in spell["effects"] or [])


def dealt_with(port: int, wanted) -> tuple[str, str, dict, dict]:
    """A table on the phones with a long line, Ada and Bo seated through the API and the game
    started, dealt again until its line holds a `wanted` spell that asks no certificates: its
    code, the host's token, each seat's token and that spell."""
    for _ in range(30):
        _, opened = call(port, "POST", "/api/tables", {"game": GAME, "options": {"mode": "phones", "line": "long"}})
        code, host = opened["code"], opened["host_token"]
        seats = {}
        for name in ("Ada", "Bo"):
            _, seat = call(port, "POST", f"/api/tables/{code}/players", {"name": name})
            seats[seat["player_id"]] = seat["token"]
        status, table = call(port, "POST", f"/api/tables/{code}/actions", {"type": "start"}, host)
        assert status == 200, table
        for spell in table["state"]["line"]:
            if not spell["certificates"] and wanted(spell):
                return code, host, seats, spell
    raise AssertionError("no line of 30 held the spell wanted")


def seated(chromium, port: int, code: str, stored: dict):
    """A phone at the table holding `stored` (a seat's tokens) as the page keeps them."""
    page = phone(chromium)
    page.goto(f"http://127.0.0.1:{port}/t/{code}")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [f"spellpress:{code}", json.dumps(stored)])
    page.reload()
    # a first page load, not a change reaching a phone: what a loaded CI machine may take
    page.get_by_test_id("turn").wait_for(timeout=FIRST_LOAD_MS)
    return page


SWAP, RETURN = {"do": "swap-pieces"}, {"do": "return-pieces", "which": "any"}
MOVE = {"do": "move-piece"}
CORNER = SIZE * SIZE - 1  # the far corner: no pattern laid at ORIGIN reaches it
ABOVE = (ORIGIN[0] - 1) * SIZE + ORIGIN[1] + 1  # beside each square of a row of three at ORIGIN


@pytest.mark.parametrize(
    "effect, prompted, lone",
    [
        (SWAP, "Tap the two pieces to swap", CORNER),
        (RETURN, "Tap up to 2 pieces to send back to the cauldron", CORNER),
        (MOVE, "Tap a piece beside the spell's green (not one of the spell's), then an empty square", ABOVE),
    ],
    ids=["swap", "return", "move"],
)
def test_pieces_tapped_on_the_field_are_a_spells_choice_and_the_other_phone_shows_its_effect(
    chromium, tmp_path, effect, prompted, lone
):
    """A lone piece is laid apart from the spell's pattern. Sleight of Stars or Translocation
    ("Choose any two pieces on the field; they may trade places"): the caster taps one of the
    spell's pieces and the lone one; after the cast the lone piece, still large, stands on the
    spell's square and the spell's reduced piece on the lone one's. Scatter Sparks ("Send up to 2
    pieces anywhere on the field back to the cauldron"): tapped the same way, both squares are
    empty. Telekinesis ("Move one piece next to this spell's green (not its yellow) to a vacant
    space up to n spaces away"), paying 1: the lone piece, beside the spell's row, tapped and then
    the empty square above it, moves there. On the server and on the other phone."""
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        code, host, seats, target = dealt_with(port, doing(effect))
        k, path = target["position"], f"/api/tables/{code}"

        def seen() -> dict:
            return call(port, "GET", path)[1]["state"]

        def do(pid, kind, **payload) -> dict:
            status, table = call(port, "POST", f"{path}/actions", {"type": kind, **payload}, seats[pid])
            assert status == 200, table
            return table["state"]

        for pid in seats:  # essence for the cost and any recolours: the host's correction
            fix = {"type": "essence", "wizard": pid, "change": 10}
            assert call(port, "POST", f"{path}/actions", fix, host)[0] == 200
        cells = [(lone, None), *planned(target["pattern"])]
        spell_square = cells[1][0]
        # a piece must be placed each turn: once the pattern is laid, on the bottom rows, left first
        fillers = list(range(6 * SIZE, CORNER))
        state = seen()
        # turns through the API: Renew, a piece on the next planned space, Progress, until the
        # spell is whole and active at someone's Reap
        while True:
            me = state["turn"]["player"]
            do(me, "renew")
            apothecary = next(p for p in seen()["players"] if p["id"] == me)["apothecary"]
            space, colour = cells.pop(0) if cells else (fillers.pop(0), None)
            state = do(me, "contribute", piece=apothecary[pick(apothecary, colour)], space=space)
            if not cells and any(m["position"] == k and spell_square in m["squares"] for m in state["matches"]):
                break
            state = do(me, "progress", position=moved(state["crescents"], k))
        me = state["turn"]["player"]
        other_id = next(pid for pid in seats if pid != me)
        caster = seated(chromium, port, code, {"player_id": me, "token": seats[me]})
        other = seated(chromium, port, code, {"player_id": other_id, "token": seats[other_id]})
        caster.get_by_test_id("turn").filter(has_text="Your turn: Reap").wait_for(timeout=3000)
        # the match on the laid pattern (the bottom rows' pieces may match the spell too)
        ways = [m for m in state["matches"] if m["position"] == k]
        way = next(i for i, m in enumerate(ways) if spell_square in m["squares"])
        caster.get_by_test_id("matches").locator("button[aria-pressed]", has_text=target["name"]).nth(way).click()
        prompt = caster.get_by_test_id("tap-prompt")
        expect(prompt).to_contain_text(prompted)
        # an empty square cannot be tapped for these; a piece can, and is marked with its number
        expect(caster.get_by_test_id(f"space-{lone - 1}")).to_be_disabled()
        taps = [lone, lone - SIZE] if effect is MOVE else [spell_square, lone]
        for n, space in enumerate(taps):
            caster.get_by_test_id(f"space-{space}").click()
            expect(caster.get_by_test_id(f"space-{space}")).to_have_attribute("data-mark", str(n + 1))
        expect(prompt).to_contain_text("Tapped 2 (all)")
        if effect is SWAP:
            snap(caster, "choose")
        before = seen()["field"]
        assert before[lone] and before[lone][-1][1] == "large"
        caster.get_by_role("button", name=f"Cast {target['name']}").click()
        caster.get_by_test_id("last-cast").wait_for(timeout=3000)
        assert caster.locator("#act-error").inner_text() == ""
        after = seen()["field"]
        if effect is MOVE:  # without the choice the lone piece would stay where it was laid
            assert after[lone] == [] and after[taps[1]] == before[lone]
            expect(other.locator(f"[data-testid=space-{lone}] .sc-piece")).to_have_count(0, timeout=3000)
            colour, size = before[lone][-1]
            other.locator(f"[data-testid=space-{taps[1]}] .sc-piece.sc-{size}").filter(
                has_text=letter_of(colour)
            ).wait_for(timeout=3000)
        elif effect is RETURN:  # without the choice the lone piece would still stand in its corner
            assert after[lone] == after[spell_square] == []
            for space in (lone, spell_square):
                expect(other.locator(f"[data-testid=space-{space}] .sc-piece")).to_have_count(0, timeout=3000)
        else:  # without the swap the lone piece would still stand alone in its corner
            assert after[spell_square] == before[lone]
            assert after[lone] and after[lone] != before[lone]
            colour, size = before[lone][-1]
            shown = other.locator(f"[data-testid=space-{spell_square}] .sc-piece.sc-{size}")
            shown.filter(has_text=letter_of(colour)).wait_for(timeout=3000)
            moved_here = after[lone][-1]
            other.locator(f"[data-testid=space-{lone}] .sc-piece.sc-{moved_here[1]}").filter(
                has_text=letter_of(moved_here[0])
            ).wait_for(timeout=3000)
        other.get_by_test_id("jump-history").click()
        other.locator("#history li", has_text=f"cast {target['name']}").wait_for(timeout=3000)
        for page in (caster, other):
            assert page.dialogs == []


def letter_of(colour: str) -> str:
    """The letter a piece of `colour` carries on the phone (black's is K)."""
    return "K" if colour == "black" else colour[0].upper()


def test_after_a_text_only_spell_its_changes_are_made_by_hand_each_logged(chromium, tmp_path):
    """Issue 23: "A text-only spell from a group's own deck: the caster makes its changes by hand,
    each logged." Starfall made text-only (one marked space: any piece), cast through the API; on
    the caster's phone a piece tapped on the field goes back to the cauldron and a moon crescent
    moves on, both in the server's state, the other phone's field and its history."""
    from tests.test_rule_numbers import overlay
    from tests.test_spellcycles_tracker import STARFALL, TEXT_ONLY

    own = overlay(tmp_path, "spellcycles", "spells.yaml", STARFALL, TEXT_ONLY)
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port, extra=("--content", str(own))):
        code, host, seats, target = dealt_with(port, lambda spell: spell["effects"] is None)
        k, path = target["position"], f"/api/tables/{code}"

        def do(pid, kind, **payload) -> dict:
            status, table = call(port, "POST", f"{path}/actions", {"type": kind, **payload}, seats[pid])
            assert status == 200, table
            return table["state"]

        state = call(port, "GET", path)[1]["state"]
        fillers = list(range(SIZE * SIZE))  # a piece each turn, row by row: any piece matches Starfall
        while True:
            me = state["turn"]["player"]
            do(me, "renew")
            apothecary = next(p for p in call(port, "GET", path)[1]["state"]["players"] if p["id"] == me)["apothecary"]
            state = do(me, "contribute", piece=apothecary[0], space=fillers.pop(0))
            if any(m["position"] == k for m in state["matches"]):
                break
            state = do(me, "progress", position=moved(state["crescents"], k))
        me = state["turn"]["player"]
        match = next(m for m in state["matches"] if m["position"] == k)
        state = do(me, "cast", position=k, match=match["match"])
        other_id = next(pid for pid in seats if pid != me)
        caster = seated(chromium, port, code, {"player_id": me, "token": seats[me]})
        other = seated(chromium, port, code, {"player_id": other_id, "token": seats[other_id]})
        hand = caster.get_by_test_id("changes-by-hand")
        hand.wait_for(timeout=3000)
        # a piece from the field to the cauldron: tap it, then Move
        space = next(s for s, stack in enumerate(state["field"]) if stack)
        lifted = state["field"][space][-1]
        hand.locator("select[name=from]").select_option("field")
        hand.locator("select[name=to]").select_option("cauldron")
        expect(hand.get_by_test_id("tap-prompt")).to_contain_text("Tap the piece to move")
        caster.get_by_test_id(f"space-{space}").click()
        expect(caster.get_by_test_id(f"space-{space}")).to_have_attribute("data-mark", "1")
        snap(caster, "by-hand")
        hand.get_by_role("button", name="Move the piece").click()
        expect(other.locator(f"[data-testid=space-{space}] .sc-piece")).to_have_count(0, timeout=3000)
        after = call(port, "GET", path)[1]["state"]
        size = state["sizes"].index(lifted[1])
        assert after["field"][space] == state["field"][space][:-1]
        assert after["cauldron"][lifted[0]][size] == state["cauldron"][lifted[0]][size] + 1
        # a crescent moved on by one spell
        on = min(state["crescents"])  # the rearmost: a spell follows it
        hand.locator("select[name=crescent]").select_option(str(on))
        hand.locator("select[name=crescent_to]").select_option(str(on + 1))
        hand.get_by_role("button", name="Move the crescent").click()
        assert caster.locator("#act-error").inner_text() == ""
        other.get_by_test_id("jump-history").click()
        words = f"by hand: moved the moon crescent on {state['line'][on]['name']} to {state['line'][on + 1]['name']}"
        other.locator("#history li", has_text=words).wait_for(timeout=3000)
        other.locator("#history li", has_text=f"by hand: moved a piece from row {space // SIZE + 1}").wait_for(
            timeout=3000
        )
        after = call(port, "GET", path)[1]["state"]
        assert after["crescents"].count(on + 1) == state["crescents"].count(on + 1) + 1
        for page in (caster, other):
            assert page.dialogs == []
