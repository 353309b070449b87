"""The address in join links and QR codes (companion/address.py): which root phones are sent to for
a page opened on loopback, on the LAN or behind a --public-url; the join_url of the API's answers
and the links on the pages, through Flask's test client; --public-url refused when no phone could
open it; and `companion serve`'s own print agreeing with the pages."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from companion import create_app
from companion.address import checked_public_url, phones_root
from companion.cli import main
from tests.support.http import free_port

LAN = "192.0.2.7"  # a documentation address: the test never connects to it


@pytest.mark.parametrize(
    "page_root, expected",
    [
        ("http://127.0.0.1:8000/", f"http://{LAN}:8000/"),
        ("http://127.45.6.7:8000/", f"http://{LAN}:8000/"),  # all of 127.0.0.0/8 is this computer
        ("http://localhost:8000/", f"http://{LAN}:8000/"),
        ("http://LOCALHOST./", f"http://{LAN}/"),
        ("http://[::1]:8000/", f"http://{LAN}:8000/"),
        ("http://0.0.0.0:8000/", f"http://{LAN}:8000/"),
        ("https://127.0.0.1:8443/", f"https://{LAN}:8443/"),  # serve --tls: the scheme and port stay
        ("http://127.0.0.1:8000/under/", f"http://{LAN}:8000/under/"),  # the app's own path stays
        ("http://192.168.1.20:8000/", "http://192.168.1.20:8000/"),  # a phone on the LAN: its address
        ("http://laptop.local:8000/", "http://laptop.local:8000/"),
        ("http://[fe80::1]:8000/", "http://[fe80::1]:8000/"),
    ],
)
def test_a_loopback_page_sends_phones_to_the_lan_address_and_any_other_keeps_its_own(page_root, expected):
    assert phones_root(page_root, LAN, None) == expected


def test_an_ipv6_lan_address_is_bracketed():
    assert phones_root("http://localhost:8000/", "2001:db8::5", None) == "http://[2001:db8::5]:8000/"


def test_the_public_url_wins_wherever_the_page_was_opened():
    public = "https://games.example.org/hall/"
    for page_root in ("http://127.0.0.1:8000/", "http://192.168.1.20:8000/"):
        assert phones_root(page_root, LAN, public) == public
    assert phones_root("http://127.0.0.1:8000/", None, public) == public


def test_without_a_lan_address_a_loopback_page_has_no_root_phones_reach():
    assert phones_root("http://127.0.0.1:8000/", None, None) is None
    assert phones_root("http://192.168.1.20:8000/", None, None) == "http://192.168.1.20:8000/"


@pytest.mark.parametrize(
    "given, kept",
    [
        ("https://games.example.org", "https://games.example.org/"),
        ("https://games.example.org/hall", "https://games.example.org/hall/"),
        (" http://192.168.1.20:8000/ ", "http://192.168.1.20:8000/"),
    ],
)
def test_a_public_url_is_kept_as_a_root_ending_in_a_slash(given, kept):
    assert checked_public_url(given) == kept


@pytest.mark.parametrize(
    "bad",
    [
        "games.example.org",
        "ftp://games.example.org",
        "https://",
        "https://a b.org",
        "http://x.org:99999",
        "http://x.org/?a=1",
    ],
)
def test_serve_refuses_a_public_url_no_phone_could_open_with_status_2(bad):
    result = CliRunner().invoke(main, ["serve", "--public-url", bad])
    assert result.exit_code == 2
    assert "--public-url" in result.stderr and "http:// or https://" in result.stderr
    assert "Traceback" not in result.stderr and "phones open" not in result.stdout


def test_the_app_refuses_a_bad_public_url_from_its_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SPELLPRESS_PUBLIC_URL", "games.example.org")
    with pytest.raises(ValueError, match="http:// or https://"):
        create_app({"INSTANCE_PATH": str(tmp_path)})


@pytest.fixture
def companion(tmp_path, request):
    """The app on SQLite with a known LAN address and the public URL the test is parametrized with."""
    config = {"TESTING": True, "INSTANCE_PATH": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite3'}"}
    app = create_app({**config, "LAN_ADDRESS": LAN, "PUBLIC_URL": getattr(request, "param", None)})
    yield app
    app.extensions["play"].close()


LINKS = ("table", "event", "event table")  # the event's table plays Merchants: it has a projector


def links(client, base_url: str) -> dict:
    """Every join link the API answers with, for requests made at `base_url`."""
    table = client.post("/api/tables", json={"game": "magic-spell"}, base_url=base_url).json
    event = client.post("/api/events", json={"game": "merchants-of-magick", "name": "Club"}, base_url=base_url).json
    in_event = client.post(f"/api/events/{event['code']}/tables", json={}, base_url=base_url).json
    return {name: (made["code"], made["join_url"]) for name, made in zip(LINKS, (table, event, in_event), strict=True)}


def test_the_api_join_links_of_a_loopback_request_carry_the_lan_address(companion):
    found = links(companion.test_client(), "http://127.0.0.1:8000")
    assert found["table"][1] == f"http://{LAN}:8000/t/{found['table'][0]}"
    assert found["event"][1] == f"http://{LAN}:8000/e/{found['event'][0]}"
    assert found["event table"][1] == f"http://{LAN}:8000/t/{found['event table'][0]}"


def test_the_api_join_links_of_a_phone_on_the_lan_keep_its_address(companion):
    found = links(companion.test_client(), "http://laptop.local:8000")
    assert {name: url.removesuffix(code) for name, (code, url) in found.items()} == {
        "table": "http://laptop.local:8000/t/",
        "event": "http://laptop.local:8000/e/",
        "event table": "http://laptop.local:8000/t/",
    }


@pytest.mark.parametrize("companion", ["https://games.example.org/hall/"], indirect=True)
def test_the_api_join_links_follow_a_public_url_with_its_path(companion):
    found = links(companion.test_client(), "http://127.0.0.1:8000")
    assert found["table"][1] == f"https://games.example.org/hall/t/{found['table'][0]}"
    assert found["event"][1] == f"https://games.example.org/hall/e/{found['event'][0]}"


def test_every_page_with_a_join_link_shows_the_lan_address_and_no_warning(companion):
    client = companion.test_client()
    found = links(client, "http://127.0.0.1:8000")
    (table, _), (event, _), (merchants, _) = (found[name] for name in LINKS)
    pages = {
        f"/t/{table}": f"http://{LAN}:8000/t/{table}",
        f"/t/{merchants}/projector": f"http://{LAN}:8000/t/{merchants}",
        f"/e/{event}": f"http://{LAN}:8000/e/{event}",
        f"/e/{event}/projector": f"http://{LAN}:8000/e/{event}",
    }
    for path, url in pages.items():
        html = client.get(path, base_url="http://127.0.0.1:8000").get_data(as_text=True)
        assert url in html and "127.0.0.1" not in html, path
        assert 'data-testid="unreachable"' not in html, path


def test_a_loopback_page_without_a_lan_address_says_phones_cannot_open_its_link(companion):
    companion.config["LAN_ADDRESS"] = None
    client = companion.test_client()
    code, url = links(client, "http://127.0.0.1:8000")["table"]
    assert url == f"http://127.0.0.1:8000/t/{code}"  # the only address there is, not a made-up one
    html = client.get(f"/t/{code}", base_url="http://127.0.0.1:8000").get_data(as_text=True)
    assert 'data-testid="unreachable"' in html and "--public-url" in html
    lan_html = client.get(f"/t/{code}", base_url="http://192.168.1.20:8000").get_data(as_text=True)
    assert 'data-testid="unreachable"' not in lan_html  # opened from the LAN: phones reach that


def serve_output(monkeypatch, *args: str) -> str:
    """What `companion serve ARGS` prints at start, the server itself not run."""
    from companion import cli

    monkeypatch.setattr(cli._Server, "run", lambda self: None)
    monkeypatch.setattr(cli, "lan_address", lambda: LAN)
    # serve sets its workers' variables: in a copy of the environment without them, for this call alone
    ours = ("SPELLPRESS_LAN_ADDRESS", "SPELLPRESS_PUBLIC_URL")
    monkeypatch.setattr(os, "environ", {name: value for name, value in os.environ.items() if name not in ours})
    result = CliRunner().invoke(main, ["serve", "--port", str(free_port()), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_serve_prints_the_address_the_pages_use(monkeypatch):
    port_output = serve_output(monkeypatch, "--host", "0.0.0.0")
    assert f"phones open http://{LAN}:" in port_output and os.environ["SPELLPRESS_LAN_ADDRESS"] == LAN
    public = serve_output(monkeypatch, "--public-url", "https://games.example.org/hall")
    assert "phones open https://games.example.org/hall/" in public
    assert os.environ["SPELLPRESS_PUBLIC_URL"] == "https://games.example.org/hall/"
    alone = serve_output(monkeypatch, "--host", "127.0.0.1")
    assert "phones cannot" in alone and "--public-url" in alone and os.environ["SPELLPRESS_LAN_ADDRESS"] == ""


def test_a_qr_code_is_checked_on_each_load_so_a_new_public_url_replaces_a_cached_one(companion):
    client = companion.test_client()
    code, _ = links(client, "http://127.0.0.1:8000")["table"]
    first = client.get(f"/t/{code}/qr.svg", base_url="http://127.0.0.1:8000")
    assert first.headers["Cache-Control"] == "no-cache"
    again = {"If-None-Match": first.headers["ETag"]}
    assert client.get(f"/t/{code}/qr.svg", base_url="http://127.0.0.1:8000", headers=again).status_code == 304
    companion.config["PUBLIC_URL"] = "https://games.example.org/"  # the server restarted with --public-url
    renewed = client.get(f"/t/{code}/qr.svg", base_url="http://127.0.0.1:8000", headers=again)
    assert renewed.status_code == 200 and renewed.data != first.data
