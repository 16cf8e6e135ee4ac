"""Every size limit of a request field, defined once and reused by each domain's schemas.

The body as a whole is capped by ``settings.max_body_bytes`` (``api.limits``); these caps keep
each field far below it, so no single name, text, JSON value or list can fill the database, the
audit trail or a run's private directory. A violation is a 422 naming the field.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import yaml
from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

KIB = 1024
MIB = 1024 * KIB

NAME_PATTERN = r"^[^/\x00-\x1f]+$"  # one path segment of a URL, no control characters
# a runner group is a Celery queue and a --queues item: lower case, digits, '-' and '_'
GROUP_NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,62}$"
NAME_MAX = 100
DESCRIPTION_MAX = 10_000
LABEL_MAX = 200  # short human text: a display name, a survey label, a choice
LINE_MAX = 1000  # one line of host patterns or tags (limit, tags, skip_tags)
HOST_SCOPE_MAX = 50  # entries of a grant's host scope (host patterns or groups)
URL_MAX = 2000
PATH_MAX = 1024  # a file path inside a repository
INVENTORY_CONTENT_MAX = MIB  # characters of a static inventory
JSON_MAX_BYTES = 256 * KIB  # extra vars and other free JSON objects, as compact JSON
JSON_MAX_DEPTH = 32
# YAML text from a request (extra vars, a static inventory), as its parser reads it: values
# with every alias expanded (a "billion laughs" of 9 aliases of 9 aliases… is refused at once),
# and levels of nesting (libyaml's own composer crashes the process on deep nesting)
YAML_VALUES_MAX = 50_000
INVENTORY_VALUES_MAX = 500_000
YAML_MAX_DEPTH = 100
TIMEOUT_MAX_SECONDS = 7 * 24 * 3600  # a run's timeout: a week at most
# how long a host may be quiet on a task before the run page flags it and ``host_quiet`` tells
# (the instance setting and a subscription's threshold): a day at most
HOST_QUIET_MAX_MINUTES = 24 * 60
VERBOSITY_MAX = 4  # ansible-playbook -vvvv
FORKS_MAX = 200  # ansible-playbook --forks
ID_MAX = 2**31 - 1  # the largest id a PostgreSQL integer column holds: larger cannot exist
POSITION_MAX = 2**63 - 1  # a line number, event counter or offset: the databases' 64-bit max
ENV_VARS_MAX = 200
VARIABLE_NAME_MAX = 200  # an Ansible or environment variable name
ENV_VALUE_MAX = 32 * KIB
SECRET_MAX = 64 * KIB  # an SSH private key, a password, a secret value
PASSPHRASE_MAX = 1000
LIST_MAX = 100  # references to other objects (vault keys, environment secrets)
LOCAL_ROOTS_MAX = 20  # local directories an admin assigns to one project
SURVEY_QUESTIONS_MAX = 100
SURVEY_CHOICES_MAX = 500
SURVEY_ANSWER_MAX = 64 * KIB  # characters of a text answer or default
# a survey question's options read from a source (templates/options): how long a URL or a
# script may take, and how much of its answer is read
SURVEY_SOURCE_TIMEOUT_MAX = 30.0
SURVEY_SOURCE_TIMEOUT_DEFAULT = 5.0
SURVEY_SOURCE_BYTES_MAX = MIB
SCHEDULE_EXPRESSION_MAX = 1000  # a cron line, or an RFC 5545 recurrence (RRULE, EXDATE, …)
TIMEZONE_NAME_MAX = 64  # an IANA zone name (the longest is 32 characters)
WEBHOOK_BODY_MAX = MIB  # a delivery's body (413 above it; GitHub's own cap is 25 MB)
WEBHOOK_BODY_STORED_MAX = 64 * KIB  # what a delivery record keeps of the body
WEBHOOK_MATCHERS_MAX = 20
# a plan's diffs (``plans``): of one task result on one host (its event keeps it, under the
# recorder's 64 KiB an event), and of a whole plan; past either a diff ends "[diff cut at N KiB]"
PLAN_DIFF_RESULT_MAX = 32 * KIB
PLAN_DIFF_RUN_MAX = 8 * MIB
# a host's facts as JSON before compression (``hosts.facts``): the default of the setting
FACTS_MAX_BYTES = 256 * KIB
PLAN_COMMENT_MAX = 2000  # an approval's comment
PLAN_TASKS_PAGE_MAX = 500  # tasks of a plan in one page (each a line: name, path, host count)
PLAN_HOSTS_PAGE_MAX = 200  # one task's host results in one page, each with its diff
WEBHOOK_EXTRACTORS_MAX = 50
WEBHOOK_PATH_MAX = 200  # a dotted path into a JSON body (a.b.0.c), or a header name
WEBHOOK_HEADERS_MAX = 100  # headers kept with a delivery, or given to a test delivery
HEADER_VALUE_MAX = 1000  # characters of one header value kept or given
METRICS_ENDPOINT_MAX = 500  # an inventory's pmproxy URL template (metrics)
METRICS_POINTS_MAX = 5000  # points per series in one metrics answer
METRICS_LANES_MAX = 100  # lanes (controller, hosts) in one metrics answer
COMPARE_RUNS_MAX = 4  # runs compared side by side in one request
HOST_NAME_MAX = 255  # an inventory host name (run_hosts.host, project_hosts.name)
HOST_METRICS_RUNS_MAX = 100  # runs in one answer of a host's metrics per run
RUN_LABEL_MAX = 60  # a run's label ("TDE on", "baseline"): one short line
RUN_NOTE_MAX = 2000  # a run's note: a few lines
TEMPLATE_LABEL_MAX = 40  # a template's label ("prod", "db-tier"): a short slug
TEMPLATE_LABELS_MAX = 20  # labels on one template, or named by one freeze window
SEARCHED_VALUE_MAX = 200  # characters of a launch value kept searchable (longer: not searchable)
RUN_VALUE_FILTERS_MAX = 5  # answer=/launch= filters in one runs list request
TEMPLATE_STATS_RUNS_MAX = 200  # a template's last runs in its statistics
DIRECTORY_GROUPS_MAX = 50  # directory groups mapped to one team (steward.directory)
ADHOC_MODULE_MAX = 200  # an ad-hoc command's module name (FQCN)
ADHOC_FREE_FORM_MAX = 16 * KIB  # an ad-hoc command's free-form argument (command, shell)
DIRECTORY_GROUP_MAX = 512  # characters of one: an LDAP group DN or an OIDC group claim value


def describe_size(n: int) -> str:
    """``262144`` -> ``256 KiB (262144 bytes)``: the limit as people read it and exactly."""
    for unit, factor in (("MiB", MIB), ("KiB", KIB)):
        if n >= factor and n % factor == 0:
            return f"{n // factor} {unit} ({n} bytes)"
    return f"{n} bytes"


def json_size_error(value: Any) -> str | None:
    """Why ``value`` is too big or too deep as JSON, or None when it fits.

    Walks the value without recursion and stops as soon as a limit is passed, so the cost is
    bounded by the limits, not by the value (a YAML alias bomb or a deep list costs no more).
    """
    size = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > JSON_MAX_DEPTH:
                return f"must not be nested more than {JSON_MAX_DEPTH} levels deep"
            size += 2 + max(len(item) - 1, 0)  # brackets and commas
            if isinstance(item, dict):
                size += sum(_scalar_size(key) + 1 for key in item)  # "key":
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)
        else:
            size += _scalar_size(item)
        if size > JSON_MAX_BYTES:
            return f"must be at most {describe_size(JSON_MAX_BYTES)} as JSON"
    return None


_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def yaml_size_error(
    text: str, *, values_max: int = YAML_VALUES_MAX, depth_max: int = YAML_MAX_DEPTH
) -> str | None:
    """Why ``text`` holds too many values (aliases expanded) or is nested too deeply as YAML,
    or None when it fits (or is not valid YAML: the loader then says why).

    Reads the parser's events, without composing a document, and stops as soon as a limit is
    passed: the cost is bounded by the limits, never by what the aliases would expand to.
    """
    anchored: dict[str, int] = {}  # values of each anchored node, expanded
    open_: list[tuple[str | None, int]] = []  # collections being read: anchor, values so far
    total = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                values = anchored.get(event.anchor or "", 1)
            elif isinstance(event, _OPEN):
                open_.append((event.anchor, 1))
                if len(open_) > depth_max:
                    return f"must not be nested more than {depth_max} levels deep"
                total += 1  # the collection itself; its parent counts it when it ends
                if total > values_max:
                    return f"must hold at most {values_max} values, aliases expanded"
                continue
            elif isinstance(event, _CLOSE) and open_:
                anchor, values = open_.pop()
                if anchor is not None:
                    anchored[anchor] = values
                if open_:
                    open_[-1] = (open_[-1][0], open_[-1][1] + values)
                continue
            elif isinstance(event, yaml.ScalarEvent):
                values = 1
                if event.anchor is not None:
                    anchored[event.anchor] = 1
            else:
                continue
            total += values
            if open_:
                open_[-1] = (open_[-1][0], open_[-1][1] + values)
            if total > values_max:
                return f"must hold at most {values_max} values, aliases expanded"
    except yaml.YAMLError:
        return None
    return None


def load_yaml(text: str) -> Any:
    """``text`` as YAML (safe tags only), once ``yaml_size_error`` found it within bounds."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader


def _scalar_size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str).encode())


def _bounded_json(value: dict[str, Any]) -> dict[str, Any]:
    error = json_size_error(value)
    if error is not None:
        raise PydanticCustomError("json_too_large", error)
    return value


Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX, pattern=NAME_PATTERN)]
Description = Annotated[str, Field(max_length=DESCRIPTION_MAX)]
GroupName = Annotated[str, Field(min_length=1, max_length=63, pattern=GROUP_NAME_PATTERN)]
Label = Annotated[str, Field(max_length=LABEL_MAX)]
# shown text: no control characters (C0, DEL, C1) nor bidirectional controls that reorder
# what is shown; a note may have line breaks and tabs
_BIDI = r"\u202a-\u202e\u2066-\u2069"
RunLabel = Annotated[
    str, Field(max_length=RUN_LABEL_MAX, pattern=rf"^[^\x00-\x1f\x7f-\x9f{_BIDI}]*$")
]
RunNote = Annotated[
    str, Field(max_length=RUN_NOTE_MAX, pattern=rf"^[^\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]*$")
]
# a template's label, and the labels a freeze window freezes (``freezes``): lower-case letters,
# digits, '.', '_' and '-', starting with a letter or digit; a list is kept sorted, each once
TemplateLabel = Annotated[
    str,
    Field(min_length=1, max_length=TEMPLATE_LABEL_MAX, pattern=r"^[a-z0-9][a-z0-9._-]*$"),
]
TemplateLabels = Annotated[
    list[TemplateLabel],
    Field(max_length=TEMPLATE_LABELS_MAX),
    AfterValidator(lambda labels: sorted(set(labels))),
]
Line = Annotated[str, Field(max_length=LINE_MAX)]
HostName = Annotated[str, Field(min_length=1, max_length=HOST_NAME_MAX)]
Url = Annotated[str, Field(min_length=1, max_length=URL_MAX)]
MetricsEndpoint = Annotated[str, Field(max_length=METRICS_ENDPOINT_MAX)]
PathText = Annotated[str, Field(max_length=PATH_MAX)]
InventoryContent = Annotated[str, Field(max_length=INVENTORY_CONTENT_MAX)]
JsonObject = Annotated[dict[str, Any], AfterValidator(_bounded_json)]
EnvVars = Annotated[
    dict[
        Annotated[str, Field(max_length=VARIABLE_NAME_MAX)],
        Annotated[str, Field(max_length=ENV_VALUE_MAX)],
    ],
    Field(max_length=ENV_VARS_MAX),
]
Id = Annotated[int, Field(ge=1, le=ID_MAX)]
# positions and offsets: a bound given again in Field() would lose to these, so each has its own
Offset = Annotated[int, Field(ge=0, le=POSITION_MAX)]  # an OFFSET, an event counter to start after
Counter = Annotated[int, Field(ge=1, le=POSITION_MAX)]  # an event counter: the first is 1
LineAfter = Annotated[int, Field(ge=-1, le=POSITION_MAX)]  # a line number to start after (-1: all)
PlanTasksLimit = Annotated[int, Field(ge=1, le=PLAN_TASKS_PAGE_MAX)]
PlanHostsLimit = Annotated[int, Field(ge=1, le=PLAN_HOSTS_PAGE_MAX)]
TimeoutSeconds = Annotated[int, Field(ge=1, le=TIMEOUT_MAX_SECONDS)]
# a run's ansible-playbook options: a template's values, a launch's overrides, a run's parameters
Verbosity = Annotated[int, Field(ge=0, le=VERBOSITY_MAX)]  # -v … -vvvv
Forks = Annotated[int, Field(ge=1, le=FORKS_MAX)]
# an ad-hoc command (``runs.adhoc``): a module name as Ansible spells one, its free-form text
AdhocModule = Annotated[
    str,
    Field(
        min_length=1,
        max_length=ADHOC_MODULE_MAX,
        pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$",
    ),
]
AdhocFreeForm = Annotated[str, Field(max_length=ADHOC_FREE_FORM_MAX)]
Secret = Annotated[str, Field(min_length=1, max_length=SECRET_MAX)]
Passphrase = Annotated[str, Field(max_length=PASSPHRASE_MAX)]
ScheduleExpression = Annotated[str, Field(min_length=1, max_length=SCHEDULE_EXPRESSION_MAX)]
TimeZoneName = Annotated[str, Field(min_length=1, max_length=TIMEZONE_NAME_MAX)]
