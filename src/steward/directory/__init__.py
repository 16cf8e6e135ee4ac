"""Directory logins (LDAP, OIDC): users created and kept in step with a directory
(``provision``), and the LDAP client (``ldap``).

ldap3 2.9.1 (its latest release) imports names that pyasn1 >= 0.6.1 deprecated: the warnings
are raised once, at import, and say nothing about Steward, so they are silenced here, where
ldap3 is imported first. Warnings at any later time are left alone.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"pyasn1\..*")
    warnings.filterwarnings("ignore", category=DeprecationWarning, message=r".*is deprecated")
    import ldap3  # noqa: F401
