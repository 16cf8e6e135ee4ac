"""The outbound-address guard on its own: every spelling of a refused address, the listen
address, the private ranges with the setting on and off, the admin's allow-list and which entry
decides. Names resolve through the system's resolver (``localhost`` is in /etc/hosts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from steward.config import Settings
from steward.outbound.network import Guard, Refused, Unresolved


def guard(tmp_path: Path, **settings: Any) -> Guard:
    return Guard.of(Settings(data_dir=tmp_path, **settings))


# (what a user types, the address it means, the network that refuses it by default)
LOOPBACK_FORMS = [
    ("127.0.0.1", "127.0.0.1"),
    ("127.1", "127.0.0.1"),  # inet_aton's short form
    ("2130706433", "127.0.0.1"),  # one decimal number
    ("0x7f000001", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),  # octal
    ("127.0.0.2", "127.0.0.2"),
    ("localhost", "127.0.0.1"),  # a name resolving to loopback
]
REFUSED_BY_DEFAULT = [
    ("::1", "::1/128"),
    ("::ffff:127.0.0.1", "127.0.0.0/8"),  # IPv4-mapped: checked as the IPv4 address
    ("::ffff:7f00:1", "127.0.0.0/8"),
    ("169.254.169.254", "169.254.0.0/16"),  # the cloud metadata service
    ("2852039166", "169.254.0.0/16"),
    ("::ffff:169.254.169.254", "169.254.0.0/16"),
    ("fe80::1", "fe80::/10"),
    ("0.0.0.0", "0.0.0.0/8"),  # noqa: S104 - Linux connects it to this machine
    ("0", "0.0.0.0/8"),
    ("::", "::/128"),
    ("::127.0.0.1", "::/96"),  # IPv4-compatible (deprecated)
    ("224.0.0.1", "224.0.0.0/4"),
    ("ff02::1", "ff00::/8"),
    ("255.255.255.255", "240.0.0.0/4"),
]


@pytest.mark.parametrize(("host", "address"), LOOPBACK_FORMS)
def test_every_spelling_of_loopback_is_refused(tmp_path: Path, host: str, address: str) -> None:
    # a wildcard listen address: the refusal is loopback's own, not the listen address's
    checked = guard(tmp_path, host="0.0.0.0")  # noqa: S104
    with pytest.raises(Refused) as refused:
        checked.vet(host, 80)
    reason = str(refused.value)
    assert f"{address}, in the blocked network 127.0.0.0/8 (loopback" in reason or (
        host == address and f"'{host}' is in the blocked network 127.0.0.0/8" in reason
    )
    assert "STEWARD_OUTBOUND_ALLOWED_NETWORKS" in reason  # says how an admin allows it
    assert checked.check_at_save(host, 80) == reason


@pytest.mark.parametrize(("host", "network"), REFUSED_BY_DEFAULT)
def test_link_local_unspecified_multicast_and_mapped_forms_are_refused(
    tmp_path: Path, host: str, network: str
) -> None:
    with pytest.raises(Refused, match=f"in the blocked network {network} "):
        guard(tmp_path, host="0.0.0.0").vet(host, 80)  # noqa: S104


def test_the_default_listen_address_is_loopback_and_refused(tmp_path: Path) -> None:
    reason = guard(tmp_path).check_at_save("127.0.0.1", 8080)  # STEWARD_HOST's default
    assert reason is not None
    assert "the server's own listen address (STEWARD_HOST)" in reason


def test_the_listen_address_is_refused_even_inside_an_allowed_network(tmp_path: Path) -> None:
    """A server listening on 192.0.2.10: that address is refused on every port (its API,
    and whatever else listens there); allowing the network around it does not open it, naming
    the address itself does."""
    listening = guard(tmp_path, host="192.0.2.10", outbound_allowed_networks=["192.0.2.0/24"])
    reason = listening.check_at_save("192.0.2.10", 5432)
    assert reason is not None
    assert "listen address" in reason
    assert listening.check_at_save("192.0.2.11", 5432) is None  # its neighbour is allowed
    named = guard(tmp_path, host="192.0.2.10", outbound_allowed_networks=["192.0.2.10"])
    assert named.check_at_save("192.0.2.10", 5432) is None
    # a wildcard listens everywhere: nothing to single out (loopback stays refused)
    assert guard(tmp_path, host="::").check_at_save("192.0.2.10", 80) is None
    # a listen address given as a name is resolved
    by_name = guard(tmp_path, host="localhost", outbound_allowed_networks=["127.0.0.0/8"])
    assert "listen address" in (by_name.check_at_save("127.0.0.1", 80) or "")
    assert by_name.check_at_save("127.0.0.2", 80) is None


@pytest.mark.parametrize(
    "address", ["10.1.2.3", "172.16.0.1", "172.31.255.254", "192.168.1.1", "100.64.0.1", "fd00::1"]
)
def test_private_ranges_are_refused_only_when_the_setting_says_so(
    tmp_path: Path, address: str
) -> None:
    assert guard(tmp_path).check_at_save(address, 443) is None  # the default: allowed
    strict = guard(tmp_path, outbound_block_private=True)
    reason = strict.check_at_save(address, 443)
    assert reason is not None
    assert "in the blocked network" in reason
    # an admin names the servers that may be reached there
    opened = guard(tmp_path, outbound_block_private=True, outbound_allowed_networks=[address])
    assert opened.check_at_save(address, 443) is None


def test_public_addresses_are_allowed_and_172_32_is_not_private(tmp_path: Path) -> None:
    strict = guard(tmp_path, outbound_block_private=True)
    for address in ("192.0.2.1", "172.32.0.1", "2001:db8::1", "8.8.8.8"):
        assert strict.check_at_save(address, 443) is None, address


def test_the_allow_list_opens_loopback_and_the_most_specific_entry_decides(
    tmp_path: Path,
) -> None:
    allowed = guard(
        tmp_path,
        host="0.0.0.0",  # noqa: S104
        outbound_allowed_networks=["127.0.0.1", "::1", "10.0.0.0/8"],
        outbound_blocked_networks=["10.9.0.0/16"],
    )
    assert allowed.vet("127.0.0.1", 80).address == "127.0.0.1"
    assert allowed.vet("localhost", 80).address == "127.0.0.1"
    assert allowed.vet("::1", 80).address == "::1"
    assert allowed.check_at_save("::ffff:127.0.0.1", 80) is None  # the same address
    assert allowed.check_at_save("127.0.0.2", 80) is not None  # only the address named
    assert allowed.check_at_save("169.254.169.254", 80) is not None
    assert allowed.check_at_save("10.1.0.1", 80) is None
    blocked = allowed.check_at_save("10.9.0.1", 80)  # the narrower block wins
    assert blocked is not None
    assert "STEWARD_OUTBOUND_BLOCKED_NETWORKS" in blocked


def test_a_name_that_does_not_resolve_is_accepted_at_save_and_refused_at_connect(
    tmp_path: Path,
) -> None:
    checked = guard(tmp_path)
    assert checked.check_at_save("nothing.invalid", 443) is None
    with pytest.raises(Unresolved):
        checked.vet("nothing.invalid", 443)


@pytest.mark.parametrize("value", ["10.0.0.0/33", "localhost", "10.0.0.0/8;", ""])
def test_a_setting_that_is_not_a_network_stops_the_server_from_starting(
    tmp_path: Path, value: str
) -> None:
    with pytest.raises(ValueError, match="is not an IP network or address"):
        Settings(data_dir=tmp_path, outbound_allowed_networks=[value])
