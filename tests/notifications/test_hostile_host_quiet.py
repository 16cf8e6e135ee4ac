"""``host_quiet_minutes`` out of bounds or without its event is refused naming the field, on
create, update and import alike (one rule: the request model's bounds, ``service._events``);
each with the control that the same body with a sane value is saved. Below HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import services
from support.runs import rights

from steward.notifications import service
from steward.notifications.models import Destination, DestinationKind, Subscription
from steward.notifications.schemas import SubscriptionCreate, SubscriptionUpdate
from steward.projects.models import Project

pytestmark = pytest.mark.security


class Subscriptions:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.project: Project = services.project(session)
        row = Destination(
            project_id=self.project.id,
            name="ops",
            kind=DestinationKind.WEBHOOK,
            config={"url": "https://hooks.example/x", "headers": {}},
        )
        session.add(row)
        session.flush()
        self.destination = row.id

    def create(self, **body: Any) -> dict[str, Any]:
        actor = services.admin(self.session)
        draft = SubscriptionCreate.model_validate({"destination_id": self.destination, **body})
        made = service.create_subscription(
            self.session, rights(self.session, actor, self.project), draft, actor=actor
        )
        return made.model_dump()

    def update(self, subscription_id: int, **body: Any) -> dict[str, Any]:
        actor = services.admin(self.session)
        sub = service.get_subscription(self.session, self.project, subscription_id)
        changes = SubscriptionUpdate.model_validate(body)
        made = service.update_subscription(
            self.session, rights(self.session, actor, self.project), sub, changes, actor=actor
        )
        return made.model_dump()

    def count(self) -> int:
        return self.session.scalar(select(func.count()).select_from(Subscription)) or 0


@pytest.fixture
def subs(db_session: Session) -> Subscriptions:
    return Subscriptions(db_session)


@pytest.mark.parametrize(
    ("body", "cause"),
    [
        ({"events": ["host_quiet"], "host_quiet_minutes": 0}, "greater than or equal to 0.05"),
        ({"events": ["host_quiet"], "host_quiet_minutes": -5}, "greater than or equal to 0.05"),
        ({"events": ["host_quiet"], "host_quiet_minutes": 1441}, "less than or equal to 1440"),
        ({"events": ["host_quiet"], "host_quiet_minutes": "nan"}, "less than or equal to 1440"),
        ({"events": ["host_quiet"], "host_quiet_minutes": "inf"}, "less than or equal to 1440"),
        ({"events": ["failed"], "host_quiet_minutes": 5}, "goes with the host_quiet event"),
        # the other threshold does not stand in for it, nor it for the other
        ({"events": ["long_running"], "host_quiet_minutes": 5}, "long_running_minutes"),
    ],
)
def test_a_quiet_threshold_out_of_bounds_or_without_its_event_is_refused(
    subs: Subscriptions, body: dict[str, Any], cause: str
) -> None:
    field = "long_running_minutes" if cause == "long_running_minutes" else "host_quiet_minutes"
    detail = services.refused(lambda: subs.create(**body), field)
    assert cause in detail
    assert subs.count() == 0
    # control: the same event with a sane threshold, or none (the instance's), is saved
    made = subs.create(events=["host_quiet"], host_quiet_minutes=0.05)
    assert made["host_quiet_minutes"] == 0.05
    assert subs.create(events=["host_quiet", "failed"])["host_quiet_minutes"] is None


def test_an_update_cannot_leave_a_threshold_without_its_event(subs: Subscriptions) -> None:
    made = subs.create(events=["host_quiet"], host_quiet_minutes=10)
    detail = services.refused(
        lambda: subs.update(made["id"], events=["failed"]), "host_quiet_minutes"
    )
    assert "goes with the host_quiet event only" in detail
    refused = services.refused(
        lambda: subs.update(made["id"], host_quiet_minutes=100_000), "host_quiet_minutes"
    )
    assert "less than or equal to 1440" in refused
    # control: dropping the event with its threshold is saved, and so is a new threshold
    assert subs.update(made["id"], events=["failed"], host_quiet_minutes=None)["events"] == [
        "failed"
    ]
    again = subs.update(made["id"], events=["host_quiet"], host_quiet_minutes=2.5)
    assert (again["events"], again["host_quiet_minutes"]) == (["host_quiet"], 2.5)
