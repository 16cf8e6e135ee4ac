"""What the directory endpoints answer."""

from __future__ import annotations

from pydantic import BaseModel, Field


class DirectorySyncResult(BaseModel):
    """One directory sync: who was checked, who was disabled, and why nothing was changed when
    the sync refused to act (``refused`` not empty)."""

    checked: int = Field(description="active LDAP users looked up in the directory")
    present: int = Field(description="still in the directory: updated as a login would")
    disabled: list[str] = Field(description="usernames disabled (sessions ended, tokens revoked)")
    kept: list[str] = Field(description="gone from the directory, but kept: the last active admin")
    failed: list[str] = Field(description="users left as they were, and why")
    refused: str = Field(description="why the sync changed nothing; empty when it acted")


class LogoutRedirect(BaseModel):
    """Where the browser goes after a logout: the OpenID provider's end-session endpoint, which
    ends the sign-in there too and sends the browser back to the login page."""

    redirect_to: str
