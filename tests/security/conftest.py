from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from runs.workbench import Workbench


@pytest.fixture
def workbench(client: TestClient, tmp_path: Path) -> Workbench:
    return Workbench(client, tmp_path)
