"""Shared helpers: PDFs built once per session through the library and parsed once, the CLI run
through click's CliRunner, --content folders written on the fly, and the companion's database."""

from __future__ import annotations

import os
import random
import secrets
import tempfile
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from filelock import FileLock
from sqlalchemy import create_engine, make_url

import pnp.build
from companion.store import Store
from pnp.build import Game, build, open_game
from pnp.cli import main
from pnp.components.templates import load_templates
from pnp.gamedef import game
from pnp.imposition import Options
from pnp.paths import CONTENT
from pnp.render.fonts import STYLES, static_instance
from pnp.units import MM
from tests.support.http import CHANCE_SEED
from tests.support.pdfcards import read


def pytest_configure(config):
    """Every font style made before any test runs (once per machine, by the main process, not by
    each worker at once): a test of the CLI's words then never reads the first-use notice."""
    if not hasattr(config, "workerinput"):
        for style in STYLES:
            static_instance(style)


def pytest_collection_modifyitems(items):
    """Markers from the fixtures a test uses, so a new test is marked as it is written: Chromium
    makes it a browser test, the session's PDFs a pdf test, PostgreSQL a postgres test; browser
    and pdf tests take seconds (a browser, the builds), so they are slow too (pyproject.toml)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        params = item.callspec.params if hasattr(item, "callspec") else {}
        if fixtures & {"chromium", "chromium_session"}:
            item.add_marker("browser")
        if fixtures & {"built", "built_pdf"}:
            item.add_marker("pdf")
        if "postgresql_url" in fixtures or params.get("database_url") == "postgresql":
            item.add_marker("postgres")
        if item.get_closest_marker("browser") or item.get_closest_marker("pdf"):
            item.add_marker("slow")


def invoke(*args: str):
    """`pnp ARGS` through click's CliRunner. Whatever the exit status, a traceback is a failure:
    the CLI reports a user's mistakes as problems, never as a crash."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr, result.stderr
    return result


def overlay(root: Path, game_id: str, files: dict[str, str]) -> Path:
    """A --content folder: root/<game>/<name> holding each file's text; returns root."""
    folder = root / game_id
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return root


@cache
def bundled(game_id: str) -> Game:
    """The shipped game, opened (content and templates, validated) once per process, for the tests
    that only read it: several files opened every game while being collected, others once a test."""
    return open_game(game(game_id), [CONTENT])


@pytest.fixture(scope="module")
def scratch():
    """A temporary folder for a module's examples, which a function-scoped tmp_path cannot serve
    (hypothesis runs many examples in one test call)."""
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


@pytest.fixture(scope="module")
def templates_read_once():
    """The shipped templates, the same for every example (an overlay holds content only), read once
    rather than at each of the two papers a check lays out: they were 60% of a check's time, which
    then goes to the examples. A module asks for it with pytest.mark.usefixtures."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pnp.build, "load_templates", cache(load_templates))
        yield


def shared_folder(tmp_path_factory, name: str) -> Path:
    """A folder for the whole run. Under pytest-xdist every worker gets the same one (their base
    temporary folders are siblings), so what one worker writes there the others can use."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return tmp_path_factory.mktemp(name)
    folder = tmp_path_factory.getbasetemp().parent / name
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """built(game, paper=..., backs=..., bleed=..., offset=(x, y) mm, ink_saver=..., gutters=...) -> Path.

    Each PDF is built once per run: its file is named by its options, and under pytest-xdist the
    first worker to ask builds it under a file lock while the others wait and then read it."""
    root = shared_folder(tmp_path_factory, "pdfs")

    def make(
        game="spells-and-potions",
        paper="a4",
        backs="duplex-long",
        bleed=3.0,
        offset=(0.0, 0.0),
        ink_saver=False,
        gutters=False,
    ):
        name = f"{game}-{paper}-{backs}-bleed{bleed:g}-offset{offset[0]:g},{offset[1]:g}"
        path = root / f"{name}{'-ink-saver' * ink_saver}{'-gutters' * gutters}.pdf"
        with FileLock(path.with_suffix(".lock")):
            if not path.exists():
                options = Options(paper, backs, (offset[0] * MM, offset[1] * MM), bleed * MM, ink_saver, gutters)
                partial = path.with_suffix(".partial")  # a worker killed mid-build leaves no PDF behind
                build(game, [CONTENT], options, partial)
                partial.replace(path)
        return path

    return make


@pytest.fixture(scope="session")
def qpdf():
    """qpdf(path) -> what `qpdf --check` finds wrong with the PDF, "" for nothing (tests/qpdf.py)."""
    from tests.support.qpdf import found, problems

    path = found()
    return lambda pdf: problems(path, pdf)


@pytest.fixture(scope="session")
def built_pdf(built):
    """built_pdf(same arguments as built) -> BuiltPdf: each PDF built once per run, parsed once per worker."""
    return lambda **options: read(built(**options))


# The companion's database: SQLite in tmp_path always, PostgreSQL too when DATABASE_URL names one
# (each test in a schema of its own, dropped afterwards, so runs are isolated and repeatable).
POSTGRESQL_SKIP = "set DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test to test against PostgreSQL"


@pytest.fixture(scope="session")
def postgresql_database():
    """DATABASE_URL; under pytest-xdist, a database of this worker's own beside it, made for the run
    and dropped after it. Schemas keep tables apart, but NOTIFY channels and advisory locks span a
    database, and the live tests listen on fixed table codes."""
    base = os.environ.get("DATABASE_URL")
    if not base:
        pytest.skip(POSTGRESQL_SKIP)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        yield base
        return
    url = make_url(base)
    name = f"{url.database}_{os.environ['PYTEST_XDIST_TESTRUNUID'][:12]}_{worker}"  # two runs at once stay apart
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    yield url.set(database=name).render_as_string(False)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')  # a server a test left running
    admin.dispose()


@contextmanager
def fresh_schema(base: str):
    """A URL whose connections work in a fresh, empty schema of the database at `base`, dropped after."""
    schema = f"test_{secrets.token_hex(6)}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    yield make_url(base).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(False)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    admin.dispose()


@pytest.fixture
def postgresql_url(postgresql_database):
    """A URL whose connections work in a fresh, empty schema of this run's PostgreSQL database."""
    with fresh_schema(postgresql_database) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    return request.getfixturevalue("postgresql_url")


@pytest.fixture
def store(database_url):
    store = Store(database_url)
    store.migrate()
    yield store
    store.close()


@pytest.fixture
def app(database_url, tmp_path):
    """The companion on a fresh database (SQLite, and PostgreSQL with DATABASE_URL), built by its
    factory, its chance seeded."""
    from companion import create_app

    config = {
        "TESTING": True,
        "DATABASE_URL": database_url,
        "KEEPALIVE_SECONDS": 0.5,
        "INSTANCE_PATH": str(tmp_path),
        "CHANCE": random.Random(CHANCE_SEED),  # every deal and roll the same in every run
        # a computer player moves at once, within the request that woke it: one order of moves
        "COMPUTER_PAUSE": 0,
        "COMPUTERS_INLINE": True,
    }
    app = create_app(config)
    yield app
    app.extensions["play"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """One real server (`companion serve`, SQLite) for a module's tests, each making its own
    tables and events: its port."""
    from tests.support.http import free_port, server

    folder = tmp_path_factory.mktemp("live")
    with server(f"sqlite:///{folder / 'companion.sqlite3'}", folder, port=free_port()) as port:
        yield port


@pytest.fixture(scope="session")
def chromium_session():
    """Debian's Chromium, headless, shared by every browser test (tests/support/browser.py)."""
    from tests.support.browser import launched

    yield from launched()


@pytest.fixture
def chromium(chromium_session):
    """The session's Chromium, watched for this test: an uncaught error, a console error or a server
    error on any page the test opened fails it (tests/support/browser.py's Watched)."""
    from tests.support.browser import Watched

    watched = Watched(chromium_session)
    yield watched
    watched.close()
    assert watched.errors == [], "the pages reported errors:\n" + "\n".join(watched.errors)
