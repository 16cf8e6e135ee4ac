"""Fixtures of the hostile-input suite."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def markers_dir() -> Iterator[Path]:
    """Where injected commands would write: outside the data dir and the repository roots, which
    the sandbox hides behind a tmpfs, so a marker a run creates really appears here. Tests prove
    it with a control: a trusted template variable touching a marker here."""
    with tempfile.TemporaryDirectory(prefix="steward-markers-") as name:
        yield Path(name)
