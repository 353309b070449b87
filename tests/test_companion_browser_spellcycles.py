"""Spellcycles on phones in real Chromium at 360 x 640 with touch, against the real server (its
chance seeded: the same deals every run). Three phones, the host (not playing) and two wizards on
the phones: the early turns go through the API, laying an active spell's pattern on the field; the
last piece is placed by taps (the knucklebone's button, a piece of the apothecary, a square), with
no Skip Contribute while the apothecary holds pieces; the way's squares light up, the caster taps
Cast, and the other phone shows the pieces reduced within 3 s. Pieces tapped on the field as a
spell's choice (a swap, pieces sent back, a piece moved), and a text-only spell's changes by hand,
each with a deck made to deal the spell. A table with real pieces: roll, cast by hand, the
cauldron put right, progress, to the end. And every page of a wizard on their turn, a wizard
waiting and the host playing a seat without a phone, mid-game, at most two screens tall.
Screenshots, light and dark, land in output/screenshots/ and /tmp."""

from __future__ import annotations

import json
import random
import re
import shutil

import pytest
import yaml
from playwright.sync_api import expect

from pnp.paths import CONTENT
from tests.support.browser import FIRST_LOAD_MS, PHONE, SHOTS, in_the_dark, join, open_table, phone, shot, tokens
from tests.support.http import call, free_port, server
from tests.test_spellcycles_tracker import scripted

GAME = "spellcycles"
SIZE = 8
ORIGIN = (2, 2)  # where the script lays the pattern: whole on the field, away from its edges
TAPS = {"swap-pieces", "move-piece", "return-pieces", "move-pieces"}  # effects whose choices may be taps


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


def letter_of(colour: str) -> str:
    """The letter a piece of `colour` carries on the phone (black's is K)."""
    return "K" if colour == "black" else colour[0].upper()


class Api:
    """The table's API as the test drives it: each seat's token, the host's."""

    def __init__(self, port: int, code: str, host: str, seats: dict[str, str]):
        self.port, self.code, self.host, self.seats = port, code, host, seats
        self.path = f"/api/tables/{code}"

    def seen(self, pid: str | None = None) -> dict:
        return call(self.port, "GET", self.path, token=self.seats.get(pid))[1]

    def do(self, pid: str, kind: str, **payload) -> dict:
        token = self.host if pid == "host" else self.seats[pid]
        status, table = call(self.port, "POST", f"{self.path}/actions", {"type": kind, **payload}, token)
        assert status == 200, table
        return table["state"]

    def casts(self, pid: str, k: int) -> list[dict]:
        """The ways the spell at `k` is offered to `pid` now (each with its squares)."""
        offered = [o for o in self.seen(pid)["moves"] if o["type"] == "cast" and o["payload"]["position"] == k]
        return offered[0]["pick"][0]["one_of"] if offered else []

    def lay(self, cells: list, k: int, fillers: list[int], whole) -> dict:
        """Turns through the API, Renew, a piece on the next planned space (then the fillers'),
        Progress bringing a crescent to spell `k`, until `whole(state)` at someone's Reap."""
        state = self.seen()["state"]
        while True:
            me = state["turn"]["player"]
            self.do(me, "renew")
            apothecary = next(p for p in self.seen()["state"]["players"] if p["id"] == me)["apothecary"]
            space, colour = cells.pop(0) if cells else (fillers.pop(0), None)
            state = self.do(me, "contribute", piece=apothecary[pick(apothecary, colour)], space=space)
            if not cells and whole(state):
                return state
            state = self.do(me, "progress", position=moved(state["crescents"], k))


def started(port: int, options: dict, names=("Ada", "Bo")) -> Api:
    """A table opened and started through the API, its wizards seated by name."""
    _, opened = call(port, "POST", "/api/tables", {"game": GAME, "options": options})
    seats = {}
    for name in names:
        _, seat = call(port, "POST", f"/api/tables/{opened['code']}/players", {"name": name})
        seats[seat["player_id"]] = seat["token"]
    api = Api(port, opened["code"], opened["host_token"], seats)
    api.do("host", "start", first=next(iter(seats)))
    return api


def seated(chromium, port: int, code: str, stored: dict):
    """A phone at the table holding `stored` (a seat's tokens) as the page keeps them."""
    page = phone(chromium)
    page.add_init_script(f"localStorage.setItem('spellpress:{code}', {json.dumps(json.dumps(stored))})")
    page.goto(f"http://127.0.0.1:{port}/t/{code}")
    # a first page load, not a change reaching a phone: what a loaded CI machine may take
    page.get_by_test_id("turn").wait_for(timeout=FIRST_LOAD_MS)
    return page


def choose_way(page, api: Api, pid: str, name: str, k: int, square: int) -> dict:
    """On `pid`'s phone, the spell `name` chosen (when more than one is offered) and its way
    covering `square`; that way as offered."""
    casting = page.get_by_test_id("cast")
    spell = casting.locator(".sc-row button", has_text=name)
    if spell.count():
        spell.click()
    ways = api.casts(pid, k)
    n = next(i for i, way in enumerate(ways) if square in way["squares"])
    casting.locator(".sc-ways button").nth(n).click()
    expect(casting.locator(".sc-ways button").nth(n)).to_have_attribute("aria-pressed", "true")
    return ways[n]


def test_three_phones_lay_a_pattern_and_cast_it(chromium, tmp_path):
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        host = phone(chromium)
        code = open_table(host, port, GAME, mode="phones")
        ada, bo = phone(chromium), phone(chromium)
        for page, name in ((ada, "Ada"), (bo, "Bo")):
            page.goto(f"http://127.0.0.1:{port}/t/{code}")
            join(page, name)
        host.get_by_test_id("lobby-names").filter(has_text="Ada, Bo").wait_for(timeout=3000)
        # the rules: "Choose a player to go first": the host starts the game with who goes first
        assert not ada.get_by_role("button", name="Ada goes first").count()  # the host's
        host.get_by_role("button", name="Ada goes first").click()
        for page in (ada, bo):
            page.get_by_test_id("field").wait_for(timeout=3000)
        seats = {tokens(p, code)["player_id"]: (p, tokens(p, code)["token"]) for p in (ada, bo)}
        api = Api(port, code, tokens(host, code)["host_token"], {pid: t for pid, (_, t) in seats.items()})
        state = api.seen()["state"]
        # the first spell that asks no certificates (no one holds any yet) and no taps
        target = next(
            sp
            for sp in state["line"]
            if not sp["certificates"] and not any(e["do"] in TAPS for e in sp["effects"] or ())
        )
        k = target["position"]
        cells = planned(target["pattern"])
        square = cells[0][0]
        last = cells.pop()
        api.lay(cells, k, [], lambda s: s["line"][k]["active"])
        # the last turn by taps on the caster's phone
        me = api.seen()["state"]["turn"]["player"]
        if not api.seen()["state"]["turn"]["step"] == "renew":
            api.do(me, "progress", position=moved(api.seen()["state"]["crescents"], k))
            me = api.seen()["state"]["turn"]["player"]
        caster, (other, _) = seats[me][0], next(v for pid, v in seats.items() if pid != me)
        caster.get_by_test_id("turn").filter(has_text="Your turn: Renew").wait_for(timeout=3000)
        # the pieces the knucklebone gave may be of other colours: the host corrects the caster's
        # essence so that the recolours (and a cost of "any") are in reach
        api.do("host", "essence", wizard=me, change=5)
        caster.get_by_role("button", name="Roll the knucklebone").click()
        caster.get_by_test_id("turn").filter(has_text="Your turn: Contribute").wait_for(timeout=3000)
        expect(caster.get_by_role("button", name="Skip Contribute")).to_have_count(
            0
        )  # the issue's: not with pieces held
        rolled = api.seen()["state"]["last_roll"]
        # the roll's colour by name and letter on the other phone, from its stream
        other.get_by_test_id("roll").filter(has_text=rolled["colours"][-1].capitalize()).wait_for(timeout=3000)
        apothecary = next(p for p in api.seen()["state"]["players"] if p["id"] == me)["apothecary"]
        caster.get_by_test_id(f"piece-{pick(apothecary, last[1])}").click()
        caster.get_by_test_id(f"space-{last[0]}").click()
        caster.get_by_test_id("cast").wait_for(timeout=3000)
        way = choose_way(caster, api, me, target["name"], k, square)
        lit = caster.locator(".sc-square.sc-lit")
        assert sorted(int(x) for x in lit.evaluate_all("els => els.map(e => e.dataset.space)")) == way["squares"]
        snap(caster, "reap")
        assert caster.evaluate("document.documentElement.scrollHeight") <= 2 * PHONE["viewport"]["height"]
        # The same phones in the dark: their own contexts, the same storage (so the same seats).
        for page, name in ((caster, "reap"), (host, "host")):
            night = in_the_dark(
                chromium, page, f"http://127.0.0.1:{port}/t/{code}", lambda p: p.get_by_test_id("field")
            )
            snap(night, f"{name}-dark")

        # The pattern's pieces on the other phone before and after the cast: reduced one size
        # (or moved, as the spell's effect says): the other phone shows what the server holds.
        state = api.seen()["state"]
        squares = way["squares"]
        caster.get_by_role("button", name=f"Cast {target['name']}").click()
        caster.get_by_test_id("last-cast").wait_for(timeout=3000)
        assert caster.locator("#act-error").inner_text() == ""
        after = api.seen()["state"]
        assert [after["field"][s] for s in squares] != [state["field"][s] for s in squares]
        for s in squares:
            shown = other.locator(f"[data-testid=space-{s}] .sc-piece")
            if after["field"][s]:
                colour, size = after["field"][s][-1]
                shown.and_(other.locator(f".sc-{size}")).filter(has_text=letter_of(colour)).wait_for(timeout=3000)
            else:
                expect(shown).to_have_count(0, timeout=3000)
        other.get_by_test_id("last-cast").filter(has_text=f"cast {target['name']}").wait_for(timeout=3000)
        # the caster's certificates, rank and suit, on the caster's phone only; the others see a count
        hand = api.seen(me)["state"]["hand"]
        for page in (caster, other):
            page.get_by_test_id("jump-wizards").click()
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


def deck(tmp_path, spell: dict) -> str:
    """A content folder whose spell deck deals `spell` (a card as the content writes it) in every
    long line: it and eleven of ours, the twelve the long line needs."""
    fillers = [c for c in cards("spells.yaml") if c["name"] != spell["name"]][:11]
    folder = tmp_path / "deck" / GAME
    folder.mkdir(parents=True)
    for name, dealt in (("spells-rules.yaml", [spell]), ("spells.yaml", fillers)):
        (folder / name).write_text(yaml.safe_dump({"kind": "spell-cards", "cards": dealt}, sort_keys=False))
    return str(tmp_path / "deck")


def cards(name: str) -> list[dict]:
    """The spell cards of one of our deck files, as the content writes them."""
    return yaml.safe_load((CONTENT / GAME / name).read_text(encoding="utf-8"))["cards"]


def card(name: str) -> dict:
    """One of our spell cards."""
    return next(c for c in cards("spells.yaml") + cards("spells-rules.yaml") if c["name"] == name)


CORNER = SIZE * SIZE - 1  # the far corner: no pattern laid at ORIGIN reaches it
ABOVE = (ORIGIN[0] - 1) * SIZE + ORIGIN[1] + 1  # beside each square of a row of three at ORIGIN


@pytest.mark.parametrize(
    "spell, prompted, lone",
    [
        ("Sleight of Stars", "Tap the two pieces to swap", CORNER),
        ("Scatter Sparks", "Tap up to 2 pieces to send back to the cauldron", CORNER),
        ("Telekinesis", "Tap a piece beside the spell's green to move", ABOVE),
    ],
    ids=["swap", "return", "move"],
)
def test_pieces_tapped_on_the_field_are_a_spells_choice_and_the_other_phone_shows_its_effect(
    chromium, tmp_path, spell, prompted, lone
):
    """A lone piece is laid apart from the spell's pattern. Sleight of Stars ("Choose any two pieces
    on the field; they may trade places"): the caster taps one of the spell's pieces and the lone
    one; after the cast the lone piece, still large, stands on the spell's square and the spell's
    reduced piece on the lone one's. Scatter Sparks ("Send up to 2 pieces anywhere on the field back
    to the cauldron"): tapped the same way, both squares are empty. Telekinesis ("Move one piece
    next to this spell's green (not its yellow) to a vacant space up to n spaces away"): the lone
    piece, beside the spell's row, tapped and then the empty square above it, moves there. On the
    server and on the other phone."""
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port, extra=("--content", deck(tmp_path, card(spell)))):
        api = started(port, {"mode": "phones", "line": "long"})
        target = next(sp for sp in api.seen()["state"]["line"] if sp["name"] == spell)
        k = target["position"]
        for pid in api.seats:  # essence for the cost and any recolours: the host's correction
            api.do("host", "essence", wizard=pid, change=5)
        cells = [(lone, None), *planned(target["pattern"])]
        spell_square = cells[1][0]
        # a piece must be placed each turn: once the pattern is laid, on the bottom rows, left first
        fillers = list(range(6 * SIZE, CORNER))
        state = api.lay(
            cells, k, fillers, lambda s: any(spell_square in w["squares"] for w in api.casts(s["turn"]["player"], k))
        )
        me = state["turn"]["player"]
        other_id = next(pid for pid in api.seats if pid != me)
        caster = seated(chromium, port, api.code, {"player_id": me, "token": api.seats[me]})
        other = seated(chromium, port, api.code, {"player_id": other_id, "token": api.seats[other_id]})
        caster.get_by_test_id("turn").filter(has_text="Your turn: Reap").wait_for(timeout=3000)
        choose_way(caster, api, me, spell, k, spell_square)
        prompt = caster.get_by_test_id("tap-prompt")
        expect(prompt).to_contain_text(prompted)
        cast = caster.get_by_role("button", name=f"Cast {spell}")
        if spell != "Scatter Sparks":  # up to 2: none is a choice too
            expect(cast).to_be_disabled()
        # an empty square cannot be tapped for these; a piece can, and is marked
        expect(caster.get_by_test_id(f"space-{lone - 1}")).to_be_disabled()
        taps = [lone, lone - SIZE] if spell == "Telekinesis" else [spell_square, lone]
        for space in taps:
            caster.get_by_test_id(f"space-{space}").click()
            expect(caster.get_by_test_id(f"space-{space}")).to_have_class(re.compile("sc-marked-square"), timeout=3000)
        if spell == "Sleight of Stars":
            snap(caster, "choose")
        before = api.seen()["state"]["field"]
        assert before[lone] and before[lone][-1][1] == "large"
        expect(cast).to_be_enabled()
        cast.click()
        caster.get_by_test_id("last-cast").wait_for(timeout=3000)
        assert caster.locator("#act-error").inner_text() == ""
        after = api.seen()["state"]["field"]
        if spell == "Telekinesis":  # without the choice the lone piece would stay where it was laid
            assert after[lone] == [] and after[taps[1]] == before[lone]
            expect(other.locator(f"[data-testid=space-{lone}] .sc-piece")).to_have_count(0, timeout=3000)
            colour, size = before[lone][-1]
            other.locator(f"[data-testid=space-{taps[1]}] .sc-piece.sc-{size}").filter(
                has_text=letter_of(colour)
            ).wait_for(timeout=3000)
        elif spell == "Scatter Sparks":  # without the choice the lone piece would still stand in its corner
            assert after[lone] == after[spell_square] == []
            for space in (lone, spell_square):
                expect(other.locator(f"[data-testid=space-{space}] .sc-piece")).to_have_count(0, timeout=3000)
        else:  # without the swap the lone piece would still stand alone in its corner
            assert after[spell_square] == before[lone]
            assert after[lone] and after[lone] != before[lone]
            colour, size = before[lone][-1]
            shown = other.locator(f"[data-testid=space-{spell_square}] .sc-piece.sc-{size}")
            shown.filter(has_text=letter_of(colour)).wait_for(timeout=3000)
        other.get_by_test_id("jump-history").click()
        other.locator("#history li", has_text=f"cast {spell}").wait_for(timeout=3000)
        for page in (caster, other):
            assert page.dialogs == []


def test_after_a_text_only_spell_its_changes_are_made_by_hand_each_logged(chromium, tmp_path):
    """Issue 23: "A text-only spell from a group's own deck: the caster makes its changes by hand,
    each logged." Starfall made text-only (one marked space: any piece), cast through the API; on
    the caster's phone a piece tapped on the field goes back to the cauldron and a moon crescent
    moves on, both in the server's state, the other phone's field and its history."""
    text_only = {
        **card("Starfall"),
        "pattern": [["marked"]],
        "effect": "Move any piece anywhere, and a moon crescent anywhere.",
    }
    del text_only["does"]
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port, extra=("--content", deck(tmp_path, text_only))):
        api = started(port, {"mode": "phones", "line": "long"})
        k = next(sp["position"] for sp in api.seen()["state"]["line"] if sp["name"] == "Starfall")
        fillers = list(range(SIZE * SIZE))  # a piece each turn, row by row: any piece matches it
        state = api.lay([], k, fillers, lambda s: api.casts(s["turn"]["player"], k))
        me = state["turn"]["player"]
        state = api.do(me, "cast", position=k, match=0)
        other_id = next(pid for pid in api.seats if pid != me)
        caster = seated(chromium, port, api.code, {"player_id": me, "token": api.seats[me]})
        other = seated(chromium, port, api.code, {"player_id": other_id, "token": api.seats[other_id]})
        hand = caster.get_by_test_id("changes-by-hand")
        hand.wait_for(timeout=3000)
        # a piece from the field to the cauldron: tap it, then Move
        space = next(s for s, stack in enumerate(state["field"]) if stack)
        lifted = state["field"][space][-1]
        hand.locator("select[name=from]").select_option(label="The field")
        hand.locator("select[name=to]").select_option(label="The cauldron")
        expect(hand.get_by_test_id("tapped")).to_contain_text("From: tap a piece")
        caster.get_by_test_id(f"space-{space}").click()
        expect(hand.get_by_test_id("tapped")).to_contain_text(f"From: row {space // SIZE + 1}")
        snap(caster, "by-hand")
        hand.get_by_role("button", name="Move the piece").click()
        expect(other.locator(f"[data-testid=space-{space}] .sc-piece")).to_have_count(0, timeout=3000)
        after = api.seen()["state"]
        size = state["sizes"].index(lifted[1])
        assert after["field"][space] == state["field"][space][:-1]
        assert after["cauldron"][lifted[0]][size] == state["cauldron"][lifted[0]][size] + 1
        # a crescent moved on by one spell
        on = min(state["crescents"])  # the rearmost: a spell follows it
        hand.locator("select[name=crescent]").select_option(label=f"{on + 1}. {state['line'][on]['name']}")
        hand.locator("select[name=crescent_to]").select_option(label=f"{on + 2}. {state['line'][on + 1]['name']}")
        hand.get_by_role("button", name="Move the crescent").click()
        other.get_by_test_id("jump-history").click()
        words = f"moved the moon crescent on {state['line'][on]['name']} to {state['line'][on + 1]['name']} by hand"
        other.locator("#history li", has_text=words).wait_for(timeout=3000)
        other.locator("#history li", has_text=f"moved a piece from row {space // SIZE + 1}").wait_for(timeout=3000)
        assert caster.locator("#act-error").inner_text() == ""
        after = api.seen()["state"]
        assert after["crescents"].count(on + 1) == state["crescents"].count(on + 1) + 1
        for page in (caster, other):
            assert page.dialogs == []


def test_with_real_pieces_roll_cast_by_hand_and_progress(chromium, tmp_path):
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        ada = phone(chromium)
        code = open_table(ada, port, GAME, "Ada", mode="pieces")
        bo = phone(chromium)
        bo.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(bo, "Bo")
        ada.get_by_role("button", name="Ada goes first").click()
        ada.get_by_test_id("turn").filter(has_text="Your turn: Renew").wait_for(timeout=3000)
        assert ada.get_by_test_id("field").count() == 0  # the board is a real one
        seats = {tokens(p, code)["player_id"]: tokens(p, code)["token"] for p in (ada, bo)}
        api = Api(port, code, tokens(ada, code)["host_token"], seats)
        ada_id = tokens(ada, code)["player_id"]
        # the first spell that neither asks nor takes certificates (its prestige is then all the
        # caster's certificates), its crescent brought on by turns through the API
        state = api.seen()["state"]
        k = next(
            sp["position"]
            for sp in state["line"]
            if not sp["certificates"] and not any(e["do"] == "take-certificates" for e in sp["effects"] or ())
        )
        while not (state["line"][k]["active"] and state["turn"]["player"] == ada_id):
            me = state["turn"]["player"]
            api.do(me, "renew")
            state = api.do(me, "progress", position=moved(state["crescents"], k))
        ada.get_by_test_id("turn").filter(has_text="Your turn: Renew").wait_for(timeout=3000)
        ada.get_by_role("button", name="Roll the knucklebone").click()
        ada.get_by_test_id("turn").filter(has_text="Your turn: Reap").wait_for(timeout=3000)
        state = api.seen()["state"]
        bo.get_by_test_id("roll").filter(has_text=state["last_roll"]["colours"][-1].capitalize()).wait_for(timeout=3000)

        # Essence by hand until the spell is offered, then the spell cast by hand.
        spell = state["line"][k]
        ada.get_by_test_id("jump-wizards").click()
        ada.get_by_test_id("jump-wizards").click()
        plus = ada.get_by_test_id(f"wizard-{ada_id}").get_by_role("button", name="+")
        while not any(o["type"] == "cast" and o["payload"]["position"] == k for o in api.seen(ada_id)["moves"]):
            essence = next(p for p in api.seen()["state"]["players"] if p["id"] == ada_id)["essence"]
            plus.click()
            ada.get_by_test_id(f"wizard-{ada_id}").locator(".sc-essence .live").filter(
                has_text=str(essence + 1)
            ).wait_for(timeout=3000)
        ada.get_by_test_id("jump-play").click()
        casting = ada.get_by_test_id("cast")
        choice = casting.locator(".sc-row button", has_text=spell["name"])
        if choice.count():
            choice.click()
        casting.get_by_role("button", name=f"Cast {spell['name']}").click()
        bo.get_by_test_id("last-cast").filter(has_text=f"cast {spell['name']}").wait_for(timeout=3000)
        assert ada.locator("#act-error").inner_text() == ""
        state = api.seen()["state"]
        assert next(p for p in state["players"] if p["id"] == ada_id)["certificates"] == spell["prestige"]
        snap(ada, "pieces")
        # the tracked cauldron's large pieces, put right by hand (a piece taken from the box)
        ada.get_by_test_id("jump-more").click()
        colour = state["colours"][0]
        large = state["cauldron"][colour][2]
        pot = ada.get_by_test_id("cauldron").locator(".sc-pot").first
        expect(pot).to_contain_text(f"{large} large")
        pot.get_by_role("button", name="−").click()
        expect(pot).to_contain_text(f"{large - 1} large", timeout=3000)
        assert api.seen()["state"]["cauldron"][colour][2] == large - 1

        before = [s["crescents"] for s in state["line"]]
        ada.get_by_test_id("jump-play").click()
        ada.get_by_role("button", name=f"From {spell['name']}").click()
        bo.get_by_test_id("turn").filter(has_text="Your turn: Renew").wait_for(timeout=3000)
        ada.get_by_test_id("turn").filter(has_text="Bo's turn").wait_for(timeout=3000)
        after = [s["crescents"] for s in api.seen()["state"]["line"]]
        p = spell["position"]  # one crescent moved on, from the spell tapped to the next
        assert (after[p], after[p + 1]) == (before[p] - 1, before[p + 1] + 1)
        url = f"http://127.0.0.1:{port}/t/{code}"
        night = in_the_dark(chromium, ada, url, lambda p: p.get_by_test_id("turn").filter(has_text="Bo's turn"))
        snap(night, "pieces-dark")

        # To the end through the API (Renew and Progress a turn): the last crescent off the line
        # ends the game, and every phone shows the winner and the engine's scores.
        state = api.seen()["state"]
        while state["phase"] == "playing":
            me = state["turn"]["player"]
            api.do(me, "renew")
            state = api.do(me, "progress", position=state["crescents"][-1])
        names = {p["id"]: p["name"] for p in state["players"]}
        won = " and ".join(names[w] for w in state["winners"])
        for page in (ada, bo):
            page.get_by_test_id("over").filter(has_text=won).wait_for(timeout=3000)
        for p in state["players"]:
            expect(bo.get_by_test_id(f"wizard-{p['id']}").locator("td").last).to_have_text(
                str(state["scores"][p["id"]])
            )
        snap(bo, "over")


def test_mid_game_every_page_is_at_most_two_screens_tall(chromium, tmp_path):
    """The issue's short pages at 360 x 640: a wizard on their turn (at Reap, a spell to cast), a
    wizard waiting, and the host playing a seat without a phone, each at most 1,280 px tall."""
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        _, opened = call(port, "POST", "/api/tables", {"game": GAME, "options": {"mode": "phones"}})
        code, host = opened["code"], opened["host_token"]
        seats = {}
        for name in ("Ada", "Bo"):
            _, seat = call(port, "POST", f"/api/tables/{code}/players", {"name": name})
            seats[seat["player_id"]] = seat["token"]
        _, kept = call(port, "POST", f"/api/tables/{code}/seats", {"name": "Cy"}, host)
        cy = kept["player_id"]
        api = Api(port, code, host, seats)
        api.do("host", "start", first=next(iter(seats)))
        rng = random.Random(4)
        # turns by the script (no casts) until a wizard with a phone is at Reap with a spell to cast
        while True:
            state = api.seen()["state"]
            assert state["phase"] == "playing", "no spell was offered to a wizard with a phone"
            me = state["turn"]["player"]
            query, token = (f"?as={cy}", host) if me == cy else ("", seats[me])
            moves = call(port, "GET", f"{api.path}{query}", token=token)[1]["moves"]
            casts = [o for o in moves if o["type"] == "cast"]
            if me != cy and casts and state["turn"]["number"] > 6:
                break
            type_, body = scripted(moves, rng, {o["payload"]["position"] for o in casts})  # no cast: on
            status, answer = call(port, "POST", f"{api.path}/actions{query}", {"type": type_, **body}, token)
            assert status == 200, answer
        waiting = next(pid for pid in seats if pid != me)
        pages = {
            "turn": seated(chromium, port, code, {"player_id": me, "token": seats[me]}),
            "waiting": seated(chromium, port, code, {"player_id": waiting, "token": seats[waiting]}),
            "host-for-a-seat": seated(chromium, port, code, {"host_token": host, "as": cy}),
        }
        pages["turn"].get_by_test_id("cast").wait_for(timeout=3000)
        for name, page in pages.items():
            height = page.evaluate("document.documentElement.scrollHeight")
            snap(page, f"mid-game-{name}")
            assert height <= 2 * PHONE["viewport"]["height"], (name, height)
