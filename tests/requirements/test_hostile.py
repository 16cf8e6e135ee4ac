"""Requirements files, Galaxy servers and the requirements cache, tried as a hostile user would.

- A requirements file is read inside the checkout only, and no entry may name a file outside
  it (a role's ``src``, a collection of ``type: file``/``dir``, a signature): the run ends
  ``error`` naming the entry, before ansible-galaxy starts.
- A Galaxy server's token is never in a response, on a command line, or in the output (even
  when the server quotes it back).
- A run cannot change the cache entry it uses (bound read-only), nor see another project's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from fastapi.testclient import TestClient
from support.builders import assert_problem, make_key, make_project, post

from requirements.servers import GalaxyServer, build_collection
from requirements.site import Site, cache_entries
from steward.config import Settings
from steward.galaxy.requirements import RequirementsError, find

pytestmark = pytest.mark.security

TOKEN = "hub-token-5b1e0f7d"


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_collection(tmp_path_factory.mktemp("collection"))


# --- requirements files -------------------------------------------------------------------

ESCAPES = [
    ("requirements.yml", "- src: ../outside.tar.gz\n", "roles[0] '../outside.tar.gz' points"),
    ("requirements.yml", "- src: /etc/passwd\n", "must be a path relative to the repository"),
    ("requirements.yml", "- src: file:///etc/passwd\n", "'/etc/passwd' must be a path relative"),
    ("requirements.yml", "- src: ~/.ssh/id_rsa.tar.gz\n", "'~' (a home directory)"),
    ("requirements.yml", "- name: r\n  src: $HOME/r.tar.gz\n", "environment variables"),
    ("requirements.yml", "- include: /etc/ansible/more.yml\n", "'include' is not supported"),
    ("requirements.yml", "- src: link/role.tar.gz\n", "'link/role.tar.gz' points outside"),
    (
        "collections/requirements.yml",
        "collections:\n  - name: ../../x.tar.gz\n    type: file\n",
        "collections[0] '../../x.tar.gz' points outside",
    ),
    (
        "collections/requirements.yml",
        "collections:\n  - name: ../vendor/c.tar.gz\n    type: file\n",
        "'../vendor/c.tar.gz' points outside",  # inside from the file's directory, not the root
    ),
    (
        "roles/requirements.yml",
        "collections:\n  - name: /srv\n    type: dir\n",
        "'/srv' must be a path relative",
    ),
    (
        "requirements.yml",
        "collections:\n  - name: ns.c\n    signatures: [file:///etc/shadow]\n",
        "collections[0].signatures[0] '/etc/shadow'",
    ),
    (
        "requirements.yml",
        "collections:\n  - name: ns.c\n    source: file:///srv/galaxy\n",
        "collections[0].source '/srv/galaxy'",
    ),
    ("requirements.yml", "collections: {name: ns.c}\n", "'collections' must be a list"),
    ("requirements.yml", "just text\n", "must be a list of roles or a mapping"),
]


@pytest.mark.parametrize(("relative", "content", "message"), ESCAPES)
def test_entries_naming_files_outside_the_checkout_are_refused(
    tmp_path: Path, relative: str, content: str, message: str
) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "vendor").mkdir(parents=True)
    os.symlink("/etc", checkout / "link")
    (checkout / relative).parent.mkdir(parents=True, exist_ok=True)
    (checkout / relative).write_text(content)
    with pytest.raises(RequirementsError) as refused:
        find(checkout)
    assert message in refused.value.message
    assert refused.value.message.startswith(f"{relative}: ")


def test_files_inside_the_checkout_are_allowed_but_not_cached(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "roles").mkdir(parents=True)
    (checkout / "collections").mkdir()
    (checkout / "roles" / "requirements.yml").write_text(
        "- src: ./vendor/role.tar.gz\n- src: git+file:///srv/roles/x\n- geerlingguy.apache\n"
    )
    (checkout / "collections" / "requirements.yml").write_text(
        "collections:\n  - name: community.general\n    version: '>=9'\n"
    )
    found = find(checkout)
    assert [(f.path, f.roles, f.collections, f.local) for f in found.files] == [
        ("roles/requirements.yml", 3, 0, True),
        ("collections/requirements.yml", 0, 1, False),
    ]
    assert not found.cacheable


def test_a_requirements_file_that_is_a_symlink_out_of_the_checkout_is_not_read(
    tmp_path: Path,
) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (tmp_path / "elsewhere.yml").write_text("- src: ../../../etc/passwd\n")
    os.symlink(tmp_path / "elsewhere.yml", checkout / "requirements.yml")
    assert find(checkout).files == ()  # (and the checkout itself is refused before: see below)


@pytest.mark.sqlite_only
def test_a_run_with_an_escaping_requirement_ends_before_ansible_galaxy(site: Site) -> None:
    site.write("roles/requirements.yml", "- name: shadow\n  src: ../../../../etc/shadow\n")
    run = site.run(site.template("collection.yml"))
    assert run["status"] == "error", run
    assert run["status_reason"] == (
        "installing requirements failed: roles/requirements.yml: roles[0]"
        " '../../../../etc/shadow' points outside the repository"
    )
    assert "ansible-galaxy" not in site.text(run["id"])


# --- Galaxy servers -----------------------------------------------------------------------

HOSTILE_SERVERS = [
    ({"url": "https://user:pw@hub.example.com/"}, "url", "must not hold credentials"),
    ({"url": "file:///etc/passwd"}, "url", "http:// or https://"),
    ({"url": "javascript:alert(1)"}, "url", "http:// or https://"),
    ({"url": "https://hub.example.com/ x"}, "url", "whitespace"),
    ({"url": "https://" + "a" * 2000 + ".com/"}, "url", "at most 2000"),
    ({"auth_url": "ftp://sso.example.com/token"}, "auth_url", "http:// or https://"),
    ({"name": "Hub"}, "name", "pattern"),
    ({"name": "hub-1"}, "name", "pattern"),  # not an environment variable name for ansible-galaxy
    ({"name": "x" * 101}, "name", "at most 100"),
    ({"position": -1}, "position", "greater than or equal to 0"),
    ({"key_id": 2**31}, "key_id", "less than or equal"),
    ({"token": TOKEN}, "token", "unknown field"),  # a token only through the key store
]


@pytest.mark.parametrize(("change", "field", "message"), HOSTILE_SERVERS)
def test_hostile_galaxy_servers_are_refused_naming_the_field(
    client: TestClient, change: dict[str, Any], field: str, message: str
) -> None:
    project = make_project(client)
    body = {"name": "hub", "url": "https://hub.example.com/", **change}
    response = client.post(f"/api/v1/projects/{project}/galaxy-servers", json=body)
    detail = assert_problem(response, 422, field)
    assert message in detail, detail


def test_the_token_is_in_no_response_and_no_audit_record(client: TestClient) -> None:
    project = make_project(client)
    key = make_key(client, project, name="hub", value=TOKEN)
    base = f"/api/v1/projects/{project}/galaxy-servers"
    created = client.post(
        base, json={"name": "hub", "url": "https://h.example/", "key_id": key["id"]}
    )
    assert created.status_code == 201
    pages = [created, client.get(base), client.get(f"{base}/{created.json()['id']}")]
    pages.append(client.get("/api/v1/audit/export"))
    assert all(TOKEN not in page.text for page in pages)


@pytest.fixture
def argv_seen() -> list[str]:
    return []


@pytest.fixture
def echoing_hub(collection: Path, argv_seen: list[str]) -> Iterator[GalaxyServer]:
    """A server that refuses every token and quotes the one it got in its error; on each
    request, the command lines of every process of this machine are noted."""

    def note_command_lines() -> None:
        for proc in psutil.process_iter(["cmdline"]):
            argv_seen.append(" ".join(proc.info["cmdline"] or []))

    hub = GalaxyServer([collection], token="another", echo=True, on_request=note_command_lines)
    with hub.running() as server:
        yield server


@pytest.mark.sqlite_only
def test_the_token_is_masked_when_the_server_quotes_it_and_never_on_argv(
    site: Site, echoing_hub: GalaxyServer, argv_seen: list[str]
) -> None:
    key = post(site.client, site.url("keys"), {"name": "hub", "kind": "secret", "value": TOKEN})
    site.server(url=echoing_hub.url, key_id=key["id"])
    site.write("collections/requirements.yml", "collections:\n  - name: testns.tools\n")
    run = site.run(site.template("collection.yml"))
    assert run["status"] == "error", run
    assert ("/api/", f"Token {TOKEN}") in echoing_hub.requests  # it was sent, and quoted back
    assert "Token ********" in run["status_reason"]
    assert TOKEN not in run["status_reason"]
    assert TOKEN not in site.text(run["id"])
    assert TOKEN not in str(site.events(run["id"]))
    assert any("ansible-galaxy collection install" in argv for argv in argv_seen)
    assert not [argv for argv in argv_seen if TOKEN in argv]


# --- the cache ----------------------------------------------------------------------------

POISON = """- hosts: all
  gather_facts: false
  tasks:
    - name: write into every collections path
      ansible.builtin.shell: |
        for p in $(echo "$ANSIBLE_COLLECTIONS_PATH" | tr ':' ' '); do
          if [ -d "$p/ansible_collections/testns/tools" ]; then
            (echo poisoned > "$p/ansible_collections/testns/tools/README.md") 2>&1 || echo "no $p"
          fi
        done
        ls -d {{ cache_root }}/project-*/* 2>&1 || true
      register: tried
    - ansible.builtin.debug:
        msg: "{{ tried.stdout_lines }}"
    - testns.tools.hello:
"""


@pytest.mark.slow
@pytest.mark.sqlite_only
def test_a_run_cannot_change_its_cache_entry_nor_see_another_projects(
    client: TestClient, tmp_path: Path, settings: Settings, collection: Path
) -> None:
    with GalaxyServer([collection]).running() as hub:
        requirements = f"collections:\n  - name: {hub.file_url(collection.name)}\n    type: url\n"
        others = Site(client, tmp_path / "repos" / "other", "other")
        others.write("requirements.yml", requirements)
        assert others.run(others.template("collection.yml"))["status"] == "successful"
        site = Site(client, tmp_path / "repos" / "site")
        site.write("requirements.yml", requirements)
        site.write("poison.yml", POISON)
        extra = {"cache_root": str(settings.requirements_cache_dir)}
        template = site.template("poison.yml", extra_vars=extra)
        runs = [site.run(template), site.run(template)]  # stored, then a hit
    assert [site.phase(r["id"])["data"]["cache"] for r in runs] == ["stored", "hit"]
    entries = cache_entries(settings)
    assert len(entries) == 2  # one per project, for the same requirements
    for run in runs:
        assert run["status"] == "successful", run
        text = site.text(run["id"])
        own = [e for e in entries if e.parent.name == f"project-{site.project_id}"]
        assert f"no {own[0]}/collections" in text  # its own entry is there to read, not write
        assert "Read-only file system" in text
        assert f"project-{others.project_id}" not in text  # the other project's is not
    for entry in entries:
        readme = entry / "collections" / "ansible_collections" / "testns" / "tools" / "README.md"
        assert readme.read_text() == "test collection\n"
