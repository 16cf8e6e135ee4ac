"""execute_run: take one claimed run from 'running' to its final status, whatever happens.

Called by the embedded dispatcher (a thread of ``steward serve``) and, later, by Celery workers.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from concurrent.futures import Future, ThreadPoolExecutor

from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from steward.errors import DomainError
from steward.execution import binding, changes, hostscope, preflight, requirements, workdirs
from steward.execution.ansible import processes
from steward.execution.ansible.playbook import Outcome, RunnerSpec, run_playbook
from steward.execution.preparation import prepare
from steward.execution.recorder import Recorder
from steward.execution.requirements import Installed
from steward.metrics import recording
from steward.queue import RunSignals
from steward.runs import lifecycle
from steward.runs.lifecycle import WorkerId
from steward.runs.models import Run, RunKind
from steward.runs.status import Reason, RunStatus
from steward.runtime import Runtime

log = logging.getLogger(__name__)

OUTCOME_STATUS = {
    "successful": RunStatus.SUCCESSFUL,
    "failed": RunStatus.FAILED,
    "canceled": RunStatus.CANCELED,
    "timeout": RunStatus.TIMED_OUT,
}
# how often a run reads its row for a cancel request (or an end set by someone else): often when
# its queue cannot wake it, seldom when it can (the row is then only a fallback, for a request
# made through another server; each read costs the server CPU beside ansible)
CANCEL_POLL_SECONDS = 0.5
CANCEL_FALLBACK_SECONDS = 2.0
STOPPED = Outcome(status="canceled", rc=None)  # stopped before the playbook started
PLANNED = (RunKind.PLAN, RunKind.APPLY)  # runs bound to a plan and whose changes are kept


class CancelWatch:
    """Polled by ``run_playbook`` (every 0.25 s): SIGTERM ansible-playbook, kill the whole tree
    after a grace. Reads the run's row when woken, else every ``CANCEL_POLL_SECONDS`` or
    ``CANCEL_FALLBACK_SECONDS``."""

    def __init__(self, runtime: Runtime, run: Run, signals: RunSignals) -> None:
        self._runtime = runtime
        self._run_id = run.id
        self._uuid = run.uuid
        self._signals = signals
        self._next_check = 0.0
        self.requested = False
        self.timed_out = False
        self.deadline: float | None = None
        self.terminated_at: float | None = None

    @property
    def shutdown(self) -> bool:
        return self._signals.shutdown

    def _cancel_requested(self) -> bool:
        now = time.monotonic()
        if self._signals.shutdown:
            return True
        if not self._signals.wake.is_set() and now < self._next_check:
            return False
        self._signals.wake.clear()
        heard = self._signals.hears_cancels
        self._next_check = now + (CANCEL_FALLBACK_SECONDS if heard else CANCEL_POLL_SECONDS)
        try:
            with self._runtime.sessions() as session:
                requested, status = session.execute(
                    select(Run.cancel_requested_at, Run.status).where(Run.id == self._run_id)
                ).one()
        except OperationalError:
            return False  # the database is away for a moment: the run goes on
        # ended by someone else (the reaper took it for lost): stop executing it
        return requested is not None or RunStatus(status).is_finished

    def stopping(self) -> bool:
        """For the install phase: whether the run must stop now (cancel, timeout, shutdown);
        ansible-galaxy is killed at once, it leaves nothing to clean up."""
        self()
        return self.requested or self.timed_out or self.shutdown

    def __call__(self) -> bool:
        if self.terminated_at is None:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.timed_out = True
            elif self._cancel_requested():
                self.requested = True
            else:
                return False
            processes.terminate_playbook(self._uuid)
            self.terminated_at = time.monotonic()
            return False
        if time.monotonic() - self.terminated_at >= self._runtime.settings.cancel_grace_seconds:
            processes.kill_all(self._uuid)
            return True
        return False


def _final_status(outcome: Outcome, watch: CancelWatch) -> tuple[RunStatus, str]:
    if watch.shutdown:
        return RunStatus.ERROR, Reason.INTERRUPTED
    if watch.requested:
        return RunStatus.CANCELED, Reason.CANCELED
    if watch.timed_out:
        return RunStatus.TIMED_OUT, Reason.TIMED_OUT
    status = OUTCOME_STATUS.get(outcome.status, RunStatus.ERROR)
    reasons = {
        RunStatus.FAILED: f"ansible-playbook exited with code {outcome.rc}",
        RunStatus.TIMED_OUT: Reason.TIMED_OUT,
        RunStatus.ERROR: f"the playbook ended with status '{outcome.status}'",
    }
    if outcome.rc == 127 and status is RunStatus.FAILED:
        return status, "ansible-playbook could not be started (exit code 127)"
    return status, reasons.get(status, "")


def _finish(
    runtime: Runtime, run_id: int, status: RunStatus, reason: str, rc: int | None = None
) -> None:
    """Write the final status, retrying while the database is away (a restart) for up to the
    lease: past it the reaper has failed the run as lost anyway."""
    deadline = time.monotonic() + runtime.settings.lease_seconds
    while True:
        try:
            with runtime.sessions() as session:
                lifecycle.transition(session, run_id, status, reason=reason, rc=rc)
                session.commit()
            return
        except OperationalError:
            if time.monotonic() >= deadline:
                raise
            log.warning("run %s: the database is away; retrying its final status", run_id)
            time.sleep(1.0)


def _check_apply(runtime: Runtime, run_id: int, spec: RunnerSpec) -> str:
    """An apply's commit and inventory against its plan's (``execution/binding``): why it may
    not go on, or ''."""
    with runtime.sessions() as session:
        run = session.get_one(Run, run_id)
        if run.plan_id is not None:
            plan_commit = session.scalar(select(Run.commit_hash).where(Run.id == run.plan_id))
            if plan_commit and plan_commit != run.commit_hash:
                return (
                    f"the repository is at {run.commit_hash[:12]}, the plan ran"
                    f" {plan_commit[:12]}: plan again"
                )
        return binding.check(session, run, spec)


def _plan_inventory(spec: RunnerSpec) -> Future[binding.InventoryPrint]:
    """A plan's inventory hashed beside its ansible-playbook (one more process on another core,
    not seconds before the playbook: the plan costs what a run costs)."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="plan-inventory")
    future = pool.submit(binding.fingerprint, spec)
    pool.shutdown(wait=False)
    return future


def execute_run(runtime: Runtime, run_id: int, worker: WorkerId, signals: RunSignals) -> None:
    """Run a run this worker has claimed. Never raises: every failure ends in a final status."""
    workdir = workdirs.private_dir(runtime.settings, run_id)
    try:
        with runtime.sessions() as session:
            run = session.get(Run, run_id)
            if run is None or run.status != RunStatus.RUNNING or run.worker_id != str(worker):
                log.warning("run %s is not claimed by this worker; skipped", run_id)
                return
            shutil.rmtree(workdir, ignore_errors=True)
            workdir.mkdir(mode=0o700, parents=True)
            os.chmod(workdir, 0o700)
            watch = CancelWatch(runtime, run, signals)
            prepared = prepare(
                session, runtime.cipher, runtime.settings, runtime.sandbox, run, workdir
            )
            if prepared.timeout_seconds:
                watch.deadline = time.monotonic() + prepared.timeout_seconds
            run.commit_hash = prepared.commit
            session.commit()
            kind = RunKind(run.kind)
        recorder = Recorder(
            runtime.sessions,
            run_id,
            prepared.masker,
            heartbeat=lambda s: lifecycle.heartbeat(s, run_id),
            heartbeat_seconds=runtime.settings.heartbeat_seconds,
            retry_seconds=runtime.settings.lease_seconds,
            facts_max_bytes=runtime.settings.facts_max_bytes,
        )
        sampling = recording.start(runtime, run_id, prepared.spec)  # host metrics, own threads
        installed = Installed()
        outcome = STOPPED
        refused = ""  # an apply whose inventory or commit is not its plan's
        inventory: Future[binding.InventoryPrint] | None = None  # a plan's, read meanwhile
        try:
            installed = requirements.install(
                prepared.requirements,
                prepared.spec,
                settings=runtime.settings,
                sandbox=runtime.sandbox,
                masker=prepared.masker,
                add=recorder.add,
                stop=watch.stopping,
            )
            if installed.failure is None and not installed.stopped:
                spec = prepared.with_requirements(installed)
                if kind is RunKind.APPLY:
                    refused = _check_apply(runtime, run_id, spec)
                if not refused:  # a launcher limited to some hosts: none outside them
                    refused = hostscope.run(runtime, run_id, spec)
                if not refused:
                    checked = preflight.run(runtime, run_id, spec)
                    spec, refused = checked.spec, checked.refusal
                if not refused:
                    if kind is RunKind.PLAN:
                        inventory = _plan_inventory(spec)
                    outcome = run_playbook(
                        spec, on_event=installed.numbered(recorder.add), should_cancel=watch
                    )
                    if inventory is not None and outcome is not STOPPED:
                        # a playbook quicker than ansible-inventory: the listing ends (within
                        # its own timeout) before the run's processes are killed below
                        inventory.exception()
        finally:
            processes.kill_all(run.uuid)  # whatever ended the run, nothing of it survives
            sampling.stop()
            recorder.close()
            installed.release()
        if installed.failure is not None:
            _finish(runtime, run_id, RunStatus.ERROR, installed.failure)
            return
        if refused:
            _finish(runtime, run_id, RunStatus.FAILED, refused)
            return
        if inventory is not None and outcome is not STOPPED:
            with runtime.sessions() as session:  # a plan whose inventory is unknown: an error
                binding.record(session, run_id, inventory.result())
        if kind in PLANNED and outcome is not STOPPED:
            with runtime.sessions() as session:
                changes.record(
                    session, session.get_one(Run, run_id), str(prepared.spec.project_dir)
                )
        status, reason = _final_status(outcome, watch)
        _finish(runtime, run_id, status, reason, outcome.rc)
    except DomainError as exc:
        _finish(runtime, run_id, RunStatus.ERROR, exc.message)
    except Exception as exc:
        log.exception("run %s failed inside Steward", run_id)
        _finish(runtime, run_id, RunStatus.ERROR, f"internal error: {type(exc).__name__}")
    finally:
        workdirs.remove(runtime.settings, run_id)  # it holds decrypted keys
