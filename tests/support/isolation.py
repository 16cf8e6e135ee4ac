"""What every test runs under, set once per session (autouse):

- ``cheap_password_hashes``: argon2 with its smallest parameters. The default (64 MiB, 3 passes)
  costs ~0.1-0.5 s per hash or login, and the access tests create and log in ~17 people. A hash
  carries its own parameters, so verifying still works both ways; servers started as
  subprocesses (``support.server``) keep the real parameters.
- ``no_outbound_network``: a connection from the test process to anything but this machine (a
  loopback address, ``localhost`` or a unix socket) fails the test with ``NetworkBlocked``. The
  throwaway PostgreSQL, Redis and sshd listen on 127.0.0.1; subprocesses are not affected.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher

from steward.auth import passwords

CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@pytest.fixture(scope="session", autouse=True)
def cheap_password_hashes() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(passwords, "_hasher", CHEAP_HASHER)
        patch.setattr(passwords, "_DUMMY_HASH", CHEAP_HASHER.hash("steward-dummy-password"))
        yield


class NetworkBlocked(RuntimeError):
    """A test tried to reach another machine."""


def is_local(family: int, address: Any) -> bool:
    """Whether ``address`` (as given to ``socket.connect``) is on this machine."""
    if family == socket.AF_UNIX:
        return True
    host = address[0] if isinstance(address, tuple) else address
    if not isinstance(host, str):
        return False
    if host.lower() in ("localhost", "localhost.", ""):
        return True
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False  # a host name other than localhost: resolving it is already going out
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex


def _guarded_connect(self: socket.socket, address: Any) -> None:
    if not is_local(self.family, address):
        raise NetworkBlocked(f"tests may not connect to {address!r}: only to this machine")
    _connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    if not is_local(self.family, address):
        raise NetworkBlocked(f"tests may not connect to {address!r}: only to this machine")
    return _connect_ex(self, address)


@pytest.fixture(scope="session", autouse=True)
def no_outbound_network() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", _guarded_connect)
        patch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)
        yield
