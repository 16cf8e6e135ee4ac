"""Print the tests that failed or errored, from the JUnit reports pytest wrote under
test-artifacts/ (a line each with its message, and the end of its traceback): CI shows the end
of a run, so what went wrong is read there rather than searched for in thousands of lines."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def main(reports: list[Path]) -> int:
    bad = 0
    for report in reports:
        if not report.exists():
            continue
        tree = ET.parse(report)  # noqa: S314 - written by our own pytest, just now
        for case in tree.iter("testcase"):
            for outcome in ("failure", "error"):
                for found in case.findall(outcome):
                    bad += 1
                    message = (found.get("message") or "").strip().splitlines() or [""]
                    where = f"{case.get('classname')}::{case.get('name')}"
                    sys.stdout.write(f"{outcome.upper()}: {where}: {message[0][:300]}\n")
                    for line in (found.text or "").strip().splitlines()[-6:]:
                        sys.stdout.write(f"    {line[:300]}\n")
    if bad:
        sys.stdout.write(f"{bad} pytest failure(s) or error(s); the whole text is above\n")
    return 0


if __name__ == "__main__":
    sys.exit(main([Path(p) for p in sys.argv[1:]]))
