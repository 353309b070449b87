"""Where other devices reach the companion: the address in every join link and QR code.

A page opened on the computer that runs the server, as http://127.0.0.1:8000 or localhost, would
otherwise put that name in its QR code, and no phone can open it. So links are built on the
companion's public root, chosen in this order:

1. the host's own address for it, `companion serve --public-url` (SPELLPRESS_PUBLIC_URL): a
   tunnel, a hall's DNS name, a path behind a proxy;
2. the address the page was opened at, when another device could open it too;
3. for a loopback address, the LAN address `companion serve` found, with the page's scheme and port;
4. none: the page keeps its own address and says that phones cannot open it, and how to fix that.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import urlsplit, urlunsplit

from flask import current_app, request, url_for

PUBLIC_URL_VARIABLE = "SPELLPRESS_PUBLIC_URL"
# Set by `companion serve` for its workers: the address phones reach it at, empty when there is none
# (no network, or listening on loopback only). Without it (`flask run`, tests) the app asks lan_address().
LAN_ADDRESS_VARIABLE = "SPELLPRESS_LAN_ADDRESS"


def lan_address() -> str | None:
    """This machine's address on the local network (the interface its default route uses), or
    None when it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: no packet is sent for UDP connect
            return probe.getsockname()[0]
        except OSError:
            return None


def configured_lan_address() -> str | None:
    """The LAN address `companion serve` handed its workers, else this machine's own."""
    if LAN_ADDRESS_VARIABLE in os.environ:
        return os.environ[LAN_ADDRESS_VARIABLE] or None
    return lan_address()


def checked_public_url(text: str) -> str:
    """`text` as a public root ending in "/", or ValueError saying what an acceptable one looks like."""
    parts = urlsplit(text.strip())
    try:
        parts.port  # noqa: B018 - reading it checks the port is a number in range
    except ValueError:
        parts = parts._replace(netloc="")
    unusable = parts.query or parts.fragment or any(c.isspace() for c in parts.netloc)
    if parts.scheme not in ("http", "https") or not parts.hostname or unusable:
        raise ValueError(
            f"{text!r} is not an address phones can open: give http:// or https:// and a host name, "
            "with a port if it is not the usual one, such as https://games.example.org"
        )
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/"))


def is_loopback(host: str) -> bool:
    """Whether `host` names this computer only: localhost, 127.0.0.0/8, ::1 (or 0.0.0.0)."""
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    address = getattr(address, "ipv4_mapped", None) or address
    return address.is_loopback or address.is_unspecified


def with_port(host: str, port: int | None) -> str:
    """A URL's host and port part: an IPv6 address in brackets, no port when there is none."""
    host = f"[{host}]" if ":" in host else host
    return f"{host}:{port}" if port else host


def phones_root(page_root: str, lan: str | None, public_url: str | None) -> str | None:
    """The root other devices open for a page opened at `page_root` (scheme, host, port and the
    app's path, ending in "/"); None when no address is known that they can reach."""
    if public_url:
        return public_url
    parts = urlsplit(page_root)
    if not is_loopback(parts.hostname or ""):
        return page_root
    if lan is None:
        return None
    return urlunsplit(parts._replace(netloc=with_port(lan, parts.port)))


def request_phones_root() -> str | None:
    """phones_root() for the request being answered."""
    config = current_app.config
    return phones_root(request.url_root, config["LAN_ADDRESS"], config["PUBLIC_URL"])


def public_url_for(endpoint: str, **values) -> str:
    """url_for() with the address other devices reach, for join links and QR codes; the page's own
    address when none is known (the page then says so: see request_phones_root())."""
    root = request_phones_root() or request.url_root
    path = url_for(endpoint, **values).removeprefix(request.script_root)
    return root.rstrip("/") + path
