"""Steward: run Ansible playbooks safely as a team (README.md)."""

import importlib.metadata

try:
    __version__ = importlib.metadata.version("steward")
except importlib.metadata.PackageNotFoundError:  # a copy of the sources, not installed
    __version__ = "0+unknown"
