"""The app of these tests ticks its notifier every 0.1 s and retries after 0.2 s, 0.4 s, …"""

from __future__ import annotations

import pytest

from steward.config import Settings

BASE_URL = "https://steward.example"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(
        update={
            "notifier_tick_seconds": 0.1,
            "notify_backoff_seconds": 0.2,
            "notify_max_attempts": 3,
            "notify_timeout_seconds": 5.0,
            "url": BASE_URL,
        }
    )
