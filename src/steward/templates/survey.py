"""Surveys: typed questions a template asks at launch, and the check of the answers.

A definition is checked when the template is saved (each mistake names its place, for example
``survey.2.choices``); answers are checked at launch, each error naming ``survey.<variable>``.
Password answers are secrets: they come back apart from the other values.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from steward.bounds import (
    LABEL_MAX,
    SURVEY_ANSWER_MAX,
    SURVEY_CHOICES_MAX,
    SURVEY_QUESTIONS_MAX,
    Description,
)
from steward.errors import InvalidInput
from steward.templates.options.sources import OptionSource
from steward.templates.variables import VariableName


class QuestionType(enum.StrEnum):
    TEXT = "text"
    TEXTAREA = "textarea"
    PASSWORD = "password"  # noqa: S105  - the name of a question type, not a secret
    INTEGER = "integer"
    FLOAT = "float"
    CHOICE = "choice"
    MULTI_CHOICE = "multi_choice"
    BOOLEAN = "boolean"


TEXT_TYPES = frozenset({QuestionType.TEXT, QuestionType.TEXTAREA, QuestionType.PASSWORD})
NUMBER_TYPES = frozenset({QuestionType.INTEGER, QuestionType.FLOAT})
CHOICE_TYPES = frozenset({QuestionType.CHOICE, QuestionType.MULTI_CHOICE})


class AnswerInvalid(Exception):
    """An answer (or a default) does not fit its question; the message says why."""


CHOICES_LISTED = 20  # an error lists at most this many choices

Choice = Annotated[str, Field(max_length=LABEL_MAX)]


class Question(BaseModel):
    # Field order matters: each validator below reads the fields declared before it.
    model_config = ConfigDict(extra="forbid")

    variable: VariableName
    label: str = Field(min_length=1, max_length=LABEL_MAX)
    description: Description = ""
    type: QuestionType
    required: bool = False
    min: int | float | None = None  # length for text types, value for numbers
    max: int | float | None = None
    # where the options come from (templates.options), instead of ``choices``
    source: OptionSource | None = None
    choices: list[Choice] = Field(
        default_factory=list, validate_default=True, max_length=SURVEY_CHOICES_MAX
    )
    default: Any = Field(default=None, validate_default=True)

    @field_validator("min", "max")
    @classmethod
    def _bound_fits_type(cls, bound: float | None, info: ValidationInfo) -> float | None:
        kind = info.data.get("type")
        if bound is None or kind is None:
            return bound
        if kind not in TEXT_TYPES | NUMBER_TYPES:
            raise PydanticCustomError("survey", "only text and number questions have bounds")
        if kind in TEXT_TYPES and (not isinstance(bound, int) or bound < 0):
            raise PydanticCustomError("survey", "a length must be a whole number >= 0")
        if kind is QuestionType.INTEGER and not isinstance(bound, int):
            raise PydanticCustomError("survey", "an integer question needs whole-number bounds")
        low = info.data.get("min")
        if info.field_name == "max" and low is not None and bound < low:
            raise PydanticCustomError("survey", "must not be less than min")
        return bound

    @field_validator("choices")
    @classmethod
    def _choices_fit_type(cls, choices: list[str], info: ValidationInfo) -> list[str]:
        kind = info.data.get("type")
        if kind is None:
            return choices
        if kind not in CHOICE_TYPES:
            if choices:
                raise PydanticCustomError("survey", "only choice questions have choices")
            if info.data.get("source") is not None:
                raise PydanticCustomError("survey", "only choice questions have a source")
            return choices
        if info.data.get("source") is not None:
            if choices:
                raise PydanticCustomError(
                    "survey", "a question with a source has no choices of its own"
                )
            return choices
        if not choices:
            raise PydanticCustomError("survey", "a choice question needs at least one choice")
        if any(not choice for choice in choices):
            raise PydanticCustomError("survey", "a choice must not be empty")
        repeated = sorted({choice for choice in choices if choices.count(choice) > 1})
        if repeated:
            raise PydanticCustomError(
                "survey", "choices must be unique: {repeated}", {"repeated": ", ".join(repeated)}
            )
        return choices

    @field_validator("default")
    @classmethod
    def _default_is_an_answer(cls, default: Any, info: ValidationInfo) -> Any:
        fields = {"type", "min", "max", "choices"}
        if default is None or not fields <= info.data.keys():
            return default
        if info.data.get("source") is not None:  # checked at launch, against the options then
            if not isinstance(default, str | list):
                raise PydanticCustomError("survey", "a default must be a choice")
            return default
        if info.data["type"] is QuestionType.PASSWORD:
            raise PydanticCustomError(
                "survey", "a password question has no default (it would be stored in clear)"
            )
        try:
            return _checked(
                info.data["type"],
                default,
                low=info.data["min"],
                high=info.data["max"],
                choices=info.data["choices"],
            )
        except AnswerInvalid as exc:
            raise PydanticCustomError("survey", str(exc)) from None

    def check(self, answer: Any) -> Any:
        """The answer as the playbook will see it; raises ``AnswerInvalid``."""
        return _checked(self.type, answer, low=self.min, high=self.max, choices=self.choices)


def _unique_variables(questions: list[Question]) -> list[Question]:
    seen: set[str] = set()
    for question in questions:
        if question.variable in seen:
            raise PydanticCustomError(
                "survey", "variable '{variable}' is asked twice", {"variable": question.variable}
            )
        seen.add(question.variable)
    return questions


Survey = Annotated[
    list[Question], Field(max_length=SURVEY_QUESTIONS_MAX), AfterValidator(_unique_variables)
]


@dataclasses.dataclass(frozen=True)
class SurveyResult:
    values: dict[str, Any]
    secret_values: dict[str, Any]  # password answers: never stored in clear, masked in output


def validate_answers(questions: Sequence[Question], answers: Mapping[str, Any]) -> SurveyResult:
    """Check launch answers against the questions; raises ``InvalidInput("survey.<var>", …)``."""
    unknown = sorted(set(answers) - {question.variable for question in questions})
    if unknown:
        raise InvalidInput(f"survey.{unknown[0]}", "this template's survey has no such question")
    values: dict[str, Any] = {}
    secret_values: dict[str, Any] = {}
    for question in questions:
        answer = _answer_or_default(question, answers.get(question.variable))
        if answer is None:
            continue
        try:
            checked = question.check(answer)
        except AnswerInvalid as exc:
            raise InvalidInput(f"survey.{question.variable}", str(exc)) from None
        target = secret_values if question.type is QuestionType.PASSWORD else values
        target[question.variable] = checked
    return SurveyResult(values=values, secret_values=secret_values)


def _answer_or_default(question: Question, answer: Any) -> Any:
    if answer is None or answer == "" or answer == []:
        answer = question.default
    if answer is None and question.required:
        raise InvalidInput(f"survey.{question.variable}", "an answer is required")
    return answer


def _checked(
    kind: QuestionType,
    value: Any,
    *,
    low: float | None,
    high: float | None,
    choices: list[str],
) -> Any:
    if kind in TEXT_TYPES:
        return _text(value, low, high)
    if kind is QuestionType.INTEGER:
        if not isinstance(value, int) or isinstance(value, bool):
            raise AnswerInvalid("must be an integer")
        return _in_range(value, low, high)
    if kind is QuestionType.FLOAT:
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
        ):
            raise AnswerInvalid("must be a number")
        return _in_range(value, low, high)
    if kind is QuestionType.BOOLEAN:
        if not isinstance(value, bool):
            raise AnswerInvalid("must be true or false")
        return value
    return _chosen(kind, value, choices)


def _text(value: Any, low: float | None, high: float | None) -> str:
    if not isinstance(value, str):
        raise AnswerInvalid("must be a string")
    if len(value) > SURVEY_ANSWER_MAX:  # whatever the question allows: it ends up in a run
        raise AnswerInvalid(f"must be at most {SURVEY_ANSWER_MAX} characters long")
    if low is not None and len(value) < low:
        raise AnswerInvalid(f"must be at least {low:g} characters long")
    if high is not None and len(value) > high:
        raise AnswerInvalid(f"must be at most {high:g} characters long")
    return value


def _in_range[N: (int, float)](value: N, low: float | None, high: float | None) -> N:
    if low is not None and value < low:
        raise AnswerInvalid(f"must be at least {low:g}")
    if high is not None and value > high:
        raise AnswerInvalid(f"must be at most {high:g}")
    return value


def _chosen(kind: QuestionType, value: Any, choices: list[str]) -> Any:
    allowed = (
        ", ".join(choices) if len(choices) <= CHOICES_LISTED else f"the {len(choices)} options"
    )
    if kind is QuestionType.CHOICE:
        if not isinstance(value, str) or value not in choices:
            raise AnswerInvalid(f"must be one of: {allowed}")
        return value
    if not isinstance(value, list) or not all(isinstance(v, str) and v in choices for v in value):
        raise AnswerInvalid(f"must be a list of choices from: {allowed}")
    if len(set(value)) != len(value):
        raise AnswerInvalid("must not repeat a choice")
    return value
