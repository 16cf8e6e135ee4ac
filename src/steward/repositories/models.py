from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from steward.projects.scoped import ProjectScoped


class RepositoryKind(enum.StrEnum):
    GIT = "git"
    LOCAL = "local"


class Repository(ProjectScoped):
    __tablename__ = "repositories"

    kind: Mapped[RepositoryKind] = mapped_column(String(10))
    url: Mapped[str] = mapped_column(String(2000))  # git URL, or an absolute directory for local
    ref: Mapped[str] = mapped_column(String(200), default="")  # branch, tag or commit; "" = HEAD
    key_id: Mapped[int | None] = mapped_column(ForeignKey("keys.id", ondelete="RESTRICT"))
    # OpenSSH known_hosts lines of the git server: given, or pinned at the first fetch over ssh
    # (trust on first use); a server presenting another key is refused from then on
    ssh_known_hosts: Mapped[str] = mapped_column(Text, default="")
    # the last time the server tried to reach it (a save with check, the test button): when,
    # what its ref pointed at, and why it failed ("" when it answered)
    checked_at: Mapped[dt.datetime | None] = mapped_column(default=None)
    checked_commit: Mapped[str] = mapped_column(String(64), default="")
    check_problem: Mapped[str] = mapped_column(Text, default="")
