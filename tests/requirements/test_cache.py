"""The requirements cache on a real file system: entries appear whole, once, and the least
recently used ones not in use are removed when the cache outgrows its bound."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from steward.galaxy.cache import Cache, Lease


def _tree(parent: Path, name: str, size: int, content: bytes = b"x") -> Path:
    tree = parent / name
    module = tree / "collections" / "ansible_collections" / "ns" / "c"
    module.mkdir(parents=True)
    (module / "data.bin").write_bytes(content * size)
    return tree


def _entries(cache: Cache) -> set[str]:
    return {
        entry.name
        for project in cache.root.iterdir()
        for entry in project.iterdir()
        if entry.is_dir() and not entry.name.startswith(".")
    }


def _published(cache: Cache, tmp_path: Path, entry_key: str, size: int = 1000) -> Lease:
    lease = cache.lease(1, entry_key)
    assert not lease.hit
    cache.publish(lease, _tree(tmp_path / "builds", entry_key, size), {"roles": []})
    return lease


def test_a_published_entry_is_found_by_the_next_lease(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache", 10_000)
    built = _tree(tmp_path, "built", 1000)
    lease = cache.lease(7, "k1")
    assert not lease.hit
    cache.publish(lease, built, {"roles": [["r", "1"]]})
    assert not built.exists()  # moved, not copied
    lease.release()
    again = cache.lease(7, "k1")
    assert again.hit
    assert again.manifest()["roles"] == [["r", "1"]]
    assert again.manifest()["size_bytes"] == 1000
    assert again.entry == tmp_path / "cache" / "project-7" / "k1"
    assert cache.lease(8, "k1").hit is False  # per project
    again.release()


def test_least_recently_used_entries_go_first_and_entries_in_use_stay(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache", 2500)
    for n, entry_key in enumerate(("k1", "k2", "k3")):
        _published(cache, tmp_path, entry_key).release()
        past = time.time() - 300 + 100 * n  # k1 the least recently used
        os.utime(cache.root / "project-1" / entry_key, (past, past))
    in_use = cache.lease(1, "k1")  # a run holds k1: it is also touched
    os.utime(in_use.entry, (time.time() - 400, time.time() - 400))
    removed = cache.evict()
    assert [p.name for p in removed] == ["k2"]  # k1 is older but in use
    assert _entries(cache) == {"k1", "k3"}
    assert not (cache.root / "project-1" / "k2.lock").exists()
    cache.max_bytes = 500
    assert [p.name for p in cache.evict()] == ["k3"]  # over the bound: all but the one in use
    assert _entries(cache) == {"k1"}
    in_use.release()
    assert [p.name for p in cache.evict()] == ["k1"]
    assert _entries(cache) == set()
    assert not any(p.name.startswith(".trash-") for p in (cache.root / "project-1").iterdir())


def test_an_evicted_entry_is_built_again_under_a_new_lock(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache", 500)
    _published(cache, tmp_path, "k1").release()
    assert [p.name for p in cache.evict()] == ["k1"]
    lease = cache.lease(1, "k1")
    assert not lease.hit
    cache.publish(lease, _tree(tmp_path / "again", "k1", 100), {})
    assert lease.hit
    lease.release()


def test_many_runs_building_the_same_entry_at_once_keep_one(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache", 10**9)
    start = threading.Barrier(8)
    leases: list[Lease] = []
    errors: list[BaseException] = []

    def build(n: int) -> None:
        try:
            tree = _tree(tmp_path / f"build-{n}", "tree", 1000, content=str(n).encode())
            lease = cache.lease(1, "same")
            start.wait()
            cache.publish(lease, tree, {"builder": n})
            leases.append(lease)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert _entries(cache) == {"same"}
    entry = cache.root / "project-1" / "same"
    winner = Lease(entry, None).manifest()["builder"]
    data = entry / "collections" / "ansible_collections" / "ns" / "c" / "data.bin"
    assert data.read_bytes() == str(winner).encode() * 1000  # one build, whole
    assert [p.name for p in (cache.root / "project-1").iterdir() if p.name.startswith(".")] == []
    assert all(lease.hit for lease in leases)
    for lease in leases:
        lease.release()
