"""The command line's rules as plain functions: reading answers, exit codes, colours, the one
line of a refusal."""

from __future__ import annotations

import argparse
import io
from pathlib import Path
from typing import Any

import pytest

from steward import cli
from steward.cli import answers, client, exits
from steward.cli.answers import Given
from steward.cli.exits import CliError, Exit
from steward.cli.terminal import Painter, wants_color
from steward.config import Settings

QUESTIONS: list[dict[str, Any]] = [
    {"variable": "who", "label": "Who", "type": "text", "required": True},
    {"variable": "port", "label": "Port", "type": "integer", "required": True},
    {"variable": "ratio", "label": "Ratio", "type": "float"},
    {"variable": "dry", "label": "Dry", "type": "boolean", "required": True, "default": False},
    {"variable": "dbs", "label": "DBs", "type": "multi_choice", "choices": ["a", "b"]},
    {"variable": "pw", "label": "Password", "type": "password", "required": True},
]


def test_an_answer_is_name_equals_value_split_at_the_first_equals(tmp_path: Path) -> None:
    assert answers.parse("who=a=b") == Given("who", "a=b", from_file=False)
    assert answers.parse(" who =") == Given("who", "", from_file=False)
    assert answers.parse("who=@@home") == Given("who", "@home", from_file=False)
    assert answers.parse("who=@") == Given("who", "@", from_file=False)
    for bad in ("who", "=x", ""):
        with pytest.raises(CliError) as refused:
            answers.parse(bad)
        assert refused.value.code == Exit.USAGE
        assert "give NAME=VALUE" in str(refused.value)


def test_an_at_file_answer_is_the_file_content_and_a_missing_file_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = tmp_path / "text"
    text.write_text("line 1\nline 2\n\n")
    assert answers.parse(f"who=@{text}") == Given("who", "line 1\nline 2\n", from_file=True)
    monkeypatch.setattr("sys.stdin", io.StringIO("from stdin\n"))
    assert answers.parse("pw=@-") == Given("pw", "from stdin", from_file=True)
    with pytest.raises(CliError) as missing:
        answers.parse(f"pw=@{tmp_path / 'nope'}")
    assert missing.value.code == Exit.USAGE
    assert str(missing.value).startswith(f"--answer pw: cannot read {tmp_path / 'nope'}: ")


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [
        ("integer", " 42 ", 42),
        ("integer", "4.2", "4.2"),  # sent as typed: the server names the question
        ("float", "0.5", 0.5),
        ("float", "nan", "nan"),  # not JSON
        ("float", "half", "half"),
        ("boolean", "Yes", True),
        ("boolean", "off", False),
        ("boolean", "maybe", "maybe"),
        ("text", " 42 ", " 42 "),
        ("choice", "1", "1"),
    ],
)
def test_a_value_is_read_as_its_question_type(kind: str, text: str, value: Any) -> None:
    assert answers.typed({"type": kind}, text) == value
    assert answers.typed(None, text) == text  # no such question: as typed


def test_collect_reads_repeats_refuses_clear_passwords_and_names_every_missing_answer() -> None:
    def given(name: str, text: str, from_file: bool = False) -> Given:
        return Given(name, text, from_file)

    got = answers.collect(
        QUESTIONS,
        [given("who", "x"), given("port", "1"), given("dbs", "a"), given("dbs", "b"),
         given("pw", "secret", from_file=True), given("extra", "1")],
        target="p/t",
        ask=None,
    )  # fmt: skip
    assert got == {"who": "x", "port": 1, "dbs": ["a", "b"], "pw": "secret", "extra": "1"}
    with pytest.raises(CliError) as clear:
        answers.collect(QUESTIONS, [given("pw", "secret")], target="p/t", ask=None)
    assert "a password is not taken from the command line" in str(clear.value)
    assert "secret" not in str(clear.value).replace("a password", "")
    with pytest.raises(CliError) as twice:
        answers.collect(QUESTIONS, [given("who", "a"), given("who", "b")], target="p/t", ask=None)
    assert str(twice.value) == "--answer who: given 2 times"
    with pytest.raises(CliError) as missing:
        answers.collect(QUESTIONS, [given("port", "1")], target="p/t", ask=None)
    assert missing.value.code == Exit.USAGE
    assert str(missing.value).startswith("p/t needs answers to: who (text), pw (password);")
    asked: list[str] = []

    def ask(question: answers.Question) -> Any:
        asked.append(question["variable"])
        return "typed"

    got = answers.collect(QUESTIONS, [given("port", "1")], target="p/t", ask=ask)
    assert asked == ["who", "pw"]  # dry has a default; ratio and dbs are optional
    assert got == {"port": 1, "who": "typed", "pw": "typed"}


def test_a_prompt_reads_a_line_as_the_question_type(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("8080\na, b\n"))
    assert answers.prompt(QUESTIONS[1]) == 8080
    assert answers.prompt(QUESTIONS[4]) == ["a", "b"]
    assert capsys.readouterr().err == "Port (port): DBs (dbs) [some of, comma-separated: a, b]: "
    with pytest.raises(CliError) as ended:
        answers.prompt(QUESTIONS[0])
    assert str(ended.value) == "no answer to who (end of input)"


def test_exit_codes_by_run_status_and_documented_once() -> None:
    assert [exits.for_status(s) for s in ("successful", "failed", "canceled")] == [0, 1, 4]
    assert exits.for_status("timed_out") is Exit.TIMED_OUT
    assert Exit.TIMED_OUT.value == 5
    assert exits.for_status("error") == exits.for_status("a new status") == Exit.ERROR
    assert Exit.USAGE.value == 2  # argparse's code for bad arguments, as ours
    for code in Exit:
        assert f"\n  {code.value:<3} " in exits.EPILOG


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("mode", "tty", "environ", "colored"),
    [
        ("auto", True, {}, True),
        ("auto", False, {}, False),
        ("auto", True, {"NO_COLOR": "1"}, False),
        ("auto", True, {"NO_COLOR": ""}, True),  # no-color.org: set *and* not empty
        ("auto", True, {"TERM": "dumb"}, False),
        ("always", False, {"NO_COLOR": "1"}, True),
        ("never", True, {}, False),
    ],
)
def test_colours_only_on_a_terminal_unless_asked(
    mode: str, tty: bool, environ: dict[str, str], colored: bool
) -> None:
    stream = Tty() if tty else io.StringIO()
    assert wants_color(mode, stream, environ) is colored


def test_a_painter_strips_every_escape_sequence_unless_it_colours() -> None:
    line = "\x1b[0;32mok: [db1]\x1b[0m \x1b]0;title\x07done"
    plain, colored = io.StringIO(), io.StringIO()
    Painter(plain, color=False).lines([line])
    Painter(colored, color=True).lines([line])
    assert plain.getvalue() == "ok: [db1] done\n"
    assert colored.getvalue() == line + "\n"
    assert Painter(plain, color=False).status("failed") == "failed"
    assert Painter(plain, color=True).status("failed") == "\x1b[31mfailed\x1b[0m"


def test_a_refusal_is_one_line_with_the_problem_detail_and_a_hint() -> None:
    problem = {"title": "Invalid Input", "detail": "survey.port: must be an integer"}
    assert client.problem_line(422, problem, "POST /api/v1/projects/1/runs") == (
        "422 Invalid Input: survey.port: must be an integer"
    )
    unauthenticated = {"title": "Not Authenticated", "detail": "invalid or expired token"}
    assert client.problem_line(401, unauthenticated, "GET /api/v1/projects") == (
        "401 Not Authenticated: invalid or expired token (give a valid API token:"
        " --token-file, STEWARD_TOKEN or --token)"
    )
    assert client.problem_line(404, {"detail": "Not Found"}, "GET /x/api/v1/projects") == (
        "404 Not Found (is --url (STEWARD_URL) the server's address?)"
    )
    assert client.problem_line(500, ["no", "problem"], "GET /api/v1/runs") == (
        "500 (no problem details) from GET /api/v1/runs"
    )


def test_the_token_comes_from_the_file_the_flag_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO())  # not a terminal: nothing is asked
    monkeypatch.delenv("STEWARD_TOKEN", raising=False)
    monkeypatch.delenv("STEWARD_URL", raising=False)

    def args(**given: Any) -> argparse.Namespace:
        return argparse.Namespace(**{"url": None, "token": None, "token_file": None, **given})

    token_file = tmp_path / "token"
    token_file.write_text("stw_from_file\n")
    env = Settings(token="stw_from_env", port=9000)  # type: ignore[arg-type]
    assert client.token(env, args(token_file=token_file)) == "stw_from_file"
    assert client.token(env, args(token="stw_flag")) == "stw_flag"
    assert client.token(env, args()) == "stw_from_env"
    with pytest.raises(CliError) as both:
        client.token(env, args(token="a", token_file=token_file))
    assert str(both.value) == "give --token or --token-file, not both"
    with pytest.raises(CliError) as none:
        client.token(Settings(), args())
    assert none.value.code == Exit.USAGE
    assert "no API token" in str(none.value)
    with pytest.raises(CliError):
        client.token(env, args(token="stw\nInjected: header"))
    assert client.base_url(env, args()) == "http://127.0.0.1:9000"
    assert client.base_url(env, args(url="https://steward.example/")) == "https://steward.example"


def test_a_wrong_setting_is_one_line_naming_its_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STEWARD_PORT", "eighty")
    assert cli.main(["cancel", "1"]) == Exit.USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: STEWARD_PORT: Input should be a valid integer")
