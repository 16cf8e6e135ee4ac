from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import Field

from steward.auth.models import AuthSource, TokenScope
from steward.auth.totp import CODE_MAX
from steward.bounds import LABEL_MAX, NAME_MAX, PASSPHRASE_MAX
from steward.schemas import RequestModel, ResponseModel, UpdateModel

Username = str
Password = Annotated[str, Field(min_length=8, max_length=PASSPHRASE_MAX)]


class LoginRequest(RequestModel):
    # no control characters: no username has them, and PostgreSQL cannot even compare a NUL
    username: str = Field(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f]+$")
    password: str = Field(min_length=1, max_length=PASSPHRASE_MAX)
    otp: str | None = Field(
        default=None,
        max_length=CODE_MAX,
        description="For a user with two-factor authentication: the current code of their"
        " authenticator app, or one of their unused recovery codes",
    )


class UserCreate(RequestModel):
    username: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.@-]+$")
    password: Password
    display_name: str = Field(default="", max_length=LABEL_MAX)
    email: str = Field(default="", max_length=320)
    is_admin: bool = False


class UserUpdate(UpdateModel):
    """Every field optional. ``is_active: false`` disables the user: their sessions end and
    their tokens are revoked at once."""

    display_name: str | None = Field(default=None, max_length=LABEL_MAX)
    email: str | None = Field(default=None, max_length=320)
    is_admin: bool | None = None
    is_active: bool | None = None


class ProfileUpdate(UpdateModel):
    """Your own name and e-mail address; only the fields sent change."""

    display_name: str | None = Field(default=None, max_length=LABEL_MAX)
    email: str | None = Field(default=None, max_length=320)


class PasswordReset(RequestModel):
    password: Password


class PasswordChange(RequestModel):
    current_password: str = Field(min_length=1, max_length=PASSPHRASE_MAX)
    new_password: Password


class UserRead(ResponseModel):
    id: int
    username: str
    display_name: str
    email: str
    is_admin: bool
    is_active: bool
    totp_enabled: bool = Field(description="two-factor authentication (TOTP) is on")
    auth_source: AuthSource = Field(
        default=AuthSource.LOCAL,
        description="who checks the password: Steward (local) or a directory (ldap, oidc);"
        " a directory user has no Steward password and their teams follow their groups",
    )
    created_at: dt.datetime


class LoginResponse(ResponseModel):
    user: UserRead
    csrf_token: str = Field(
        description="Send back as the X-CSRF-Token header on state-changing requests"
    )
    expires_at: dt.datetime


class TokenCreate(RequestModel):
    name: str = Field(min_length=1, max_length=NAME_MAX)
    scope: TokenScope = TokenScope.READ
    expires_at: dt.datetime | None = None


class TokenRead(ResponseModel):
    id: int
    name: str
    prefix: str
    scope: TokenScope
    created_at: dt.datetime
    expires_at: dt.datetime | None
    last_used_at: dt.datetime | None
    revoked_at: dt.datetime | None


class TokenCreated(TokenRead):
    token: str = Field(description="The secret; shown only in this response")


class SessionRead(ResponseModel):
    id: int
    created_at: dt.datetime
    expires_at: dt.datetime
    source_ip: str
    user_agent: str
    current: bool = Field(default=False, description="the browser session of this request")


OtpCode = Annotated[str, Field(min_length=1, max_length=CODE_MAX)]


class TotpStart(RequestModel):
    password: str = Field(min_length=1, max_length=PASSPHRASE_MAX)


class TotpEnrollment(ResponseModel):
    secret: str = Field(description="base32; shown only in this response")
    otpauth_uri: str = Field(description="the secret as an otpauth:// URI, for a QR code")


class TotpConfirm(RequestModel):
    code: OtpCode


class TotpRecoveryCodes(ResponseModel):
    recovery_codes: list[str] = Field(description="each usable once instead of a code; shown once")


class TotpDisable(RequestModel):
    password: str = Field(min_length=1, max_length=PASSPHRASE_MAX)
    code: OtpCode = Field(description="a current code of the authenticator app or a recovery code")
