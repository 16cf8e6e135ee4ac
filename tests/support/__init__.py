"""What the tests stand on.

- Real services from the system binaries: ``sshd``, ``redis``: each module defines a
  session-scoped fixture that ``tests/conftest.py`` loads through ``pytest_plugins``; the server
  stops at session end. ``postgres`` starts a throwaway PostgreSQL without pytest (the
  benchmarks use it too); ``databases`` has its session fixture and a fresh migrated database
  per test (SQLite; PostgreSQL too for the tests marked ``both_databases``).
- ``builders``: the one set of helpers that create data (projects, keys, users, ``Workbench``);
  ``waits``: the one way to wait for a run or a condition; ``server``: a real ``steward serve``.
- ``isolation``: cheap password hashes and no outbound connections, for the whole session.

Import them as ``support.<module>``, never from ``conftest``.
"""
