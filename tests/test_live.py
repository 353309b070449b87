"""companion.live.Hub: a publish wakes the streams of that table, none is lost between subscribing
and waiting, and with PostgreSQL it crosses connections, processes and a dropped listener."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import threading
import time

import pytest

from companion.live import Hub
from companion.store import Store
from pnp.rules.table import HOST


def nothing(log):
    """A check that allows everything."""


@pytest.fixture
def hub(store):
    hub = Hub.for_store(store)
    yield hub
    hub.close()


def test_publish_wakes_a_waiting_subscriber_of_that_table_only(hub):
    woken = {}

    def wait(code):
        with hub.subscribe(code) as subscription:
            subscription.wait(0)  # PostgreSQL: the listener's first connect wakes everyone
            ready.release()
            woken[code] = subscription.wait(5)

    ready = threading.Semaphore(0)
    threads = [threading.Thread(target=wait, args=(code,)) for code in ("AAAAAA", "BBBBBB")]
    for thread in threads:
        thread.start()
    ready.acquire()
    ready.acquire()
    started = time.monotonic()
    hub.publish("AAAAAA", 1)
    threads[0].join()
    assert woken == {"AAAAAA": True}
    assert time.monotonic() - started < 1
    hub.publish("BBBBBB", 1)
    threads[1].join()
    assert woken == {"AAAAAA": True, "BBBBBB": True}


def test_a_publish_right_after_subscribing_is_not_lost(hub):
    with hub.subscribe("AAAAAA") as subscription:
        subscription.wait(0)  # PostgreSQL: the listener's first connect wakes everyone
        hub.publish("aaa-aaa", 1)  # the same table, as typed
        assert subscription.wait(0)
        # Not a stuck flag: waits time out again once PostgreSQL has handed back our own NOTIFY.
        assert not all(subscription.wait(0.2) for _ in range(5))
    hub.publish("AAAAAA", 2)  # nobody subscribed: nothing to wake, no error


def test_a_stream_gets_every_entry_once_in_order(store, hub):
    """The event stream's loop (subscribe, read, wait, read what is new) against writers in threads."""
    code, _ = store.tables.create("magic-spell", {})
    subscribed = threading.Event()
    received = []

    def stream():
        with hub.subscribe(code) as subscription:
            subscribed.set()
            while len(received) < 30:
                received.extend(store.log.read(code, after=received[-1].seq if received else 0))
                subscription.wait(1)

    def write(actor):
        for i in range(10):
            hub.publish(code, store.log.append(code, actor, "roll", {"i": i}, nothing).seq)

    reader = threading.Thread(target=stream)
    reader.start()
    subscribed.wait(5)
    writers = [threading.Thread(target=write, args=(actor,)) for actor in ("p1", "p2", HOST)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    reader.join(10)
    assert [entry.seq for entry in received] == list(range(1, 31))


def test_a_publish_through_one_engine_wakes_a_subscriber_listening_through_another(postgresql_url):
    listening, publishing = Store(postgresql_url), Store(postgresql_url)
    listener, publisher = Hub.for_store(listening), Hub.for_store(publishing)
    with listener.subscribe("AAAAAA") as subscription:
        subscription.wait(0)
        publisher.publish("AAAAAA", 1)
        assert subscription.wait(5)
    listener.close()
    for store in (listening, publishing):
        store.close()


UNDER_GEVENT = """
from gevent import monkey

monkey.patch_all()
import sys, gevent
from companion.store import Store
from companion.live import Hub

store = Store(sys.argv[1])
hub = Hub.for_store(store)
code, _ = store.tables.create("magic-spell", {})
woken, ticks = [], []


def stream():
    with hub.subscribe(code) as subscription:
        subscription.wait(0)
        woken.append(subscription.wait(10))


def tick():
    while True:
        ticks.append(1)
        gevent.sleep(0.01)


streams = [gevent.spawn(stream) for _ in range(100)]
gevent.spawn(tick)
gevent.sleep(0.5)
assert len(ticks) > 10, "the waiting streams blocked the other greenlets"
hub.publish(code, store.log.append(code, "host", "roll", {}, lambda log: None).seq)
gevent.joinall(streams, timeout=10)
assert woken == [True] * 100, woken
"""


@pytest.mark.slow
def test_under_gevent_a_waiting_stream_holds_a_greenlet_not_the_process(store, database_url):
    """What gunicorn's gevent worker does, in a process of its own: monkeypatching is for good."""
    command = [sys.executable, "-c", UNDER_GEVENT, database_url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def subscribe_in_another_process(url, ready, woken):
    hub = Hub.for_store(Store(url))
    with hub.subscribe("AAAAAA") as subscription:
        subscription.wait(0)
        ready.set()
        woken.put(subscription.wait(10))


@pytest.mark.slow
def test_a_publish_in_one_process_wakes_a_subscriber_in_another(postgresql_url):
    spawn = multiprocessing.get_context("spawn")
    ready, woken = spawn.Event(), spawn.Queue()
    process = spawn.Process(target=subscribe_in_another_process, args=(postgresql_url, ready, woken))
    process.start()
    assert ready.wait(30)
    store = Store(postgresql_url)
    Hub.for_store(store).publish("AAAAAA", 1)
    assert woken.get(timeout=15) is True
    process.join(10)
    assert process.exitcode == 0
    store.close()


def test_the_listener_reconnects_and_wakes_everyone_when_its_connection_drops(postgresql_url):
    listening, publishing = Store(postgresql_url), Store(postgresql_url)
    listener = Hub.for_store(listening)
    with listener.subscribe("AAAAAA") as subscription:
        subscription.wait(0)
        with publishing.engine.begin() as connection:
            dropped = connection.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %(name)s",
                {"name": listener.listener_name},
            ).all()
        assert dropped
        assert subscription.wait(10)  # reconnected: anything may have been missed meanwhile
        Hub.for_store(publishing).publish("AAAAAA", 1)
        assert subscription.wait(5)
    listener.close()
    for store in (listening, publishing):
        store.close()
