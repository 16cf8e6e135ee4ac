"""An LDAP DN as Steward compares it (``dn_key``), for LDAP logins and group names alike, and
how ldap3 is imported.

ldap3 2.9.1 (its latest release) imports names that pyasn1 >= 0.6.1 deprecated: the warnings
are raised once, at import, and say nothing about Steward, so every import of ldap3 here stands
in ``ldap3_quietly()``. Warnings at any later time are left alone.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def ldap3_quietly() -> Iterator[None]:
    """Around an import of ldap3: its import-time pyasn1 deprecation warnings silenced."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"pyasn1\..*")
        warnings.filterwarnings("ignore", category=DeprecationWarning, message=r".*is deprecated")
        yield


with ldap3_quietly():
    from ldap3.core.exceptions import LDAPInvalidDnError
    from ldap3.utils.dn import parse_dn


def dn_key(dn: str) -> str:
    """A DN without case and without blanks around ``,`` and ``=`` (casefolded as it is when it
    does not parse as one)."""
    try:
        parts = parse_dn(dn, escape=False, strip=True)
    except (LDAPInvalidDnError, ValueError, IndexError):
        return dn.casefold()
    return ",".join(f"{attr.strip()}={value.strip()}" for attr, value, _sep in parts).casefold()
