"""``steward serve`` settles what start-up made out of the garbage collector's reach before
serving (``server.settle``): a full collection no longer scans it during a request."""

from __future__ import annotations

import subprocess
import sys

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
