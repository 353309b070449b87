"""`companion serve`: the companion for real use, on gunicorn with gevent workers.

Phones on the same Wi-Fi open the address it prints (also as a QR code in the terminal): its
address on the network, or the --public-url it was given (companion/address.py). One
worker keeps live events in memory; several workers (or machines) need PostgreSQL, whose
LISTEN/NOTIFY carries each new event to every worker.

A game kept outside pnp.games (the tests' example game) is served when the environment names its
package and its panel's folder (SPELLPRESS_GAMES, SPELLPRESS_GAME_PANELS; see companion/__init__.py)
and --content its content folder; its content is checked at the start with every other game's.
"""

from __future__ import annotations

import gc
import ipaddress
import os
import socket
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import urlsplit

import click
from gunicorn.app.base import BaseApplication

from companion import LIMITS_STORAGE_VARIABLE, TRUSTED_PROXIES_VARIABLE
from companion.address import (
    LAN_ADDRESS_VARIABLE,
    PUBLIC_URL_VARIABLE,
    checked_public_url,
    is_loopback,
    lan_address,
    phones_root,
    with_port,
)
from pnp.cli_types import Place, WholeNumber


def self_signed(folder: Path, address: str | None) -> tuple[Path, Path]:
    """A certificate for this address and localhost, made once and kept in the instance folder."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    cert_path, key_path = folder / "companion-cert.pem", folder / "companion-key.pem"
    if cert_path.exists() and key_path.exists():
        return cert_path, key_path
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Spellpress companion")])
    now = datetime.datetime.now(datetime.UTC)
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    if address:
        names.append(x509.IPAddress(ipaddress.ip_address(address)))
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=365))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    key_path.chmod(0o600)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


FILE = Place("file", existing=True)

# How many connections one gevent worker serves at once. Every phone following a table holds one
# open event stream for as long as it watches, so gunicorn's default of 1000 would leave a room of
# 2,000 phones half waiting to be accepted; a greenlet and a socket cost little, the open-files
# limit (`ulimit -n`) is what bounds this in practice.
WORKER_CONNECTIONS = 10_000


def _public_url(_context, _parameter, value: str | None) -> str | None:
    """--public-url checked before anything starts: a mistyped one would print links nobody can open."""
    try:
        return checked_public_url(value) if value else None
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


def _limits_storage(_context, _parameter, value: str | None) -> str | None:
    """--limits-storage checked before anything starts: each worker would otherwise fail to boot
    on it, in the limits library's words."""
    if not value:
        return None
    scheme = urlsplit(value).scheme
    if scheme not in ("memory", "redis", "rediss"):
        raise click.BadParameter(f"expected memory:// or redis://host:port, got {value!r}")
    if scheme != "memory" and find_spec("redis") is None:
        raise click.BadParameter(f"{value} needs the redis package: pip install redis")
    return value


@click.group()
def main() -> None:
    """The Spellpress companion: a phone at the table."""


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", type=WholeNumber(1, 65535), default=8000, show_default=True)
@click.option("--workers", type=WholeNumber(1, 64), default=1, show_default=True)
@click.option(
    "--content",
    "extra",
    multiple=True,
    type=Place("folder", existing=True),
    help="A content folder laid over the bundled one, as for `pnp build` (repeatable).",
)
@click.option("--database", envvar="DATABASE_URL", help="Database URL; default: SQLite in the instance folder.")
@click.option("--tls", is_flag=True, help="Serve HTTPS (phones need it to keep the screen on and to install the app).")
@click.option("--cert", type=Place("file", existing=True), help="With --tls: your certificate.")
@click.option("--key", type=Place("file", existing=True), help="With --tls: its private key.")
@click.option(
    "--public-url",
    envvar=PUBLIC_URL_VARIABLE,
    callback=_public_url,
    help="The address phones open, for join links and QR codes (a tunnel, a hall's DNS name); "
    "default: this computer's address on the network.",
)
@click.option(
    "--limits-storage",
    envvar=LIMITS_STORAGE_VARIABLE,
    callback=_limits_storage,
    help="Where wrong join codes are counted, shared by every worker (redis://host:6379, with the "
    "redis package installed); default: in each worker's memory, so each counts its own.",
)
@click.option(
    "--trusted-proxies",
    type=WholeNumber(0, 5),
    default=0,
    envvar=TRUSTED_PROXIES_VARIABLE,
    show_default=True,
    help="How many reverse proxies in front of the server write X-Forwarded-For (it names the phone "
    "whose wrong codes are counted); 0: the header is ignored, as anyone can write it.",
)
def serve(host, port, workers, extra, database, tls, cert, key, public_url, limits_storage, trusted_proxies) -> None:
    """Serve the companion to the phones on this network."""
    if workers > 1 and not (database or "").startswith("postgresql"):
        raise click.UsageError("several --workers need PostgreSQL (--database postgresql+psycopg://...)")
    if bool(cert) != bool(key):
        raise click.UsageError("give --cert and --key together")
    if database:
        os.environ["DATABASE_URL"] = database
    if extra:
        os.environ["SPELLPRESS_CONTENT"] = os.pathsep.join(str(p.resolve()) for p in extra)

    # The content is checked here, once, so a mistake in a user's cards is one clear message; the
    # database is opened only by the workers (each migrates under a lock), as psycopg must be
    # imported after gevent patches the worker to cooperate with it.
    _check_content(extra)
    _check_pause()
    from companion import instance_folder

    # The address phones reach, handed to the workers for their join links: none when listening on loopback only.
    everywhere = host in ("0.0.0.0", "::")
    address = lan_address() if everywhere else None if is_loopback(host) else host
    os.environ[LAN_ADDRESS_VARIABLE] = address or ""
    if public_url:
        os.environ[PUBLIC_URL_VARIABLE] = public_url
    if limits_storage:
        os.environ[LIMITS_STORAGE_VARIABLE] = limits_storage
    os.environ[TRUSTED_PROXIES_VARIABLE] = str(trusted_proxies)
    # A live stream never ends by itself, so a graceful stop would always wait out its timeout;
    # 5 s lets actions in flight finish, and the phones reconnect to whatever serves next.
    options = {"bind": f"{host}:{port}", "workers": workers, "worker_class": "gevent", "timeout": 60}
    options["worker_connections"] = WORKER_CONNECTIONS
    options["graceful_timeout"] = 5
    if tls:
        cert, key = (cert, key) if cert else self_signed(Path(instance_folder()), address)
        options |= {"certfile": str(cert), "keyfile": str(key)}
    here = f"{'https' if tls else 'http'}://{with_port('127.0.0.1' if everywhere else host, port)}/"
    server = _Server(options)
    _preflight(server, host, port)
    _announce(here, phones_root(here, address, public_url), tls and not cert)
    server.run()


def _check_content(extra: tuple[Path, ...]) -> None:
    """Every tracked game's content, those the environment adds among them (companion.configured_games)."""
    from companion import configured_games
    from pnp.content.game import load_game
    from pnp.content.problems import ContentError
    from pnp.paths import CONTENT

    problems = []
    for game in configured_games().values():
        if game.tracker:
            try:
                load_game(game, [CONTENT, *extra])
            except ContentError as err:
                problems += err.problems
    if problems:
        for problem in problems:
            click.echo(str(problem), err=True)
        raise SystemExit(2)


def _check_pause() -> None:
    """The computer players' pause from the environment, checked before anything starts."""
    from companion import COMPUTER_PAUSE_VARIABLE, pause

    try:
        pause(os.environ.get(COMPUTER_PAUSE_VARIABLE))
    except ValueError as err:
        raise click.ClickException(str(err)) from None


def _preflight(server: _Server, host: str, port: int) -> None:
    """Stop with a clear message before the address is printed, so nobody walks to a server that
    then fails: the worker class must load (gevent's needs packages a plain install could miss)
    and the port must be free."""
    try:
        _ = server.cfg.worker_class  # the property loads and sets up the class, as the arbiter will
    except Exception as err:  # gunicorn wraps any failure in RuntimeError; the import error is the cause
        cause = err.__context__ or err
        raise click.ClickException(
            f"the server's gevent worker cannot load ({type(cause).__name__}: {cause}); "
            "reinstall Spellpress (pip install -e .) to bring in what it needs"
        ) from None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except OSError as err:
        raise click.ClickException(
            f"cannot listen on {host}: no such address here ({err.strerror or err}); "
            "give --host an address of this machine, or 0.0.0.0 for all of them"
        ) from None
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds: TIME_WAIT is free
            probe.bind(address)
    except OSError as err:
        raise click.ClickException(
            f"cannot listen on {host}:{port} ({err.strerror or err}); another server may be using the port: "
            "stop it or choose another --port"
        ) from None


def _announce(here: str, url: str | None, self_signed_cert: bool) -> None:
    """The address phones open, as the host page's join links have it (companion/address.py)."""
    import segno

    if url is None:
        click.echo(
            f"Spellpress companion: this computer opens {here}, but phones cannot (the server listens on "
            "this computer alone, or it is on no network). Join the phones' Wi-Fi and serve on every "
            "interface (the default --host 0.0.0.0), or give --public-url."
        )
        return
    click.echo(f"Spellpress companion: phones open {url}")
    segno.make(url, error="m").terminal(compact=True)
    if self_signed_cert:
        click.echo("The certificate is self-signed: each phone asks once to trust it.")


class _Server(BaseApplication):
    """gunicorn run in-process, each worker building its own app (its own database connections)."""

    def __init__(self, options: dict):
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.options.items():
            self.cfg.set(name, value)

    def load(self):
        from companion import create_app

        app = create_app()
        play = app.extensions["play"]
        for game in play.trackable():  # loaded now, for the freeze below to take too
            play.content(game)
        # All the worker has made so far (modules, the app, every game's content and rules) lives
        # as long as it does: frozen, the cycle collector never scans it again. And it runs less
        # often than Python's default (every 700 new objects): an event's roll makes its tables'
        # states anew, some 100,000 objects that reference counting frees, and at the default the
        # collections they set off were about a third of the worker's time for a roll of 200 tables.
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)
        return app
