"""The server's dice are fair, and an event's can be recomputed by anyone from its revealed seed.

Uniformity is a chi-square test that can never fail a CI run by chance:
- an event's dice come from a seed, so they are tested from fixed seeds: the same rolls every run;
- a table's dice come from the operating system's secure generator, which cannot be seeded, so
  they are tested at a threshold a fair die crosses once in a billion runs, with enough rolls that
  the classic modulo-biased die is still caught all but once in a billion (its power is computed,
  and the biased die, drawn from a seeded generator, is shown to fail the same test).
Recomputing: a whole event is played through the API and every roll every table got is
recomputed with the code the README gives, from the seed revealed at the end, after checking it
against the digest shown at the start."""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from pnp.rules.chance import SecureChance, seeded_die
from tests.support.api import bearer, join

EVENT_ROLLS = 100_000  # rounds per seed
SECURE_ROLLS = 500_000
REJECT = 1e-9  # a fair secure die fails this once in a billion runs (four dice: 4 in a billion)
DICE = [("d6", 6), ("d8", 8), ("d10", 10), ("d12", 12)]
SEEDS = [hashlib.sha256(f"spellpress fairness {n}".encode()).hexdigest() for n in range(3)]
README = Path(__file__).resolve().parent.parent / "README.md"


def p_value(results: list[int], faces: int) -> float:
    from scipy.stats import chisquare  # imported when used: scipy costs every worker a second at collection

    counts = Counter(results)
    assert set(counts) == set(range(1, faces + 1)), f"faces seen: {sorted(counts)}"
    return chisquare([counts[face] for face in range(1, faces + 1)]).pvalue


@pytest.mark.parametrize("die, faces", DICE)
def test_a_tables_dice_are_uniform(die, faces):
    chance = SecureChance()  # the table's own, from the operating system's secure generator
    assert p_value([chance.dice(1, [(die, faces)])[die] for _ in range(SECURE_ROLLS)], faces) > REJECT


@pytest.mark.parametrize("die, faces", DICE)
def test_an_events_dice_are_uniform(die, faces):
    # each seed's rounds: the round is what changes from one roll to the next
    rolls = [seeded_die(seed, r, die, faces) for seed in SEEDS for r in range(1, EVENT_ROLLS + 1)]
    assert p_value(rolls, faces) > REJECT


def modulo_biased_d12(rng: random.Random) -> int:
    """A byte taken modulo 12: 256 is not a multiple of 12, so 1 to 4 come up 22 times in 256,
    the others 21."""
    return rng.getrandbits(8) % 12 + 1


def test_the_secure_dice_test_catches_a_modulo_biased_d12():
    """The table's dice test would see the biased die: it fails this seeded sample, and the
    chance that any sample of that size passes is below one in a billion."""
    rng = random.Random(20261125)
    assert p_value([modulo_biased_d12(rng) for _ in range(SECURE_ROLLS)], 12) < REJECT
    from scipy.stats import chi2, ncx2

    chances = [22 / 256] * 4 + [21 / 256] * 8
    noncentrality = SECURE_ROLLS * sum((p - 1 / 12) ** 2 * 12 for p in chances)
    power = ncx2.sf(chi2.isf(REJECT, df=11), df=11, nc=noncentrality)
    assert power > 1 - 1e-9


def test_the_events_dice_test_catches_a_modulo_biased_d12():
    rng = random.Random(20261126)
    assert p_value([modulo_biased_d12(rng) for _ in range(EVENT_ROLLS * len(SEEDS))], 12) < REJECT


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
        rolled = client.post(
            f"/api/events/{created['code']}/roll", json={"round": round_, "ahead": True}, headers=organiser
        )
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
