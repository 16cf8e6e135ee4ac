from __future__ import annotations

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from steward.keys.models import Key
from steward.projects.scoped import ProjectScoped


class GalaxyServer(ProjectScoped):
    """A Galaxy-compatible server (Ansible Galaxy, Automation Hub, Pulp, …) the project's
    requirements are installed from, in ``position`` order; its token (or user and password)
    is a key of the project, handed to ansible-galaxy only."""

    __tablename__ = "galaxy_servers"

    url: Mapped[str] = mapped_column(String(2000))
    auth_url: Mapped[str] = mapped_column(String(2000), default="")  # SSO token endpoint
    key_id: Mapped[int | None] = mapped_column(
        ForeignKey("keys.id", ondelete="RESTRICT"), index=True
    )
    validate_certs: Mapped[bool] = mapped_column(default=True)
    position: Mapped[int] = mapped_column(default=0)  # the lowest is asked first

    key: Mapped[Key | None] = relationship(lazy="joined")

    @property
    def key_name(self) -> str | None:
        return self.key.name if self.key is not None else None
