"""The SSH host keys of a git server, pinned per repository: trust on first use.

A repository's ``ssh_known_hosts`` is either given (lines of ``ssh-keyscan``) or empty. When
empty, ssh accepts the key the server presents and writes it down; after the first fetch that
succeeds this module stores it, and from then on ssh refuses any other key
(``StrictHostKeyChecking=yes``): a man in the middle cannot hand a run another checkout.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.repositories import git
from steward.repositories.models import Repository


def remember(session: Session, repo: Repository, access: git.GitAccess) -> None:
    """Pin the keys met by a fetch that succeeded, if none were pinned; committed at once (a
    run that fails later keeps them), and recorded in the audit trail by the system."""
    if repo.ssh_known_hosts or git.transport(repo.url) != "ssh":
        return
    met = access.host_keys_met()
    if not met:
        return
    repo.ssh_known_hosts = met
    audit.record_change(
        session,
        None,
        AuditAction.REPOSITORY_UPDATE,
        repo,
        {"ssh_known_hosts": ["", met]},
        detail="pinned the git server's SSH host key at the first fetch",
    )
    session.commit()
