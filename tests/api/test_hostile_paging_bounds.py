"""Paging positions below their floor are a 422 naming the parameter (PostgreSQL refuses a
negative OFFSET with a 500 otherwise)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

# PostgreSQL too: PostgreSQL refuses a negative OFFSET
pytestmark = [pytest.mark.both_databases, pytest.mark.security]


@pytest.mark.parametrize(
    ("path", "param", "value"),
    [
        ("/api/v1/projects", "offset", -1),
        ("/api/v1/teams", "offset", -5),
        ("/api/v1/users", "offset", -1),
    ],
)
def test_a_negative_offset_is_a_422(client: TestClient, path: str, param: str, value: int) -> None:
    response = client.get(path, params={param: value})
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["errors"][0]["field"] == f"query.{param}"


def test_offset_zero_is_the_first_page(client: TestClient) -> None:
    response = client.get("/api/v1/projects", params={"offset": 0})
    assert response.status_code == 200
    assert response.json()["offset"] == 0
