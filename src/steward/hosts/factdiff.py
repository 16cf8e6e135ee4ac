"""Facts as data, without a database: their canonical JSON and compression, the bound of a
snapshot, the values that move by themselves, a point's delta, and the diff of two points with
its one-line summary ("kernel 5.10 → 6.1, 3 packages, 1 mount")."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

Facts = dict[str, Any]

# values that change between two gatherings of an unchanged host: kept in the current facts,
# left out of the history (a point is a change of the host, not of the clock); "*" is any key
# or list item
VOLATILE: tuple[tuple[str, ...], ...] = (
    ("ansible_date_time",),
    ("ansible_uptime_seconds",),
    ("ansible_memfree_mb",),
    ("ansible_swapfree_mb",),
    ("ansible_loadavg",),
    ("ansible_memory_mb", "real", "free"),
    ("ansible_memory_mb", "real", "used"),
    ("ansible_memory_mb", "nocache"),
    ("ansible_memory_mb", "swap", "free"),
    ("ansible_memory_mb", "swap", "used"),
    ("ansible_memory_mb", "swap", "cached"),
    *(
        ("ansible_mounts", "*", field)
        for field in (
            "size_available",
            "block_available",
            "block_used",
            "inode_available",
            "inode_used",
        )
    ),
    ("ansible_lvm", "vgs", "*", "free_g"),
    ("gather_subset",),  # what the last gathering asked for, not what the host is
)
# a list of objects is compared item by item when one of these fields names each item once
ITEM_KEYS = ("mount", "device", "name", "path")
DIFF_ENTRIES_MAX = 2000  # entries of one diff; more: ``truncated``


def canonical(facts: Any) -> bytes:
    """The one JSON text of ``facts``: sorted keys, no spaces (its hash says "unchanged")."""
    return json.dumps(
        facts, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    ).encode()


def digest(facts: Facts) -> str:
    return hashlib.sha256(canonical(facts)).hexdigest()


def pack(value: Any) -> bytes:
    return zlib.compress(canonical(value), 6)


def unpack(data: bytes) -> Any:
    return json.loads(zlib.decompress(data))


def bounded(facts: Facts, limit: int) -> tuple[Facts, list[str]]:
    """``facts`` whose JSON fits in ``limit`` bytes: the biggest top-level facts left out until
    it does, and the names left out (sorted)."""
    sizes = {key: len(canonical(value)) + len(key) + 4 for key, value in facts.items()}
    total = sum(sizes.values()) + 2
    dropped: list[str] = []
    for key in sorted(sizes, key=lambda k: (-sizes[k], k)):
        if total <= limit:
            break
        dropped.append(key)
        total -= sizes[key]
    kept = {key: value for key, value in facts.items() if key not in dropped}
    return kept, sorted(dropped)


def _strip(value: Any, path: Sequence[str]) -> Any:
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        names = list(value) if head == "*" else [head] if head in value else []
        if not rest:
            return {k: v for k, v in value.items() if k not in names}
        return {k: _strip(v, rest) if k in names else v for k, v in value.items()}
    if isinstance(value, list) and head == "*":
        return [_strip(item, rest) for item in value] if rest else value
    return value


def stable(facts: Facts) -> Facts:
    """``facts`` without the values that move by themselves (``VOLATILE``)."""
    out: Any = facts
    for path in VOLATILE:
        if path[0] in out:
            out = _strip(out, path)
    return dict(out)


def delta(before: Facts, after: Facts) -> dict[str, Any]:
    """What turns ``before`` into ``after``: keys set and removed, and (``sub``) the delta of
    each object present in both (a package changed is that package, not every package)."""
    out: dict[str, Any] = {}
    changed = {k: v for k, v in after.items() if k not in before or before[k] != v}
    sub = {
        k: delta(before[k], v)
        for k, v in changed.items()
        if k in before and isinstance(before[k], dict) and isinstance(v, dict)
    }
    if set_ := {k: v for k, v in changed.items() if k not in sub}:
        out["set"] = set_
    if unset := sorted(k for k in before if k not in after):
        out["unset"] = unset
    if sub:
        out["sub"] = sub
    return out


def apply(before: Facts, change: Mapping[str, Any]) -> Facts:
    """``before`` changed by ``delta``'s ``change``."""
    gone = set(change.get("unset") or [])
    out = {k: v for k, v in before.items() if k not in gone}
    out.update(change.get("set") or {})
    for key, inner in (change.get("sub") or {}).items():
        out[key] = apply(out.get(key) or {}, inner)
    return out


# ---- the diff of two points -----------------------------------------------------------------


@dataclasses.dataclass
class Diff:
    added: list[tuple[str, Any]] = dataclasses.field(default_factory=list)
    removed: list[tuple[str, Any]] = dataclasses.field(default_factory=list)
    changed: list[tuple[str, Any, Any]] = dataclasses.field(default_factory=list)
    truncated: bool = False

    def full(self) -> bool:
        if len(self.added) + len(self.removed) + len(self.changed) >= DIFF_ENTRIES_MAX:
            self.truncated = True
        return self.truncated


def _segment(key: str) -> str:
    return key if key and "." not in key and "[" not in key else json.dumps(key)


def _join(path: str, key: str) -> str:
    return f"{path}.{_segment(key)}" if path else _segment(key)


def _keyed(items: list[Any]) -> tuple[str, dict[str, Any]] | None:
    """A list of objects by the field that names each once, or None."""
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for field in ITEM_KEYS:
        names = [i.get(field) for i in items]
        if all(isinstance(n, str) and n for n in names) and len(set(names)) == len(names):
            return field, {str(i[field]): i for i in items}
    return None


def _walk(path: str, old: Any, new: Any, out: Diff) -> None:
    if out.full() or old == new:
        return
    if isinstance(old, list) and isinstance(new, list):
        a, b = _keyed(old), _keyed(new)
        if a is not None and b is not None and a[0] == b[0]:
            old, new = a[1], b[1]
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys()):
            if out.full():
                return
            here = _join(path, str(key))
            if key not in new:
                out.removed.append((here, old[key]))
            elif key not in old:
                out.added.append((here, new[key]))
            else:
                _walk(here, old[key], new[key], out)
        return
    out.changed.append((path, old, new))


def diff(old: Facts, new: Facts) -> Diff:
    """What changed from ``old`` to ``new``, by dotted path (a list of mounts, devices…
    item by item, named by its mount point, device or name)."""
    out = Diff()
    _walk("", old, new, out)
    return out


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:39] + "…"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# a fact whose change the summary names with its values, and how it is called there
NAMED = (
    ("ansible_kernel", "kernel"),
    ("ansible_distribution_version", "release"),
    ("ansible_memtotal_mb", "memory MB"),
    ("ansible_processor_vcpus", "vCPUs"),
)
# a fact whose changes the summary counts by item: (top-level key, word)
COUNTED = (
    ("packages", "package"),
    ("ansible_mounts", "mount"),
    ("ansible_interfaces", "interface"),
)


def summary(old: Facts, new: Facts, found: Diff) -> str:
    """One line: the named facts' values, the counted facts' items, the other facts' count."""
    parts: list[str] = []
    accounted: set[str] = set()
    for key, word in NAMED:
        if old.get(key) != new.get(key):
            accounted.add(key)
            parts.append(f"{word} {_short(old.get(key, '—'))} → {_short(new.get(key, '—'))}")
    entries = [p for p, _ in found.added] + [p for p, _ in found.removed]
    entries += [p for p, _, _ in found.changed]
    for key, word in COUNTED:
        accounted.add(key)
        if key == "ansible_interfaces":
            a, b = set(old.get(key) or []), set(new.get(key) or [])
            count = len(a ^ b)
        else:
            count = len({_item(p, key) for p in entries if p == key or p.startswith(key + ".")})
        if count:
            parts.append(_plural(count, word))
    others = {k for k in old.keys() | new.keys() if old.get(k) != new.get(k)} - accounted
    if others:
        parts.append(_plural(len(others), "other fact"))
    return ", ".join(parts) if parts else "no change"


def _item(path: str, key: str) -> str:
    """The item of a counted fact a dotted path is in (``ansible_mounts./boot.x`` → /boot)."""
    rest = path[len(key) + 1 :]
    if rest.startswith('"'):
        end = rest.find('"', 1)
        while end > 0 and rest[end - 1] == "\\":
            end = rest.find('"', end + 1)
        return rest[: end + 1] if end > 0 else rest
    return rest.split(".", 1)[0]
