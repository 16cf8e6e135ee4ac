"""Attacks on survey option sources, each with a control proving the probe could succeed: a URL
to a blocked address (422 at save, refused at fetch), a script leading out of its checkout (by
``..`` or a symlink), answers without end, and answers trying to become code or pattern."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from support import runs, services
from support.options import TOKEN, Cmdb, local_repository, options, question, script
from support.served import Served

from steward.auth.throttle import Rate
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.errors import TooManyRequests
from steward.outbound import network
from steward.repositories.checkout import Reach
from steward.templates import launch
from steward.templates.options.resolver import CACHE, SOURCES, Sources, check_at_save
from steward.templates.options.schemas import OptionsRequest
from steward.templates.survey import Question

pytestmark = pytest.mark.security


def test_a_url_to_a_blocked_address_is_refused_at_save_and_at_fetch(
    sourced: Session, cmdb: Served
) -> None:
    project = services.project(sourced)
    metadata = runs.template(
        sourced,
        project,
        name="metadata",
        survey=[question("q", {"kind": "url", "url": "http://169.254.169.254/latest/"})],
    )
    loopback = runs.template(
        sourced, project, survey=[question("q", {"kind": "url", "url": cmdb.url("/huge")})]
    )
    strict = network.Guard.of(Settings())  # loopback refused, as by default
    detail = services.refused(
        functools.partial(check_at_save, sourced, metadata, services.guard()), "survey.0.source.url"
    )
    assert "link-local" in detail
    check_at_save(sourced, loopback, services.guard())  # the control: allowed by the admin
    # saved while allowed, the admin's setting gone: refused before connecting
    sources: Sources = sourced.info[SOURCES]
    found = options(sourced, loopback)["q"]
    assert "longer than" in found  # the control: it was reached
    count = len(Cmdb.seen)
    reach = sources.reach
    strict_reach = Reach(reach.cipher, reach.roots, strict, reach.scratch)
    sourced.info[SOURCES] = Sources(strict_reach, sources.sandbox)
    CACHE.clear()
    assert options(sourced, loopback)["q"].startswith("refused: '127.0.0.1' is")
    assert len(Cmdb.seen) == count


def test_a_script_may_not_lead_out_of_its_checkout(sourced: Session, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    script(outside, "leak", "echo leaked")
    checkout = tmp_path / "repo"
    checkout.mkdir()
    script(checkout, "inside", "echo fine")
    project = services.project(sourced)
    local_repository(sourced, project, checkout)
    survey: list[dict[str, Any]] = [
        question("inside", {"kind": "script", "path": "inside"}),  # the control
        question("linked", {"kind": "script", "path": "linked"}),
    ]
    made = runs.template(sourced, project, survey=survey)
    assert options(sourced, made) == {
        "inside": ["fine"],
        "linked": "'linked' is not an executable file",
    }
    (checkout / "linked").symlink_to(outside / "leak")
    found = options(sourced, made)
    assert "points outside the repository" in found["linked"]  # the checkout refuses it
    assert "leaked" not in str(found)
    # `..` never reaches the checkout: refused when the template is saved
    escaping = question("q", {"kind": "script", "path": "../outside/leak"})
    services.refused(lambda: Question.model_validate(escaping), "source")


def test_a_script_printing_without_end_is_capped(sourced: Session, tmp_path: Path) -> None:
    checkout = tmp_path / "repo"
    checkout.mkdir()
    script(checkout, "endless", "yes option")
    script(checkout, "short", "yes option | head -3")  # the control: the same, bounded
    project = services.project(sourced)
    local_repository(sourced, project, checkout)
    survey = [
        question("endless", {"kind": "script", "path": "endless"}),
        question("short", {"kind": "script", "path": "short"}),
    ]
    found = options(sourced, runs.template(sourced, project, survey=survey))
    assert found == {"endless": "the script printed more than 1048576 bytes", "short": ["option"]}


def test_an_answer_stays_one_argument_of_data(
    sourced: Session, tmp_path: Path, markers_dir: Path
) -> None:
    checkout = tmp_path / "repo"
    checkout.mkdir()
    script(checkout, "echo_arg", 'echo "$1"')
    script(checkout, "control", f"touch {markers_dir}/control; echo ok")
    project = services.project(sourced)
    local_repository(sourced, project, checkout)
    survey = [
        {"variable": "host", "label": "Host", "type": "text"},
        question("db", {"kind": "script", "path": "echo_arg", "arguments": ["{answer.host}"]}),
        question("control", {"kind": "script", "path": "control"}),
    ]
    made = runs.template(sourced, project, survey=survey)
    hostile = f"$(touch {markers_dir}/injected); `touch {markers_dir}/ticks` {{answer.host}}"
    found = options(sourced, made, host=hostile)
    assert found == {"db": [hostile], "control": ["ok"]}
    assert sorted(p.name for p in markers_dir.iterdir()) == ["control"]


def test_varying_earlier_answers_cannot_fetch_without_end(
    sourced: Session, cmdb: Served, keys: KeyCipher
) -> None:
    """Each answer the cache does not hold is a fetch, counted by the caller's preview rate;
    the control: the same answers again are kept, not fetched nor counted."""
    project = services.project(sourced)
    key = services.secret_key(sourced, keys, project, "cmdb", TOKEN)
    source = {"kind": "url", "url": cmdb.url("/dbs?host={answer.host}"), "key_id": key}
    source["path"] = "data.items[*].name"
    survey = [{"variable": "host", "label": "Host", "type": "text"}, question("db", source)]
    made = runs.template(sourced, project, survey=survey)
    rate = Rate(2, "previews and tests per user (STEWARD_PREVIEW_MAX_PER_MINUTE)")

    def ask(host: str) -> list[str]:
        request = OptionsRequest(survey={"host": host})
        found = launch.survey_options(sourced, made, request, lambda: rate.take(7))
        return found.questions[0].choices

    assert ask("a") == ["a-orders", "a-users"]
    assert ask("a") == ["a-orders", "a-users"]  # the control: kept, not counted
    assert ask("b") == ["b-orders", "b-users"]
    with pytest.raises(TooManyRequests, match="at most 2 in 60 seconds"):
        ask("c")
    assert [path for path, _ in Cmdb.seen] == ["/dbs?host=a", "/dbs?host=b"]


def test_the_options_are_kept_as_long_as_the_setting_says(
    sourced: Session, cmdb: Served, keys: KeyCipher
) -> None:
    project = services.project(sourced)
    key = services.secret_key(sourced, keys, project, "cmdb", TOKEN)
    source = {"kind": "url", "url": cmdb.url("/dbs?host=a"), "key_id": key}
    source["path"] = "data.items[*].name"
    made = runs.template(sourced, project, survey=[question("db", source)])
    options(sourced, made)
    options(sourced, made)
    assert len(Cmdb.seen) == 1  # the control: kept by default
    sources: Sources = sourced.info[SOURCES]
    sourced.info[SOURCES] = dataclasses.replace(sources, cache_seconds=0)
    CACHE.clear()
    options(sourced, made)
    options(sourced, made)
    assert len(Cmdb.seen) == 3
