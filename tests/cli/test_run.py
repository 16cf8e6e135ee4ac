"""`steward run`, `cancel` and `relaunch` against a real server: answers arrive, runs are
followed to their end, every failure is one line with its exit code."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest
from support.processes import free_port
from support.server import STEWARD, steward

from cli.site import Site, Steward
from steward.cli.exits import Exit

pytestmark = [pytest.mark.sqlite_only, pytest.mark.xdist_group("cli-server")]


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    return lines[0]


def test_a_survey_run_followed_to_its_end_gets_the_answers_and_masks_the_secret(
    site: Site, steward_in: Steward, tmp_path: Path
) -> None:
    secret = tmp_path / "secret"
    secret.write_text("s3cret-Value\n")  # the final newline is not part of it
    done = steward_in(
        "run",
        "ops/asks",
        "--follow",
        "--answer", "who=dba team",
        "--answer", "db_port=1521",
        "-a", "dry=yes",
        "-a", "dbs=cdb1",
        "-a", "dbs=pdb2",
        "-a", f"secret=@{secret}",
    )  # fmt: skip
    assert done.code == Exit.OK, done.err
    assert "who=dba team db_port=1521/int dry=True dbs=cdb1,pdb2 note=- secret_len=12" in done.out
    assert "control=42" in done.out
    assert "\x1b" not in done.out  # not a terminal: no colours
    run_id = int(done.err.split()[1])
    *_, last = done.err.strip().splitlines()
    assert last == f"run {run_id} successful: {site.url}/projects/{site.project}/runs/{run_id}"
    params = site.run(run_id)["params"]
    assert params["launch_vars"] == {
        "who": "dba team",
        "db_port": 1521,
        "dry": True,
        "dbs": ["cdb1", "pdb2"],
    }
    assert params["secret_extra_vars"] == {"secret": "********"}
    assert "s3cret-Value" not in str(site.run(run_id))
    # control: the stored lines had colours, which the command removed
    lines = site.api.get(f"/projects/{site.project}/runs/{run_id}/lines").json()["items"]
    assert any("\x1b[" in line["text"] for line in lines)


def test_missing_answers_are_named_in_one_line_and_nothing_is_launched(
    site: Site, steward_in: Steward
) -> None:
    before = site.newest_run_id()
    missing = steward_in("run", "ops/asks", "--no-input", "-a", "db_port=5")
    assert missing.code == Exit.USAGE
    line = one_error_line(missing.err)
    assert "who (text), secret (password)" in line
    assert "db_port" not in line.split("needs answers to:")[1].split(";")[0]
    clear = steward_in("run", "ops/asks", "-a", "who=x", "-a", "db_port=5", "-a", "secret=hunter2")
    assert clear.code == Exit.USAGE
    assert "a password is not taken from the command line" in one_error_line(clear.err)
    assert "hunter2" not in clear.err
    assert site.newest_run_id() == before


def test_a_refused_answer_is_one_line_naming_the_field(
    site: Site, steward_in: Steward, tmp_path: Path
) -> None:
    secret = tmp_path / "secret"
    secret.write_text("pw")
    before = site.newest_run_id()
    common = ("run", "ops/asks", "-a", "who=x", "-a", f"secret=@{secret}")
    not_a_number = steward_in(*common, "-a", "db_port=fifteen-twenty-one")
    assert not_a_number.code == Exit.API
    line = one_error_line(not_a_number.err)
    assert line == "error: 422 Invalid Input: survey.db_port: must be an integer"
    too_big = steward_in(*common, "-a", "db_port=70000")
    assert "survey.db_port: must be at most 65535" in one_error_line(too_big.err)
    unknown = steward_in(*common, "-a", "db_port=1", "-a", "colour=blue")
    assert "survey.colour: this template's survey has no such question" in unknown.err
    assert site.newest_run_id() == before
    # control: the same answers with a good port launch
    good = steward_in(*common, "-a", "db_port=1")
    assert good.code == Exit.OK, good.err
    assert good.out.strip() == str(site.newest_run_id()) != str(before)


def test_a_failed_run_exits_1_and_relaunch_failed_runs_on_its_failed_hosts(
    site: Site, steward_in: Steward
) -> None:
    failed = steward_in("run", "ops/broken", "--follow")
    assert failed.code == Exit.FAILED, failed.err
    assert "boom" in failed.out
    run_id = int(failed.err.split()[1])
    assert f"run {run_id} failed (" in failed.err.strip().splitlines()[-1]
    again = steward_in("relaunch", str(run_id), "--failed")
    assert again.code == Exit.OK, again.err
    relaunched = site.run(int(again.out))
    assert relaunched["relaunch_of_id"] == run_id
    assert relaunched["params"]["limit"] == "localhost"
    # a run without failed hosts (just queued): the API's 409, one line
    queued = steward_in("run", "ops/hello")
    assert queued.code == Exit.OK, queued.err
    none = steward_in("relaunch", queued.out.strip(), "--failed")
    assert none.code == Exit.API
    assert one_error_line(none.err).startswith("error: 409 ")
    gone = steward_in("relaunch", "999999")
    assert one_error_line(gone.err) == "error: no run 999999 (or not visible to you)"


def test_cancel_ends_a_followed_run_which_exits_4_without_colours_or_http_lines(
    site: Site, steward_in: Steward
) -> None:
    """The follower is a real process whose output goes to a pipe, as in a script."""
    env = {**site.server.env, "STEWARD_URL": site.url, "STEWARD_TOKEN": site.token}
    env.pop("NO_COLOR", None)
    follower = subprocess.Popen(
        [str(STEWARD), "run", "ops/slow", "--follow"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        run_id = wait_for_output(site, follower)
        cancel = steward_in("cancel", str(run_id))
        out, err = follower.communicate(timeout=60)
    finally:
        follower.kill()
        follower.wait()
    assert cancel.code == Exit.OK, cancel.err
    assert cancel.err.startswith(f"run {run_id}: cancel requested (running): {site.url}/")
    assert follower.returncode == Exit.CANCELED, err
    assert "sleeping now" in out
    assert "\x1b" not in out + err
    assert "HTTP" not in err, err
    assert err.strip().splitlines()[-1].startswith(f"run {run_id} canceled (")
    assert err.strip().endswith(f"{site.url}/projects/{site.project}/runs/{run_id}")
    again = steward_in("cancel", str(run_id))
    assert again.code == Exit.API
    assert "already ended" in one_error_line(again.err)


def test_a_reader_that_goes_away_ends_the_follower_quietly(site: Site, steward_in: Steward) -> None:
    """``steward run … --follow | head -1``: output into a closed pipe ends it with
    128 + SIGPIPE, as a shell reports it, and no traceback."""
    env = {**site.server.env, "STEWARD_URL": site.url, "STEWARD_TOKEN": site.token}
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line
    try:
        follower = subprocess.run(
            [str(STEWARD), "run", "ops/hello", "--follow"],
            env=env,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert follower.returncode == 128 + signal.SIGPIPE, follower.stderr
    assert "Traceback" not in follower.stderr, follower.stderr
    assert "Exception ignored" not in follower.stderr, follower.stderr


def wait_for_output(site: Site, follower: subprocess.Popen[str]) -> int:
    """The id of the follower's run, once its first lines are stored."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert follower.poll() is None, follower.communicate()
        run_id = site.newest_run_id()
        run = site.run(run_id) if run_id else {}
        started = run.get("template_name") == "slow" and run["status"] == "running"
        if started and run["line_count"] > 2:
            return run_id
        time.sleep(0.2)
    raise AssertionError("the slow run did not start")


def test_unreachable_or_wrong_address_or_token_is_one_line_with_exit_3(
    site: Site, steward_in: Steward
) -> None:
    nobody = f"http://127.0.0.1:{free_port()}"
    env = {**site.server.env, "STEWARD_URL": nobody, "STEWARD_TOKEN": site.token}
    down = steward("run", "ops/hello", env=env, timeout=60)  # a real process: no traceback
    assert down.returncode == Exit.API
    assert one_error_line(down.stderr).startswith(f"error: cannot reach Steward at {nobody}: ")
    assert down.stdout == ""
    elsewhere = steward_in(
        "cancel", "1", "--url", f"{site.url}/not-steward", "--token", site.token, connect=False
    )
    assert elsewhere.code == Exit.API
    assert "--url (STEWARD_URL) the server's address?" in one_error_line(elsewhere.err)
    bad_token = steward_in("run", "ops/hello", "--url", site.url, "--token", "x", connect=False)
    assert bad_token.code == Exit.API
    assert one_error_line(bad_token.err).startswith("error: 401 ")
    assert "--token-file, STEWARD_TOKEN or --token" in bad_token.err
    reader = site.server.token("read")
    forbidden = steward_in("run", "ops/hello", "--url", site.url, "--token", reader, connect=False)
    assert forbidden.code == Exit.API
    assert one_error_line(forbidden.err).startswith("error: 403 Forbidden: ")
    assert "lacks this permission" in forbidden.err
    not_http = steward_in("run", "ops/hello", "--url", "ftp://x", "--token", "t", connect=False)
    assert not_http.code == Exit.USAGE
    assert (
        one_error_line(not_http.err)
        == "error: --url: 'ftp://x' is not an http:// or https:// address"
    )
    with pytest.raises(SystemExit) as usage:
        steward_in("run", "ops/hello", "--follow=yes")
    assert usage.value.code == Exit.USAGE


def test_on_a_terminal_the_password_is_asked_without_echo_and_the_output_has_colours(
    site: Site,
) -> None:
    env = {**site.server.env, "STEWARD_URL": site.url, "STEWARD_TOKEN": site.token}
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm"
    command = [str(STEWARD), "run", "ops/asks", "-a", "who=tty", "-a", "db_port=7", "--follow"]
    seen = on_terminal(command, env, {b"Password (secret): ": b"typed-secret\n"})
    text = seen.decode(errors="replace")
    assert "typed-secret" not in text  # not echoed, and masked in the output
    assert "secret_len=12" in text  # but it arrived
    assert "\x1b[" in text  # colours: a terminal
    assert "successful" in text


def on_terminal(command: list[str], env: dict[str, str], replies: dict[bytes, bytes]) -> bytes:
    """Everything ``command`` wrote to its terminal (a pseudo-terminal), answering each prompt
    of ``replies`` once it appears."""
    main, terminal = pty.openpty()
    proc = subprocess.Popen(
        command, env=env, stdin=terminal, stdout=terminal, stderr=terminal, start_new_session=True
    )
    os.close(terminal)
    seen = b""
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 1)
            if ready:
                try:
                    chunk = os.read(main, 4096)
                except OSError:  # EIO: the process closed the terminal
                    break
                if not chunk:
                    break
                seen += chunk
                for prompt, reply in list(replies.items()):
                    if prompt in seen:
                        os.write(main, reply)
                        del replies[prompt]
            elif proc.poll() is not None:
                break
        assert proc.wait(30) == Exit.OK, seen
    finally:
        proc.kill()
        os.close(main)
    assert not replies, f"never asked: {list(replies)}; saw {seen!r}"
    return seen


def test_adhoc_runs_a_module_with_its_arguments_and_follows_it(
    site: Site, steward_in: Steward
) -> None:
    done = steward_in(
        "adhoc", "ops", "local", "-m", "command", "-a", "echo cli-adhoc {{ 6 * 7 }}",
        "--limit", "localhost", "--follow",
    )  # fmt: skip
    assert done.code == Exit.OK, done.err
    assert "cli-adhoc {{ 6 * 7 }}" in done.out  # data, never templated
    run_id = int(done.err.split()[1])
    assert site.run(run_id)["kind"] == "adhoc"
    refused = steward_in("adhoc", "ops", "local", "-m", "raw")
    assert refused.code == Exit.API
    assert "module: 'raw' is not an allowed ad-hoc module" in one_error_line(refused.err)
