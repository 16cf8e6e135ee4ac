"""Directory logins (LDAP, OIDC): users created and kept in step with a directory
(``provision``), and the LDAP client (``ldap``).

ldap3 (with pyasn1: 5 MiB) is imported by ``ldap`` alone, and ``ldap`` only where LDAP is used
(a login, a sync, a password check of an LDAP user, an LDAP group's key); authlib and joserfc
(3 MiB) only when an OIDC login begins or ends (``oidc``). A server with neither configured
never loads them (tests/test_startup.py).
"""
