"""Hostile cases of host-scoped grants, each with its control: limits that try to widen a
grantee's scope (``all``, exclusions, regexes, comma and colon lists, ``&``, subscripts), scope
entries that are more than one pattern, a relaunch of someone else's wider run, a run whose
limit would still reach outside (the run's own check, with real ``ansible-inventory``), and a
stored scope that names a file."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services
from support.schedules import YEARLY, create_below

from grants.scoping import INVENTORY, grant, selected, user
from steward.access.actor import Actor
from steward.bounds import HOST_SCOPE_MAX
from steward.errors import Conflict
from steward.execution import hostscope
from steward.grants.schemas import GrantCreate, GrantUpdate
from steward.inventories.models import Inventory, InventoryFormat, InventoryKind
from steward.plans import service as plans
from steward.repositories.checkout import Reach
from steward.runs import service as runs
from steward.runs.models import LaunchType
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from steward.templates.launch import LaunchOverrides
from steward.templates.patterns import scoped_limit
from steward.triggers import launch as triggers

pytestmark = pytest.mark.security

WIDENING = [
    "",
    "all",
    "*",
    "!dev",
    "!dev1,!dev2",
    "~.*",
    "~(dev|prod).*",
    "prod1,dev1",
    "dev:prod",
    "dev prod",
    "&prod",
    "prod:&all",
    "all,!dev1",
    "prod[0:1]",
    "prod*",
    "dev,prod,test,&all",
]


@pytest.mark.parametrize("scope", [["dev"], ["dev", "test"]])
@pytest.mark.parametrize("limit", WIDENING)
def test_no_limit_reaches_a_host_outside_the_scope(
    tmp_path: Path, limit: str, scope: list[str]
) -> None:
    in_scope = set().union(*(selected(tmp_path, entry) for entry in scope))
    # the control: without the scope, this limit reaches hosts outside it (or all of them)
    assert selected(tmp_path, limit) - in_scope
    try:
        combined = scoped_limit(limit, scope)
    except ValueError:  # several patterns against several entries: refused at launch (422)
        assert len(scope) > 1
        return
    reached = selected(tmp_path, combined)
    assert reached <= in_scope, combined
    assert reached == selected(tmp_path, limit) & in_scope


@pytest.mark.parametrize(
    "entry", ["dev,prod", "dev:prod", "dev prod", "!dev", "&dev", "@/etc/passwd", "-x", "a\tb"]
)
def test_a_scope_entry_is_one_pattern_that_allows(entry: str) -> None:
    body = {"user_id": 1, "permission": "run"}
    services.refused(lambda: GrantCreate.model_validate({**body, "hosts": [entry]}), "hosts.0")
    services.refused(lambda: GrantUpdate.model_validate({"hosts": ["dev", entry]}), "hosts.1")
    for allowed in ("dev", "dev*", "~dev\\d", "prod[0:1]", "dev1.example.com"):  # the controls
        assert GrantCreate.model_validate({**body, "hosts": [allowed]}).hosts == [allowed]


def test_a_scope_has_a_bounded_number_of_entries() -> None:
    body = {"user_id": 1, "permission": "run"}
    many = [f"h{n}" for n in range(HOST_SCOPE_MAX + 1)]
    services.refused(lambda: GrantCreate.model_validate({**body, "hosts": many}), "hosts")
    assert len(GrantCreate.model_validate({**body, "hosts": many[:-1]}).hosts) == HOST_SCOPE_MAX


def test_relaunching_a_wider_run_keeps_the_grantees_scope(db_session: Session) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project, survey=[])
    wide = support_runs.launch(db_session, project, made, limit="prod1")  # the admin's
    junior = user(db_session, "junior")
    grant(db_session, made, ["dev"], to=junior)

    def relaunch(who: object) -> RunParams:
        actor = junior if who == "junior" else services.admin(db_session)
        run = runs.relaunch(
            db_session,
            rights=support_runs.rights(db_session, actor, project),
            actor=actor,
            previous=wide,
            overrides=LaunchOverrides(),
            failed_only=False,
            cipher=services.cipher(),
            queue=support_runs.NoQueue(),
        )
        return RunParams.of(run.params, run.id)

    mine = relaunch("junior")
    assert (mine.host_scope, mine.effective_limit) == (["dev"], "prod1,&dev")
    theirs = relaunch("admin")  # the control: the admin's relaunch is not scoped
    assert (theirs.host_scope, theirs.effective_limit) == (None, "prod1")


def test_a_stored_scope_that_names_a_file_does_not_run() -> None:
    base = RunParams(playbook="site.yml", repository_id=1, inventory_id=1, limit="all")
    with pytest.raises(ValueError, match="not a list of host patterns"):
        _ = base.model_copy(update={"host_scope": ["@/etc/passwd"]}).effective_limit
    with pytest.raises(ValueError, match="not a list of host patterns"):
        _ = base.model_copy(update={"host_scope": []}).effective_limit
    assert base.model_copy(update={"host_scope": ["dev"]}).effective_limit == "all,&dev"


def _refusal(tmp_path: Path, content: str, limit: str, scope: list[str]) -> str:
    inventory = Inventory(
        project_id=1, name="i", kind=InventoryKind.STATIC, format=InventoryFormat.INI
    )
    source = tmp_path / "run-inventory.ini"
    source.write_text(content)
    return hostscope.refusal(inventory, source, tmp_path, limit, scope, None)


def test_the_run_refuses_a_limit_that_still_reaches_outside(tmp_path: Path) -> None:
    """The run's own check, after the inventory is read as it is now: a limit that would reach
    another host names it (as a run stored before its scope, or with a hole in the algebra,
    would); the scoped limit passes (the control)."""
    refused = _refusal(tmp_path, INVENTORY, "all", ["dev"])
    assert "prod1, prod2, test1" in refused
    assert "(dev)" in refused
    assert _refusal(tmp_path, INVENTORY, scoped_limit("all", ["dev"]), ["dev"]) == ""
    # a host taken out of the scoped group since: refused; while in it, the control
    moved = INVENTORY.replace("[dev]\ndev1\ndev2\n", "[dev]\ndev1\n[other]\ndev2\n")
    assert "dev2" in _refusal(tmp_path, moved, "dev2", ["dev"])
    assert _refusal(tmp_path, INVENTORY, "dev2", ["dev"]) == ""


def test_a_plan_made_under_a_scope_is_applied_under_the_same_scope_only(
    db_session: Session,
) -> None:
    """An apply whose launcher's scope differs from the plan's would run on hosts nobody
    reviewed: its launch values count as changed; under the plan's own scope they stand."""
    project = services.project(db_session)
    made = support_runs.template(db_session, project, survey=[], plans_allowed=True)
    junior = user(db_session, "junior")
    grant(db_session, made, ["dev"], to=junior)

    def launching(actor: Actor) -> plans.Launching:
        rights = support_runs.rights(db_session, actor, project)
        return plans.Launching(rights, actor, services.cipher(), support_runs.NoQueue())

    plan = plans.launch_plan(
        db_session, launching(junior), made.id, LaunchOverrides(), LaunchType.API, ttl_hours=24
    )
    assert RunParams.of(plan.params, plan.id).host_scope == ["dev"]
    plan.status = RunStatus.SUCCESSFUL
    reach = Reach(cipher=services.cipher(), roots=(), guard=services.guard(), scratch=None)  # type: ignore[arg-type]
    with pytest.raises(Conflict, match="launch values changed"):
        plans.apply(db_session, launching(services.admin(db_session)), plan, reach=reach)
    # the control: under the plan's scope the values stand; the apply meets the next check
    # (the repository's branch, which this plan's row-only repository cannot answer)
    with pytest.raises(Conflict) as next_check:
        plans.apply(db_session, launching(junior), plan, reach=reach)
    assert "launch values" not in next_check.value.message


def test_a_trigger_fires_under_its_owners_scope(db_session: Session) -> None:
    """A schedule or webhook fires as its owner (``triggers.launch``): a scoped owner's
    trigger is scoped like their own launch; the admin's (the control) is not."""
    project = services.project(db_session)
    made = support_runs.template(db_session, project, survey=[])
    junior = user(db_session, "junior")
    grant(db_session, made, ["dev"], to=junior)
    schedule = create_below(db_session, made, {"name": "s", "kind": "cron", "expression": YEARLY})

    def fire(owner: Actor) -> RunParams:
        firing = triggers.Firing("schedule", schedule.id, project, owner.user, made)
        launched = triggers.launch(
            db_session,
            firing,
            LaunchOverrides(limit="all"),
            cipher=services.cipher(),
            queue=support_runs.NoQueue(),
        )
        assert launched.run is not None
        return RunParams.of(launched.run.params, launched.run.id)

    assert fire(junior).effective_limit == "all,&dev"
    assert fire(services.admin(db_session)).effective_limit == "all"
