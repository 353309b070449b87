"""The server's dice are fair, and an event's can be recomputed by anyone from its revealed seed.

Uniformity: each die, from both sources (a table's secure generator and an event's seed), is
rolled 100,000 times and a chi-square test must not reject a fair die at the 1-in-100,000 level;
the same test does reject a die made with the classic modulo bias, so it can fail. Recomputing: a
whole event is played through the API and every roll every table got is recomputed with the
code the README gives, from the seed revealed at the end, after checking it against the digest
shown at the start."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import chisquare

from pnp.rules.chance import new_seed, secure_die, seeded_die
from tests.test_companion_api import bearer, join

ROLLS = 100_000
REJECT = 1e-5  # a fair die fails this once in 100,000 runs
DICE = [("d6", 6), ("d8", 8), ("d10", 10), ("d12", 12)]
README = Path(__file__).resolve().parent.parent / "README.md"


def p_value(results: list[int], faces: int) -> float:
    counts = Counter(results)
    assert set(counts) == set(range(1, faces + 1)), f"faces seen: {sorted(counts)}"
    return chisquare([counts[face] for face in range(1, faces + 1)]).pvalue


@pytest.mark.parametrize("die, faces", DICE)
def test_a_tables_dice_are_uniform(die, faces):
    assert p_value([secure_die(faces) for _ in range(ROLLS)], faces) > REJECT


@pytest.mark.parametrize("die, faces", DICE)
def test_an_events_dice_are_uniform(die, faces):
    seed = new_seed()
    # 100,000 rounds of one seed: the round is what changes from one roll to the next
    assert p_value([seeded_die(seed, r, die, faces) for r in range(1, ROLLS + 1)], faces) > REJECT


def test_the_chi_square_test_catches_a_modulo_biased_d12():
    """A byte taken modulo 12: 256 is not a multiple of 12, so 1 to 4 come up 22 times in 256,
    the others 21. The test must see it."""
    biased = [secrets.randbits(8) % 12 + 1 for _ in range(ROLLS)]
    assert p_value(biased, 12) < REJECT


def readme_event_die():
    """The README's `event_die`, run as written."""
    block = re.search(r"```python\n(import hashlib\nimport hmac\n.*?def event_die.*?)```", README.read_text(), re.S)
    assert block, "the README's 'Checking an event's dice' code block is missing"
    namespace: dict = {}
    exec(block.group(1), namespace)  # noqa: S102 - our own README, the point is to run it as a reader would
    return namespace["event_die"]


def test_the_readme_code_recomputes_a_whole_events_rolls_from_its_revealed_seed(client):
    created = client.post("/api/events", json={"game": "merchants-of-magick", "name": "Club night"}).json
    organiser = bearer(created["organiser_token"])
    digest = created["seed_sha256"]
    assert created["seed"] is None
    tables = []
    for host_name in ("Ann", "Bo"):
        table = client.post(f"/api/events/{created['code']}/tables", json={}).json
        join(client, table["code"], host_name)
        client.post(f"/api/tables/{table['code']}/actions", json={"type": "start"}, headers=bearer(table["host_token"]))
        tables.append(table["code"])
    rounds = created["rounds"]
    for round_ in range(1, rounds + 1):
        rolled = client.post(f"/api/events/{created['code']}/roll", json={"round": round_}, headers=organiser)
        assert rolled.status_code == 200 and rolled.json["tables"] == 2, rolled.json
    assert client.get(f"/api/events/{created['code']}").json["seed"] is None  # not before the end
    ended = client.post(f"/api/events/{created['code']}/end", headers=organiser).json
    seed = ended["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == digest == ended["seed_sha256"]

    event_die = readme_event_die()
    expected = [{die: event_die(seed, r, die, faces) for die, faces in DICE} for r in range(1, rounds + 1)]
    for code in tables:
        history = client.get(f"/api/tables/{code}/history").json["history"]
        got = [e["payload"]["dice"] for e in history if e["type"] == "roll"]
        assert got == expected
    assert [r["dice"] for r in ended["rolls"]] == expected
