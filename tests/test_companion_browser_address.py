"""The join address in real Chromium, against the real server: pages opened on the laptop at
127.0.0.1 show a QR code (read back from the screenshot, as a phone's camera would) and a join link
that carry the LAN address `companion serve` found, or its --public-url, never 127.0.0.1; a second
phone opens the decoded link; with no address phones can reach, the host page says so. Screenshots
(light and dark, 360 px) land in output/screenshots/ to be looked at."""

from __future__ import annotations

import io

import pytest
import zxingcpp
from PIL import Image

from companion.address import lan_address
from tests.support.browser import open_table, phone, shot
from tests.support.http import server

GAME = "merchants-of-magick"  # it has a projector, whose QR is checked too


def qr_text(image) -> str:
    """The text of the one QR code in this element's screenshot."""
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.screenshot())))
    assert [code.format for code in found] == [zxingcpp.BarcodeFormat.QRCode], "no single QR code in the image"
    return found[0].text


def test_every_qr_code_opened_on_127_0_0_1_carries_the_lan_address_and_a_phone_opens_it(chromium, tmp_path):
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no network address for phones to reach")
    with server(f"sqlite:///{tmp_path / 'c.sqlite3'}", tmp_path, host="0.0.0.0") as port:
        host = phone(chromium)
        code = open_table(host, port, GAME, "Ada")
        assert host.url.startswith("http://127.0.0.1:")
        host.locator("#host").wait_for(state="visible", timeout=3000)  # once the page knows it is the host's
        join_url = f"http://{lan}:{port}/t/{code}"
        assert qr_text(host.locator("#host img.qr")) == join_url
        assert host.locator("#host p.small").first.inner_text() == join_url
        assert host.get_by_test_id("unreachable").count() == 0
        shot(host, "address-host-lan")
        host.emulate_media(color_scheme="dark")
        shot(host, "address-host-lan-dark")

        guest = phone(chromium)  # the link the camera read, opened as a phone on the network would
        guest.goto(qr_text(host.locator("#host img.qr")))
        guest.locator("#join").wait_for()
        assert guest.url == join_url

        projector = chromium.new_page(viewport={"width": 1280, "height": 720})
        projector.goto(f"http://127.0.0.1:{port}/t/{code}/projector")
        assert qr_text(projector.locator("img.pj-qr")) == join_url
        assert projector.locator(".pj-url").inner_text() == join_url

        # The organiser starts an event here: the browser stays on the address that holds its token.
        organiser = phone(chromium)
        organiser.goto(f"http://127.0.0.1:{port}/")
        organiser.fill("#event-name", "Club night")
        organiser.click("text=Start the event")
        organiser.wait_for_url(f"http://127.0.0.1:{port}/e/*")
        organiser.get_by_role("button", name="Roll round 1").wait_for()
        event_url = f"http://{lan}:{port}/e/{organiser.url.rsplit('/', 1)[1]}"
        assert qr_text(organiser.locator("img.qr")) == event_url
        assert organiser.locator("img.qr + p.small").inner_text() == event_url
        projector.goto(organiser.url + "/projector")
        assert qr_text(projector.locator("img.pj-qr")) == event_url
        assert projector.locator(".pj-url").inner_text() == event_url

        organiser.get_by_role("button", name="Open a table in this event").click()
        organiser.wait_for_url(f"http://127.0.0.1:{port}/t/*")
        in_event = organiser.url.rsplit("/", 1)[1]
        organiser.locator("#host").wait_for(state="visible", timeout=3000)  # the host token stayed with this address
        assert qr_text(organiser.locator("#host img.qr")) == f"http://{lan}:{port}/t/{in_event}"


def test_a_public_url_is_the_address_of_every_join_link(chromium, tmp_path):
    public = "https://games.example.org/hall/"
    with server(f"sqlite:///{tmp_path / 'c.sqlite3'}", tmp_path, extra=("--public-url", public)) as port:
        host = phone(chromium)
        code = open_table(host, port, GAME, "Ada")
        assert qr_text(host.locator("#host img.qr")) == f"{public}t/{code}"
        assert host.locator("#host p.small").first.inner_text() == f"{public}t/{code}"


def test_a_host_page_no_phone_can_reach_says_so_and_how_to_fix_it(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'c.sqlite3'}", tmp_path) as port:  # on 127.0.0.1 alone
        host = phone(chromium)
        code = open_table(host, port, GAME, "Ada")
        warning = host.get_by_test_id("unreachable")
        warning.wait_for(state="visible", timeout=3000)  # in the host's invite, shown once the page knows it
        assert "Phones cannot open this link" in warning.inner_text() and "--public-url" in warning.inner_text()
        assert qr_text(host.locator("#host img.qr")) == f"http://127.0.0.1:{port}/t/{code}"
        shot(host, "address-host-unreachable")
        host.emulate_media(color_scheme="dark")
        shot(host, "address-host-unreachable-dark")
        projector = chromium.new_page(viewport={"width": 1280, "height": 720})
        projector.goto(f"http://127.0.0.1:{port}/t/{code}/projector")
        assert projector.get_by_test_id("unreachable").is_visible()
        shot(projector, "address-projector-unreachable")
