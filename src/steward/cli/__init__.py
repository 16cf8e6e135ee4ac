"""The ``steward`` command (``steward.cli:main``): the server's own commands (``admin``) and the
API client's (``runs``: run, cancel, relaunch; docs/cli.md)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys

from pydantic import ValidationError

from steward import __version__
from steward.cli import admin, runs
from steward.cli.exits import EPILOG, CliError, Exit
from steward.config import Settings


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="steward",
        description="Run Ansible playbooks as a team. Settings: STEWARD_* variables.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--version", action="version", version=f"steward {__version__}")
    sub = top.add_subparsers(dest="command", required=True)
    admin.add_commands(sub)
    runs.add_commands(sub, EPILOG)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        error = exc.errors()[0]
        name = "STEWARD_" + "_".join(str(part) for part in error["loc"]).upper()
        print(f"error: {name}: {error['msg']}", file=sys.stderr)  # noqa: T201
        return Exit.USAGE
    if getattr(args, "client", False):
        # the output is the playbook's and ours: no "HTTP Request: …" lines of the HTTP library
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    else:
        logging.basicConfig(
            level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s"
        )
        # alembic names each of its autogenerate plugins at INFO whenever it is imported
        logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    try:
        code: int = args.fn(settings, args)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)  # noqa: T201
        return exc.code
    except KeyboardInterrupt:  # at a prompt, or while waiting for the server
        print(file=sys.stderr)  # noqa: T201
        return Exit.INTERRUPTED
    except BrokenPipeError:  # `steward run … --follow | head`: the reader has gone, quietly
        # what is still buffered for the closed pipe would fail again at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE  # as a shell reports a command ended by a closed pipe
    return code


if __name__ == "__main__":
    sys.exit(main())
