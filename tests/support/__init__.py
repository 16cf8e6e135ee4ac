"""Real services for the tests, started from the system binaries: PostgreSQL, sshd, Redis.

Each module defines a session-scoped fixture (``postgres``, ``sshd``, ``redis``) that
``tests/conftest.py`` loads through ``pytest_plugins``; the server stops at session end.
"""
