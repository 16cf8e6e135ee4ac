from __future__ import annotations

import stat
from pathlib import Path

import pytest

from steward.inventories.models import Inventory, InventoryFormat, InventoryKind
from steward.inventories.resolve import InventoryUnparsable, resolve, write_static


def static(fmt: InventoryFormat, content: str) -> Inventory:
    return Inventory(id=1, kind=InventoryKind.STATIC, format=fmt, content=content)


@pytest.mark.parametrize(("fmt", "name"), [("ini", "hosts.ini"), ("yaml", "hosts.yml")])
def test_write_static_writes_a_private_file_named_after_its_format(
    tmp_path: Path, fmt: InventoryFormat, name: str
) -> None:
    path = write_static(static(InventoryFormat(fmt), "localhost\n"), tmp_path / "inventory")
    assert path == (tmp_path / "inventory" / name).resolve()
    assert path.read_text() == "localhost\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_write_static_refuses_inventories_from_a_repository(tmp_path: Path) -> None:
    inventory = Inventory(id=3, kind=InventoryKind.FILE, format=None, path="hosts.ini")
    with pytest.raises(ValueError, match="inventory 3 is not a static inventory"):
        write_static(inventory, tmp_path)


def test_resolve_reads_a_relative_path_under_cwd(tmp_path: Path) -> None:
    (tmp_path / "inv").mkdir()
    (tmp_path / "inv" / "hosts.ini").write_text("[db]\ndb1\n")
    resolved = resolve(Path("inv/hosts.ini"), cwd=tmp_path, plugins=("ini",))
    assert [h.name for h in resolved.hosts] == ["db1"]


def test_an_inventory_script_sees_none_of_the_servers_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STEWARD_ADMIN_PASSWORD", "do-not-leak")
    script = tmp_path / "inventory.sh"
    script.write_text(
        "#!/bin/sh\n"
        'printf \'{"_meta": {"hostvars": {"h": {"seen": "%s"}}}, "g": {"hosts": ["h"]}}\' '
        '"$STEWARD_ADMIN_PASSWORD"\n'
    )
    script.chmod(0o700)
    resolved = resolve(script, plugins=("script",))
    assert resolved.hosts[0].vars == {"seen": ""}


def test_a_hanging_inventory_script_is_stopped(tmp_path: Path) -> None:
    script = tmp_path / "slow.sh"
    script.write_text("#!/bin/sh\nsleep 30\n")
    script.chmod(0o700)
    with pytest.raises(InventoryUnparsable, match="did not finish within 3 seconds"):
        resolve(script, plugins=("script",), timeout=3)
