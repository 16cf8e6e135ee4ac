from __future__ import annotations

import pytest
from support.workflows import fast

from steward.config import Settings


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The usual settings, with a workflows ticker of 0.1 s."""
    return fast(settings)
