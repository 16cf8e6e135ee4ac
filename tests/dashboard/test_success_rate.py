"""One success rate: the dashboard's and a template page's are the same figure of the same runs
(successful / successful + failed + error + timed out; canceled, queued and running runs left
out). Below HTTP, on ``db_session``: the runs are rows, their statuses are the point."""

from __future__ import annotations

from sqlalchemy.orm import Session
from support import services

from steward.config import Settings
from steward.dashboard import service as dashboard
from steward.dashboard.schemas import DashboardParams
from steward.inventories.models import Inventory, InventoryKind
from steward.repositories.models import Repository, RepositoryKind
from steward.runs.models import LaunchType, Run
from steward.runs.status import RunStatus, success_rate
from steward.templates import stats
from steward.templates.models import Template

# 3 successful, 1 failed, 1 timed out, 2 canceled, 1 running: 3 of 5 judged runs succeeded
STATUSES = [
    *[RunStatus.SUCCESSFUL] * 3,
    RunStatus.FAILED,
    RunStatus.TIMED_OUT,
    *[RunStatus.CANCELED] * 2,
    RunStatus.RUNNING,
]


def _template_with_runs(session: Session, statuses: list[RunStatus]) -> Template:
    project = services.project(session)
    repository = Repository(
        project_id=project.id, name="r", kind=RepositoryKind.LOCAL, url="/srv/r"
    )
    inventory = Inventory(project_id=project.id, name="i", kind=InventoryKind.STATIC)
    session.add_all([repository, inventory])
    session.flush()
    template = Template(
        project_id=project.id,
        name="t",
        playbook="site.yml",
        repository_id=repository.id,
        inventory_id=inventory.id,
    )
    session.add(template)
    session.flush()
    session.add_all(
        Run(project_id=project.id, template_id=template.id, status=s, launch_type=LaunchType.API)
        for s in statuses
    )
    session.flush()
    return template


def test_the_dashboard_and_the_template_page_give_one_rate_canceled_left_out(
    db_session: Session,
) -> None:
    template = _template_with_runs(db_session, STATUSES)

    page = stats.stats(db_session, template, last=50)
    totals = dashboard.dashboard(
        db_session, services.admin(db_session), Settings(), DashboardParams(days=1)
    ).totals

    assert page.success_last.rate == page.success_30_days.rate == totals.success_rate == 0.6
    # the template page says what the rate is of: ended runs, and those judged
    assert (page.success_last.finished, page.success_last.judged) == (7, 5)
    assert page.success_last.successful == 3


def test_canceled_runs_alone_give_no_rate_and_a_failure_counts() -> None:
    assert success_rate({RunStatus.CANCELED: 4, RunStatus.RUNNING: 1}) is None
    assert success_rate({}) is None
    # the control: the same counts with one judged run give a rate
    assert success_rate({RunStatus.CANCELED: 4, RunStatus.ERROR: 1}) == 0.0
    assert success_rate({RunStatus.SUCCESSFUL: 2, RunStatus.ERROR: 1}) == 0.6667
