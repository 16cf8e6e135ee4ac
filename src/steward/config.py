"""Settings: built once at process start (``cli``) and passed in; never read from globals."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from steward.bounds import FACTS_MAX_BYTES, HOST_QUIET_MAX_MINUTES, MIB
from steward.outbound import network as outbound

# the list settings: how the environment separates their items, and whether it may give them
# as a JSON list instead
_LISTS: dict[str, tuple[str, bool]] = {
    "ldap_url": (";", True),  # and ',' between URLs: ``_ldap_urls``
    "ldap_admin_groups": (";", True),
    "trusted_proxies": (",", False),  # addresses or networks
    "outbound_allowed_networks": (",", False),
    "outbound_blocked_networks": (",", False),
    "health_allowed_networks": (",", False),
    "oidc_admin_groups": (",", False),
    "oidc_allowed_domains": (",", False),
    "local_repository_roots": (":,", True),  # directories
    "ansible_venvs": (":,", True),
    "adhoc_modules": (",", True),
}

# the modules an ad-hoc command may run unless STEWARD_ADHOC_MODULES says otherwise (AWX's list,
# Linux side): each runs anything its arguments say on the targeted hosts, so the list is short
ADHOC_MODULES_DEFAULT = (
    "ping", "setup", "command", "shell", "service", "systemd_service", "package", "apt", "dnf",
    "yum", "user", "group", "mount", "file", "stat",
)  # fmt: skip


def _env_list(value: object, separators: str, *, json_list: bool = True) -> object:
    """A list setting as the environment gives it: a JSON list (when ``json_list``), or items
    separated by any of ``separators``; a value that is not a string (a list given in code) is
    left as it is."""
    if not isinstance(value, str):
        return value
    if json_list and value.lstrip().startswith("["):
        return json.loads(value)
    return [part.strip() for part in re.split(f"[{re.escape(separators)}]", value) if part.strip()]


# syslog facilities by code (RFC 5424 6.2.1): "audit" is 13 ("log audit")
# by their code (RFC 5424): a message's PRI is its facility's index x 8 + severity
SyslogFacility = Literal[
    "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron",
    "authpriv", "ftp", "ntp", "audit", "alert", "clock",
    "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
]  # fmt: skip
SYSLOG_FACILITIES: tuple[str, ...] = get_args(SyslogFacility)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEWARD_", extra="ignore")

    data_dir: Path = Path("./data")
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=1, le=65535)
    database_url: str = ""  # empty: SQLite file in data_dir
    admin_user: str = "admin"
    admin_password: SecretStr | None = None
    secret_key_file: Path | None = None  # empty: <data_dir>/secret.key, generated if absent

    max_parallel_runs: int = Field(default=4, ge=1, le=256)  # on this server (or worker)
    default_project_parallel_runs: int = Field(default=4, ge=1, le=256)
    # runs at once in the whole installation, counted by every claim; None: no such limit
    global_parallel_runs: int | None = Field(default=None, ge=1, le=100000)
    # Celery mode: a launch is delivered through this broker (redis://…) to `steward worker`
    # processes instead of the server's embedded dispatcher
    broker_url: SecretStr | None = None
    # a queued run not claimed for this long gets a new message (its first may have been lost)
    redeliver_seconds: float = Field(default=30.0, ge=0.05, le=3600)
    cancel_grace_seconds: float = Field(default=5.0, ge=0.1, le=300)
    session_hours: float = Field(default=12.0, gt=0)
    # an API token's or console session's resolution kept by a server (``auth.credentials``):
    # a revocation on another server of a cluster takes effect within it; 0 keeps none
    auth_cache_seconds: float = Field(default=5.0, ge=0, le=60)
    # how long a plan may be applied after it was launched (``plans``)
    plan_ttl_hours: float = Field(default=24.0, gt=0, le=24 * 365)
    # a host's facts kept (``hosts.facts``), as JSON before compression; the biggest facts past
    # it are left out (named); 0: facts are not kept
    facts_max_bytes: int = Field(default=FACTS_MAX_BYTES, ge=0, le=16 * MIB)
    # points of a host's facts history kept (days; 0 keeps them forever), pruned by retention:
    # each host's newest point stays, and so do its current facts
    facts_history_retention_days: int = Field(default=365, ge=0, le=36500)
    heartbeat_seconds: float = Field(default=10.0, gt=0)
    lease_seconds: float = Field(default=60.0, gt=0)
    secure_cookies: bool = False  # set when served over HTTPS (behind a TLS proxy)
    # login throttling, counted from the audit trail's auth:login_failed records
    login_max_failures_per_account: int = Field(default=5, ge=1)
    login_max_failures_per_ip: int = Field(default=20, ge=1)
    login_window_seconds: int = Field(default=900, ge=1, le=86400)
    # previews and tests that evaluate what a user typed (a schedule's next occurrences, a
    # webhook's test delivery, an unsaved inventory): per user and server process, a minute
    preview_max_per_minute: int = Field(default=60, ge=1, le=100000)
    # a survey question's options read from a URL or a script, kept per template, source and
    # earlier answers (``templates.options.resolver``); 0 keeps none
    survey_options_cache_seconds: float = Field(default=60.0, ge=0, le=3600)
    # `steward audit prune` removes older records; at least a day, so throttling still sees them
    audit_retention_days: int = Field(default=365, ge=1)
    # retention (src/steward/retention), applied by every server each retention_tick_seconds
    # and by `steward prune`: days kept, 0 keeps forever. Finished runs go with their output,
    # events and metrics; webhook deliveries and sent/failed notification messages are logs.
    run_retention_days: int = Field(default=0, ge=0, le=36500)
    webhook_delivery_retention_days: int = Field(default=30, ge=0, le=36500)
    notification_retention_days: int = Field(default=30, ge=0, le=36500)
    retention_tick_seconds: float = Field(default=3600.0, ge=0.05, le=86400)
    # the admin page's Storage section warns when the database is larger than this (MiB), and
    # /metrics exports it (steward_database_size_warning_bytes) for alerting; 0: no threshold
    database_size_warning_mb: int = Field(default=0, ge=0, le=100_000_000)
    log_level: str = "INFO"
    ui_dir: Path | None = None  # the built web console; empty: frontend/dist of this checkout
    # `local` repositories may only be directories strictly inside one of these (symlinks
    # followed); unset: <data_dir>/repositories; an empty list allows no local repository
    local_repository_roots: Annotated[list[Path] | None, NoDecode] = None

    # the largest request body accepted (413 above it); JSON fields have their own limits
    max_body_bytes: int = Field(default=4 * 1024 * 1024, ge=1024, le=1024 * 1024 * 1024)
    # runs (and inventory scripts) execute inside bubblewrap, which hides the data dir, the
    # master key and the database: "required" fails runs when bwrap is missing, "optional" runs
    # them unsandboxed with a warning at start, "off" never sandboxes (see docs/security.md)
    sandbox: Literal["required", "optional", "off"] = "required"

    # addresses of reverse proxies whose X-Forwarded-For is believed; none by default, so no
    # client can write the address the audit trail and login throttling see
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)

    # virtual environments a template may run its playbook with (besides the server's own):
    # their bin/ansible-playbook and bin/ansible-galaxy are used (Python deps of collections)
    ansible_venvs: Annotated[list[Path], NoDecode] = Field(default_factory=list)
    # the modules an ad-hoc command may run (``runs.adhoc``; short names or FQCNs, each exactly)
    adhoc_modules: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: list(ADHOC_MODULES_DEFAULT)
    )
    # roles and collections installed from requirements files are kept for the next runs of a
    # project, up to this many MiB in all (least recently used removed first); 0: no cache
    requirements_cache_mb: int = Field(default=2048, ge=0, le=1024 * 1024)

    # schedules: how often a server looks for due occurrences (each claimed atomically, so
    # several servers may tick); a short tick in tests, never a mocked clock
    scheduler_tick_seconds: float = Field(default=10.0, ge=0.05, le=300)
    # the shortest time allowed between two occurrences of a schedule (a run every second is a
    # mistake, or a flood); lowered in tests to see a schedule fire twice within seconds
    schedule_min_interval_seconds: int = Field(default=60, ge=1, le=86400)
    # workflows: how often a server advances the workflow runs a node run's end (or a decision)
    # marked, and times out approvals; a short tick in tests
    workflow_tick_seconds: float = Field(default=1.0, ge=0.05, le=300)
    # notifications: the notifier's poll, attempts per message and the first retry's delay
    # (doubling after each failure); outbound requests time out after notify_timeout_seconds
    # the run page flags a host working on one task longer than this, with no result ("quiet")
    # (and the notification ``host_quiet`` tells, unless its subscription gives its own)
    host_quiet_minutes: float = Field(default=5.0, gt=0, le=HOST_QUIET_MAX_MINUTES)
    notifier_tick_seconds: float = Field(default=2.0, ge=0.05, le=300)
    notify_max_attempts: int = Field(default=5, ge=1, le=50)
    notify_backoff_seconds: float = Field(default=30.0, ge=0.01, le=86400)
    notify_timeout_seconds: float = Field(default=10.0, gt=0, le=300)

    # the audit stream (``audit.stream``, docs/deploy.md): every audit record, as it is recorded,
    # to a syslog server (RFC 5424 over TCP with RFC 6587 octet counting, TLS optional) and/or an
    # HTTP endpoint (Elastic _bulk with ECS fields, Splunk HEC, or a plain JSON array), from an
    # outbox with retries; through the outbound rules below (``outbound_allowed_networks``).
    # Set them alike on every process (servers and workers): the process that records a record
    # queues it for the sinks it knows; the servers send.
    audit_syslog_host: str = Field(default="", max_length=253)  # empty: no syslog sink
    audit_syslog_port: int | None = Field(default=None, ge=1, le=65535)  # 6514 with TLS, else 514
    audit_syslog_tls: bool = False
    audit_syslog_ca_file: Path | None = None  # the receiver's CA (PEM); empty: the system's
    audit_syslog_cert_file: Path | None = None  # a client certificate (PEM), with its key file
    audit_syslog_key_file: Path | None = None
    audit_syslog_facility: SyslogFacility = "authpriv"
    audit_syslog_app_name: str = Field(default="steward", pattern=r"^[!-~]{1,48}$")
    # the endpoint itself: https://es:9200/<index>/_bulk, https://splunk:8088/services/collector/event
    audit_http_url: str = Field(default="", max_length=2000)  # empty: no HTTP sink
    audit_http_format: Literal["elastic", "splunk", "json"] = "json"
    # the token, read from this file at each send (never from the environment, never logged):
    # "Authorization: ApiKey <token>" (elastic), "Splunk <token>" (splunk), "Bearer <token>" (json)
    audit_http_token_file: Path | None = None
    audit_http_ca_file: Path | None = None  # the receiver's CA (PEM) for https; else the system's
    audit_stream_tick_seconds: float = Field(default=1.0, ge=0.05, le=300)
    audit_stream_batch: int = Field(default=200, ge=1, le=5000)  # records per message/request
    # a connection, each write and each read; a batch's claim (lease) lasts 3 times as long
    audit_stream_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    # after a failure a sink waits this long, doubling up to the max, until it accepts again
    audit_stream_backoff_seconds: float = Field(default=5.0, ge=0.01, le=3600)
    audit_stream_backoff_max_seconds: float = Field(default=300.0, ge=0.01, le=86400)

    @field_validator("audit_syslog_host")
    @classmethod
    def _syslog_host(cls, value: str) -> str:
        value = value.strip()
        reason = outbound.check_host_name(value) if value else None
        if reason is not None:
            raise ValueError(f"the syslog host {reason}")
        return value

    @field_validator("audit_http_url")
    @classmethod
    def _audit_url(cls, value: str) -> str:
        if value:
            try:
                outbound.parse_url(value)
            except outbound.Refused as exc:
                raise ValueError(str(exc)) from exc
        return value

    @model_validator(mode="after")
    def _audit_stream(self) -> Settings:
        url = self.audit_http_url
        bulk = not url or outbound.parse_url(url).rest.split("?")[0].endswith("/_bulk")
        if self.audit_http_format == "elastic" and not bulk:
            raise ValueError("audit_http_url: the elastic format posts to …/<index>/_bulk")
        tls_files = (self.audit_syslog_ca_file, self.audit_syslog_cert_file)
        if not self.audit_syslog_tls and any(f is not None for f in tls_files):
            raise ValueError("audit_syslog_ca_file, audit_syslog_cert_file: need audit_syslog_tls")
        if (self.audit_syslog_cert_file is None) != (self.audit_syslog_key_file is None):
            raise ValueError("audit_syslog_cert_file and audit_syslog_key_file: give both")
        if self.audit_stream_backoff_max_seconds < self.audit_stream_backoff_seconds:
            raise ValueError("audit_stream_backoff_max_seconds: at least audit_stream_backoff")
        return self

    @property
    def audit_stream_sinks(self) -> tuple[str, ...]:
        """The sinks every audit record is queued for: "syslog", "http", both or none."""
        return tuple(
            name
            for name, on in (("syslog", self.audit_syslog_host), ("http", self.audit_http_url))
            if on
        )

    # where the server itself connects when a user names the destination (notification URLs
    # and SMTP hosts, pmproxy endpoints, Galaxy servers, git servers): ``outbound.network``.
    # Loopback, link-local (cloud metadata), 0.0.0.0/8, multicast/reserved and the listen
    # address are always refused unless allowed here (networks or single addresses; the most
    # specific entry decides, the allow-list on a tie)
    outbound_allowed_networks: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # more networks to refuse, besides the built-in ones
    outbound_blocked_networks: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # refuse the private ranges too (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): off by
    # default, as a self-hosted console's git, chat, mail and pmproxy servers are usually there;
    # on, list the ones it may reach in outbound_allowed_networks
    outbound_block_private: bool = False
    # renamed to outbound_blocked_networks (one guard for every outbound request): refused at
    # start when set, so a stricter list is never dropped in silence
    notify_blocked_networks: Annotated[str | None, NoDecode] = Field(default=None, exclude=True)
    metrics_blocked_networks: Annotated[str | None, NoDecode] = Field(default=None, exclude=True)

    # host metrics of every run (src/steward/metrics): the controller through psutil, target
    # hosts through their pmproxy when the inventory names one. Off only to measure their cost.
    metrics_enabled: bool = True
    metrics_interval_seconds: float = Field(default=1.0, ge=0.1, le=60)
    # samples are written in one chunk per lane this often (and when the run ends)
    metrics_flush_seconds: float = Field(default=10.0, ge=0.1, le=300)
    # one sample of a target host: longer and the sample is a gap ("no answer within …")
    metrics_timeout_seconds: float = Field(default=2.0, gt=0, le=60)
    metrics_max_hosts: int = Field(default=50, ge=0, le=1000)  # target hosts sampled per run

    # health of inventory hosts on the port Ansible uses (src/steward/health): TCP connect and
    # SSH banner times to ansible_host:ansible_port. Every inventory's hosts are checked each
    # health_interval_seconds by one server (0: off, the default: a large inventory is many
    # connections); a check waits health_timeout_seconds at most, health_concurrency at once
    health_interval_seconds: float = Field(default=0.0, ge=0, le=7 * 86400)
    health_timeout_seconds: float = Field(default=5.0, gt=0, le=60)
    health_concurrency: int = Field(default=64, ge=1, le=1024)
    # history kept (days; 0 keeps it forever), pruned by retention
    health_retention_days: int = Field(default=30, ge=0, le=36500)
    # on-demand checks (POST …/health/check) per project and minute, each of one host or one
    # inventory (429 above it)
    health_checks_per_minute: int = Field(default=30, ge=1, le=100_000)
    # networks health checks may reach besides outbound_allowed_networks: Ansible's hosts
    # often live where web requests must not go (loopback, a private range blocked by
    # outbound_block_private); the most specific entry decides, as for outbound requests
    health_allowed_networks: Annotated[list[str], NoDecode] = Field(default_factory=list)

    # LDAP login (``steward.directory.ldap``): on when ldap_url is set. Steward searches the
    # user with its own account (bind DN), binds as the user with their password, reads their
    # groups and provisions them (``directory.provision``); local users are tried first
    ldap_url: Annotated[list[str], NoDecode] = Field(default_factory=list)  # tried in order
    ldap_start_tls: bool = False  # ldap:// upgraded with StartTLS before any bind
    ldap_ca_file: Path | None = None  # CA certificates for ldaps:// and StartTLS; else system's
    ldap_bind_dn: str = Field(default="", max_length=1000)  # empty: anonymous search
    ldap_bind_password: SecretStr | None = None
    ldap_bind_password_file: Path | None = None  # read at start; better than the environment
    ldap_user_base: str = Field(default="", max_length=1000)
    # {username} is replaced by the typed username, escaped as a filter value (RFC 4515)
    ldap_user_filter: str = Field(
        default="(&(objectClass=inetOrgPerson)(uid={username}))", max_length=2000
    )
    ldap_username_attribute: str = Field(default="uid", min_length=1, max_length=100)
    ldap_email_attribute: str = Field(default="mail", min_length=1, max_length=100)
    ldap_display_name_attribute: str = Field(default="cn", min_length=1, max_length=100)
    # groups: searched under ldap_group_base with {user_dn} (escaped) in the filter; with no
    # group base, the user entry's ldap_member_of_attribute (Active Directory, memberof overlay)
    ldap_group_base: str = Field(default="", max_length=1000)
    ldap_group_filter: str = Field(
        default="(|(member={user_dn})(uniqueMember={user_dn}))", max_length=2000
    )
    ldap_member_of_attribute: str = Field(default="memberOf", min_length=1, max_length=100)
    # members of these group DNs are admins, the others not; empty: LDAP leaves is_admin alone.
    # DNs contain commas: a JSON list, or DNs separated by ';'
    ldap_admin_groups: Annotated[list[str], NoDecode] = Field(default_factory=list)
    ldap_timeout_seconds: float = Field(default=5.0, gt=0, le=60)
    # the attribute naming an entry for good (kept as the user's external id, so a moved or
    # renamed entry logs into the same account): entryUUID (OpenLDAP, RFC 4530), objectGUID (AD)
    ldap_id_attribute: str = Field(
        default="entryUUID", pattern=r"^[A-Za-z][A-Za-z0-9-]{0,99}$", max_length=100
    )
    # the directory sync (``directory.sync``): every this many minutes a server checks every LDAP
    # user against the directory (gone: disabled; present: teams and admin flag); 0: off
    ldap_sync_minutes: int = Field(default=60, ge=0, le=10080)

    @field_validator("ldap_url")
    @classmethod
    def _ldap_urls(cls, value: list[str]) -> list[str]:
        urls = [url for part in value for url in part.replace(",", " ").split() if url]
        for url in urls:
            if not re.match(r"^ldaps?://[^/?#\s]+/?$", url, re.IGNORECASE):
                raise ValueError(f"{url!r} is not an ldap://host[:port] or ldaps://host[:port] URL")
        return urls

    @model_validator(mode="after")
    def _ldap_settings(self) -> Settings:
        if not self.ldap_url:
            return self
        if not self.ldap_user_base:
            raise ValueError("ldap_user_base: required with ldap_url (where users are searched)")
        if "{username}" not in self.ldap_user_filter:
            raise ValueError("ldap_user_filter: must contain {username}")
        if self.ldap_group_base and "{user_dn}" not in self.ldap_group_filter:
            raise ValueError("ldap_group_filter: must contain {user_dn}")
        if self.ldap_bind_password is not None and self.ldap_bind_password_file is not None:
            raise ValueError("ldap_bind_password: give it or ldap_bind_password_file, not both")
        if self.ldap_start_tls and any(u.lower().startswith("ldaps://") for u in self.ldap_url):
            raise ValueError("ldap_start_tls: ldaps:// is TLS already; StartTLS is for ldap://")
        return self

    @property
    def ldap_enabled(self) -> bool:
        return bool(self.ldap_url)

    # the console's address in links (notifications), and for the `steward run` client command
    url: str = ""  # empty: http://<host>:<port>
    token: SecretStr | None = None

    # OpenID Connect single sign-on (``steward.directory.oidc``): on when issuer and client id
    # are set. The secret comes from oidc_client_secret or, better, a file (never logged or
    # returned); groups claim values map to teams (``teams.directory_groups``) and admin groups
    oidc_issuer: str = Field(default="", max_length=2000)
    oidc_client_id: str = Field(default="", max_length=500)
    oidc_client_secret: SecretStr | None = None
    oidc_client_secret_file: Path | None = None
    oidc_scopes: str = Field(default="openid profile email", max_length=1000)
    oidc_username_claim: str = Field(default="preferred_username", min_length=1, max_length=100)
    oidc_email_claim: str = Field(default="email", min_length=1, max_length=100)
    oidc_name_claim: str = Field(default="name", min_length=1, max_length=100)
    oidc_groups_claim: str = Field(default="groups", min_length=1, max_length=100)
    oidc_admin_groups: Annotated[list[str], NoDecode] = Field(default_factory=list)
    oidc_button_label: str = Field(default="Sign in with SSO", min_length=1, max_length=100)
    # e-mail domains allowed to sign in (verified addresses only); empty: any
    oidc_allowed_domains: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # where the provider sends the browser back; empty: <url>/api/v1/auth/oidc/callback
    oidc_redirect_uri: str = Field(default="", max_length=2000)
    oidc_timeout_seconds: float = Field(default=10.0, gt=0, le=120)
    oidc_discovery_cache_seconds: float = Field(default=3600.0, ge=0, le=86400)

    @field_validator(*_LISTS, mode="before")
    @classmethod
    def _split_lists(cls, value: object, info: ValidationInfo) -> object:
        """A list setting from the environment, split as ``_LISTS`` says."""
        separators, json_list = _LISTS[str(info.field_name)]
        return _env_list(value, separators, json_list=json_list)

    @field_validator(
        "outbound_allowed_networks", "outbound_blocked_networks", "health_allowed_networks"
    )
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        outbound.check_networks(value)  # a typo must not leave a network open (or shut)
        return value

    @field_validator("notify_blocked_networks", "metrics_blocked_networks")
    @classmethod
    def _renamed(cls, value: str | None) -> None:
        if value is not None:
            raise ValueError(
                "renamed to STEWARD_OUTBOUND_BLOCKED_NETWORKS (one list for every outbound"
                " request; loopback, link-local and 0.0.0.0/8 are refused without it)"
            )

    @field_validator("local_repository_roots")
    @classmethod
    def _absolute_roots(cls, value: list[Path] | None) -> list[Path] | None:
        if value is None:
            return None
        roots = [root.expanduser() for root in value]
        for root in roots:
            if not root.is_absolute():
                raise ValueError(f"{root} is not an absolute directory")
        return roots

    @field_validator("adhoc_modules")
    @classmethod
    def _module_names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", name):
                raise ValueError(f"{name!r} is not a module name")
        return list(dict.fromkeys(value))

    @field_validator("ansible_venvs")
    @classmethod
    def _absolute_venvs(cls, value: list[Path]) -> list[Path]:
        venvs = [Path(os.path.normpath(venv.expanduser())) for venv in value]
        for venv in venvs:
            if not venv.is_absolute():
                raise ValueError(f"{venv} is not an absolute directory")
        return list(dict.fromkeys(venvs))

    @model_validator(mode="after")
    def _fill_paths(self) -> Settings:
        self.data_dir = self.data_dir.expanduser().resolve()
        if not self.database_url:
            self.database_url = f"sqlite:///{self.data_dir / 'steward.db'}"
        if not self.url:
            self.url = f"http://{self.host}:{self.port}"
        if self.secret_key_file is None:
            self.secret_key_file = self.data_dir / "secret.key"
        if self.local_repository_roots is None:
            self.local_repository_roots = [self.default_repository_root]
        return self

    @property
    def oidc_enabled(self) -> bool:
        """Whether the OpenID Connect login is configured (issuer and client id)."""
        return bool(self.oidc_issuer and self.oidc_client_id)

    @property
    def key_file(self) -> Path:
        return self.secret_key_file or self.data_dir / "secret.key"

    @property
    def repository_roots(self) -> tuple[Path, ...]:
        """The directories `local` repositories must be inside (see ``local.resolve_local``);
        filled in at validation, so never None here."""
        return tuple(self.local_repository_roots or ())

    @property
    def default_repository_root(self) -> Path:
        """Where `local` repositories go when no root is configured (made at start)."""
        return self.data_dir / "repositories"

    @property
    def requirements_cache_dir(self) -> Path:
        """Roles and collections installed for earlier runs, per project (``galaxy.cache``)."""
        return self.data_dir / "requirements-cache"

    @property
    def runs_dir(self) -> Path:
        """Per-run private data directories live here while a run executes."""
        return self.data_dir / "runs"
