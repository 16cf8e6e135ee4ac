from __future__ import annotations

import pytest

from steward.config import Settings


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Two samples a second, written every second: a run of a few seconds has enough of them.
    A sample waits up to 10 s for its answer: long enough to see if a run waited for one."""
    return settings.model_copy(
        update={
            "metrics_interval_seconds": 0.5,
            "metrics_flush_seconds": 1.0,
            "metrics_timeout_seconds": 10.0,
        }
    )
