"""Survey answers on the command line: ``--answer NAME=VALUE``, repeatable.

- The value is text, read as its question's type: an integer, a number, a boolean
  (true/false, yes/no, 1/0, on/off); a multiple choice takes one ``--answer`` per choice. A value
  that does not read as its type is sent as typed, and the server's 422 names the question.
- ``NAME=@FILE`` sends the content of FILE (``@-``: standard input), one final newline removed;
  ``NAME=@@text`` sends ``@text``. The file is read here, by the user's own command: the server
  receives the content, never a path, and reads no file.
- A password question is never taken from the command line in clear (other users see it in
  ``ps``, it stays in the shell's history): ``NAME=@FILE`` or ``@-``, or the prompt, which does
  not echo.
- A required question without a default and without an answer is asked on a terminal, and is a
  usage error naming every such question otherwise (or with ``--no-input``).

The server checks every answer again (``templates.survey``): this module only reads text as the
types the survey declares, and asks.
"""

from __future__ import annotations

import dataclasses
import getpass
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from steward.cli.client import read_file
from steward.cli.exits import usage

Question = Mapping[str, Any]  # a survey question as the template's API read gives it
TRUE = frozenset({"true", "yes", "y", "1", "on"})
FALSE = frozenset({"false", "no", "n", "0", "off"})


@dataclasses.dataclass(frozen=True)
class Given:
    """One ``--answer``: the text typed, or the content of the file it named."""

    name: str
    text: str
    from_file: bool


def parse(spec: str, read: Callable[[Path, str], str] = read_file) -> Given:
    name, equals, value = spec.partition("=")
    name = name.strip()
    if not equals or not name:
        raise usage(f"--answer {spec!r}: give NAME=VALUE, NAME=@FILE or NAME=@- (standard input)")
    if value.startswith("@@"):
        return Given(name, value[1:], from_file=False)
    if value.startswith("@") and len(value) > 1:
        return Given(name, read(Path(value[1:]), f"--answer {name}"), from_file=True)
    return Given(name, value, from_file=False)


def typed(question: Question | None, text: str) -> Any:
    """``text`` as the question's type; as typed when it is not of that type (the server
    names the question and the cause)."""
    kind = question["type"] if question else "text"
    try:
        if kind == "integer":
            return int(text.strip())
        if kind == "float":
            number = float(text.strip())
            return number if math.isfinite(number) else text
    except ValueError:
        return text
    if kind == "boolean":
        word = text.strip().lower()
        return True if word in TRUE else False if word in FALSE else text
    return text


def collect(
    survey: Sequence[Question],
    given: list[Given],
    *,
    target: str,
    ask: Callable[[Question], Any] | None,
) -> dict[str, Any]:
    """The survey's answers, by variable: those given, then the missing required ones asked
    (``ask``) or named in a usage error."""
    questions = {str(q["variable"]): q for q in survey}
    texts: dict[str, list[Given]] = {}
    for one in given:
        texts.setdefault(one.name, []).append(one)
    answers: dict[str, Any] = {}
    for name, group in texts.items():
        question = questions.get(name)  # an unknown name goes as is: the server's 422 names it
        kind = question["type"] if question else None
        if kind == "password" and not all(one.from_file for one in group):
            raise usage(
                f"--answer {name}: a password is not taken from the command line (ps and the"
                f" shell's history show it): give {name}=@FILE or {name}=@-, or leave it out"
                " to be asked on a terminal"
            )
        values = [typed(question, one.text) for one in group]
        if kind == "multi_choice":
            answers[name] = values
        elif len(values) > 1:
            raise usage(f"--answer {name}: given {len(values)} times")
        else:
            answers[name] = values[0]
    missing = [q for q in survey if q.get("required") and q.get("default") is None]
    missing = [q for q in missing if q["variable"] not in answers]
    if not missing:
        return answers
    if ask is None:
        named = ", ".join(f"{q['variable']} ({q['type']})" for q in missing)
        raise usage(
            f"{target} needs answers to: {named}; give --answer NAME=VALUE (a password as"
            " NAME=@FILE)"
        )
    for question in missing:
        answers[str(question["variable"])] = ask(question)
    return answers


def prompt(question: Question) -> Any:
    """Ask on the terminal: a password without echo, a multiple choice comma-separated."""
    label = f"{question['label']} ({question['variable']})"
    choices = question.get("choices") or []
    if question["type"] == "password":
        try:
            return getpass.getpass(f"{label}: ")
        except EOFError:
            raise usage(f"no answer to {question['variable']} (end of input)") from None
    hint = ""
    if choices:
        several = question["type"] == "multi_choice"
        hint = f" [{'some of, comma-separated' if several else 'one of'}: {', '.join(choices)}]"
    print(f"{label}{hint}: ", end="", file=sys.stderr, flush=True)  # noqa: T201
    line = sys.stdin.readline()
    if not line:
        raise usage(f"no answer to {question['variable']} (end of input)")
    text = line.removesuffix("\n")
    if question["type"] == "multi_choice":
        return [part.strip() for part in text.split(",") if part.strip()]
    return typed(question, text)
