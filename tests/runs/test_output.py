"""Reading output back: live SSE with resume, paging, filters, and a 200,000-line run."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.orm import Session
from support.builders import Workbench
from support.sse import messages as _sse

from steward.ansi import ANSI
from steward.runs import output
from steward.runs.bell import BELL, ring_after_commit
from steward.runs.models import RunOutput


def test_live_stream_shows_lines_while_running_and_resumes_without_gaps(
    workbench: Workbench,
) -> None:
    run = workbench.launch(workbench.template("slow.yml", timeout_seconds=4))
    url = workbench.url(f"runs/{run['id']}/stream")
    seen_while_running: list[int] = []
    with workbench.client.stream("GET", url) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        body = ""
        for chunk in response.iter_text():
            body += chunk
            messages = _sse(body)
            if (
                any(e == "lines" for _, e, _ in messages)
                and workbench.run(run["id"])["status"] == "running"
            ):
                seen_while_running = [
                    line["n"] for _, e, d in messages if e == "lines" for line in d["lines"]
                ]
                break
    assert seen_while_running, "no line arrived while the run was running"

    workbench.wait(run["id"])
    everything = _sse(workbench.client.get(url).text)
    numbers = [line["n"] for _, e, d in everything if e == "lines" for line in d["lines"]]
    total = workbench.run(run["id"])["line_count"]
    assert numbers == list(range(total))
    assert everything[-1][1] == "end"
    assert everything[-1][2]["status"] == "timed_out"

    middle = total // 2
    resumed = _sse(workbench.client.get(url, headers={"Last-Event-ID": str(middle)}).text)
    again = [line["n"] for _, e, d in resumed if e == "lines" for line in d["lines"]]
    assert again == list(range(middle + 1, total))
    by_query = _sse(workbench.client.get(url, params={"after": middle}).text)
    assert [line["n"] for _, e, d in by_query if e == "lines" for line in d["lines"]] == again


def test_a_stream_is_woken_by_commits_not_by_a_clock(
    workbench: Workbench, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the fallback read two minutes away, only the bells rung by the claim, the
    recorder's commits and the final status can bring the lines and the end in time."""
    monkeypatch.setattr(output, "STREAM_QUIET_SECONDS", 120.0)
    started = time.monotonic()
    run = workbench.launch(workbench.template("slow.yml", timeout_seconds=3))
    url = workbench.url(f"runs/{run['id']}/stream")
    statuses: list[str] = []
    with workbench.client.stream("GET", url) as response:
        body = "".join(response.iter_text())
    elapsed = time.monotonic() - started
    messages = _sse(body)
    statuses = [d["status"] for _, e, d in messages if e == "status"]
    numbers = [line["n"] for _, e, d in messages if e == "lines" for line in d["lines"]]
    assert messages[-1][1] == "end"
    assert statuses[-1] == "timed_out"
    assert "running" in statuses
    assert numbers == list(range(workbench.run(run["id"])["line_count"]))
    assert elapsed < 60, f"the stream waited for its fallback read ({elapsed:.1f} s)"
    assert BELL.listening() == 0


def test_a_bell_rings_after_commit_only(monkeypatch: pytest.MonkeyPatch) -> None:
    rung: list[int] = []
    monkeypatch.setattr(BELL, "ring", rung.append)
    with Session(create_engine("sqlite://")) as session:
        session.execute(text("SELECT 1"))
        ring_after_commit(session, 5)
        session.rollback()
        assert rung == []
        session.execute(text("SELECT 1"))
        ring_after_commit(session, 6)
        ring_after_commit(session, 6)
        assert rung == []
        session.commit()
        assert rung == [6]


def test_lines_paging_filters_and_download(workbench: Workbench) -> None:
    run = workbench.wait(workbench.launch(workbench.template("fail.yml"))["id"])
    page = workbench.client.get(
        workbench.url(f"runs/{run['id']}/lines"), params={"after": -1, "limit": 3}
    ).json()
    assert [line["line_no"] for line in page["items"]] == [0, 1, 2]
    assert page["next_after"] == 2
    found = workbench.lines(run["id"], q="STILL FINE")
    assert found
    assert all("still fine" in line for line in found)  # case-insensitive match
    assert workbench.lines(run["id"], host="nosuchhost") == []
    plain = workbench.client.get(workbench.url(f"runs/{run['id']}/output")).text
    coloured = workbench.client.get(
        workbench.url(f"runs/{run['id']}/output"), params={"ansi": True}
    ).text
    assert "\x1b[" not in plain
    assert "\x1b[" in coloured
    assert plain.count("\n") == run["line_count"]


@pytest.mark.sqlite_only
@pytest.mark.slow
def test_200000_line_output_is_complete_and_in_order_at_final_status(
    workbench: Workbench,
) -> None:
    run = workbench.wait(workbench.launch(workbench.template("many_lines.yml"))["id"], timeout=240)
    assert run["status"] == "successful"
    lines = workbench.lines(run["id"])
    assert len(lines) == run["line_count"]
    plain = [ANSI.sub("", line).strip().strip('",') for line in lines]
    printed = [int(text) for text in plain if text.isdigit()]
    assert printed == list(range(1, 200001))


def test_pages_filters_and_stream_agree_across_stored_chunks(workbench: Workbench) -> None:
    """Output is stored in chunks of about 16 KiB of whole lines: whatever the page size or
    starting line, and with a text filter, reading gives exactly the lines of the whole output
    (4,000 lines: about 80 KiB, several chunks)."""
    template = workbench.template("many_lines.yml", extra_vars={"line_total": 4000})
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "successful"
    everything = workbench.lines(run["id"])
    assert len(everything) == run["line_count"] > 4000
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        stored = session.scalar(
            select(func.count()).select_from(RunOutput).where(RunOutput.run_id == run["id"])
        )
    assert stored >= 5
    url = workbench.url(f"runs/{run['id']}/lines")

    def page(after: int, limit: int, **params: Any) -> list[tuple[int, str]]:
        body = workbench.client.get(url, params={"after": after, "limit": limit, **params}).json()
        return [(line["line_no"], line["text"]) for line in body["items"]]

    numbered = list(enumerate(everything))
    for after, limit in [(-1, 1), (-1, 499), (-1, 500), (-1, 501), (3, 700), (498, 3), (777, 1000)]:
        assert page(after, limit) == numbered[after + 1 : after + 1 + limit], (after, limit)
    assert page(len(everything) - 1, 10) == []

    # "12" occurs in lines spread over every chunk of the task's output
    matching = [(n, t) for n, t in numbered if "12" in t]
    paged: list[tuple[int, str]] = []
    after = -1
    while batch := page(after, 7, q="12"):
        paged += batch
        after = batch[-1][0]
    assert paged == matching
    assert page(-1, 10000, q="NO SUCH TEXT") == []

    stream = _sse(
        workbench.client.get(workbench.url(f"runs/{run['id']}/stream"), params={"after": 600}).text
    )
    streamed = [(line["n"], line["t"]) for _, e, d in stream if e == "lines" for line in d["lines"]]
    assert streamed == numbered[601:]
    text = workbench.client.get(
        workbench.url(f"runs/{run['id']}/output"), params={"ansi": True}
    ).text
    assert text == "\n".join(everything) + "\n"
