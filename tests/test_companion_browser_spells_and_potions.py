"""Spells and Potions on two phones in real Chromium at 360 x 640 with touch: a table for two
wizards opened from the home page, a trick recorded with one tap showing on the other phone
within a second, a whole trick judged by taps (a Spells and Potions card deciding it), and the
trump picked by tap when the judge says so. Screenshots, light and dark, land in
output/screenshots/ to be looked at."""

from __future__ import annotations

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.spells_and_potions.rules import order_of_play, tournament
from pnp.games.spells_and_potions.trick_judge import PlayedCard, judge
from pnp.paths import CONTENT
from tests.support.browser import FIRST_LOAD_MS, PHONE, join, phone, shot
from tests.support.http import free_port, server

SP = load_game(game("spells-and-potions"), [CONTENT])
SUITS = SP["element-suits"]
REVERSE = next(card for card in SP["magic-cards"].cards if card.changes == "lowest-wins")
TRUMP_CHOICE = next(card for card in SP["magic-cards"].cards if card.changes == "winner-picks-trump")


def open_for_two(page, port: int, name: str) -> str:
    """Open a Spells and Potions table for 2 wizards from the home page and join it; its code."""
    page.goto(f"http://127.0.0.1:{port}/")
    page.select_option("#game", "spells-and-potions")
    page.select_option("#options [name=wizards]", "2")
    page.click("text=Open the table")
    page.wait_for_url("**/t/*")
    join(page, name)
    return page.locator("#code-chip").inner_text()


def section(page, name: str) -> None:
    """The panel's section `name` in sight (the bar at the bottom of the page)."""
    page.get_by_test_id(f"jump-{name}").click()


def tap_trick(page, leader: str, cards: list[PlayedCard]) -> None:
    """Enter a trick by taps, in the order played: the leader, by name and seat, then each card."""
    if not page.locator(".sp-judge").count():
        section(page, "trick")
    judge_card = page.locator(".sp-judge")
    judge_card.get_by_role("button", name=leader, exact=True).click()
    for card in cards:
        if card.name:
            judge_card.get_by_role("button", name=card.name).click()
        else:
            suit = next(s for s in SUITS.suits if s.id == card.suit)
            judge_card.get_by_role("button", name=suit.name, exact=True).click()
            judge_card.get_by_role("button", name=f"{suit.name} {card.rank}", exact=True).click()


def tricks(page, team: int):
    return page.locator(f"[data-testid=tricks-{team}]")


def test_two_wizards_judge_a_trick_and_pick_trump_by_taps(chromium, tmp_path):
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        host = phone(chromium)
        code = open_for_two(host, port, "Ada")
        guest = phone(chromium)
        guest.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(guest, "Bo")
        host.click("text=Start the game")
        ada = "Ada & Ada's Companion"  # a team, as the verdict names it
        for page in (host, guest):  # two wizards: the Arranger picks the first duel's leader
            page.locator("[data-testid=leader]", has_text="The Arranger chooses").wait_for(timeout=3000)
            order = SP["rulings"].rulings["two-wizard-order"].replace("**", "")  # our reading, shown bold
            page.get_by_text("Seats and our rulings").click()  # folded under the duel's tally
            assert page.locator("[data-testid=table-ruling]").inner_text() == order

        host.get_by_role("button", name="+ trick").first.click()
        tricks(guest, 0).filter(has_text="1").wait_for(timeout=3000)  # the other phone, live

        # Bo (East) leads; without the reverse the highest card would win for Bo's team.
        led, low = SUITS.suits[1], 2
        cards = [
            PlayedCard(suit=led.id, rank=SUITS.ranks),
            PlayedCard(suit=led.id, rank=low),
            PlayedCard(name=REVERSE.name),
            PlayedCard(suit=led.id, rank=low + 1),
        ]
        seating = tournament(2)[0].seating  # Bo is the wizard of the East
        verdict = judge(SP, dict(zip(order_of_play(seating, "east"), cards, strict=True)), SUITS.trump, "east", seating)
        assert (verdict.winner, verdict.team) == (1, 0)  # the lowest card, Ada's team's
        judge_and_record = guest.get_by_role("button", name="Judge and record")
        tap_trick(guest, "Bo (East)", cards[:-1])
        so_far = guest.get_by_role("list", name="The trick so far").locator("li")
        # "If a wizard leads, the next player is the other wizard, then the Companions": Ada, then by
        # our two-wizard-order ruling Bo's own Companion (clockwise from the East it would be Ada's)
        assert [so_far.nth(i).inner_text().split(" · ")[1] for i in (1, 2)] == ["Ada", "Bo's Companion"]
        assert judge_and_record.is_disabled()  # one card short
        shot(guest, "spells-and-potions-building")
        guest.locator(".sp-judge").get_by_role("button", name=led.name, exact=True).click()
        guest.locator(".sp-judge").get_by_role("button", name=f"{led.name} {SUITS.ranks - 1}").click()
        guest.get_by_role("button", name="Remove last").click()  # a slip, taken back
        tap_trick(guest, "Bo (East)", cards[-1:])
        guest.locator("[data-testid=trick-progress]", has_text=f"{len(cards)} of {len(cards)}").wait_for()
        judge_and_record.click()

        says = f"Card 2, {led.name} {low}, wins it for {ada}: worth {verdict.value:g}."
        for page in (guest, host):  # the verdict under the duel's tally
            section(page, "duel")
            page.locator("[data-testid=verdict]", has_text=says).wait_for(timeout=3000)
            tricks(page, 0).filter(has_text="2").wait_for(timeout=3000)
            assert tricks(page, 1).inner_text() == "0"
        section(guest, "trick")
        guest.locator("[data-testid=trick-progress]", has_text=f"0 of {len(cards)}").wait_for()
        shot(guest, "spells-and-potions-verdict")

        # Led with a trump choice card (a ruling says who follows): Bo's team wins and picks the trump by tap.
        fresh = [PlayedCard(suit=led.id, rank=rank) for rank in (4, 6, 7)]
        tap_trick(host, "Ada (North)", [PlayedCard(name=TRUMP_CHOICE.name), *fresh])
        host.get_by_role("button", name="Judge and record").click()
        host.locator(".sp-trump .sp-prompt").wait_for(timeout=3000)
        assert host.locator(".sp-judge").count() == 0  # the judge waits for the trump: the choice in its place
        prompt = guest.locator(".sp-trump .sp-prompt", has_text="The trick's winner picks the trump")
        prompt.wait_for(timeout=3000)  # in sight wherever the phone is: the next trick waits for it
        ruling = SP["rulings"].rulings["magic-lead"].replace("**", "")  # shown bold, never as asterisks
        section(guest, "duel")
        guest.locator("[data-testid=verdict] summary").click()  # our rulings on the trick, folded under it
        assert ruling in guest.locator("[data-testid=verdict]").inner_text()
        shot(guest, "spells-and-potions-trump-due")
        new_trump = SUITS.suits[-1]
        guest.locator(".sp-trump").get_by_role("button", name=new_trump.name, exact=True).click()
        section(host, "duel")
        host.locator("[data-testid=trump]", has_text=new_trump.name).wait_for(timeout=3000)
        prompt.wait_for(state="detached", timeout=3000)  # no choice waits: the trump choice leaves the page
        assert host.locator("#act-error").inner_text() == "" and guest.locator("#act-error").inner_text() == ""
        shot(host, "spells-and-potions-host")
        # the duel, the judge and the history are sections of the page: one in sight, a tap on the bar for another
        assert host.locator("#history-card").is_hidden()
        section(host, "history")
        host.locator("#history li", has_text=f"made {new_trump.name} trump").wait_for(timeout=3000)
        assert host.locator(".sp-judge").count() == 0 and host.get_by_test_id("tricks-0").count() == 0
        section(host, "trick")
        host.locator(".sp-judge").wait_for(timeout=3000)

        # The same phone in the dark: its own context, the guest's storage (so still Bo).
        dark = chromium.new_context(**PHONE, color_scheme="dark", storage_state=guest.context.storage_state())
        night = dark.new_page()
        night.goto(f"http://127.0.0.1:{port}/t/{code}")
        tricks(night, 1).filter(has_text="1").wait_for(timeout=FIRST_LOAD_MS)  # a first load, at the duel
        unplayed = PlayedCard(suit=led.id, rank=5)  # in neither trick so far (10, 2, 3; then 4, 6, 7)
        tap_trick(night, "Bo (East)", [unplayed])
        night.locator(".sp-judge").get_by_role("button", name=led.name, exact=True).click()
        entered = night.locator(".sp-judge").get_by_role("button", name=f"{led.name} {unplayed.rank}", exact=True)
        assert entered.is_disabled()  # the deck has one of each: a card entered is not offered again
        earlier = night.locator(".sp-judge").get_by_role("button", name=f"{led.name} {low}", exact=True)
        assert earlier.is_disabled()  # nor one played in an earlier trick of this duel
        assert night.locator(".sp-judge").get_by_role("button", name=REVERSE.name).is_enabled()  # the deck has two
        shot(night, "spells-and-potions-dark")
