from __future__ import annotations

import datetime as dt
import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field

from steward.bounds import LABEL_MAX, Description, Id, Name, Url
from steward.repositories.models import RepositoryKind
from steward.schemas import NamedUpdate, RequestModel, ResponseModel, ScopedRead

REF_PATTERN = r"^([A-Za-z0-9_][A-Za-z0-9._/+@-]*)?$"  # no leading '-': never an option to git
Ref = Annotated[str, Field(max_length=LABEL_MAX, pattern=REF_PATTERN)]
KNOWN_HOSTS_MAX = 16 * 1024
# OpenSSH known_hosts: [marker] hosts keytype base64-key [comment]
_HOST_KEY_LINE = re.compile(
    r"^(@cert-authority |@revoked )?[^\s#-]\S* (ssh-[a-z0-9-]+|ecdsa-sha2-nistp\d+|"
    r"sk-[a-z0-9@.-]+)(-cert-v01@openssh\.com)? [A-Za-z0-9+/]+={0,2}( [^\x00-\x1f]*)?$"
)


def _known_hosts(text: str) -> str:
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#") and not _HOST_KEY_LINE.match(line):
            raise ValueError(
                f"line {number} is not a known_hosts line ('host key-type base64-key', as"
                " ssh-keyscan prints)"
            )
    return text.strip()


KnownHosts = Annotated[
    str,
    Field(
        max_length=KNOWN_HOSTS_MAX,
        pattern=r"^[^\x00-\x09\x0b-\x1f]*$",
        description="the git server's SSH host keys (known_hosts lines, e.g. from ssh-keyscan);"
        " empty: the key met at the first fetch is pinned (trust on first use)",
    ),
    AfterValidator(_known_hosts),
]


class RepositoryCreate(RequestModel):
    """``git``: url https://…, ssh://…, user@host:path or file:///path, ``ref`` branch/tag/commit
    ("" = the remote's HEAD), ``key_id`` an ssh key (ssh) or login_password key (https).
    ``local``: url an absolute directory on the server."""

    name: Name
    description: Description = ""
    kind: RepositoryKind
    url: Url
    ref: Ref = ""
    key_id: Id | None = None
    ssh_known_hosts: KnownHosts = ""


class RepositoryUpdate(NamedUpdate):
    """Every field optional; the result is checked as a whole, as on create."""

    kind: RepositoryKind | None = None
    url: Url | None = None
    ref: Ref | None = None
    key_id: Id | None = None
    ssh_known_hosts: KnownHosts | None = None

    NULLABLE = frozenset({"key_id"})


class RepositoryRead(ScopedRead):
    kind: RepositoryKind
    url: str
    ref: str
    key_id: int | None
    ssh_known_hosts: str = Field(description="pinned SSH host keys of the git server (public)")
    local_problem: str | None = Field(
        default=None,
        description="why its server directory (a local repository, a git file:// URL) cannot be"
        " used now, e.g. it is outside the project's local directories; null when it can",
    )
    checked_at: dt.datetime | None = Field(
        description="when the server last tried to reach it (a save with check=true, the test"
        " button); null: never"
    )
    checked_commit: str = Field(description='what its ref pointed at then ("" if it failed)')
    check_problem: str = Field(description='why that check failed; "" when it answered')
    created_at: dt.datetime
    updated_at: dt.datetime


class RepositoryTestResult(ResponseModel):
    """The repository answered. ``commit`` is what ``ref`` points at now; "" for a commit ref
    that is not the tip of a branch or tag (checked only when a run fetches it)."""

    ref: str
    commit: str


class PlaybookParams(BaseModel):
    ref: Ref | None = Field(
        default=None, description="branch, tag or commit to look in (default: the repository's)"
    )


class PlaybookList(ResponseModel):
    """Files ``*.yml``/``*.yaml`` whose top level is a list of plays, outside ``roles/``,
    ``collections/``, ``group_vars/``, ``host_vars/`` and hidden directories."""

    commit: str = Field(description='the commit looked in ("" for a local directory)')
    playbooks: list[str] = Field(description="paths relative to the repository, sorted")
    truncated: bool = Field(
        description="a bound (depth, files walked, bytes read) was reached: the list may miss"
        " some; type the path"
    )
