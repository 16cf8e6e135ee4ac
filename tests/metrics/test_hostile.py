"""Host metrics as a hostile user or a hostile endpoint would try them: pmproxy URLs that
point the server at the cloud metadata service or smuggle another host in, endpoints that
answer too much, redirect or talk nonsense, and query parameters out of bounds."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from support.builders import Workbench, assert_problem, inserted_run

from steward.config import Settings
from steward.metrics import endpoints
from steward.metrics.pcp import PcpProbe, Unavailable
from steward.outbound.network import Guard
from steward.runs.status import RunStatus

pytestmark = pytest.mark.security

# the hostile endpoints below listen on 127.0.0.1, allowed as the tests' settings allow it
GUARD = Guard.of(Settings(outbound_allowed_networks=["127.0.0.1"]))


class Hostile(http.server.BaseHTTPRequestHandler):
    """Answers every request as ``answers[path]`` says: (status, headers, body)."""

    answers: ClassVar[dict[str, tuple[int, dict[str, str], bytes]]] = {}
    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        self.asked.append(path)
        status, headers, body = self.answers.get(path, (404, {}, b"{}"))
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        return None


@pytest.fixture
def hostile() -> Iterator[tuple[int, type[Hostile]]]:
    Hostile.answers, Hostile.asked = {}, []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], Hostile
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def probe(url: str, variables: dict[str, Any] | None = None) -> PcpProbe:
    endpoint = endpoints.for_host(url, "web1", variables or {"ansible_host": "127.0.0.1"})
    assert endpoint is not None
    return PcpProbe(endpoint, timeout=2, guard=GUARD, polltimeout=30)


def reason(sampler: PcpProbe) -> str:
    with pytest.raises(Unavailable) as caught:
        sampler.sample()
    sampler.close()
    return str(caught.value)


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254:44322",
        "http://[::ffff:169.254.169.254]:44322",  # the same address, IPv4-mapped
        "http://2852039166:44322",  # the same address, as one number
        "http://0.0.0.0:44322",
    ],
)
def test_an_endpoint_in_a_blocked_network_is_refused_at_save(
    workbench: Workbench, url: str
) -> None:
    body = {"name": "meta", "kind": "static", "format": "ini", "content": "web1\n"}
    response = workbench.client.post(
        workbench.url("inventories"), json={**body, "metrics_endpoint": url}
    )
    assert "blocked network" in assert_problem(response, 422, "metrics_endpoint")


@pytest.mark.parametrize(
    "variables",
    [
        {"ansible_host": "169.254.169.254"},
        {"ansible_host": "127.0.0.1", "steward_pmproxy_url": "http://169.254.169.254"},
    ],
)
def test_a_host_pointing_at_a_blocked_network_is_a_gap_without_a_connection(
    variables: dict[str, Any],
) -> None:
    # the tests refuse any connection off this machine (NetworkBlocked): a gap proves none
    # was attempted
    found = reason(probe("http://{host}:44322", variables))
    assert found.startswith("endpoint refused: "), found
    assert "blocked network 169.254.0.0/16" in found


@pytest.mark.parametrize(
    ("variables", "cause"),
    [
        ({"ansible_host": "127.0.0.1/evil@169.254.169.254"}, "must be a host name"),
        ({"ansible_host": "a b"}, "must be a host name"),
        ({"ansible_host": "{{ lookup('env', 'HOME') }}"}, "not a plain address"),
        ({"steward_pmproxy_url": "file:///etc/passwd"}, "scheme must be http or https"),
        ({"steward_pmproxy_url": "http://u:p@127.0.0.1:1"}, "credentials"),
        ({"steward_pmproxy_url": "http://127.0.0.1:1/?names=x"}, "hostspec"),
        ({"steward_pmproxy_url": ["http://127.0.0.1"]}, "must be a string"),
        ({"steward_pmproxy_url": "http://h/" + "a" * 600}, "at most 500"),
    ],
)
def test_host_variables_cannot_make_another_url(variables: dict[str, Any], cause: str) -> None:
    with pytest.raises(endpoints.Unusable, match=cause):
        endpoints.for_host("http://{host}:44322", "web1", variables)


def test_an_endpoint_answering_too_much_redirecting_or_nonsense_is_a_gap(
    hostile: tuple[int, type[Hostile]],
) -> None:
    port, handler = hostile
    url = f"http://{{host}}:{port}"
    handler.answers["/pmapi/context"] = (200, {}, b'{"context": ' + b" " * 300_000 + b"1}")
    assert reason(probe(url)) == "the endpoint's answer is larger than 256 KiB"

    handler.answers["/pmapi/context"] = (302, {"Location": "http://169.254.169.254/"}, b"")
    assert reason(probe(url)) == "not a pmproxy answer (HTTP 302, not a JSON object)"
    assert handler.asked.count("/pmapi/context") == 2  # the redirect was not followed

    handler.answers["/pmapi/context"] = (200, {}, b'{"context": 5}')
    nonsense = b'{"timestamp": "x", "values": [{"name": "kernel.all.cpu.user", "instances": 1}]}'
    handler.answers["/pmapi/fetch"] = (200, {}, nonsense)
    assert reason(probe(url)) == "not a pmproxy answer (no timestamp or values)"

    wrong = b'{"timestamp": 1, "values": [{"name": "kernel.all.cpu.user", "instances": "x"}]}'
    handler.answers["/pmapi/fetch"] = (200, {}, wrong)
    assert reason(probe(url)).startswith("PCP absent")

    said = '{"message": "' + "\\u001b[31mred\\n" * 100 + '", "success": false}'
    handler.answers["/pmapi/fetch"] = (400, {}, said.encode())
    found = reason(probe(url))
    assert found == "pmproxy answered HTTP 400"  # the status, never what the answer says


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"points": 1}, "points"),
        ({"points": 5001}, "points"),
        ({"points": 10**30}, "points"),
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"offset": -1}, "offset"),
        ({"series": "cpu.user,../../etc"}, "series"),
        ({"series": ","}, "series"),
        ({"series": "cpu.user," * 200}, "series"),
        ({"kind": "pmcd"}, "kind"),
        ({"host": "x" * 256}, "host"),
        ({"from": "not a time"}, "from"),
        ({"from": "2026-01-02T00:00:00Z", "to": "2026-01-01T00:00:00Z"}, "to"),
        ({"format": "xml"}, "format"),
    ],
)
def test_bad_parameters_are_a_422_naming_them(
    workbench: Workbench, params: dict[str, Any], field: str
) -> None:
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        run = inserted_run(workbench.project_id, workbench.template("ok.yml"), RunStatus.FAILED)
        session.add(run)
        session.commit()
        run_id = run.id
    # the export has every sample of every lane, in a format the view has not
    paths = {"points": ("metrics",), "limit": ("metrics",), "offset": ("metrics",)}
    paths["format"] = ("metrics/export",)
    for path in paths.get(field, ("metrics", "metrics/export")):
        response = workbench.client.get(workbench.url(f"runs/{run_id}/{path}"), params=params)
        assert_problem(response, 422, field)


@pytest.mark.parametrize(
    "window",
    [
        {"from": "0001-01-01T00:00:00Z", "to": "9999-12-31T23:59:59Z"},
        {"from": "1969-01-01T00:00:00Z"},
        {"to": 1e12},
    ],
)
def test_extreme_windows_are_answered(workbench: Workbench, window: dict[str, Any]) -> None:
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        run = inserted_run(workbench.project_id, workbench.template("ok.yml"), RunStatus.FAILED)
        session.add(run)
        session.commit()
        run_id = run.id
    response = workbench.client.get(workbench.url(f"runs/{run_id}/metrics"), params=window)
    assert response.status_code == 200, response.text
    assert response.json()["lanes"] == []


def test_another_projects_run_has_no_metrics_here(workbench: Workbench) -> None:
    other = workbench.client.post("/api/v1/projects", json={"name": "other"}).json()["id"]
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        run = inserted_run(workbench.project_id, workbench.template("ok.yml"), RunStatus.FAILED)
        session.add(run)
        session.commit()
        run_id = run.id
    for path in ("metrics", "metrics/export"):
        response = workbench.client.get(f"/api/v1/projects/{other}/runs/{run_id}/{path}")
        assert_problem(response, 404, f"run {run_id}")
