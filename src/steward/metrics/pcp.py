"""Samples of a target host from its pmproxy: PCP's REST API (``/pmapi/context``, ``/pmapi/fetch``).

The metrics are those behind ``pmrep :sar-u`` (CPU), memory, ``:sar-b`` (disk IOPS and
throughput) and ``:sar-n-DEV`` (network packets and bytes, loopback excluded by PCP's
``network.all``). Counters come back raw; rates are computed here between two fetches, on
PCP's own timestamps. Every failure is an ``Unavailable`` whose text is the gap's reason.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Mapping
from typing import Any

from steward.metrics.endpoints import Endpoint
from steward.outbound import network

USER_AGENT = "Steward-Metrics/1"
RESPONSE_MAX = 256 * 1024
REASON_MAX = 300
# CPU time in ms (all CPUs), memory in KB, disk in operations and KB, network in packets, bytes
METRICS = (
    "hinv.ncpu",
    "kernel.all.cpu.user",
    "kernel.all.cpu.sys",
    "kernel.all.cpu.wait.total",
    # with user, sys and wait: every millisecond the CPUs spent (the shares' denominator)
    "kernel.all.cpu.nice",
    "kernel.all.cpu.idle",
    "kernel.all.cpu.intr",
    "kernel.all.cpu.steal",
    "mem.physmem",
    "mem.util.available",
    "disk.all.read",
    "disk.all.write",
    "disk.all.read_bytes",
    "disk.all.write_bytes",
    "network.all.in.packets",
    "network.all.out.packets",
    "network.all.in.bytes",
    "network.all.out.bytes",
)
Reading = tuple[float, dict[str, float]]  # PCP's timestamp (s), metric -> value


class _SamplesAtDebug(logging.Filter):
    """httpx2 says every request at INFO: here one per host and sample (a fetch; a context now
    and then), a third of a server's log during runs. Its lines about pmproxy become DEBUG
    lines (shown at STEWARD_LOG_LEVEL=DEBUG); its other lines stay as they are."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not any(
            "/pmapi/" in str(arg) for arg in (record.args if isinstance(record.args, tuple) else ())
        ):
            return True
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return HTTP_LOG.isEnabledFor(logging.DEBUG)


HTTP_LOG = logging.getLogger("httpx2")
HTTP_LOG.addFilter(_SamplesAtDebug())


class Unavailable(Exception):
    """No sample this time; ``str()`` is the reason (shown to whoever sees the run)."""

    def __init__(self, reason: str) -> None:
        printable = "".join(c if c.isprintable() else " " for c in reason)
        super().__init__(printable[:REASON_MAX])


class PcpProbe:
    """One target host's pmproxy: a context kept between fetches, rates between two of them.

    The first fetch (and the first after a failure) only sets the baseline: ``sample`` returns
    None rather than a rate over a stretch it did not see."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        timeout: float,
        guard: network.Guard,
        polltimeout: int,
    ) -> None:
        self._endpoint = endpoint
        self._timeout = timeout
        self._guard = guard
        self._polltimeout = polltimeout
        import httpx2  # loaded with the first probe, not with the server

        # no proxies from the environment: a proxy would connect wherever it is told
        self._client = httpx2.Client(timeout=timeout, follow_redirects=False, trust_env=False)
        self._address: str | None = None
        self._context: int | None = None
        self._previous: Reading | None = None

    def close(self) -> None:
        self._client.close()

    def sample(self) -> dict[str, float] | None:
        try:
            reading = self._fetch()
        except Unavailable:
            self._address, self._context, self._previous = None, None, None
            raise
        previous, self._previous = self._previous, reading
        return None if previous is None else rates(previous, reading)

    def _fetch(self) -> Reading:
        if self._context is None or self._address is None:
            self._address = self._vet()
            params = {"polltimeout": str(self._polltimeout)}
            if self._endpoint.hostspec:
                params["hostspec"] = self._endpoint.hostspec
            self._context = _context_id(self._get(self._address, "/pmapi/context", params))
        params = {"context": str(self._context), "names": ",".join(METRICS)}
        return readings(self._get(self._address, "/pmapi/fetch", params))

    def _vet(self) -> str:
        """The address to connect to, checked by the outbound guard (each new context)."""
        url = self._endpoint.url
        try:
            return self._guard.vet(url.host, url.port).address
        except network.Unresolved as exc:
            raise Unavailable(f"unreachable: {exc}") from exc
        except network.Refused as exc:
            raise Unavailable(f"endpoint refused: {exc}") from exc

    def _get(self, address: str, path: str, params: Mapping[str, str]) -> dict[str, Any]:
        import httpx2

        url = self._endpoint.url
        headers = {"Host": url.netloc, "User-Agent": USER_AGENT}
        extensions = {"sni_hostname": url.host} if url.scheme == "https" else {}
        deadline = time.monotonic() + self._timeout
        body = bytearray()
        try:
            with self._client.stream(
                "GET",
                url.pinned(address) + path,
                params=params,
                headers=headers,
                extensions=extensions,
            ) as response:
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) > RESPONSE_MAX:
                        raise Unavailable("the endpoint's answer is larger than 256 KiB")
                    if time.monotonic() > deadline:
                        raise Unavailable(f"no answer within {self._timeout:g} s")
        except httpx2.ConnectTimeout as exc:
            raise Unavailable(f"unreachable: no connection within {self._timeout:g} s") from exc
        except httpx2.TimeoutException as exc:
            raise Unavailable(f"no answer within {self._timeout:g} s") from exc
        except httpx2.ConnectError as exc:
            if "refused" in str(exc).lower():
                raise Unavailable(
                    f"PCP absent: connection refused on port {url.port} (pmproxy not running?)"
                ) from exc
            raise Unavailable(f"unreachable: {exc}") from exc
        except (httpx2.ProtocolError, httpx2.DecodingError) as exc:
            # its message would quote what the other end sent
            raise Unavailable("not a pmproxy answer (not HTTP)") from exc
        except httpx2.HTTPError as exc:
            raise Unavailable(f"unreachable: {type(exc).__name__}") from exc
        return _json(response.status_code, bytes(body))


def _json(status: int, body: bytes) -> dict[str, Any]:
    try:
        answer = json.loads(body)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise Unavailable(f"not a pmproxy answer (HTTP {status}, not a JSON object)")
    if status != 200:  # its message is not shown: only numbers of known metrics are kept
        raise Unavailable(f"pmproxy answered HTTP {status}")
    return answer


def _context_id(answer: Mapping[str, Any]) -> int:
    context = answer.get("context")
    if not isinstance(context, int) or isinstance(context, bool):
        raise Unavailable("not a pmproxy answer (no context)")
    return context


def readings(answer: Mapping[str, Any]) -> Reading:
    """PCP's timestamp and the value of each metric it knows (instances summed)."""
    stamp = answer.get("timestamp")
    values = answer.get("values")
    if not isinstance(stamp, int | float) or not isinstance(values, list):
        raise Unavailable("not a pmproxy answer (no timestamp or values)")
    found: dict[str, float] = {}
    for metric in values:
        if not isinstance(metric, dict) or metric.get("name") not in METRICS:
            continue
        instances = metric.get("instances")
        if not isinstance(instances, list):
            continue
        numbers = [i.get("value") for i in instances if isinstance(i, dict)]
        usable = [float(n) for n in numbers if isinstance(n, int | float)]
        if usable and len(usable) == len(numbers):
            found[metric["name"]] = sum(usable)
    if "kernel.all.cpu.user" not in found or "hinv.ncpu" not in found:
        raise Unavailable("PCP absent: pmproxy answered without the kernel's metrics (pmdalinux?)")
    return float(stamp), found


CPU_STATES = (
    "kernel.all.cpu.user",
    "kernel.all.cpu.nice",
    "kernel.all.cpu.sys",
    "kernel.all.cpu.idle",
    "kernel.all.cpu.wait.total",
    "kernel.all.cpu.intr",
    "kernel.all.cpu.steal",
)


def _cpu_spent(before: Mapping[str, float], after: Mapping[str, float]) -> float | None:
    """CPU milliseconds of every state between two readings (None without all of them).

    CPU shares are taken against this, as top and vmstat do, not against the readings'
    timestamps: PCP stamps a fetch when it answers, and a stamp off from the moment
    /proc/stat was read by a fraction of the interval read 150 % and 72 % in turn (seen)."""
    if any(name not in before or name not in after for name in CPU_STATES):
        return None
    return sum(after[name] - before[name] for name in CPU_STATES)


def rates(previous: Reading, current: Reading) -> dict[str, float]:
    """The sample between two readings (NaN where a metric is missing or went backwards)."""
    (t0, before), (t1, after) = previous, current
    elapsed = t1 - t0
    nan = math.nan

    def rate(name: str, scale: float = 1.0) -> float:
        if elapsed <= 0 or name not in before or name not in after:
            return nan
        delta = after[name] - before[name]
        return nan if delta < 0 else delta * scale / elapsed

    spent = _cpu_spent(before, after)
    if spent is None:  # an older PMDA without every CPU state: per second of PCP's clock
        ncpu = after.get("hinv.ncpu", nan)
        cpu_ms = 1000.0 * ncpu if ncpu > 0 else nan  # CPU milliseconds per second, all CPUs

        def share(name: str) -> float:
            return rate(name, 100 / cpu_ms)
    else:  # of the time the CPUs spent between the readings, whatever the clocks say

        def share(name: str) -> float:
            delta = after.get(name, nan) - before.get(name, nan)
            return nan if not delta >= 0 or spent <= 0 else 100 * delta / spent

    total = after.get("mem.physmem", nan) * 1024
    return {
        "cpu.user": share("kernel.all.cpu.user"),
        "cpu.system": share("kernel.all.cpu.sys"),
        "cpu.iowait": share("kernel.all.cpu.wait.total"),
        "mem.used": total - after.get("mem.util.available", nan) * 1024,
        "mem.total": total,
        "disk.read_iops": rate("disk.all.read"),
        "disk.write_iops": rate("disk.all.write"),
        "disk.read_bytes": rate("disk.all.read_bytes", 1024),
        "disk.write_bytes": rate("disk.all.write_bytes", 1024),
        "net.rx_packets": rate("network.all.in.packets"),
        "net.tx_packets": rate("network.all.out.packets"),
        "net.rx_bytes": rate("network.all.in.bytes"),
        "net.tx_bytes": rate("network.all.out.bytes"),
    }
