"""The console's performance: a finished 200,000-line run in Debian Chromium, and the login
page's JavaScript.

    .venv/bin/python bench/ui.py [--lines N]

Builds the console, runs the measuring Playwright spec (frontend/e2e/run-perf.spec.ts, which
starts its own real server and run), and prints its figures next to the issue's targets.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

FRONTEND = Path(__file__).resolve().parent.parent / "frontend"
TARGETS_MS = {
    "first_lines_visible_page_load_ms": 1000,
    "first_lines_visible_from_list_ms": 1000,
    "scroll_to_end_ms": 1000,
    "text_filter_ms": 1000,  # includes the 300 ms typing debounce
}


def _npm(*args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["npm", *args], cwd=FRONTEND, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000)
    args = parser.parse_args()
    _npm("run", "build")
    size = _npm("run", "size")
    env = {**os.environ, "STEWARD_UI_PERF": "1", "STEWARD_UI_PERF_LINES": str(args.lines)}
    subprocess.run(
        ["npx", "playwright", "test", "e2e/run-perf.spec.ts"], cwd=FRONTEND, env=env, check=True
    )
    figures = json.loads((FRONTEND / "test-artifacts" / "run-perf.json").read_text())
    print(f"\n### Console with a finished {args.lines:,}-line run (Chromium, headless)\n")
    print("| measure | value | target |")
    print("|---|---|---|")
    for name, value in figures.items():
        target = TARGETS_MS.get(name)
        shown = f"{value} ms" if name.endswith("_ms") else str(value)
        print(f"| {name} | {shown} | {f'≤ {target} ms' if target else ''} |")
    print("\n" + "\n".join(line for line in size.splitlines() if line.strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
