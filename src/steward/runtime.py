"""What a running Steward process holds: settings, database, the key cipher and the preview
counts."""

from __future__ import annotations

import dataclasses

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

# every table mapped in every process (server, worker, CLI): a flush resolves the foreign keys
# of a row to tables this process may never use itself (runs -> schedules in a worker)
import steward.models  # noqa: F401
from steward.audit.service import STREAM_SINKS
from steward.auth.credentials import Credentials
from steward.auth.throttle import Rate
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.db import make_engine, make_session_factory
from steward.execution.ansible.sandbox import Sandbox
from steward.outbound.network import Guard
from steward.repositories.checkout import Reach
from steward.templates.options.resolver import SOURCES, Sources


@dataclasses.dataclass
class Runtime:
    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    cipher: KeyCipher
    sandbox: Sandbox  # what runs and inventory scripts execute in
    previews: Rate  # previews and tests per user (STEWARD_PREVIEW_MAX_PER_MINUTE)
    health_checks: Rate  # on-demand health checks per project (STEWARD_HEALTH_CHECKS_PER_MINUTE)
    credentials: Credentials  # tokens and sessions resolved lately (STEWARD_AUTH_CACHE_SECONDS)

    @classmethod
    def build(cls, settings: Settings) -> Runtime:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        engine = make_engine(settings.database_url)
        cipher = KeyCipher.load_or_create(settings.key_file)
        sandbox = Sandbox.from_settings(settings)
        # what every launch path reads survey options with (templates.options.resolver)
        reach = Reach(
            cipher, tuple(settings.repository_roots), Guard.of(settings), settings.data_dir
        )
        info = {
            # every audit record is queued for the audit stream's sinks (audit.stream)
            STREAM_SINKS: settings.audit_stream_sinks,
            SOURCES: Sources(reach, sandbox, settings.survey_options_cache_seconds),
        }
        sessions = make_session_factory(engine, info)
        credentials = Credentials(settings.auth_cache_seconds)
        credentials.watch(sessions)
        return cls(
            settings=settings,
            engine=engine,
            sessions=sessions,
            credentials=credentials,
            cipher=cipher,
            sandbox=sandbox,
            previews=Rate(
                settings.preview_max_per_minute,
                "previews and tests per user (STEWARD_PREVIEW_MAX_PER_MINUTE)",
            ),
            health_checks=Rate(
                settings.health_checks_per_minute,
                "health checks of the project's hosts (STEWARD_HEALTH_CHECKS_PER_MINUTE)",
            ),
        )
