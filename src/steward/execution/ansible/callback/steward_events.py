# Steward's event callback for ansible-playbook. Ansible imports this file by path (Steward puts
# this directory on ANSIBLE_CALLBACK_PLUGINS), in whatever venv runs the playbook: it imports
# nothing from Steward and keeps to the Python versions ansible-core supports.
"""Compact events, and the exact text each printed, on a pipe of their own.

Steward starts ``ansible-playbook`` with ``STEWARD_EVENTS_FD`` naming the write end of a pipe. In
the controller process this plugin then:

- sends every display write (``sys.stdout``/``sys.stderr``: the stdout callback's text, warnings)
  through that pipe instead of stdout, as length-prefixed records: a target's output travels as
  the payload of a record and can never be read as a record of its own;
- wraps ``TaskQueueManager.send_callback``: text printed while one callback event is dispatched
  (the stdout callback prints first, then this plugin builds the event) goes into that event's
  record; text printed outside any event (``-v`` output, warnings) is a record without an event;
- builds a task result's dict once per dispatch (ansible-core >= 2.19 builds it for every callback
  plugin, a deep conversion that takes seconds for a result of a million items); every plugin
  still gets a dict of its own to change;
- keeps an event's data under ``MAX_EVENT_BYTES``: a result too big for that loses its big values
  (the text of the event has them), without serialising them when their size alone shows it.

A record is ``!II`` (event JSON length, text length), the event JSON (empty for bare text), the
text (UTF-8). Forked workers close the pipe (they proxy their display to the controller), and it
is not inherited by programs Ansible executes (modules, ssh), so nothing else can write to it.
"""

from __future__ import annotations

import contextlib
import datetime
import difflib
import io
import json
import os
import re
import struct
import sys
import threading
import uuid
from typing import Any, TextIO

from ansible.executor.task_queue_manager import TaskQueueManager
from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: steward_events
    type: notification
    short_description: Steward's run events, on the pipe Steward gives
    description:
      - Sends compact events and the text each printed to the file descriptor named by
        STEWARD_EVENTS_FD. Does nothing without it.
"""

FD_VARIABLE = "STEWARD_EVENTS_FD"
# set for a plan or an apply (Steward's plans): the largest diff kept of one result, in bytes; the
# plugin then adds to events what a plan reads (each result's diff as unified text, a skip's
# message, what a task registers and the variables it names)
DIFF_VARIABLE = "STEWARD_PLAN_DIFF_BYTES"
# the largest facts of one result kept as the host's facts (Steward's hosts.facts), in bytes of
# their JSON: the biggest facts are left out until they fit; unset or 0: no facts are kept
FACTS_VARIABLE = "STEWARD_FACTS_BYTES"
NOT_FACTS = (
    "include_vars",
    "debug",
)  # their ansible_facts are variables, not facts (Ansible's rule)
SKIP_MSG_MAX = 500
REFS_MAX = 200
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
HEADER = struct.Struct("!II")
MAX_EVENT_BYTES = 64 * 1024  # Steward stores no more of an event's data (execution/recorder.py)
MAX_VALUE_BYTES = 4096  # a value of a trimmed result is kept under this size
PLAY_HOSTS_MAX = 1000  # host names a play's start event lists (its ``host_count`` counts them all)
META_ACTIONS = ("meta", "ansible.builtin.meta", "ansible.legacy.meta")
CENSORED = (
    "the output has been hidden due to the fact that 'no_log: true' was specified for this result"
)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace")


def _jsonable(value: Any) -> Any:
    """What json cannot encode itself: never decrypt a vaulted value."""
    if hasattr(value, "_ciphertext") or "Encrypted" in type(value).__name__:
        return {"__ansible_vault": "encrypted"}
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, default=_jsonable, separators=(",", ":")).encode()


def _size_floor(value: Any) -> int:
    """A lower bound of the length of ``value``'s JSON, known without serialising it: a string
    takes its length, a container at least 2 characters an item."""
    if isinstance(value, str):
        return len(value) + 2
    if isinstance(value, dict):
        return 2 + sum(_size_floor(v) + 3 for v in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return 2 * len(value) + 1
    return 1


def _trimmed(res: dict[str, Any]) -> dict[str, Any]:
    """``res`` without the values of ``MAX_VALUE_BYTES`` or more, marked ``_truncated``."""
    kept: dict[str, Any] = {"_truncated": True}
    for key, value in res.items():
        if _size_floor(value) >= MAX_VALUE_BYTES:
            continue
        try:
            if len(_dumps(value)) < MAX_VALUE_BYTES:
                kept[key] = value
        except (TypeError, ValueError):
            continue
    return kept


def _bounded(facts: dict[str, Any], limit: int) -> tuple[dict[str, Any], list[str]]:
    """``facts`` whose JSON fits in ``limit`` bytes (the biggest top-level facts left out), and
    the names left out. Steward bounds the merged facts the same way (``hosts.factdiff``)."""
    sizes = {key: len(_dumps(value)) + len(key) + 4 for key, value in facts.items()}
    total = sum(sizes.values()) + 2
    dropped: list[str] = []
    for key in sorted(sizes, key=lambda k: (-sizes[k], k)):
        if total <= limit:
            break
        dropped.append(key)
        total -= sizes[key]
    return {k: v for k, v in facts.items() if k not in dropped}, sorted(dropped)


def _cacheable_layer(result: Any) -> Any:
    """ansible-core >= 2.21: the facts a result gives Ansible's fact cache (``None``: the
    result says nothing of it, its ``ansible_facts`` are the facts, as before 2.21)."""
    for name in dir(result):
        if name.endswith("__utr"):
            with contextlib.suppress(Exception):
                layers = getattr(result, name).pending_changes.register_host_variables
                for layer, values in layers.items():
                    if getattr(layer, "name", "") == "CACHEABLE_FACT":
                        return values
    return None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=4, sort_keys=True, default=_jsonable) + "\n"


def unified_diff(diffs: Any, limit: int) -> str:
    """Ansible's ``diff`` of a result (a dict or a list of them: ``before``/``after`` with their
    headers, ``prepared`` text, or why there is none) as unified text without colours, cut at
    ``limit`` bytes (said in its last line)."""
    parts: list[str] = []
    for diff in diffs if isinstance(diffs, list) else [diffs]:
        if not isinstance(diff, dict):
            continue
        for key, said in (
            ("dst_binary", "diff skipped: destination file appears to be binary"),
            ("src_binary", "diff skipped: source file appears to be binary"),
            ("dst_larger", "diff skipped: destination file is larger than %s bytes"),
            ("src_larger", "diff skipped: source file is larger than %s bytes"),
        ):
            if key in diff:
                parts.append((said % diff[key] if "%s" in said else said) + "\n")
        if "before" in diff and "after" in diff:
            before, after = _text(diff["before"]), _text(diff["after"])
            lines = []
            for text in (before, after):
                split = text.splitlines(True)
                if split and not split[-1].endswith("\n"):
                    split[-1] += "\n\\ No newline at end of file\n"
                lines.append(split)
            header = diff.get("before_header")
            after_header = diff.get("after_header")
            parts.extend(
                difflib.unified_diff(
                    lines[0],
                    lines[1],
                    fromfile=f"before: {header}" if header else "before",
                    tofile=f"after: {after_header}" if after_header else "after",
                )
            )
        if "prepared" in diff:
            parts.append(_text(diff["prepared"]))
    text = "".join(parts)
    if len(text.encode("utf-8", "surrogateescape")) > limit:
        cut = text.encode("utf-8", "surrogateescape")[:limit].decode("utf-8", "ignore")
        text = cut + f"\n[diff cut at {max(1, limit // 1024)} KiB]\n"
    return text


def _names(value: Any, found: set[str]) -> None:
    """The identifiers in ``value``'s strings (a task's ``when``, args…), into ``found``."""
    if isinstance(value, str):
        found.update(_NAME.findall(value))
    elif isinstance(value, dict):
        for item in value.values():
            _names(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _names(item, found)


def _refs(task: Any) -> list[str]:
    """The names a task's conditions, loop and arguments mention (where a registered result of
    an unpredictable task would reach it)."""
    found: set[str] = set()
    for attribute in ("when", "changed_when", "failed_when", "until", "loop", "args"):
        with contextlib.suppress(Exception):
            _names(getattr(task, attribute, None), found)
    return sorted(found)[:REFS_MAX]


def _registered(task: Any) -> list[str]:
    """The variables a task registers (a name; ansible-core >= 2.21 keeps a mapping)."""
    register = getattr(task, "register", None)
    if isinstance(register, str):
        return [register] if register else []
    if isinstance(register, dict):
        return sorted(str(name) for name in register)
    return []


class _Frame:
    """One callback event being dispatched: the text printed meanwhile, and the event."""

    __slots__ = ("event", "parts")

    def __init__(self) -> None:
        self.event: dict[str, Any] | None = None
        self.parts: list[str] = []


class _Channel:
    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd
        self._lock = threading.Lock()
        self._local = threading.local()

    def frames(self) -> list[_Frame]:
        stack: list[_Frame] | None = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    def write(self, meta: bytes, text: bytes) -> None:
        if self.fd is None:
            return
        record = b"".join((HEADER.pack(len(meta), len(text)), meta, text))
        view = memoryview(record)
        with self._lock:
            while view:
                view = view[os.write(self.fd, view) :]

    def text(self, value: str) -> None:
        stack = self.frames()
        if stack:
            stack[-1].parts.append(value)
        else:
            self.write(b"", _encode(value))

    def event(self, event: dict[str, Any]) -> None:
        stack = self.frames()
        if stack:
            stack[-1].event = event
        else:
            self.write(self.dump(event), b"")

    def close_frame(self, frame: _Frame) -> None:
        text = _encode("".join(frame.parts)) if frame.parts else b""
        meta = self.dump(frame.event) if frame.event is not None else b""
        if meta or text:
            self.write(meta, text)

    @staticmethod
    def dump(event: dict[str, Any]) -> bytes:
        data = event["event_data"]
        res = data.get("res")
        if isinstance(res, dict) and _size_floor(res) > MAX_EVENT_BYTES:  # too big, surely
            data["res"] = _trimmed(res)
        facts_bytes = int(event.get("facts_bytes") or 0)  # sent beside the data, bounded apart
        try:
            meta = _dumps(event)
        except (TypeError, ValueError):  # a result json cannot take: keep the event, not its res
            data.pop("res", None)
            return json.dumps(event, default=str, separators=(",", ":")).encode()
        res = data.get("res")
        if (
            len(meta) - facts_bytes > MAX_EVENT_BYTES
            and isinstance(res, dict)
            and "_truncated" not in res
        ):
            data["res"] = _trimmed(res)
            meta = _dumps(event)
        return meta

    def after_fork(self) -> None:
        """In a forked worker: the pipe is the controller's only."""
        fd, self.fd = self.fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


class _Stream(io.TextIOBase):
    """``sys.stdout``/``sys.stderr`` of the controller: every write goes to the channel."""

    def __init__(self, channel: _Channel, original: TextIO) -> None:
        super().__init__()
        self._channel = channel
        self._original = original

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        return "surrogateescape"

    @property
    def buffer(self) -> _Bytes:
        return _Bytes(self)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self._original.fileno()

    def write(self, s: str) -> int:
        if s:
            self._channel.text(s)
        return len(s)

    def flush(self) -> None:
        pass


class _Bytes:
    def __init__(self, stream: _Stream) -> None:
        self._stream = stream

    def write(self, data: bytes) -> int:
        self._stream.write(bytes(data).decode("utf-8", "surrogateescape"))
        return len(data)

    def flush(self) -> None:
        pass


_CHANNEL: _Channel | None = None
_TQM: Any = None  # the task queue manager dispatching callbacks: a play's hosts, at its start
_ORIGINAL_SEND = TaskQueueManager.send_callback


def _send_callback(self: Any, method_name: str, *args: Any, **kwargs: Any) -> Any:
    global _TQM
    _TQM = self
    channel = _CHANNEL
    if channel is None or channel.fd is None:
        return _ORIGINAL_SEND(self, method_name, *args, **kwargs)
    frame = _Frame()
    stack = channel.frames()
    stack.append(frame)
    outermost = getattr(_DISPATCH, "results", None) is None
    if outermost:
        _DISPATCH.results = {}
    try:
        return _ORIGINAL_SEND(self, method_name, *args, **kwargs)
    finally:
        if outermost:
            _DISPATCH.results = None
        stack.pop()
        channel.close_frame(frame)


# a task result's dict per dispatch: {(id, options): (the result, its dict)}; None outside one
_DISPATCH = threading.local()


def _once_per_dispatch(build: Any) -> Any:
    """``UnifiedTaskResult.as_result_dict`` built once per callback dispatch: ansible-core calls
    it for every callback plugin. Each caller gets a copy of the dict's top level, which is
    what callbacks change (the default one pops keys of a debug result before printing)."""

    def as_result_dict(self: Any, *args: Any, **kwargs: Any) -> Any:
        results: dict[Any, Any] | None = getattr(_DISPATCH, "results", None)
        if results is None or args:
            return build(self, *args, **kwargs)
        key = (id(self), *sorted(kwargs.items()))
        found = results.get(key)
        if found is None:  # the result is kept with its dict: its id is not reused meanwhile
            found = results[key] = (self, build(self, **kwargs))
        return dict(found[1])

    return as_result_dict


def _share_result_dicts() -> None:
    try:  # ansible-core >= 2.19; older versions copy a ready dict per plugin
        from ansible._internal._task import UnifiedTaskResult
    except ImportError:
        return
    build = getattr(UnifiedTaskResult, "as_result_dict", None)
    if callable(build):
        UnifiedTaskResult.as_result_dict = _once_per_dispatch(build)


def _install(fd: int) -> _Channel:
    """Route the controller's display through the pipe (once per process)."""
    global _CHANNEL
    if _CHANNEL is not None:
        return _CHANNEL
    os.set_inheritable(fd, False)  # not for ssh, modules, or any program Ansible executes
    channel = _Channel(fd)
    originals = (sys.stdout, sys.stderr)
    for stream in originals:  # what was printed before goes first, on stdout
        stream.flush()

    def restore() -> None:
        channel.after_fork()
        sys.stdout, sys.stderr = originals

    os.register_at_fork(after_in_child=restore)
    sys.stdout = _Stream(channel, originals[0])
    sys.stderr = _Stream(channel, originals[1])
    TaskQueueManager.send_callback = _send_callback
    _share_result_dicts()
    _CHANNEL = channel
    return channel


def _gathers(play: Any) -> int:
    """1 when the play gathers facts (a task of its own), else 0: as ``PlayIterator`` decides."""
    from ansible import constants

    gathering = constants.config.get_config_value("DEFAULT_GATHERING")
    wanted = play.gather_facts
    if gathering == "implicit":
        return int(wanted is None or bool(wanted))
    return int(gathering == "explicit" and bool(wanted))


def _count_tasks(blocks: Any) -> int:
    """The tasks of ``blocks`` that start as tasks (``block`` and ``always`` parts; a rescue
    runs only on a failure; meta tasks show no start)."""
    count = 0
    for block in blocks:
        for item in [*(block.block or []), *(block.always or [])]:
            if hasattr(item, "block"):  # a nested block
                count += _count_tasks([item])
            elif getattr(item, "action", "") not in META_ACTIONS:
                count += 1
    return count


def _get(obj: Any, public: str, private: str) -> Any:
    """A result's attribute by its public name (ansible-core >= 2.19), else its old one."""
    value = getattr(obj, public, None)
    return value if value is not None else getattr(obj, private, None)


class CallbackModule(CallbackBase):  # type: ignore[misc]  # ansible has no type hints
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "notification"
    CALLBACK_NAME = "steward_events"
    CALLBACK_NEEDS_ENABLED = False  # loads from its path, callbacks_enabled stays the project's

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        fd = os.environ.get(FD_VARIABLE, "")
        self._channel = _install(int(fd)) if fd.isdigit() else None
        self.disabled = self._channel is None
        self._playbook_uuid = str(uuid.uuid4())
        self._play: dict[str, str] = {}
        self._host_start: dict[str, datetime.datetime] = {}
        limit = os.environ.get(DIFF_VARIABLE, "")
        self._diff_bytes = int(limit) if limit.isdigit() else 0  # 0: not a plan
        limit = os.environ.get(FACTS_VARIABLE, "")
        self._facts_bytes = int(limit) if limit.isdigit() else 0  # 0: no facts kept

    # ---- building events --------------------------------------------------------------------

    def _emit(
        self,
        kind: str,
        data: dict[str, Any],
        event_uuid: str | None = None,
        parent: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        if parent is None:
            parent = data.get("task_uuid") or data.get("play_uuid") or self._playbook_uuid
        event = {
            "event": kind,
            "uuid": event_uuid or str(uuid.uuid4()),
            "parent_uuid": parent if parent != event_uuid else "",
            "created": _now(),
            "event_data": data,
        }
        if extra:
            event.update(extra)
        if self._channel is not None:
            self._channel.event(event)

    def _task_data(self, task: Any) -> dict[str, Any]:
        data: dict[str, Any] = dict(self._play)
        data.update(
            task=task.name or task.action,
            task_uuid=str(task._uuid),
            task_action=task.action,
        )
        with contextlib.suppress(AttributeError):
            data["task_path"] = task.get_path()
        role = getattr(task, "_role", None)
        if role is not None:
            data["role"] = role._role_name
        return data

    def _result_data(
        self, result: Any, with_res: bool = True, timed: bool = True
    ) -> dict[str, Any]:
        host = _get(result, "host", "_host")
        task = _get(result, "task", "_task")
        name = host.get_name()
        data = self._task_data(task)
        data["host"] = name
        data["remote_addr"] = host.address
        raw = _get(result, "result", "_result")
        if with_res:
            data["res"] = self._res(task, raw)
        if self._diff_bytes:
            self._plan_data(data, raw, skipped=not with_res)
        if timed:
            start = self._host_start.get(name)
            if start is not None:
                end = datetime.datetime.now(datetime.UTC)
                data.update(
                    start=start.isoformat(),
                    end=end.isoformat(),
                    duration=(end - start).total_seconds(),
                )
        return data

    def _plan_data(self, data: dict[str, Any], raw: Any, *, skipped: bool) -> None:
        """What a plan reads of a result: its diffs as unified text (``plan_diff``; the raw
        before/after leave the stored result), a skip's message; nothing of a no_log one."""
        if not isinstance(raw, dict) or raw.get("_ansible_no_log"):
            return
        diffs = []
        if raw.get("diff"):
            diffs.append(raw["diff"])
        for item in raw.get("results") or []:
            if isinstance(item, dict) and item.get("diff") and not item.get("_ansible_no_log"):
                diffs.append(item["diff"])
        if diffs:
            flat = [d for found in diffs for d in (found if isinstance(found, list) else [found])]
            data["plan_diff"] = unified_diff(flat, self._diff_bytes)
        res = data.get("res")
        if isinstance(res, dict):  # its own copy: the items are the result's, left as they are
            res.pop("diff", None)
            items = res.get("results")
            if isinstance(items, list):
                res["results"] = [
                    {k: v for k, v in i.items() if k != "diff"} if isinstance(i, dict) else i
                    for i in items
                ]
        message = raw.get("msg") or raw.get("skip_reason")
        if (skipped or raw.get("skipped")) and message:
            data["skip_msg"] = str(message)[:SKIP_MSG_MAX]

    def _facts(self, result: Any) -> dict[str, Any] | None:
        """The facts a result gives Ansible's fact cache (what Ansible's strategy merges into
        it: ``ansible_facts`` of any action but ``include_vars`` and ``debug``; of ``set_fact``
        only with ``cacheable``), bounded, with how big and what was left out; nothing of a
        ``no_log`` result or of facts delegated to another host."""
        raw = _get(result, "result", "_result")
        if not self._facts_bytes or not isinstance(raw, dict) or raw.get("_ansible_no_log"):
            return None
        task = _get(result, "task", "_task")
        facts = raw.get("ansible_facts")
        action = str(task.action)
        short = action.rsplit(".", 1)[-1] if action.startswith("ansible.") else action
        if not isinstance(facts, dict) or not facts or short in NOT_FACTS:
            return None
        if getattr(task, "delegate_to", None) and getattr(task, "delegate_facts", False):
            return None
        layer = _cacheable_layer(result)
        if isinstance(layer, dict):
            facts = layer
        elif short == "set_fact" and not raw.get("_ansible_facts_cacheable"):
            return None
        try:
            clean = json.loads(_dumps({k: v for k, v in facts.items() if k != "ansible_env"}))
        except (TypeError, ValueError):
            return None
        if not clean:
            return None
        kept, dropped = _bounded(clean, self._facts_bytes)
        return {"facts": kept, "facts_dropped": dropped, "facts_bytes": len(_dumps(kept))}

    @staticmethod
    def _res(task: Any, result: Any) -> dict[str, Any]:
        """A copy of the result, as the event stores it (``no_log``: only that it is hidden)."""
        res: dict[str, Any] = dict(result) if result is not None else {}
        if res.get("_ansible_no_log"):  # whether it changed is no secret (the recap counts it)
            return {"censored": CENSORED, "changed": bool(res.get("changed"))}
        if task.action in ("setup", "gather_facts", "ansible.builtin.setup"):
            facts = res.get("ansible_facts")
            if isinstance(facts, dict) and "ansible_env" in facts:  # the job's env: not stored
                res["ansible_facts"] = {k: v for k, v in facts.items() if k != "ansible_env"}
        items = res.get("results")
        if isinstance(items, list):
            res["results"] = [
                {"censored": CENSORED} if isinstance(i, dict) and i.get("_ansible_no_log") else i
                for i in items
            ]
        return res

    # ---- playbook -----------------------------------------------------------------------------

    def v2_playbook_on_start(self, playbook: Any) -> None:
        data = {"playbook": getattr(playbook, "_file_name", "")}
        self._emit("playbook_on_start", data, self._playbook_uuid, parent="")

    def v2_playbook_on_play_start(self, play: Any) -> None:
        hosts = getattr(play, "hosts", "")
        pattern = ",".join(hosts) if isinstance(hosts, list) else str(hosts or "")
        name = play.get_name().strip() or pattern
        play_uuid = str(play._uuid)
        self._play = {"play": name, "play_uuid": play_uuid, "play_pattern": pattern}
        data: dict[str, Any] = dict(self._play, name=name, pattern=pattern)
        # what the run page counts progress against: the play's hosts (of this batch) and its
        # tasks as written (an include counts once; what it includes is not known yet)
        with contextlib.suppress(Exception):
            names = [h.get_name() for h in _TQM.get_inventory().get_hosts(play.hosts)]
            data.update(hosts=names[:PLAY_HOSTS_MAX], host_count=len(names))
        with contextlib.suppress(Exception):
            data["task_count"] = _gathers(play) + _count_tasks(play.compile())
        self._emit("playbook_on_play_start", data, play_uuid, parent=self._playbook_uuid)

    def _task_start(self, task: Any, is_conditional: bool) -> None:
        data = self._task_data(task)
        data.update(name=task.get_name(), is_conditional=is_conditional)
        if self._diff_bytes:
            data.update(register=_registered(task), refs=_refs(task))
        self._emit("playbook_on_task_start", data, data["task_uuid"], parent=data.get("play_uuid"))

    def v2_playbook_on_task_start(self, task: Any, is_conditional: bool) -> None:
        self._task_start(task, is_conditional)

    def v2_playbook_on_handler_task_start(self, task: Any) -> None:
        self._task_start(task, True)

    def v2_playbook_on_cleanup_task_start(self, task: Any) -> None:
        self._task_start(task, True)

    def v2_playbook_on_no_hosts_matched(self) -> None:
        self._emit("playbook_on_no_hosts_matched", dict(self._play))

    def v2_playbook_on_no_hosts_remaining(self) -> None:
        self._emit("playbook_on_no_hosts_remaining", dict(self._play))

    def v2_playbook_on_notify(self, handler: Any, host: Any) -> None:
        data = dict(self._play, host=host.get_name(), handler=handler.get_name())
        self._emit("playbook_on_notify", data)

    def v2_playbook_on_include(self, included_file: Any) -> None:
        data = dict(self._play, included_file=getattr(included_file, "_filename", None))
        self._emit("playbook_on_include", data)

    def v2_playbook_on_stats(self, stats: Any) -> None:
        data = {
            "changed": stats.changed,
            "dark": stats.dark,
            "failures": stats.failures,
            "ignored": getattr(stats, "ignored", {}),
            "ok": stats.ok,
            "processed": stats.processed,
            "rescued": getattr(stats, "rescued", {}),
            "skipped": stats.skipped,
        }
        self._emit("playbook_on_stats", data, parent=self._playbook_uuid)

    # ---- hosts --------------------------------------------------------------------------------

    def v2_runner_on_start(self, host: Any, task: Any) -> None:
        # only the start is kept (for the result's duration): no event, nothing stored per start
        self._host_start[host.get_name()] = datetime.datetime.now(datetime.UTC)

    def v2_runner_on_ok(self, result: Any) -> None:
        self._emit("runner_on_ok", self._result_data(result), extra=self._facts(result))

    def v2_runner_on_failed(self, result: Any, ignore_errors: bool = False) -> None:
        data = self._result_data(result)
        data["ignore_errors"] = ignore_errors
        self._emit("runner_on_failed", data)

    def v2_runner_on_skipped(self, result: Any) -> None:
        self._emit("runner_on_skipped", self._result_data(result, with_res=False))

    def v2_runner_on_unreachable(self, result: Any) -> None:
        self._emit("runner_on_unreachable", self._result_data(result))

    def v2_runner_on_async_poll(self, result: Any) -> None:
        self._emit("runner_on_async_poll", self._result_data(result, timed=False))

    def v2_runner_on_async_ok(self, result: Any) -> None:
        self._emit("runner_on_async_ok", self._result_data(result, timed=False))

    def v2_runner_on_async_failed(self, result: Any) -> None:
        self._emit("runner_on_async_failed", self._result_data(result, timed=False))

    def v2_runner_item_on_ok(self, result: Any) -> None:
        self._emit("runner_item_on_ok", self._result_data(result, timed=False))

    def v2_runner_item_on_failed(self, result: Any) -> None:
        self._emit("runner_item_on_failed", self._result_data(result, timed=False))

    def v2_runner_item_on_skipped(self, result: Any) -> None:
        self._emit("runner_item_on_skipped", self._result_data(result, timed=False))

    def v2_runner_retry(self, result: Any) -> None:
        self._emit("runner_retry", self._result_data(result, timed=False))

    def v2_on_file_diff(self, result: Any) -> None:
        if self._diff_bytes:  # a plan keeps the diff with the result (``plan_diff``)
            return
        data = self._result_data(result, with_res=False, timed=False)
        res = _get(result, "result", "_result") or {}
        data["diff"] = None if res.get("_ansible_no_log") else res.get("diff")
        self._emit("runner_on_file_diff", data)
