"""``steward serve`` settles what start-up made out of the garbage collector's reach once it
has started (``server.settle``), and what its first requests keep at its first full
collections: a full collection no longer scans it during a request."""

from __future__ import annotations

import subprocess
import sys

from steward.server import LATE_SETTLES, LATE_SURVIVORS

PROBE = """
import gc
from steward import app  # the modules a server imports
from steward.server import settle
before = gc.get_freeze_count()
gc.disable()  # as `steward serve` builds the app
settle()
print(before, gc.get_freeze_count(), gc.isenabled())
"""


def test_settling_freezes_what_start_up_made() -> None:
    # in a process of its own: frozen objects stay frozen for the process's life
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    frozen_before, frozen_after, enabled = out.stdout.split()
    before, after = int(frozen_before), int(frozen_after)
    assert enabled == "True"  # collecting again from here, what came after the start only
    assert before < 1000  # control: next to nothing frozen until then (a library's own)
    assert after - before > 50_000


LATE = """
import gc
from steward.server import LATE_SETTLES, LATE_SURVIVORS, settle
gc.disable()
settle()
kept = []
for _ in range(LATE_SETTLES + 1):
    before = gc.get_freeze_count()
    kept.append([[] for _ in range(100)])  # a few survivors: left to the collector
    gc.collect()
    few = gc.get_freeze_count() - before
    kept.append([[] for _ in range(LATE_SURVIVORS)])  # many, as the first requests make
    gc.collect()
    print(few, gc.get_freeze_count() - before - few)
"""


def test_what_the_first_requests_keep_is_frozen_a_few_times() -> None:
    out = subprocess.run(
        [sys.executable, "-c", LATE], capture_output=True, text=True, check=True, timeout=120
    )
    rounds = [tuple(int(n) for n in line.split()) for line in out.stdout.splitlines()]
    assert len(rounds) == LATE_SETTLES + 1
    for few, many in rounds[:LATE_SETTLES]:
        assert few < 100  # a full collection that finds few alive freezes nothing
        assert many >= LATE_SURVIVORS  # one that finds many freezes them: no longer scanned
    assert rounds[-1][1] < LATE_SURVIVORS  # then no more: among them, cyclic garbage stays


SERVED = """
import asyncio, gc, os, signal
from contextlib import asynccontextmanager
from fastapi import FastAPI
from steward.server import serve

made = []

@asynccontextmanager
async def lifespan(_app):
    made.extend([] for _ in range(10_000))  # as the queue and the loops make when they start
    asyncio.get_running_loop().call_later(0.3, os.kill, os.getpid(), signal.SIGTERM)
    yield

signal.signal(signal.SIGTERM, lambda *_: None)  # what uvicorn raises again once it stopped
gc.disable()  # as `steward serve` starts
status = serve(FastAPI(lifespan=lifespan), host="127.0.0.1", port=0, log_level="warning")
print(status, gc.isenabled(), any(o is made[0] for o in gc.get_objects()))
"""


def test_serving_settles_once_started() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SERVED], capture_output=True, text=True, check=True, timeout=120
    )
    status, enabled, scanned = out.stdout.split()
    assert (status, enabled) == ("0", "True")
    assert scanned == "False"  # what the app's start made is frozen: no collection scans it
