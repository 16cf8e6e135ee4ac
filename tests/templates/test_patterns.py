"""Limits and tags are split as the installed ansible-core splits them, and every element that
Ansible would read as a file, or that starts with '-', is refused.

Each row is checked against ansible-core itself: ``split_host_pattern`` must give the same
elements, and ``InventoryManager.subset`` (the code behind ``--limit``) must read the file exactly
when the row says so. test_hostile_launch_arguments.py runs the refused rows through a real
ansible-playbook and a Steward launch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ansible.cli.playbook import PlaybookCLI
from ansible.inventory.manager import InventoryManager, split_host_pattern
from ansible.parsing.dataloader import DataLoader

from steward.templates.patterns import (
    host_pattern_elements,
    limit_refusal,
    tag_elements,
    tags_refusal,
)

MARKER = "steward-limit-file-marker"

# (limit, ansible-core's elements, does Ansible read the file `f`, refused because)
LIMITS: list[tuple[str, list[str], bool, str | None]] = [
    # a file, however it is spelt
    ("@f", ["@f"], True, "read the file 'f'"),
    ("all @f", ["all", "@f"], True, "read the file 'f'"),  # whitespace separates too
    ("all\t@f", ["all", "@f"], True, "read the file 'f'"),
    ("all\n@f", ["all", "@f"], True, "read the file 'f'"),
    ("all\u00a0@f", ["all", "@f"], True, "read the file 'f'"),  # unicode spaces as well
    ("all\u2003@f", ["all", "@f"], True, "read the file 'f'"),
    ("a,@f", ["a", "@f"], True, "read the file 'f'"),
    ("a, @f", ["a", "@f"], True, "read the file 'f'"),
    ("a,\u3000@f", ["a", "@f"], True, "read the file 'f'"),
    ("a:@f", ["a", "@f"], True, "read the file 'f'"),
    (" @f", ["@f"], True, "read the file 'f'"),
    ("all:@f:b", ["all", "@f", "b"], True, "read the file 'f'"),
    ("a[1:2]:@f", ["a[1:2]", "@f"], True, "read the file 'f'"),  # a range, then a colon
    ("[x] @f", ["[x]", "@f"], True, "read the file 'f'"),
    ("! @f", ["!", "@f"], True, "read the file 'f'"),  # the '!' is an element of its own
    # '@' after '!'/'&': Ansible reads no file (it looks for a host '@f'), refused all the same
    ("!@f", ["!@f"], False, "may not start with '@'"),
    ("&@f", ["&@f"], False, "may not start with '@'"),
    ("web:!@f", ["web", "!@f"], False, "may not start with '@'"),
    # an option's spelling
    ("-x", ["-x"], False, "starts with '-'"),
    ("--list-hosts", ["--list-hosts"], False, "starts with '-'"),
    ("a -x", ["a", "-x"], False, "starts with '-'"),
    ("a,-x", ["a", "-x"], False, "starts with '-'"),
    ("a:-x", ["a", "-x"], False, "starts with '-'"),
    (" -x", ["-x"], False, "starts with '-'"),
    # ordinary patterns
    ("", [], False, None),
    ("web:&prod:!db1", ["web", "&prod", "!db1"], False, None),
    ("web,&prod,!db1", ["web", "&prod", "!db1"], False, None),
    ("host[1:3]", ["host[1:3]"], False, None),
    ("web[0:2],db", ["web[0:2]", "db"], False, None),
    ("~web\\d+", ["~web\\d+"], False, None),
    ("~@f", ["~@f"], False, None),  # a regex matching host names, no file
    ("a[@f]", ["a[@f]"], False, None),  # a glob: '@' inside brackets
    ("[::1]", ["[::1]"], False, None),
    ("2001:db8::1", ["2001:db8::1"], False, None),
    ("192.0.2.1:22", ["192.0.2.1:22"], False, None),
    ("user@host", ["user@host"], False, None),
    ("web,db @f", ["web", "db @f"], False, None),  # with a comma, whitespace does not split
    ("!-x", ["!-x"], False, None),  # excludes a host named '-x'
    ("~-x", ["~-x"], False, None),
]


@pytest.fixture
def ansible_inventory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> InventoryManager:
    """ansible-core's own inventory manager, working in a directory holding the file ``f``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").write_text(MARKER + "\n")
    return InventoryManager(DataLoader(), sources=[])


@pytest.mark.parametrize(("limit", "elements", "reads_file", "cause"), LIMITS)
def test_a_limit_is_split_and_checked_as_ansible_reads_it(
    ansible_inventory: InventoryManager,
    limit: str,
    elements: list[str],
    reads_file: bool,
    cause: str | None,
) -> None:
    assert split_host_pattern(limit) == elements  # the table says what Ansible does
    assert host_pattern_elements(limit) == elements  # and Steward reads it the same way
    try:
        ansible_inventory.subset(limit)
        subset = ansible_inventory._subset or []
    except IndexError:  # `! @f`: Ansible reads the file, then fails on the bare '!'
        subset = [MARKER] if reads_file else []
    assert (MARKER in subset) == reads_file
    refusal = limit_refusal(limit)
    if cause is None:
        assert refusal is None
    else:
        assert refusal is not None
        assert cause in refusal


def test_every_element_that_reads_a_file_is_refused() -> None:
    """Whatever the table holds: a row where Ansible reads the file is a refused row."""
    assert all(cause for _, _, reads_file, cause in LIMITS if reads_file)


def test_a_refusal_names_the_element() -> None:
    assert limit_refusal("web db @/etc/shadow") == (
        "element '@/etc/shadow' would make Ansible read the file '/etc/shadow'"
    )
    assert tags_refusal("deploy, --x") == (
        "tag '--x' starts with '-', as an option of ansible-playbook does"
    )


@pytest.mark.parametrize(
    ("tags", "elements", "cause"),
    [
        ("deploy", ["deploy"], None),
        ("a,b", ["a", "b"], None),
        (" a , b ", ["a", "b"], None),
        ("@f", ["@f"], None),  # a tag named '@f': Ansible reads no file for tags
        ("a b", ["a b"], None),  # tags are split on commas only
        ("-x", ["-x"], "starts with '-'"),
        ("a,-x", ["a", "-x"], "starts with '-'"),
        ("a, -x", ["a", "-x"], "starts with '-'"),
        (" --flush-cache", ["--flush-cache"], "starts with '-'"),
    ],
)
def test_tags_are_split_as_ansible_playbook_splits_them(
    tags: str, elements: list[str], cause: str | None
) -> None:
    cli = PlaybookCLI(["ansible-playbook", f"--tags={tags}", f"--skip-tags={tags}", "site.yml"])
    cli.init_parser()
    options = cli.post_process_args(cli.parser.parse_args(cli.args[1:]))
    assert sorted(options.tags) == sorted(options.skip_tags) == sorted(elements)  # as Ansible
    assert tag_elements(tags) == elements  # and as Steward
    refusal = tags_refusal(tags)
    assert (refusal is None) if cause is None else (cause in (refusal or ""))
