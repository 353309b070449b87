"""Script in every name a user types, on every page of every game, in real Chromium: players'
names (phones), a seat's name (kept on the host's phone) and an event's name, each a different
way into HTML (a script element, an image's onerror, an attribute broken out of, an element that
fires by itself). The host's, a player's and a spectator's table page, the projector, and for a
game with events the event's page and projector, all show the names as text and run none: no
dialog opens and no element the names would have injected is in the page (issue 26).

tests/test_companion_browser.py shows one such name on a Magic Spell phone; here it is every
registered game and every page a name reaches."""

from __future__ import annotations

import json
import random

import pytest

from pnp.gamedef import games
from tests.support.browser import FIRST_LOAD_MS, HOSTILE, phone
from tests.support.http import HttpTable, call, free_port, server
from tests.support.legal import ruled
from tests.support.safe_moves import GAMES, begin, offered, options_for, send

PLAYER_NAMES = (HOSTILE, "<img src=x onerror=alert(2)>", '"><svg onload=alert(3)>')
SEAT_NAME = "<details open ontoggle=alert(4)>"  # seated by the host, without a phone
EVENT_NAME = "<svg/onload=alert(5)>"
# The page's text: its text nodes (in a tab not open too), not its scripts' source.
TEXT = """() => {
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), parts = [];
    while (walk.nextNode()) {
        const node = walk.currentNode;
        if (!["SCRIPT", "STYLE"].includes(node.parentNode.tagName)) parts.push(node.data);
    }
    return parts.join("\\n");
}"""
INJECTED = """() => [...document.querySelectorAll("*")]
    .filter(el => [...el.attributes].some(a => a.name.startsWith("on"))
        || (el.tagName === "SCRIPT" && el.textContent.includes("alert("))
        || ["DETAILS", "svg"].includes(el.tagName) && [...el.attributes].some(a => a.value.includes("alert("))
        || (el.tagName === "IMG" && el.getAttribute("src") === "x"))
    .map(el => el.outerHTML.slice(0, 120))"""


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    with server(f"sqlite:///{folder / 'companion.sqlite3'}", folder, port=free_port()) as port:
        yield port


def player_names(game: str) -> tuple[str, ...]:
    """The phones' names at a table of `game`: PLAYER_NAMES, or as many as leave it a seat for
    SEAT_NAME."""
    rules = ruled()[game]
    _, most = rules.seats(rules.Options(**options_for(game)))
    return PLAYER_NAMES[: most - 1]


def hostile_table(port: int, game: str, event: str | None = None) -> HttpTable:
    """A table of `game` (at `event`, if given) where phones named player_names() sit, and a seat
    named SEAT_NAME without a phone; begun, and a few offered moves into play."""
    if event is None:
        table = HttpTable(port, game, options_for(game), player_names(game))
    else:  # HttpTable with no names (its own table unused), then the event's table joined the same way
        table = HttpTable(port, game, options_for(game), ())
        status, opened = call(port, "POST", f"/api/events/{event}/tables", {})
        assert status == 201, opened
        table.code, table.host = opened["code"], opened["host_token"]
        for name in player_names(game):
            _, seat = call(port, "POST", f"/api/tables/{table.code}/players", {"name": name})
            table.tokens[seat["player_id"]] = seat["token"]
    status, seat = call(port, "POST", f"/api/tables/{table.code}/seats", {"name": SEAT_NAME}, table.host)
    assert status == 201, seat
    rng = random.Random(game)
    begin(table, rng)
    for _ in range(6):
        if move := offered(table, rng):
            send(table, move)
    return table


def shows_as_text_and_runs_nothing(page, url: str, names: tuple[str, ...], storage: dict | None = None) -> None:
    """`url` opened on a fresh phone (with `storage` as the table's localStorage entry) holds each
    of `names` as text (text nodes, as a name inserted as text is); no dialog opened and nothing
    was injected."""
    if storage is not None:
        key, value = storage
        page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(json.dumps(value))})")
    page.goto(url)
    try:
        page.wait_for_function(
            f"names => names.every(name => ({TEXT})().includes(name))", arg=list(names), timeout=FIRST_LOAD_MS
        )
    except Exception:
        missing = [n for n in names if n not in page.evaluate(TEXT)]
        raise AssertionError(f"{url} does not show {missing} as text") from None
    page.wait_for_timeout(300)  # an injected image's onerror fires once its load fails
    assert page.evaluate(INJECTED) == [], url
    assert page.dialogs == [], url


@pytest.mark.parametrize("game", GAMES)
def test_names_with_script_in_them_show_as_text_and_run_nowhere(game, port, chromium):
    table = hostile_table(port, game)
    base = f"http://127.0.0.1:{port}/t/{table.code}"
    key = f"spellpress:{table.code}"
    player, token = next(iter(table.tokens.items()))
    everyone = (*player_names(game), SEAT_NAME)
    shows_as_text_and_runs_nothing(phone(chromium), base, everyone, (key, {"host_token": table.host}))
    shows_as_text_and_runs_nothing(phone(chromium), base, everyone, (key, {"token": token, "player_id": player}))
    shows_as_text_and_runs_nothing(phone(chromium), base, everyone)
    if games()[game].projector:
        shows_as_text_and_runs_nothing(phone(chromium), base + "/projector", everyone)
    if games()[game].events:
        status, event = call(port, "POST", "/api/events", {"game": game, "name": EVENT_NAME})
        assert status == 201, event
        hostile_table(port, game, event["code"])
        page = f"http://127.0.0.1:{port}/e/{event['code']}"
        organiser = ("spellpress:event:" + event["code"], {"organiser_token": event["organiser_token"]})
        shows_as_text_and_runs_nothing(phone(chromium), page, (EVENT_NAME, PLAYER_NAMES[0]), organiser)
        shows_as_text_and_runs_nothing(phone(chromium), page + "/projector", (EVENT_NAME, PLAYER_NAMES[0]))


def test_the_check_finds_names_put_into_a_page_as_html(chromium):
    """What the test above would see of a page that put the names in as HTML: the check can fail."""
    page = phone(chromium)
    page.set_content("<main id=names></main>")
    page.evaluate(
        "names => { document.getElementById('names').innerHTML = names.join(' '); }", [*PLAYER_NAMES, SEAT_NAME]
    )
    page.wait_for_timeout(300)
    assert len(page.evaluate(INJECTED)) >= 3  # the image, the svg, the details
    assert page.dialogs  # the image's onerror, the svg's onload, the details' ontoggle ran
    assert HOSTILE not in page.evaluate(TEXT)  # a script element is not text
