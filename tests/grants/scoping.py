"""What the tests of host-scoped grants share: an inventory of dev, test and prod hosts, the
hosts a ``--limit`` selects in it as ansible-core's own ``InventoryManager`` reads it, and a
grant given below HTTP."""

from __future__ import annotations

from pathlib import Path

from ansible.inventory.manager import InventoryManager
from ansible.parsing.dataloader import DataLoader
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.auth.models import TokenScope, User
from steward.grants.models import GrantPermission, TemplateGrant
from steward.teams.models import Team, TeamMember
from steward.templates.models import Template

INVENTORY = """\
[dev]
dev1
dev2
[test]
test1
[prod]
prod1
prod2
[db]
dev2
prod2
"""


def selected(tmp_path: Path, limit: str) -> set[str]:
    """The hosts a run of a play on ``all`` with ``--limit limit`` targets, as Ansible reads it."""
    source = tmp_path / "hosts.ini"
    if not source.exists():
        source.write_text(INVENTORY)
    manager = InventoryManager(DataLoader(), sources=[str(source)])
    manager.subset(limit or None)
    return {host.name for host in manager.get_hosts("all")}


def user(session: Session, username: str) -> Actor:
    person = User(username=username, password_hash="!")
    session.add(person)
    session.flush()
    return Actor(user=person, scope=TokenScope.WRITE, via="session")


def grant(
    session: Session,
    template: Template,
    hosts: list[str],
    *,
    to: Actor | None = None,
    team: Team | None = None,
    permission: GrantPermission = GrantPermission.RUN,
) -> None:
    session.add(
        TemplateGrant(
            template_id=template.id,
            user_id=to.user.id if to else None,
            team_id=team.id if team else None,
            permission=permission,
            hosts=hosts,
        )
    )
    session.flush()


def team_of(session: Session, name: str, *members: Actor) -> Team:
    team = Team(name=name)
    session.add(team)
    session.flush()
    session.add_all(TeamMember(team_id=team.id, user_id=m.user.id) for m in members)
    session.flush()
    return team
