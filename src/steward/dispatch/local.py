"""The embedded dispatcher: runs queued runs in threads of the server process.

Placeholder until the executor lands: accepts submissions and does nothing with them.
"""

from __future__ import annotations

from steward.runtime import Runtime


class LocalDispatcher:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def submit(self, run_id: int) -> None:
        pass

    def cancel(self, run_id: int) -> None:
        pass

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass
