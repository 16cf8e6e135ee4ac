from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from steward.errors import InvalidInput
from steward.templates.survey import Question, validate_answers


def question(variable: str, kind: str, **fields: Any) -> Question:
    return Question.model_validate(
        {"variable": variable, "label": variable, "type": kind, **fields}
    )


QUESTIONS = [
    question("name", "text", min=2, max=5),
    question("notes", "textarea"),
    question("db_password", "password", required=True),
    question("port", "integer", min=1, max=65535, default=5432),
    question("ratio", "float", min=0, max=1),
    question("env", "choice", choices=["staging", "prod"], required=True),
    question("regions", "multi_choice", choices=["eu", "us"]),
    question("dry_run", "boolean", default=True),
]


def answers(**overrides: Any) -> dict[str, Any]:
    return {"db_password": "hunter2", "env": "prod", **overrides}


def test_valid_answers_are_split_into_values_and_secret_values() -> None:
    given = answers(name="web", notes="a\nb", ratio=0.5, regions=["us", "eu"], dry_run=False)
    result = validate_answers(QUESTIONS, given)
    assert result.values == {
        "name": "web",
        "notes": "a\nb",
        "port": 5432,
        "ratio": 0.5,
        "env": "prod",
        "regions": ["us", "eu"],
        "dry_run": False,
    }
    assert result.secret_values == {"db_password": "hunter2"}


def test_defaults_fill_unanswered_questions_and_optional_ones_stay_unset() -> None:
    result = validate_answers(QUESTIONS, answers())
    assert result.values == {"port": 5432, "env": "prod", "dry_run": True}


def test_an_integer_answer_may_be_a_float_question_answer() -> None:
    assert validate_answers(QUESTIONS, answers(ratio=1)).values["ratio"] == 1


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"port": "abc"}, "survey.port: must be an integer"),
        ({"port": "80"}, "survey.port: must be an integer"),
        ({"port": True}, "survey.port: must be an integer"),
        ({"port": 1.5}, "survey.port: must be an integer"),
        ({"port": 0}, "survey.port: must be at least 1"),
        ({"port": 70000}, "survey.port: must be at most 65535"),
        ({"ratio": "x"}, "survey.ratio: must be a number"),
        ({"ratio": 1.5}, "survey.ratio: must be at most 1"),
        ({"name": 5}, "survey.name: must be a string"),
        ({"name": "a"}, "survey.name: must be at least 2 characters long"),
        ({"name": "abcdef"}, "survey.name: must be at most 5 characters long"),
        ({"env": "dev"}, "survey.env: must be one of: staging, prod"),
        ({"regions": "eu"}, "survey.regions: must be a list of choices from: eu, us"),
        ({"regions": ["eu", "ap"]}, "survey.regions: must be a list of choices from: eu, us"),
        ({"regions": ["eu", "eu"]}, "survey.regions: must not repeat a choice"),
        ({"dry_run": "yes"}, "survey.dry_run: must be true or false"),
        ({"db_password": 1234}, "survey.db_password: must be a string"),
        ({"db_password": ""}, "survey.db_password: an answer is required"),
        ({"env": None}, "survey.env: an answer is required"),
        ({"colour": "red"}, "survey.colour: this template's survey has no such question"),
    ],
)
def test_wrong_answers_name_the_variable_and_the_cause(given: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        validate_answers(QUESTIONS, answers(**given))
    assert raised.value.message == message
    assert raised.value.field == message.split(":")[0]


def test_a_secret_answer_never_appears_in_an_error() -> None:
    strict = [question("token", "password", min=10)]
    with pytest.raises(InvalidInput) as raised:
        validate_answers(strict, {"token": "short-pw"})
    assert "short-pw" not in str(raised.value)


@pytest.mark.parametrize(
    ("fields", "location"),
    [
        ({"type": "multi_choice", "choices": []}, ("choices",)),
        ({"type": "text", "min": -1}, ("min",)),
        ({"type": "integer", "min": 1.5}, ("min",)),
        ({"type": "float", "min": 2, "max": 1}, ("max",)),
        ({"type": "multi_choice", "choices": ["a"], "default": ["b"]}, ("default",)),
        ({"type": "boolean", "default": "yes"}, ("default",)),
    ],
)
def test_a_wrong_definition_names_the_field(fields: dict[str, Any], location: tuple[str]) -> None:
    with pytest.raises(ValidationError) as raised:
        Question.model_validate({"variable": "v", "label": "V", **fields})
    assert [error["loc"] for error in raised.value.errors()] == [location]
