"""One check of one host on the port Ansible uses, and many at once.

A check resolves the address without blocking (the event loop's resolver), lets the outbound
guard decide every address it resolved to (``outbound.network.Guard.choose``: a refused one is
never connected to), connects to the vetted address and reads until the SSH version line
(``SSH-2.0-…``, RFC 4253 4.2), the first line, at most ``BANNER_MAX`` bytes (a server that
sends other lines first, as the RFC allows and none we know does, reads as not SSH). It
sends nothing and closes: no key exchange, no login. Of the answer only whether it was an SSH
version line is kept, never its text (a port that is not SSH must not become a reader of what
another service says).

``check_all`` runs up to ``concurrency`` checks at once, each within ``timeout`` seconds in all
(resolving, connecting and the banner), so a pass of n hosts takes about
``ceil(n / concurrency) * timeout`` at worst.
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import socket
import time
from collections.abc import Iterable

from steward.health.models import Status
from steward.outbound import network

BANNER_MAX = 512  # bytes of the first line (RFC 4253: the version line is 255 at most)
REASON_MAX = 300


@dataclasses.dataclass(frozen=True)
class Target:
    """Where to check: ``address`` (a name or an IP) and ``port``; or why nothing is probed
    (``status`` LOCAL or NOT_MEASURED with its ``reason``)."""

    key: tuple[int, str]  # (inventory id, host name): what the result is kept under
    address: str = ""
    port: int = 22
    status: Status | None = None  # set: not probed, for this reason
    reason: str = ""


@dataclasses.dataclass(frozen=True)
class Result:
    key: tuple[int, str]
    status: Status
    tcp_ms: float | None = None
    banner_ms: float | None = None
    reason: str = ""


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


async def _resolve(host: str, port: int) -> list[str]:
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise network.Unresolved(f"'{host}' does not resolve") from exc
    return list(dict.fromkeys(str(info[4][0]) for info in found))


async def _banner(reader: asyncio.StreamReader) -> bool:
    """Whether the first line the port sends is an SSH version line (a service that greets
    with anything else, then waits for us, is not SSH: no second wait)."""
    try:
        line = await reader.readuntil(b"\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        return False
    return line.startswith(b"SSH-")


async def _connected(target: Target, guard: network.Guard, start: float) -> Result:
    try:
        vetted = guard.choose(
            target.address, target.port, await _resolve(target.address, target.port)
        )
    except network.Unresolved as exc:
        return Result(target.key, Status.UNREACHABLE, reason=str(exc)[:REASON_MAX])
    except network.Refused as exc:
        return Result(target.key, Status.BLOCKED, reason=f"not checked: {exc}"[:REASON_MAX])
    connect_start = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection(
            vetted.address, vetted.port, limit=BANNER_MAX
        )
    except ConnectionRefusedError:
        return Result(target.key, Status.REFUSED, reason=f"port {target.port}: connection refused")
    except OSError as exc:
        cause = errno.errorcode.get(exc.errno or 0, type(exc).__name__)
        return Result(
            target.key, Status.UNREACHABLE, reason=f"port {target.port}: {cause}"[:REASON_MAX]
        )
    tcp_ms = _ms(connect_start)
    try:
        ssh = await _banner(reader)
    except OSError:
        ssh = False
    finally:
        writer.close()
    if not ssh:
        return Result(
            target.key,
            Status.NOT_SSH,
            tcp_ms=tcp_ms,
            reason=f"port {target.port} answered, but not with an SSH version line",
        )
    return Result(target.key, Status.REACHABLE, tcp_ms=tcp_ms, banner_ms=_ms(connect_start))


async def check(target: Target, guard: network.Guard, timeout: float) -> Result:
    """One check, within ``timeout`` seconds in all."""
    if target.status is not None:
        return Result(target.key, target.status, reason=target.reason)
    start = time.perf_counter()
    try:
        return await asyncio.wait_for(_connected(target, guard, start), timeout)
    except TimeoutError:
        return Result(
            target.key,
            Status.TIMEOUT,
            reason=f"port {target.port}: no SSH version line within {timeout:g} s",
        )


async def _all(
    targets: Iterable[Target], guard: network.Guard, *, timeout: float, concurrency: int
) -> list[Result]:
    gate = asyncio.Semaphore(concurrency)

    async def one(target: Target) -> Result:
        async with gate:
            return await check(target, guard, timeout)

    return list(await asyncio.gather(*(one(t) for t in targets)))


def check_all(
    targets: Iterable[Target], guard: network.Guard, *, timeout: float, concurrency: int
) -> list[Result]:
    """Every target checked, ``concurrency`` at once (an event loop of its own: called from a
    background thread, a request's thread or a run's)."""
    return asyncio.run(_all(targets, guard, timeout=timeout, concurrency=concurrency))
