"""The callback plugin's bounds on event data, on its own (it runs inside ansible-playbook)."""

from __future__ import annotations

import json
from typing import Any

from steward.execution.ansible.callback.steward_events import MAX_EVENT_BYTES, _Channel


def _event(res: dict[str, Any]) -> dict[str, Any]:
    return {"event": "runner_on_ok", "uuid": "u", "event_data": {"host": "h", "res": res}}


def test_a_small_result_is_sent_whole() -> None:
    res = {"stdout": "x" * 5000, "rc": 0, "changed": True}
    assert json.loads(_Channel.dump(_event(res)))["event_data"]["res"] == res


def test_a_result_surely_too_big_loses_its_big_values_only() -> None:
    res = {"msg": list(range(100_000)), "stdout": "y" * 70_000, "rc": 2, "changed": False}
    meta = _Channel.dump(_event(res))
    assert len(meta) < 200
    assert json.loads(meta)["event_data"]["res"] == {"_truncated": True, "rc": 2, "changed": False}


def test_a_result_too_big_only_once_serialised_is_trimmed_too() -> None:
    # 30 items of 3 KB: nothing says so before serialising, the JSON is over the bound
    res = {"results": [{"out": "z" * 3000} for _ in range(30)], "ok": "fine"}
    meta = _Channel.dump(_event(res))
    assert len(json.dumps(_event(res))) > MAX_EVENT_BYTES
    assert json.loads(meta)["event_data"]["res"] == {"_truncated": True, "ok": "fine"}
