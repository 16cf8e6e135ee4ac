"""The launch dialog's question: the options of a template's sourced questions now."""

from __future__ import annotations

from pydantic import Field

from steward.bounds import SURVEY_QUESTIONS_MAX, Id, JsonObject
from steward.schemas import RequestModel, ResponseModel


class OptionsRequest(RequestModel):
    survey: JsonObject = Field(  # the answers so far, by variable (earlier questions')
        default_factory=dict, max_length=SURVEY_QUESTIONS_MAX
    )
    inventory_id: Id | None = None  # the launch's inventory, when it overrides the template's


class QuestionOptions(ResponseModel):
    variable: str
    choices: list[str]
    error: str | None = Field(description="why the source gave no options (then choices is [])")
    depends_on: list[str] = Field(description="earlier answers the source names")


class SurveyOptions(ResponseModel):
    questions: list[QuestionOptions]  # the questions with a source, in the survey's order
