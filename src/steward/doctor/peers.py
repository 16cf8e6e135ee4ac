"""The servers Steward talks to beside its database: the pmproxies host metrics come from
(``metrics/``) and the broker of cluster mode (``dispatch/celery.py``), each asked within a
short timeout."""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import psutil
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from steward.config import Settings
from steward.doctor.findings import Finding, fail, ok, seconds, warn
from steward.doctor.storage import engine_of
from steward.inventories.models import Inventory
from steward.metrics import endpoints
from steward.outbound import network

PCP = "pcp"
BROKER = "broker"

PCP_TIMEOUT = 2.0  # seconds, at most (STEWARD_METRICS_TIMEOUT_SECONDS if shorter)
PCP_PROBED = 5  # central pmproxies asked at most
BROKER_TIMEOUT = 1.0


def _endpoints_in_use(settings: Settings) -> list[str] | str:
    """The inventories' metrics endpoints (distinct), or why they could not be read."""
    engine = engine_of(settings)
    if engine is None:
        return []
    try:
        with engine.connect() as connection:
            return sorted(
                set(
                    connection.scalars(
                        select(Inventory.metrics_endpoint).where(Inventory.metrics_endpoint != "")
                    )
                )
            )
    except SQLAlchemyError:
        return "the inventories could not be read (see the database line)"
    finally:
        engine.dispose()


def _central(template: str) -> bool:
    """Whether the endpoint is one pmproxy for every host (``{host}`` not in its address)."""
    return endpoints.PLACEHOLDER not in urllib.parse.urlsplit(template).netloc


def _ask(settings: Settings, template: str, timeout: float) -> str | None:
    """Why the central pmproxy of ``template`` gives no sample, or None when it answers (a
    context and a fetch, through the outbound guard, as a run's sampling does)."""
    from steward.metrics.pcp import PcpProbe, Unavailable  # its HTTP client: only when asked

    try:
        endpoint = endpoints.parse(template)
    except endpoints.Unusable as exc:
        return str(exc)
    if endpoints.PLACEHOLDER in endpoint.hostspec:  # a gateway to each host's pmcd: its own
        endpoint = endpoints.Endpoint(endpoint.url, "")
    probe = PcpProbe(
        endpoint, timeout=timeout, guard=network.Guard.of(settings), polltimeout=int(timeout) + 1
    )
    try:
        probe.sample()
    except Unavailable as exc:
        return str(exc)
    finally:
        probe.close()
    return None


def pcp(settings: Settings, *, in_use: Sequence[str] | None = None) -> Finding:
    """Host metrics: a warning when off; on, the controller's counters (psutil) and each central
    pmproxy the inventories name (``in_use``, default: read from the database) answering
    within PCP_TIMEOUT. A pmproxy that does not answer is a warning: runs go on, their metrics
    have gaps. Per-host endpoints are asked by each run for its hosts."""
    if not settings.metrics_enabled:
        return warn(
            PCP,
            "host metrics are off (STEWARD_METRICS_ENABLED=false): runs record no CPU,"
            " memory, disk or network figures",
        )
    try:
        psutil.cpu_times()
        psutil.virtual_memory()
    except (OSError, RuntimeError) as exc:
        return warn(PCP, f"this machine's counters cannot be read (psutil: {exc})")
    found = _endpoints_in_use(settings) if in_use is None else list(in_use)
    if isinstance(found, str):
        return ok(PCP, f"host metrics on (the controller through psutil); {found}")
    central = [template for template in found if _central(template)][:PCP_PROBED]
    per_host = len(found) - len([t for t in found if _central(t)])
    said = "host metrics on: the controller through psutil"
    if per_host:
        said += f"; {per_host} per-host pmproxy endpoint(s), asked by each run for its hosts"
    if not central:
        if not found:
            said += "; no inventory names a pmproxy (target hosts not sampled)"
        return ok(PCP, said)
    timeout = min(PCP_TIMEOUT, settings.metrics_timeout_seconds)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=len(central)) as pool:
        answers = list(pool.map(lambda t: _ask(settings, t, timeout), central))
    took = seconds(time.monotonic() - started)
    silent = [f"{t}: {why}" for t, why in zip(central, answers, strict=True) if why is not None]
    if silent:
        return warn(
            PCP,
            f"{said}; no sample from {'; '.join(silent)}; start pmproxy there (systemctl"
            " enable --now pmcd pmproxy) or fix the inventory's metrics endpoint",
        )
    return ok(PCP, f"{said}; {len(central)} central pmproxy answered in {took}")


def _shown(url: str) -> str:
    """A broker URL without its password."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


def broker(settings: Settings) -> Finding:
    """Cluster mode's Redis answers PING within BROKER_TIMEOUT (no retry); "not configured"
    in single-process mode."""
    if settings.broker_url is None:
        return ok(BROKER, "not configured (single process: runs execute in the server)")
    url = settings.broker_url.get_secret_value()
    where = _shown(url)
    if urllib.parse.urlsplit(url).scheme not in ("redis", "rediss"):
        return warn(BROKER, f"{where}: not checked (the doctor asks redis:// brokers only)")
    import redis  # only in cluster mode
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    started = time.monotonic()
    try:
        client = redis.Redis.from_url(
            url,
            socket_connect_timeout=BROKER_TIMEOUT,
            socket_timeout=BROKER_TIMEOUT,
            retry=Retry(NoBackoff(), 0),
        )
        try:
            client.ping()
        finally:
            client.close()
    except redis.AuthenticationError as exc:
        return fail(BROKER, f"{where} refused the credentials ({exc}); fix STEWARD_BROKER_URL")
    except (redis.RedisError, OSError, ValueError) as exc:
        return fail(
            BROKER,
            f"{where}: no answer within {BROKER_TIMEOUT:g} s ({exc}); start Redis there"
            " or fix STEWARD_BROKER_URL (workers and servers must share it)",
        )
    return ok(BROKER, f"{where} answered PING in {seconds(time.monotonic() - started)}")
