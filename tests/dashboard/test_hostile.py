"""The dashboard's query as a hostile caller writes it: days outside 1..90, zones that are paths,
huge or hold NUL bytes, unknown parameters of absurd size; each a 422 naming the parameter and
the cause, never a 500. Anonymous callers get nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import browser

from steward.bounds import TIMEZONE_NAME_MAX

pytestmark = pytest.mark.security


def _refused(client: TestClient, field: str, **params: Any) -> str:
    response = client.get("/api/v1/dashboard", params=params)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert field in body["detail"] or any(field in e["field"] for e in body.get("errors", []))
    return str(body)


@pytest.mark.parametrize("days", [0, -1, 91, 10**9, 2**63, "1e3", "", "14; drop table runs"])
def test_days_outside_1_to_90_are_refused(client: TestClient, days: object) -> None:
    _refused(client, "days", days=days)


@pytest.mark.parametrize(
    "tz",
    [
        "../../etc/passwd",
        "../../etc",
        "/etc/localtime",
        "localtime",  # the server's own zone file, not a place
        "Europe/Berlin\x00",
        "\x00",
        "Europe/../Europe/Berlin",
        "UTC' OR '1'='1",
        "x" * (TIMEZONE_NAME_MAX + 1),
        "E" * 60_000,  # near the URL length the client allows
        "",
    ],
)
def test_zones_that_are_not_iana_names_are_refused(client: TestClient, tz: str) -> None:
    detail = _refused(client, "tz", tz=tz)
    assert re.search("not an IANA time zone|at most 64 characters|at least 1 character", detail)


def test_a_refused_zone_says_why(client: TestClient) -> None:
    response = client.get("/api/v1/dashboard", params={"tz": "Mars/Olympus_Mons"})
    assert response.status_code == 422
    assert "'Mars/Olympus_Mons' is not an IANA time zone" in response.json()["detail"]
    long = client.get("/api/v1/dashboard", params={"tz": "x" * 1000})
    assert long.status_code == 422
    assert str(TIMEZONE_NAME_MAX) in long.text


def test_the_valid_edges_are_answered(client: TestClient) -> None:
    edges: list[dict[str, str | int]] = [
        {"days": 1},
        {"days": 90, "tz": "Pacific/Chatham"},  # +13:45 in summer
        {"tz": "Asia/Kathmandu"},  # +05:45
    ]
    for params in edges:
        response = client.get("/api/v1/dashboard", params=params)
        assert response.status_code == 200, response.text
        assert len(response.json()["per_day"]) == params.get("days", 14)


def test_an_anonymous_caller_gets_a_401(client: TestClient) -> None:
    response = browser(client).get("/api/v1/dashboard")
    assert response.status_code == 401
