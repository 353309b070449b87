"""A sixth game is four things: its content folder, its templates folder, its package and its phone
panel (docs/adding-a-game.md). The tests' example game, Lantern Charms (tests/example_game/), is
only those four, handed to the build and the companion as configuration, and is none of the five
games of the product. It builds through the library calls `pnp build` makes, a broken card of it
reported where it was written; random games of the moves the server offers reach their end on
SQLite and PostgreSQL, and every hand reaches its holder alone; and in real Chromium at 360 x 640
its panel shows each phone the moves the server offers it, played through to the end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion import GAMES_VARIABLE, configured_games
from pnp.build import check, open_game, write
from pnp.content.problems import ContentError, display_path
from pnp.gamedef import games
from pnp.imposition import Options
from pnp.rules.table import HOST, SPECTATOR
from pnp.starter import planned, write_starter
from tests.conftest import overlay
from tests.example_game import GAME
from tests.support.api import bearer
from tests.support.browser import PHONE, shot
from tests.support.example import CONTENT_ROOT, TEMPLATES_ROOT, tell_the_companion
from tests.support.http import call, server
from tests.support.inprocess import seen
from tests.support.legal import OfferedTable
from tests.support.pdfcards import read
from tests.support.phones import Phone

ID = GAME.id
CHARMS, REFERENCES = 24, 4  # the content's charm cards, and a reference card for each of 4 players
HAND = 5  # charms dealt to each player (charm-rules.yaml)
MOST_STEPS = 100  # moves a game may take before it must be over (the longest has 1 + 4 x HAND)
SCREENS = 2  # the tallest the panel may be mid-game, in screens of the phone's height


@pytest.fixture(autouse=True)
def told(monkeypatch):
    """The companion told of the example as `companion serve` is, by the environment: its package,
    its content folder and its panel's folder become create_app's GAMES, CONTENT and GAME_PANELS
    (conftest's `app` builds it so, with its chance seeded), in this process and in a server's."""
    tell_the_companion(monkeypatch)


def opened(*layers: Path):
    """The example game opened as `pnp build` opens a game, its content folder laid under `layers`."""
    return open_game(GAME, [CONTENT_ROOT, *layers], template_folders=(TEMPLATES_ROOT,))


def test_the_example_is_none_of_the_products_games(monkeypatch):
    monkeypatch.delenv(GAMES_VARIABLE)
    assert ID not in games() and len(games()) == 5
    assert ID not in configured_games()  # nor the companion's, unless the environment names it


# --- it builds ----------------------------------------------------------------------------


def test_it_builds_its_pdf_through_the_calls_pnp_build_makes(tmp_path):
    game = opened()
    for paper in ("a4", "letter"):  # as `pnp check` checks it
        check(game, Options(paper))
    path = tmp_path / f"{ID}.pdf"
    pages = write(game, Options(), path)
    pdf = read(path)
    assert len(pdf) == pages
    fronts = [page for page in range(len(pdf)) if "· fronts ·" in pdf.text(page)]
    cards = [pdf.text_in(page, placed.rect) for page in fronts for placed in pdf.placements(page)]
    assert len(cards) == CHARMS + REFERENCES
    (salamander,) = [text for text in cards if "Forge Salamander" in text]
    assert "EMBER" in salamander and "4" in salamander
    assert sum("Your turn" in text and "Dousing" in text for text in cards) == REFERENCES
    assert f"Shuffle and deal {HAND} charms to each player" in pdf.text(0)  # the rules' number, filled in


def test_pnp_news_starter_cards_add_to_its_deck(tmp_path):
    write_starter(planned(GAME, tmp_path))
    charms = next(c for c in opened(tmp_path).components() if c.id == "charms")
    assert len(charms.faces) == CHARMS + 2 and "Lamplight Glowworm" in {face.label for face in charms.faces}


BROKEN = """\
kind: charm-cards
cards:
  - name: Lamplight Glowworm
    suit: embr
    number: 2
  - name: Hollow Reed Heron
    suit: gale
    number: 12
"""


def test_a_broken_card_is_reported_at_its_file_line_and_column(tmp_path):
    layer = overlay(tmp_path, ID, {"my-charm-cards.yaml": BROKEN})
    with pytest.raises(ContentError) as raised:
        check(opened(layer), Options())
    where = display_path(layer / ID / "my-charm-cards.yaml")
    said = [str(problem) for problem in raised.value.problems]
    suit = "expected a suit id of charm-rules (ember, tide, stone, gale), got 'embr'; did you mean 'ember'?"
    assert f"{where}:4:11: cards.0.suit: {suit}" in said, said
    assert any(line.startswith(f"{where}:8:13: cards.1.number: ") and "9" in line for line in said), said


# --- it plays -----------------------------------------------------------------------------


class Viewers:
    """An OfferedTable's viewers as tests.support.inprocess reads a table: each phone's seat, the
    host and a spectator (OfferedTable checks the answers to its moves itself: none are kept here)."""

    def __init__(self, table: OfferedTable):
        self.client, self.code = table.client, table.code
        self.tokens = {**table.tokens, HOST: table.host, SPECTATOR: None}
        self.answers = {viewer: [] for viewer in self.tokens}

    def headers(self, viewer):
        token = self.tokens[viewer]
        return bearer(token) if token else {}


def hands_reach_only_their_holders(table: OfferedTable) -> None:
    """What every viewer gets now (the table, its history, both exports, the stream's newest event;
    the host playing a seat without a phone, that seat's table) names no charm in another's hand
    or set aside, and a player's own hand is in what they get."""
    state = table.state()
    named = lambda cards: {card["name"] for card in cards}
    viewers = Viewers(table)
    shown = {viewer: json.dumps(seen(viewers, viewer)) for viewer in viewers.tokens}
    shown |= {seat: json.dumps(table.table(bearer(table.host), f"?as={seat}")) for seat in table.kept}
    for viewer, text in shown.items():
        theirs = named(state["hands"].get(viewer, []))
        hidden = named(state["deck"]).union(*(named(hand) for seat, hand in state["hands"].items() if seat != viewer))
        assert not {name for name in hidden if name in text}, viewer
        assert all(name in text for name in theirs), viewer


@pytest.mark.parametrize("players, kept", [(2, 1), (3, 0), (4, 1)])  # kept: seats without a phone, the host's
def test_random_games_of_offered_moves_end_and_each_hand_reaches_only_its_holder(client, players, kept):
    rng = random.Random(f"{ID} {players} {kept}")
    table = OfferedTable(client, ID, {}, rng).open(players - kept, kept)
    while table.steps < MOST_STEPS and table.step():
        hands_reach_only_their_holders(table)
    state = table.state()
    assert state["phase"] == "over" and table.steps == 1 + players * HAND, table.steps
    assert state["winners"] and table.refused, "no move that was not offered was tried"
    assert table.replayed_afresh() == state


# --- its panel ----------------------------------------------------------------------------


def test_the_companion_lists_it_and_serves_its_panel(client):
    assert "Lantern Charms" in client.get("/").text
    assert client.get(f"/games/{ID}.js").status_code == client.get(f"/games/{ID}.css").status_code == 200
    code = client.post("/api/tables", json={"game": ID, "options": {}}).json["code"]
    assert client.get(f"/t/{code}").status_code == 200


def test_each_phone_shows_its_offered_moves_and_plays_them_to_the_end(chromium, tmp_path):
    """The real server (`companion serve`) told of the example by its environment and --content; a
    host, two players and a seat the host plays, each on a phone, play the whole game by taps."""
    rng = random.Random(ID)
    with server(
        f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, extra=("--content", str(CONTENT_ROOT))
    ) as port:
        _, opened_table = call(port, "POST", "/api/tables", {"game": ID, "options": {}})
        code, host = opened_table["code"], opened_table["host_token"]
        seats = [call(port, "POST", f"/api/tables/{code}/players", {"name": name})[1] for name in ("Ann", "Bob")]
        _, kept = call(port, "POST", f"/api/tables/{code}/seats", {"name": "Cy"}, token=host)
        phones = [Phone(chromium, port, code, {"host_token": host}, host)]
        phones += [Phone(chromium, port, code, seat, seat["token"]) for seat in seats]
        phones.append(
            Phone(chromium, port, code, {"host_token": host, "as": kept["player_id"]}, host, kept["player_id"])
        )
        moves = 0
        compared = set()  # the move types whose buttons were compared with the offers
        while moves < MOST_STEPS:
            offered = [phone.offered() for phone in phones]
            seq = offered[0][0]  # the table's, the same at every phone
            for phone, (_, types) in zip(phones, offered, strict=True):
                # measured once lanterns are lit, hands still holding cards, and on to the end
                assert phone.shown(seq, measure=moves > 3) == types, (moves, phone.seat or phone.token[:6])
                compared |= types
            # the host's phones (Start), then the phone of whoever's turn it is
            movers = [phone for phone, (_, types) in zip(phones, offered, strict=True) if types]
            if not movers:
                break
            mover = rng.choice(movers)
            mover.tap(rng)
            assert mover.offered()[0] > seq, "a tap sent no move"
            moves += 1
        assert moves == 1 + 3 * HAND and compared == {"start", "kindle", "douse"}  # the start, then 3 hands laid
        for n, phone in enumerate(phones):
            phone.page.get_by_test_id("winners").wait_for()
            shot(phone.page, f"example-game-{n}")
    tallest = max(phone.tallest for phone in phones)
    assert 0 < tallest <= SCREENS * PHONE["viewport"]["height"], tallest
