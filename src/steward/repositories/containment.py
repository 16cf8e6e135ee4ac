"""Everything a run reads from a repository stays inside its checkout.

A repository is written by whoever may push to it (or write its directory), not only by who may
edit Steward's objects: a symlink ``play.yml -> /srv/steward/data/secret.key``, or an
``ansible.cfg`` with ``vault_password_file = /etc/shadow``, would make Ansible (run by the
server's user) read server files and show them in output or in ``/hosts``. So a checkout is
refused as a whole when:

* a symlink anywhere in it resolves outside it (relative or absolute, through a chain, dangling,
  or a loop, whose end cannot be known);
* its ``ansible.cfg`` (read by Ansible from the run's working directory, the checkout root) sets
  a path-valued setting of ansible-core to something outside it.

The checkout is private to one run or one request, so nothing changes it between this check and
its use.
"""

from __future__ import annotations

import configparser
import os
from pathlib import Path

from steward.errors import DomainError
from steward.execution.ansible import config as ansible_config
from steward.inventories.paths import inside

ANSIBLE_CFG = "ansible.cfg"


class NotContained(DomainError):
    """Something in the checkout leads outside it; ``message`` names it, relative to the root.

    ``links``: every symlink leading outside (paths relative to the root), so that a caller can
    tell whether a given file is one of them or under one.
    """

    def __init__(self, message: str, links: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.links = links


def check(root: Path) -> None:
    """Raise NotContained unless every symlink under ``root`` and every path setting of its
    ``ansible.cfg`` stays inside ``root``."""
    check_symlinks(root)
    check_ansible_cfg(root)


def check_symlinks(root: Path) -> None:
    """Every symlink under ``root`` (``.git`` included: a local repository's is copied as is)
    must resolve to a path inside ``root``. Links to directories are not descended into: their
    target is inside, so it is walked anyway."""
    escaping = sorted(
        path.relative_to(root).as_posix()
        for directory, dirnames, filenames in os.walk(root, followlinks=False)
        for path in (Path(directory) / name for name in [*dirnames, *filenames])
        if path.is_symlink() and inside(root, path.relative_to(root)) is None
    )
    if escaping:
        more = f" (and {len(escaping) - 1} more)" if len(escaping) > 1 else ""
        raise NotContained(symlink_message(root, escaping[0]) + more, tuple(escaping))


def symlink_message(root: Path, link: str) -> str:
    """What is wrong with the symlink ``link`` (relative to ``root``) that leads outside."""
    try:
        (root / link).resolve(strict=False)
    except RuntimeError:
        return f"symlink '{link}' points outside the repository (a symlink loop)"
    return f"symlink '{link}' points outside the repository"


def link_on_path(links: tuple[str, ...], path: str) -> str | None:
    """The first of ``links`` that the repository path ``path`` is, or is under, or holds
    (a directory of files); None when ``path`` does not go through any of them."""
    for link in links:
        if path == link or link.startswith(f"{path}/") or path.startswith(f"{link}/"):
            return link
    return None


def check_ansible_cfg(root: Path) -> None:
    """Every path-valued ansible-core setting in ``root/ansible.cfg`` stays inside ``root``.

    Read like ansible-core reads it (``ConfigParser(inline_comment_prefixes=(';',))``, values
    taken raw, relative paths from the file's directory). Paths with ``$VAR``, ``~`` or templates
    are refused: what they name is only known when Ansible expands them.
    """
    cfg = root / ANSIBLE_CFG
    if not cfg.is_file():
        return
    parser = configparser.ConfigParser(inline_comment_prefixes=(";",))
    try:
        parser.read_string(cfg.read_text(encoding="utf-8"))
    except (UnicodeError, configparser.Error) as exc:
        first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise NotContained(f"{ANSIBLE_CFG} cannot be read: {first_line}") from exc
    for (section, key), setting in sorted(ansible_config.ini_path_keys().items()):
        value = parser.get(section, key, raw=True, fallback=None)
        if value is None:
            continue
        problem = _value_problem(root, value, setting.type)
        if problem is not None:
            raise NotContained(f"{ANSIBLE_CFG} [{section}] {key}: {problem}")


def _value_problem(root: Path, value: str, setting_type: str) -> str | None:
    """Why a value of ``ansible.cfg`` (which is at ``root``) leads outside ``root``; None when
    every path stays inside.

    Ansible joins a relative path to the file's directory and normalizes it by its text
    (``a/../..`` is the parent even when ``a`` is a symlink), then opens it: the same is done here
    before symlinks are followed. It unquotes some values and not others: both spellings are
    judged.
    """
    for spelling in dict.fromkeys([value, _unquote(value)]):
        for path in ansible_config.split(spelling, setting_type):
            if problem := ansible_config.unexpanded(path):
                return problem
            opened = os.path.normpath(os.path.join(root, path))  # an absolute path stays as is
            if inside(root, opened) is None:
                return f"'{path}' points outside the repository"
    return None


def _unquote(value: str) -> str:
    """ansible-core's ``unquote``: one pair of matching surrounding quotes removed."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value
