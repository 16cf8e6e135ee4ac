"""Kept for the old import path of ``ensure_admin`` (``tests/support/databases.py``).

The auth services live by concern: ``users``, ``sessions`` (logins, browser sessions),
``api_tokens`` and ``bootstrap`` (the first admin).
"""

from __future__ import annotations

from steward.auth.bootstrap import ensure_admin

__all__ = ["ensure_admin"]
