"""A run read's ``If-None-Match`` as a nosy or hostile caller sends it: ``*`` or a tag guessed
for a run one may not see is a 404 like any read of it (a 304 would say the run exists and is
unchanged), and an oversized or malformed header is read as "no tag matches", never a 500."""

from __future__ import annotations

import pytest
from support.builders import Workbench, bearer, make_project, make_user, token

from steward.runs.status import RunStatus

pytestmark = pytest.mark.security


def test_a_tag_of_a_run_one_may_not_see_is_a_404_not_a_304(workbench: Workbench) -> None:
    url = workbench.url(f"runs/{workbench.inserted_run('ok.yml', RunStatus.SUCCESSFUL)}")
    tag = workbench.client.get(url).headers["etag"]
    make_user(workbench.client, "outsider")
    outsider = bearer(token(workbench.client, "outsider"))
    for sent in ("*", tag):
        probed = workbench.client.get(url, headers={**outsider, "If-None-Match": sent})
        assert probed.status_code == 404, (sent, probed.status_code)
        assert probed.headers.get("etag") is None
    # control: who may see the run is answered 304 for the same headers
    for sent in ("*", tag):
        assert workbench.client.get(url, headers={"If-None-Match": sent}).status_code == 304


@pytest.mark.parametrize(
    "sent",
    ["W/" + "x" * 8000, ", " * 4000, '"\x7f"', "W/", '"' * 300],
    ids=["long tag", "empty list", "control char", "bare W/", "quotes"],
)
def test_a_malformed_if_none_match_is_read_in_full(workbench: Workbench, sent: str) -> None:
    url = workbench.url(f"runs/{workbench.inserted_run('ok.yml', RunStatus.SUCCESSFUL)}")
    tag = workbench.client.get(url).headers["etag"]
    read = workbench.client.get(url, headers={"If-None-Match": sent})
    assert read.status_code == 200, read.text
    assert read.headers["etag"] == tag
    # control: the current tag in a list with the same junk matches (only the first 32 tags
    # of a list are looked at: a CPU bound)
    listed = workbench.client.get(url, headers={"If-None-Match": f"{tag}, {sent}"})
    assert listed.status_code == 304


def test_a_run_read_through_another_projects_url_is_a_404(workbench: Workbench) -> None:
    """A read looks the project and its run up in one query before the rights decide: a run id
    of project A under project B's URL (one the caller may read, with the run's own tag) finds
    no run, with or without a tag. Control: the same caller reads it under A's URL."""
    run_id = workbench.inserted_run("ok.yml", RunStatus.SUCCESSFUL)
    own = workbench.client.get(workbench.url(f"runs/{run_id}"))
    assert own.status_code == 200  # the control: the caller may see the run
    other = make_project(workbench.client, "elsewhere")
    url = f"/api/v1/projects/{other}/runs/{run_id}"
    for headers in ({}, {"If-None-Match": own.headers["etag"]}, {"If-None-Match": "*"}):
        probed = workbench.client.get(url, headers=headers)
        assert probed.status_code == 404, (headers, probed.status_code)
        assert probed.headers.get("etag") is None
        assert str(run_id) in probed.json()["detail"]
