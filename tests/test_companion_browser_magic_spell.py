"""Magic Spell's panel on phones in real Chromium (tests/support/browser.py): a spell completed by picking it
from those the server offers, cast from the spellbook by its button, a refusal's reason, and a spell given
away between turns; only the moves offered now have buttons. Every spell and number is the content's.
Screenshots land in output/screenshots/."""

from __future__ import annotations

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.magic_spell import rules
from pnp.games.magic_spell.checks import printed_credits, spells
from pnp.paths import CONTENT
from tests.support.browser import join, open_table, phone, shot
from tests.support.http import free_port, server

CONTENT_MS = load_game(game("magic-spell"), [CONTENT])
SPIRIT = CONTENT_MS["magic-spell-set"].spirit
CREDITS = dict(zip((c.word for c in spells(CONTENT_MS)), printed_credits(CONTENT_MS), strict=True))


def cell(page, name: str, column: int):
    """A cell of `name`'s row in the class table: 0 name, 1 spirit, 2 credits, 3 stones."""
    return page.locator("table.scores tr", has_text=name).locator("td").nth(column)


def book(page, name: str):
    """`name`'s spellbook, in the Class section."""
    return page.get_by_test_id("spellbooks").locator("[data-student]", has_text=name)


def jump(page, section: str) -> None:
    """Show a section of the panel: "play" (the turn) or "class" (everyone's numbers, the spellbooks)."""
    page.get_by_test_id(f"jump-{section}").click()


def held(page, word: str) -> None:
    """Once `word` is in someone's spellbook, the page no longer offers to complete it."""
    offered = page.get_by_label("Spell to complete").locator("option", has_text=word.upper())
    offered.wait_for(state="detached", timeout=3000)


def tap(page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()


def shown(page, label: str) -> bool:
    return page.get_by_role("button", name=label, exact=True).count() == 1


def seat(chromium, port: int, host: str, *guests: str, dark: tuple[str, ...] = ()):
    """A phone each: the host's opens a Magic Spell table and joins it, the guests' join it, the
    host starts the semester. Phones named in `dark` prefer the dark colour scheme."""
    names = (host, *guests)
    pages = [phone(chromium) for _ in names]
    for name, page in zip(names, pages, strict=True):
        if name in dark:
            page.emulate_media(color_scheme="dark")
    code = open_table(pages[0], port, "magic-spell", host)
    for name, page in zip(guests, pages[1:], strict=True):
        page.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(page, name)
    pages[0].get_by_test_id("lobby-names").filter(has_text=", ".join(names)).wait_for(timeout=3000)
    assert pages[0].get_by_test_id("low-enrollment").count() == (len(names) == 2)  # offered before the start
    tap(pages[0], "Start the game")  # the lobby's
    for page in pages:
        page.locator("[data-testid=my-spirit]", has_text=str(SPIRIT.start)).wait_for(timeout=3000)
    return pages


def test_a_spell_is_completed_by_picking_it_and_cast_by_its_button(chromium, tmp_path):
    # the dearest cast spell a student can pay for at the start: after casting it, too little is
    # left (even with the end of turn's recovery) to cast it again
    card = max((c for c in spells(CONTENT_MS) if c.mode == "cast" and c.cost <= SPIRIT.start), key=lambda c: c.cost)
    word, cost, after_cast = card.word.upper(), card.cost, SPIRIT.start - card.cost
    recovered = rules.end_of_turn(after_cast, SPIRIT)
    assert recovered < cost
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        host, guest = seat(chromium, port, "Ada", "Bo", dark=("Bo",))
        assert host.locator("text=Complete a spell").count() == 0  # only while weaving

        main = ("Rest", "Research", "Weave", "Scrounge", "Scrounge & weave")
        assert all(shown(host, m) for m in main)
        assert not shown(host, "Weave again")  # weave first
        assert not any(shown(guest, m) for m in (*main, "End turn"))  # Ada's turn
        tap(host, "Weave")
        spell = host.get_by_label("Spell to complete")
        spell.wait_for(timeout=3000)
        # the turn's one action is taken: the others are offered no more, weaving again is
        for m in main:
            assert not shown(host, m), m
        assert shown(host, "Weave again")
        assert spell.locator("option", has_text=f"{word} · {CREDITS[card.word]} credit").count() == 1
        shot(host, "magic-spell-weaving-host")
        spell.select_option(card.word)
        tap(host, "Complete")
        jump(guest, "class")
        book(guest, "Ada").filter(has_text=word).wait_for(timeout=3000)
        cell(guest, "Ada", 2).filter(has_text=str(CREDITS[card.word])).wait_for(timeout=3000)
        spell.locator("option", has_text=word).wait_for(state="detached", timeout=3000)  # held: no longer offered
        shot(guest, "magic-spell-completed-guest-dark")

        tap(host, "End turn")
        jump(guest, "play")
        tap(guest, "End turn")
        cast = f"Cast {word} · {cost}"
        host.get_by_role("button", name=cast).wait_for(timeout=3000)
        shot(host, "magic-spell-cast-host")
        tap(host, cast)
        host.locator("[data-testid=my-spirit]", has_text=str(after_cast)).wait_for(timeout=3000)
        jump(guest, "class")
        cell(guest, "Ada", 1).filter(has_text=str(after_cast)).wait_for(timeout=3000)
        assert host.get_by_role("button", name=cast).count() == 0  # casting was this turn's action
        assert not shown(host, "Rest")
        # its effect completes a spell outside weaving: the panel offers it, naming the card
        assert card.weaves_when == "cast"
        other = next(c.word for c in spells(CONTENT_MS) if c.word != card.word)
        host.get_by_label("Spell to complete").select_option(other)
        host.locator("input[name=stone]").check()  # woven with a philosopher's stone
        tap(host, "Complete")
        book(guest, "Ada").filter(has_text=other.upper()).wait_for(timeout=3000)

        tap(host, "End turn")
        jump(guest, "play")
        tap(guest, "End turn")
        host.locator(".ms-moves h2", has_text="Your turn").wait_for(timeout=3000)
        assert host.get_by_role("button", name=cast).count() == 0  # too little spirit: not offered
        # a move sent all the same (an API client, a page drawn before a change) is refused with its reason
        host.evaluate(f"Spellpress.act('cast', {{spell: '{card.word}'}})")
        error = f"Casting {word} costs {cost} spirit; you have {recovered}."
        host.locator("#act-error", has_text=error).wait_for(timeout=3000)
        shot(host, "magic-spell-refused-host")
        host.click("#act-error")  # it may cover a button: a tap puts it away
        assert host.locator("#act-error").inner_text() == ""
        tap(host, "End turn")  # and the button under it is reachable again
        jump(guest, "class")
        cell(guest, "Ada", 1).filter(has_text=str(rules.end_of_turn(recovered, SPIRIT))).wait_for(timeout=3000)
        assert host.dialogs == [] and guest.dialogs == []


def test_a_spell_is_given_between_turns_to_a_student_not_taking_theirs(chromium, tmp_path):
    word = next(iter(CREDITS))
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        ada, bo, cy = seat(chromium, port, "Ada", "Bo", "Cy", dark=("Ada",))
        assert ada.get_by_test_id("low-enrollment").count() == 0  # three play the basic game
        tap(ada, "Weave")
        ada.get_by_label("Spell to complete").select_option(word)
        tap(ada, "Complete")
        held(ada, word)
        assert ada.locator("text=Trade a spell").count() == 0  # not during your own turn
        tap(ada, "End turn")

        to = ada.get_by_label("Give it to")
        to.wait_for(timeout=3000)
        assert to.locator("option").all_inner_texts() == ["Give it to", "to Cy"]  # Bo is taking his turn
        ada.get_by_label("Spell to give").select_option(word)
        to.select_option(label="to Cy")
        shot(ada, "magic-spell-trade-dark")
        tap(ada, "Give")
        jump(cy, "class")
        book(cy, "Cy").filter(has_text=word.upper()).wait_for(timeout=3000)
        jump(bo, "class")
        cell(bo, "Cy", 2).filter(has_text=str(CREDITS[word])).wait_for(timeout=3000)
        ada.locator("text=Trade a spell").wait_for(state="detached", timeout=3000)  # nothing left to give
        ada.locator("#history li", has_text=f"Ada gave {word.upper()} to Cy").wait_for(state="attached", timeout=3000)


def test_two_students_trade_between_turns(chromium, tmp_path):
    # Low Enrollment: "You may swap with each other in between turns." (our ruling: after a turn's
    # end, before the next student's first move)
    word = next(iter(CREDITS))
    ruling = CONTENT_MS["rulings"].rulings["low-enrollment-trades"].replace("**", "")
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        ada, bo = seat(chromium, port, "Ada", "Bo")
        for page in (ada, bo):  # the variant the rules seat two students by, in our ruling's words
            assert page.get_by_test_id("low-enrollment").inner_text() == f"Low Enrollment: {ruling}"
        tap(ada, "Weave")
        ada.get_by_label("Spell to complete").select_option(word)
        tap(ada, "Complete")
        held(ada, word)
        assert ada.locator("text=Trade a spell").count() == 0  # during her own turn: nobody to trade with
        tap(ada, "End turn")
        to = ada.get_by_label("Give it to")
        to.wait_for(timeout=3000)
        assert to.locator("option").all_inner_texts() == ["Give it to", "to Bo"]  # Bo's turn has not begun
        ada.get_by_label("Spell to give").select_option(word)
        to.select_option(label="to Bo")
        tap(ada, "Give")
        jump(ada, "class")
        book(ada, "Bo").filter(has_text=word.upper()).wait_for(timeout=3000)
        assert ada.dialogs == [] and bo.dialogs == []
