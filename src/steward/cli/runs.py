"""``steward run``, ``cancel``, ``relaunch``, ``plan``, ``apply`` and ``adhoc``: the API
client's commands (docs/cli.md).

Every launch goes through ``POST …/runs`` (``launch_type: cli``), the launch gate; a relaunch
through ``POST …/runs/{id}/relaunch``. Following prints the run's output as it comes (the SSE
stream, resumed where it stopped if the connection drops), then the run's status and address;
the exit code says how the run ended (``exits``)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from steward.bounds import ID_MAX
from steward.cli import answers, client, exits, plans
from steward.cli.client import Api, Dropped
from steward.cli.exits import CliError, Exit, usage
from steward.cli.terminal import COLOR_CHOICES, Painter, wants_color
from steward.config import Settings

RECONNECTS = 5  # in a row, a second apart, before following gives up
UNFINISHED = ("queued", "running")
POLL_SECONDS = 1.0
Command = Callable[[Settings, argparse.Namespace], int]


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser], epilog: str) -> None:
    common = argparse.ArgumentParser(add_help=False)
    client.add_arguments(common)
    common.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="auto (default): colours only on a terminal, none when NO_COLOR is set",
    )
    follows = argparse.ArgumentParser(add_help=False)
    follows.add_argument(
        "--follow",
        "-f",
        action="store_true",
        help="print the output live, then the run's status and address; exit with its status",
    )
    prints_id = "\nWithout --follow, print the new run's id on standard output."

    def command(name: str, fn: Command, about: str, **kwargs: Any) -> argparse.ArgumentParser:
        parsed = sub.add_parser(
            name,
            help=about,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=epilog,
            **kwargs,
        )
        parsed.set_defaults(fn=fn, client=True)
        return parsed

    # what a launch gives, for run and plan alike
    values = argparse.ArgumentParser(add_help=False)
    values.add_argument("target", metavar="PROJECT/TEMPLATE")
    values.add_argument(
        "--answer",
        "-a",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a survey answer (repeat for each; a multiple choice once per choice). "
        "NAME=@FILE sends FILE's content, @- standard input; a password only so, or asked "
        "without echo on a terminal",
    )
    values.add_argument(
        "--no-input", action="store_true", help="never ask: a missing answer is an error"
    )
    values.add_argument("--limit")
    values.add_argument("--tags")
    values.add_argument("--skip-tags", dest="skip_tags")
    values.add_argument("--extra-vars", help="a YAML or JSON mapping, or @FILE holding one")

    run = command(
        "run",
        launch,
        "launch a template through the API (--url/STEWARD_URL, --token/STEWARD_TOKEN)",
        parents=[common, follows, values],
        description="Launch PROJECT/TEMPLATE with the values its template lets a launch give."
        + prints_id,
    )
    run.add_argument("--check", action="store_true")

    command(
        "plan",
        plan,
        "launch a plan of a template (check + diff mode), wait, print what would change",
        parents=[common, follows, values],
        description="Launch a plan of PROJECT/TEMPLATE (its template must allow plans), wait"
        " for it, then print its summary, the tasks that would change with their diffs and the"
        " tasks whose outcome is unknown; exit with its status. --follow prints its output too.",
    )
    applied = command(
        "apply",
        apply,
        "apply a plan: the run bound to what the plan ran (refused when anything moved)",
        parents=[common, follows],
        description="Launch the apply of plan PLAN_ID: its commit, launch values and secret"
        " answers. Refused in one line (exit 3) when the plan did not succeed, expired, was"
        " applied, waits for an approval, or anything it ran with changed: plan again." + prints_id,
    )
    applied.add_argument("run_id", type=_run_id, metavar="PLAN_ID")

    halt = command("cancel", cancel, "cancel a queued or running run", parents=[common])
    halt.add_argument("run_id", type=_run_id, metavar="RUN_ID")

    again = command(
        "relaunch",
        relaunch,
        "launch a run's template again with the run's values",
        parents=[common, follows],
        description="Launch a run's template again with the run's launch values." + prints_id,
    )
    again.add_argument("run_id", type=_run_id, metavar="RUN_ID")
    again.add_argument(
        "--failed",
        action="store_true",
        help="only on the hosts that failed or were unreachable (refused if there are none)",
    )

    command_line = command(
        "adhoc",
        adhoc,
        "run one module on an inventory's hosts now (an ad-hoc command, adhoc:run)",
        parents=[common, follows],
        description="Run MODULE (one the server allows) with its arguments on the hosts of"
        " PROJECT's INVENTORY that --limit picks (all by default)."
        " The arguments are data, never templated." + prints_id,
    )
    command_line.add_argument("project", metavar="PROJECT")
    command_line.add_argument("inventory", metavar="INVENTORY")
    command_line.add_argument("--module", "-m", required=True)
    command_line.add_argument(
        "--args",
        "-a",
        default="",
        help="command and shell: the command line; other modules: NAME=VALUE pairs or a JSON"
        " object",
    )
    command_line.add_argument("--limit", default="", help="host pattern (default: all)")
    command_line.add_argument("--key", help="the SSH or login key of the project, by name")
    command_line.add_argument("--become", "-b", action="store_true")
    command_line.add_argument("--become-key", dest="become_key", help="by name (with --become)")
    command_line.add_argument("--forks", type=int)


def _run_id(text: str) -> int:
    # below the largest id: the run is found as the newest below id + 1
    if not text.isdigit() or not 0 < int(text) < ID_MAX:
        raise argparse.ArgumentTypeError(f"{text!r} is not a run id")
    return int(text)


def _api(settings: Settings, args: argparse.Namespace) -> Api:
    return Api(client.base_url(settings, args), client.token(settings, args))


def _launch_body(api: Api, args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    """The project id and the launch body of ``run`` and ``plan``: PROJECT/TEMPLATE, the survey
    answers (asked on a terminal), limit, tags, extra vars."""
    project_name, _, template_name = args.target.partition("/")
    if not project_name or not template_name:
        raise usage(f"{args.target!r}: give the template as PROJECT/TEMPLATE")
    given = [answers.parse(spec) for spec in args.answer]
    extra_vars = _extra_vars(args.extra_vars) if args.extra_vars else None
    project = api.find("/projects", project_name, "project")
    template = api.find(f"/projects/{project['id']}/templates", template_name, "template")
    interactive = sys.stdin.isatty() and not args.no_input
    body: dict[str, Any] = {"template_id": template["id"], "launch_type": "cli"}
    body["survey"] = answers.collect(
        template["survey"],
        given,
        target=args.target,
        ask=answers.prompt if interactive else None,
    )
    for field in ("limit", "tags", "skip_tags"):
        if getattr(args, field) is not None:
            body[field] = getattr(args, field)
    if getattr(args, "check", False):
        body["check_mode"] = True
    if extra_vars is not None:
        body["extra_vars"] = extra_vars
    return int(project["id"]), body


def launch(settings: Settings, args: argparse.Namespace) -> int:
    with _api(settings, args) as api:
        project_id, body = _launch_body(api, args)
        run = api.post(f"/projects/{project_id}/runs", body)
        return _started(api, run, args)


def plan(settings: Settings, args: argparse.Namespace) -> int:
    """``steward plan``: a plan of the template (check + diff mode), waited for; its summary
    and diffs printed; the exit code of its status."""
    with _api(settings, args) as api:
        project_id, body = _launch_body(api, args)
        template_id = body.pop("template_id")
        run = api.post(f"/projects/{project_id}/templates/{template_id}/plans", body)
        err = Painter(sys.stderr, wants_color(args.color, sys.stderr))
        err.say(f"plan {run['id']} {run['status']}: {run_url(api, run)}")
        base = f"/projects/{project_id}/runs/{run['id']}"
        final = _waited(api, base, args)
        out = Painter(sys.stdout, wants_color(args.color, sys.stdout))
        read = api.get(f"{base}/plan")
        # the read holds the first results: a longer plan is printed whole, page by page
        whole = plans.paged(api.get, base) if read["tasks_truncated"] else None
        out.lines(plans.shown(read, whole))
        reason = f" ({final['status_reason']})" if final["status_reason"] else ""
        err.say(f"plan {run['id']} {err.status(final['status'])}{reason}: {run_url(api, final)}")
        if final["status"] == "successful":
            err.say(f"apply it: steward apply {run['id']}")
        return exits.for_status(final["status"])


def apply(settings: Settings, args: argparse.Namespace) -> int:
    """``steward apply PLAN_ID``: the plan's apply, refused in one line (exit 3) with the
    server's reason ("… changed since plan N: plan again")."""
    with _api(settings, args) as api:
        found = _find_run(api, args.run_id)
        run = api.post(f"/projects/{found['project_id']}/runs/{found['id']}/apply", {})
        return _started(api, run, args)


def adhoc(settings: Settings, args: argparse.Namespace) -> int:
    """``steward adhoc PROJECT INVENTORY -m MODULE [-a ARGS]``: ``POST …/inventories/{id}/adhoc``
    (``launch_type: cli``), then like ``run``."""
    with _api(settings, args) as api:
        project = api.find("/projects", args.project, "project")
        base = f"/projects/{project['id']}"
        inventory = api.find(f"{base}/inventories", args.inventory, "inventory")
        free_form = api.get(f"{base}/adhoc/modules")["free_form"]
        body: dict[str, Any] = {
            "module": args.module,
            "args": args.args if args.module in free_form else adhoc_args(args.args),
            "limit": args.limit,
            "become": args.become,
            "launch_type": "cli",
        }
        for field, name in (("ssh_key_id", args.key), ("become_key_id", args.become_key)):
            if name:
                body[field] = api.find(f"{base}/keys", name, "key")["id"]
        if args.forks is not None:
            body["forks"] = args.forks
        run = api.post(f"{base}/inventories/{inventory['id']}/adhoc", body)
        return _started(api, run, args)


def adhoc_args(text: str) -> dict[str, Any]:
    """``-a`` of a module without free form: a JSON object, or ``NAME=VALUE`` pairs split as a
    shell would (``name=nginx state="re started"``)."""
    if text.lstrip().startswith("{"):
        try:
            values = json.loads(text)
        except json.JSONDecodeError as exc:
            raise usage(f"--args is not a valid JSON object: {exc}") from None
        if not isinstance(values, dict):
            raise usage("--args must be a JSON object")
        return values
    pairs: dict[str, Any] = {}
    for token in shlex.split(text):
        name, equals, value = token.partition("=")
        if not equals or not name:
            raise usage(f"--args: {token!r} is not NAME=VALUE (or give a JSON object)")
        pairs[name] = value
    return pairs


def _waited(api: Api, base: str, args: argparse.Namespace) -> dict[str, Any]:
    """The run once finished: its output followed with --follow, else polled."""
    if args.follow:
        follow(api, base, Painter(sys.stdout, wants_color(args.color, sys.stdout)))
        return dict(api.get(base))
    while True:
        found = api.get(base)
        if found["status"] not in UNFINISHED:
            return dict(found)
        time.sleep(POLL_SECONDS)


def relaunch(settings: Settings, args: argparse.Namespace) -> int:
    with _api(settings, args) as api:
        previous = _find_run(api, args.run_id)
        body = {"hosts": "failed"} if args.failed else {}
        run = api.post(f"/projects/{previous['project_id']}/runs/{previous['id']}/relaunch", body)
        return _started(api, run, args)


def cancel(settings: Settings, args: argparse.Namespace) -> int:
    with _api(settings, args) as api:
        found = _find_run(api, args.run_id)
        run = api.post(f"/projects/{found['project_id']}/runs/{found['id']}/cancel", {})
        err = Painter(sys.stderr, wants_color(args.color, sys.stderr))
        state = "canceled" if run["status"] == "canceled" else f"cancel requested ({run['status']})"
        err.say(f"run {run['id']}: {state}: {run_url(api, run)}")
    return Exit.OK


def _find_run(api: Api, run_id: int) -> dict[str, Any]:
    """A run of any project the caller sees, by id: the newest run below ``run_id + 1``."""
    page = api.get("/runs", before_id=run_id + 1, limit=1)
    if not page["items"] or page["items"][0]["id"] != run_id:
        raise CliError(f"no run {run_id} (or not visible to you)", Exit.API)
    return dict(page["items"][0])


def run_url(api: Api, run: dict[str, Any]) -> str:
    return f"{api.url}/projects/{run['project_id']}/runs/{run['id']}"


def _started(api: Api, run: dict[str, Any], args: argparse.Namespace) -> int:
    err = Painter(sys.stderr, wants_color(args.color, sys.stderr))
    err.say(f"run {run['id']} {run['status']}: {run_url(api, run)}")
    if not args.follow:
        print(run["id"])  # noqa: T201  - for scripts: RUN=$(steward run …)
        return Exit.OK
    out = Painter(sys.stdout, wants_color(args.color, sys.stdout))
    base = f"/projects/{run['project_id']}/runs/{run['id']}"
    try:
        follow(api, base, out)
    except KeyboardInterrupt:
        err.say(f"\nstopped following; run {run['id']} goes on (steward cancel {run['id']})")
        return Exit.INTERRUPTED
    final = api.get(base)
    reason = f" ({final['status_reason']})" if final["status_reason"] else ""
    err.say(f"run {run['id']} {err.status(final['status'])}{reason}: {run_url(api, final)}")
    return exits.for_status(final["status"])


def follow(api: Api, base: str, out: Painter) -> None:
    """The run's lines until its end, reconnecting where the stream stopped."""
    after, failures = -1, 0
    while True:
        try:
            for event, data in api.events(f"{base}/stream", after):
                failures = 0
                if event == "lines":
                    out.lines([line["t"] for line in data["lines"]])
                    after = data["lines"][-1]["n"]
                elif event == "end":
                    return
            cause: CliError = Dropped("the output stream ended before the run", Exit.API)
        except Dropped as exc:
            cause = exc
        failures += 1
        if failures > RECONNECTS:
            raise cause
        time.sleep(1)


def _extra_vars(text: str) -> dict[str, Any]:
    """``--extra-vars``: a YAML or JSON mapping, or ``@FILE`` holding one (like ansible's -e).
    The server treats every value as data, never as a template."""
    if text.startswith("@"):
        text = client.read_file(Path(text[1:]), "--extra-vars")
    try:
        values = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        cause = " ".join(str(exc).split())
        raise usage(f"--extra-vars is not valid YAML or JSON: {cause}") from None
    if not isinstance(values, dict):
        raise usage("--extra-vars must be a mapping of variable names to values")
    return values
