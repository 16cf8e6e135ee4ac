"""The callback plugin's bounds on event data, on its own (it runs inside ansible-playbook)."""

from __future__ import annotations

import json
from typing import Any

from steward.execution.ansible.callback.steward_events import (
    MAX_EVENT_BYTES,
    CallbackModule,
    _Channel,
)


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


def test_facts_sent_beside_an_event_do_not_count_against_its_bound() -> None:
    res = {"stdout": "x" * 50_000, "rc": 0}
    event = {**_event(res), "facts": {"big": "f" * 100_000}, "facts_bytes": 100_012}
    sent = json.loads(_Channel.dump(event))
    assert sent["event_data"]["res"] == res  # control below: without its facts_bytes, trimmed
    assert len(sent["facts"]["big"]) == 100_000
    alone = {**_event(res), "facts": {"big": "f" * 100_000}}
    assert "_truncated" in json.loads(_Channel.dump(alone))["event_data"]["res"]


class _Task:
    def __init__(self, action: str) -> None:
        self.action = action
        self.delegate_to = None
        self.delegate_facts = False


class _Result:
    def __init__(self, action: str, result: dict[str, Any]) -> None:
        self.task = _Task(action)
        self.result = result


def test_the_facts_of_a_result_are_those_ansible_caches() -> None:
    plugin = CallbackModule()
    plugin._facts_bytes = 1024
    gathered = {"ansible_kernel": "6.1", "ansible_env": {"TOKEN": "job's"}}
    sent = plugin._facts(_Result("ansible.builtin.setup", {"ansible_facts": gathered}))
    assert sent == {"facts": {"ansible_kernel": "6.1"}, "facts_dropped": [], "facts_bytes": 24}
    cacheable = {"ansible_facts": {"a": 1}, "_ansible_facts_cacheable": True}
    assert plugin._facts(_Result("set_fact", cacheable)) is not None  # control
    assert plugin._facts(_Result("set_fact", {"ansible_facts": {"a": 1}})) is None
    assert plugin._facts(_Result("include_vars", {"ansible_facts": {"a": 1}})) is None
    hidden = {"ansible_facts": {"a": 1}, "_ansible_facts_cacheable": True, "_ansible_no_log": True}
    assert plugin._facts(_Result("set_fact", hidden)) is None
    big = {"ansible_facts": {"small": 1, "huge": "h" * 5000}}
    assert plugin._facts(_Result("setup", big)) == {
        "facts": {"small": 1},
        "facts_dropped": ["huge"],
        "facts_bytes": 11,
    }
