"""The audit trail's exports, one record per line: JSON lines (for a SIEM) and CSV (for a
spreadsheet). Both write the records as the API reads them (``AuditRead``): secrets are never
in a record (``audit.record`` keeps only ``********`` markers), so never in an export.

CSV cells are safe to open in a spreadsheet: a cell that starts (after any spaces) with a
character a spreadsheet reads as a formula (``= + - @``, or a tab or carriage return that can
hide one) is prefixed with a single quote, so it stays text (OWASP's "CSV injection").
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from steward.audit.schemas import AuditRead

FORMULA_STARTS = frozenset("=+-@\t\r")
COLUMNS: tuple[str, ...] = tuple(AuditRead.model_fields)


def jsonl_line(record: AuditRead) -> str:
    return json.dumps(record.model_dump(mode="json")) + "\n"


def csv_cell(value: Any) -> str:
    """A value as the text of one CSV cell: '' for None, JSON for a mapping or list, ISO 8601
    for a time; quoted (``'``) when a spreadsheet would read it as a formula."""
    if value is None:
        text = ""
    elif isinstance(value, dict | list):
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    elif isinstance(value, dt.datetime):
        text = value.isoformat()
    else:
        text = str(value)
    if text.lstrip(" ")[:1] in FORMULA_STARTS and text.strip(" "):
        return "'" + text
    return text


def csv_line(values: Sequence[Any]) -> str:
    """One CSV line (RFC 4180: quotes doubled, a cell with a comma, quote or line break
    quoted; lines end with CRLF)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow([csv_cell(v) for v in values])
    return out.getvalue()


def csv_lines(records: Iterable[AuditRead]) -> Iterator[str]:
    """The header, then one line per record, in ``COLUMNS`` order."""
    yield csv_line(COLUMNS)
    for record in records:
        yield csv_line([getattr(record, column) for column in COLUMNS])
