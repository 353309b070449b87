"""Companion fixtures: an app per test on a fresh database, SQLite always and PostgreSQL when
DATABASE_URL names one (a throwaway database per test, dropped afterwards)."""

from __future__ import annotations

import os
import uuid

import pytest

from companion import create_app

PG_URL = os.environ.get("DATABASE_URL", "")


def _pg_admin():
    import psycopg

    url = PG_URL.replace("postgresql+psycopg://", "postgresql://")
    return psycopg.connect(url, autocommit=True), url


def fresh_database(kind: str, tmp_path):
    """A URL of an empty database of `kind` (sqlite, postgresql) and a function that drops it."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'companion.sqlite'}", lambda: None
    if not PG_URL.startswith("postgresql"):
        pytest.skip("PostgreSQL tests run when DATABASE_URL names a PostgreSQL database")
    name = f"spellpress_{uuid.uuid4().hex[:12]}"
    admin, url = _pg_admin()
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base = PG_URL.rsplit("/", 1)[0]

    def drop() -> None:
        admin, _ = _pg_admin()
        with admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return f"{base}/{name}", drop


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    url, drop = fresh_database(request.param, tmp_path)
    yield url
    drop()


@pytest.fixture
def app(database, tmp_path):
    config = {"TESTING": True, "DATABASE_URL": database, "KEEPALIVE_SECONDS": 0.5, "INSTANCE_PATH": str(tmp_path)}
    app = create_app(config)
    yield app
    app.extensions["play"].close()


@pytest.fixture
def client(app):
    return app.test_client()
