"""The broker answers PING or fails fast; pmproxies answer or are named in a warning."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support import services
from support.apps import settings_for
from support.pcp import PcpServer
from support.processes import free_port
from support.redis import RedisServer

from steward.config import Settings
from steward.db import make_engine, make_session_factory
from steward.doctor import peers
from steward.doctor.findings import Level
from steward.inventories.models import Inventory, InventoryKind


def test_no_broker_is_single_process(tmp_path: Path) -> None:
    found = peers.broker(Settings(data_dir=tmp_path))
    assert (
        found.line() == "ok   broker: not configured (single process: runs execute in the server)"
    )


def test_a_broker_answers_or_fails_fast(tmp_path: Path, redis_server: RedisServer) -> None:
    found = peers.broker(Settings(data_dir=tmp_path, broker_url=redis_server.url))  # type: ignore[arg-type]
    assert found.level is Level.OK, found.line()
    assert "answered PING" in found.detail

    closed = f"redis://:s3cret@127.0.0.1:{free_port()}/0"
    started = time.monotonic()
    down = peers.broker(Settings(data_dir=tmp_path, broker_url=closed))  # type: ignore[arg-type]
    assert time.monotonic() - started < peers.BROKER_TIMEOUT + 1
    assert down.level is Level.FAIL, down.line()
    assert "no answer within 1 s" in down.detail
    assert "STEWARD_BROKER_URL" in down.detail
    assert "s3cret" not in down.line()
    assert ":***@127.0.0.1" in down.line()


def test_host_metrics_off_is_a_warning(tmp_path: Path) -> None:
    found = peers.pcp(Settings(data_dir=tmp_path, metrics_enabled=False), in_use=[])
    assert found.level is Level.WARN
    assert "STEWARD_METRICS_ENABLED=false" in found.detail


def test_a_central_pmproxy_answers_or_is_named(tmp_path: Path, pcp_server: PcpServer) -> None:
    settings = settings_for(tmp_path, "sqlite://")  # loopback allowed, as an admin would
    nothing = peers.pcp(settings, in_use=[])
    assert nothing.level is Level.OK
    assert "no inventory names a pmproxy" in nothing.detail

    central = f"http://127.0.0.1:{pcp_server.pmproxy_port}"
    per_host = pcp_server.endpoint  # http://{host}:port: asked by each run
    found = peers.pcp(settings, in_use=[central, per_host])
    assert found.level is Level.OK, found.line()
    assert "1 central pmproxy answered" in found.detail
    assert "1 per-host" in found.detail

    silent = f"http://127.0.0.1:{free_port()}"
    down = peers.pcp(settings, in_use=[silent])
    assert down.level is Level.WARN, down.line()
    assert f"{silent}: PCP absent: connection refused" in down.detail


@pytest.mark.both_databases
def test_the_pmproxies_are_the_inventories(settings: Settings, pcp_server: PcpServer) -> None:
    central = f"http://127.0.0.1:{pcp_server.pmproxy_port}"
    engine = make_engine(settings.database_url)
    try:
        with make_session_factory(engine)() as session:
            owner = services.project(session)
            for name, endpoint in (("central", central), ("none", ""), ("again", central)):
                session.add(
                    Inventory(
                        project_id=owner.id,
                        name=name,
                        kind=InventoryKind.STATIC,
                        metrics_endpoint=endpoint,
                    )
                )
            session.commit()
    finally:
        engine.dispose()
    found = peers.pcp(settings)
    assert found.level is Level.OK, found.line()
    assert "; 1 central pmproxy answered in " in found.detail  # two inventories, one pmproxy
