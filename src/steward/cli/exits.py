"""What the API client commands (run, cancel, relaunch) exit with, for scripts; one line each
in ``steward --help`` and docs/cli.md."""

from __future__ import annotations

import enum


class Exit(enum.IntEnum):
    OK = 0
    FAILED = 1
    USAGE = 2  # argparse's own code for bad arguments too
    API = 3
    CANCELED = 4
    TIMED_OUT = 5
    ERROR = 6
    INTERRUPTED = 130  # the shell's code for Ctrl-C


MEANING = {
    Exit.OK: "the run succeeded (without --follow: the server accepted the request)",
    Exit.FAILED: "the run failed (a task failed or a host was unreachable)",
    Exit.USAGE: "usage: bad arguments, a survey answer missing, a file that cannot be read",
    Exit.API: "the API: the server unreachable or not Steward, or it refused the\n"
    "      request (401, 403, 404, 409, 422, 5xx)",
    Exit.CANCELED: "the run was canceled",
    Exit.TIMED_OUT: "the run timed out",
    Exit.ERROR: "error: Steward could not run the playbook (checkout, worker lost,\n"
    "      server stopped)",
    Exit.INTERRUPTED: "Ctrl-C while following the output (the run goes on)",
}

EPILOG = "exit status of run, cancel, relaunch, plan and apply:\n" + "\n".join(
    f"  {code.value:<3} {text}" for code, text in MEANING.items()
)

BY_STATUS = {
    "successful": Exit.OK,
    "failed": Exit.FAILED,
    "canceled": Exit.CANCELED,
    "timed_out": Exit.TIMED_OUT,
    "error": Exit.ERROR,
}


def for_status(status: str) -> Exit:
    """A finished run's status as an exit code; a status this client does not know is an error
    (never 0: a script must not take it for success)."""
    return BY_STATUS.get(status, Exit.ERROR)


class CliError(Exception):
    """Printed as one line ``error: …`` (no traceback); the command exits with ``code``."""

    def __init__(self, message: str, code: Exit) -> None:
        super().__init__(message)
        self.code = code


def usage(message: str) -> CliError:
    return CliError(message, Exit.USAGE)
