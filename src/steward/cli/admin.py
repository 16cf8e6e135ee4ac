"""The server's own commands, run where the server runs (its settings, its database): serve,
worker, migrate, user create, keys rotate, audit prune, prune, backup, restore, directory sync,
repositories check, doctor.

Their modules are imported when the command runs: ``steward run`` and the other API client
commands start without loading the database layer."""

from __future__ import annotations

import argparse
import contextlib
import gc
import getpass
import subprocess
import sys
from collections.abc import Iterator

from pydantic import ValidationError

from steward.cli.exits import CliError, Exit, usage
from steward.config import Settings


def _serve(settings: Settings, _args: argparse.Namespace) -> int:
    gc.disable()  # until the server listens: no collection scans the start's objects (settle)
    failed = migrate_apart(settings)
    if failed:
        return failed
    from steward.server import build_app, serve

    app = build_app(settings, migrate=False)  # at the newest revision now (or exited above)
    return serve(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        # the client address of the audit trail and login throttling comes from X-Forwarded-For
        # only when it is sent by a proxy the administrator named
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=",".join(settings.trusted_proxies) or None,
        # an idle connection stays open longer than the clients and proxies in front of it keep
        # theirs (nginx, load balancers: 60 s): with uvicorn's 5 s, a request sent on a pooled
        # connection as the server closed it was lost ("socket hang up", seen in e2e)
        timeout_keep_alive=75,
    )


def migrate_apart(settings: Settings) -> int:
    """Bring the database to this code's newest revision in a ``steward migrate`` of its own
    (same environment, so the same settings): Alembic and the revisions' modules never live in
    the server, whose idle RSS after an install or an upgrade is then that of any other start
    (133 MiB against 108 in bench/startup.py before). Its exit code (it said why) or 0;
    nothing is started when already there."""
    from steward import migrations

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    if migrations.at_head(settings.database_url):
        return 0
    done = subprocess.run([sys.executable, "-m", "steward", "migrate"], check=False)
    return done.returncode


def _worker(settings: Settings, args: argparse.Namespace) -> int:
    import re

    from steward import migrations
    from steward.bounds import GROUP_NAME_PATTERN
    from steward.dispatch.worker import RunWorker
    from steward.runtime import Runtime

    if settings.broker_url is None:
        print("error: set STEWARD_BROKER_URL (redis://…) to run a worker", file=sys.stderr)  # noqa: T201
        return 1
    queues = [q.strip() for q in args.queues.split(",") if q.strip()]
    bad = [q for q in queues if not re.fullmatch(GROUP_NAME_PATTERN, q)]
    if not queues or bad:
        print(f"error: --queues: not a runner group name: {bad or args.queues!r}", file=sys.stderr)  # noqa: T201
        return 1
    with _schema_refusals():
        migrations.known_schema(settings.database_url)
    runtime = Runtime.build(settings)
    try:
        return RunWorker(runtime, queues, args.concurrency).run(settings.log_level)
    finally:
        runtime.engine.dispose()


@contextlib.contextmanager
def _schema_refusals() -> Iterator[None]:
    """A database migrated by a newer Steward: one line and exit 6, nothing touched."""
    from steward.migrations import DatabaseNewer

    try:
        yield
    except DatabaseNewer as exc:
        raise CliError(str(exc), Exit.ERROR) from None


def _migrate(settings: Settings, args: argparse.Namespace) -> int:
    """Exit 0 when up to date (or brought up to date), 1 when ``--check`` finds an upgrade
    pending, 6 on a database a newer Steward migrated."""
    from steward import migrations

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    where = settings.database_url.split("@")[-1]
    with _schema_refusals():
        if args.check:
            found = migrations.known_schema(settings.database_url)
            print(f"{where}: {found.describe()}")  # noqa: T201
            return Exit.FAILED if found.pending or found.current is None else Exit.OK
        migrations.upgrade(settings.database_url)
    print(f"database at {where} is up to date")  # noqa: T201
    return 0


def _user_create(settings: Settings, args: argparse.Namespace) -> int:
    from steward import migrations
    from steward.auth import users
    from steward.auth.schemas import UserCreate
    from steward.errors import DomainError
    from steward.runtime import Runtime

    password = sys.stdin.readline().rstrip("\n") if args.password_stdin else getpass.getpass()
    try:
        body = UserCreate(username=args.username, password=password, is_admin=args.admin)
    except ValidationError as exc:
        print(f"error: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}", file=sys.stderr)  # noqa: T201
        return 1
    runtime = Runtime.build(settings)
    migrations.upgrade(settings.database_url)
    with runtime.sessions() as session:
        try:
            user = users.create_user(session, body)
        except DomainError as exc:
            print(f"error: {exc.message}", file=sys.stderr)  # noqa: T201
            return 1
    print(f"created user {user.username} (id {user.id}{', admin' if user.is_admin else ''})")  # noqa: T201
    return 0


def _keys_rotate(settings: Settings, args: argparse.Namespace) -> int:
    from steward.crypto import MasterKeyError
    from steward.keys import rotation
    from steward.runtime import Runtime

    runtime = Runtime.build(settings)
    try:
        report = rotation.rotate(
            runtime.sessions, settings.key_file, drop_old=args.drop_old, batch=args.batch
        )
    except MasterKeyError as exc:
        print(f"error: {exc}", file=sys.stderr)  # noqa: T201
        return 1
    finally:
        runtime.engine.dispose()
    print(report.summary())  # noqa: T201
    return 0


def _audit_prune(settings: Settings, args: argparse.Namespace) -> int:
    from steward.audit import service
    from steward.audit.models import AuditRecord
    from steward.retention import storage
    from steward.retention.service import human_bytes
    from steward.runtime import Runtime

    days = settings.audit_retention_days if args.older_than_days is None else args.older_than_days
    if days < 1:
        print("error: --older-than-days: must be at least 1", file=sys.stderr)  # noqa: T201
        return 1
    runtime = Runtime.build(settings)
    try:
        with runtime.sessions() as session:
            # the removal and its record are one transaction (no removal goes unrecorded);
            # the space is given back after it, so its bytes are in this answer only
            removed, freed = storage.prune(
                session,
                lambda: {AuditRecord.__tablename__: service.prune(session, older_than_days=days)},
            )
    finally:
        runtime.engine.dispose()
    count = removed[AuditRecord.__tablename__]
    print(  # noqa: T201
        f"removed {count} audit records older than {days} days; {human_bytes(freed.bytes)} freed"
        f" ({freed.bytes} bytes)"
    )
    return 0


def _backup(settings: Settings, args: argparse.Namespace) -> int:
    from pathlib import Path

    from steward.backups import service

    into = Path(args.to) if args.to else settings.data_dir / "backups"
    try:
        made = service.backup(settings, into)
    except service.BackupRefused as exc:
        raise CliError(str(exc), Exit.ERROR) from None
    manifest = service.Manifest.read(made)
    size = sum(f["size"] for f in manifest.files.values())
    print(f"backup written: {made} ({manifest.database}, schema {manifest.schema}, {size} bytes)")  # noqa: T201
    print("note: " + service.KEY_REMINDER.format(key=settings.key_file))  # noqa: T201
    return 0


def _restore(settings: Settings, args: argparse.Namespace) -> int:
    from pathlib import Path

    from steward.backups import service

    if not args.yes:
        raise CliError(
            f"restore replaces the database at {settings.database_url.split('@')[-1]} with the"
            " backup: stop the servers and workers, then run it again with --yes",
            Exit.USAGE,
        )
    try:
        manifest = service.restore(settings, Path(args.source))
    except service.BackupRefused as exc:
        raise CliError(str(exc), Exit.ERROR) from None
    print(  # noqa: T201
        f"restored the backup of {manifest.created_at} (Steward {manifest.steward}, schema"
        f" {manifest.schema}); the next `steward serve` or `steward migrate` upgrades it if needed"
    )
    return 0


def _prune(settings: Settings, args: argparse.Namespace) -> int:
    from steward.retention import service
    from steward.runtime import Runtime

    if args.compact:
        return _compact(settings)
    configured = service.Periods.of(settings)
    periods = service.Periods(
        runs=configured.runs if args.runs_days is None else args.runs_days,
        deliveries=configured.deliveries if args.deliveries_days is None else args.deliveries_days,
        messages=configured.messages if args.messages_days is None else args.messages_days,
        health=configured.health,
    )
    runtime = Runtime.build(settings)
    try:
        with runtime.sessions() as session:
            pruned = service.prune(session, periods)
    finally:
        runtime.engine.dispose()
    print(pruned.summary(periods, zeros=True))  # noqa: T201
    return 0


def _compact(settings: Settings) -> int:
    """Rewrite a SQLite file so it returns its free pages, and from then on after every prune
    (the one-time conversion of a 0.1.0 database: steward.retention.storage); recorded."""
    from steward.audit.actions import AuditAction
    from steward.audit.service import record
    from steward.retention import storage
    from steward.retention.service import human_bytes
    from steward.runtime import Runtime

    runtime = Runtime.build(settings)
    try:
        before, after = storage.compact(runtime.engine)
        freed = max(before.total - after.total, 0)
        detail = (
            f"compacted: {human_bytes(freed)} freed ({freed} bytes; database now"
            f" {human_bytes(after.total)}); freed space now returns after every prune"
        )
        with runtime.sessions() as session:
            changes = {"database_bytes": [before.total, after.total]}
            record(session, None, AuditAction.RETENTION_COMPACT, detail=detail, changes=changes)
            session.commit()
    except storage.CompactRefused as exc:
        raise CliError(str(exc), Exit.USAGE) from None
    finally:
        runtime.engine.dispose()
    print(detail)  # noqa: T201
    return 0


def directory_sync(settings: Settings, _args: argparse.Namespace) -> int:
    from steward.directory import sync
    from steward.errors import DomainError
    from steward.runtime import Runtime

    runtime = Runtime.build(settings)
    try:
        with runtime.sessions() as session:
            report = sync.sync(session, settings)
    except DomainError as exc:  # LDAP not configured, the directory not answering
        print(f"error: {exc.message}", file=sys.stderr)  # noqa: T201
        return 1
    finally:
        runtime.engine.dispose()
    print(report.summary())  # noqa: T201
    return 2 if report.refused else 0


def _doctor(settings: Settings, args: argparse.Namespace) -> int:
    """One line per check (``--brief``: the summary, then what is not ok); exit 1 on a FAIL."""
    import logging

    from steward.doctor import report

    unknown = sorted(set(args.skip or ()) - set(report.CHECKS))
    if unknown:
        raise usage(f"--skip: no check named {unknown[0]!r} (checks: {', '.join(report.CHECKS)})")
    # the lines say it all: the checked modules' own log lines (the sandbox's warning at
    # start…) would say it twice
    logging.disable(logging.CRITICAL)
    try:
        found = report.examine(settings, skip=set(args.skip or ()))
    finally:
        logging.disable(logging.NOTSET)
    for line in found.lines(brief=args.brief):
        print(line, flush=True)  # noqa: T201
    return Exit.FAILED if found.failed else Exit.OK


def _repositories_check(settings: Settings, _args: argparse.Namespace) -> int:
    from steward.repositories import local
    from steward.runtime import Runtime

    runtime = Runtime.build(settings)
    try:
        with runtime.sessions() as session:
            found = local.misfits(session, settings.repository_roots)
    finally:
        runtime.engine.dispose()
    for misfit in found:
        print(misfit.line())  # noqa: T201
    if found:
        return 2
    print("every local repository is inside its project's local directories")  # noqa: T201
    return 0


def _days(value: str) -> int:
    days = int(value)
    if not 0 <= days <= 36500:
        raise argparse.ArgumentTypeError("must be 0 (keep forever) to 36500 days")
    return days


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The server's commands, on the ``steward`` parser."""
    sub.add_parser("serve", help="migrate, then serve the API and console").set_defaults(fn=_serve)
    migrate = sub.add_parser("migrate", help="bring the database schema up to date")
    migrate.add_argument(
        "--check",
        action="store_true",
        help="change nothing: exit 0 when up to date, 1 when an upgrade is pending, 6 when a"
        " newer Steward has migrated the database",
    )
    migrate.set_defaults(fn=_migrate)
    worker = sub.add_parser(
        "worker", help="execute runs delivered through STEWARD_BROKER_URL (a Celery worker)"
    )
    worker.add_argument(
        "--queues", default="default", help="runner groups to serve, comma-separated"
    )
    worker.add_argument(
        "--concurrency",
        type=int,
        default=4,
        choices=range(1, 257),
        metavar="N",
        help="runs executed at once (default 4)",
    )
    worker.set_defaults(fn=_worker)
    user = sub.add_parser("user", help="manage users").add_subparsers(dest="action", required=True)
    create = user.add_parser("create", help="create a user (password asked, or --password-stdin)")
    create.add_argument("username")
    create.add_argument("--admin", action="store_true")
    create.add_argument("--password-stdin", action="store_true")
    create.set_defaults(fn=_user_create)
    keys = sub.add_parser("keys", help="the master key of the key store")
    keys_sub = keys.add_subparsers(dest="action", required=True)
    rotate = keys_sub.add_parser(
        "rotate",
        help="put a new master key first and re-encrypt every stored secret (servers may run)",
    )
    rotate.add_argument(
        "--drop-old",
        action="store_true",
        help="then remove the old keys from the key file, once no secret needs them",
    )
    rotate.add_argument("--batch", type=int, default=500, help="rows per transaction")
    rotate.set_defaults(fn=_keys_rotate)
    audit = sub.add_parser("audit", help="the audit trail")
    audit_sub = audit.add_subparsers(dest="action", required=True)
    prune = audit_sub.add_parser(
        "prune", help="remove records older than the retention period (the removal is recorded)"
    )
    prune.add_argument(
        "--older-than-days",
        type=int,
        default=None,
        help="default: STEWARD_AUDIT_RETENTION_DAYS (365)",
    )
    prune.set_defaults(fn=_audit_prune)
    retention = sub.add_parser(
        "prune",
        help="apply the retention periods now: old finished runs, webhook deliveries and "
        "notification messages (servers also do it every STEWARD_RETENTION_TICK_SECONDS)",
    )
    for flag, setting in (
        ("--runs-days", "RUN_RETENTION_DAYS"),
        ("--deliveries-days", "WEBHOOK_DELIVERY_RETENTION_DAYS"),
        ("--messages-days", "NOTIFICATION_RETENTION_DAYS"),
    ):
        retention.add_argument(
            flag, type=_days, default=None, help=f"0 keeps forever; default STEWARD_{setting}"
        )
    retention.add_argument(
        "--compact",
        action="store_true",
        help="SQLite: instead of pruning, rewrite the file once (VACUUM) so it returns its free"
        " pages now and after every prune; needed once for a database made by Steward 0.1.0."
        " Needs as much free disk as the file and holds the write lock while it runs: run it at"
        " a quiet time",
    )
    retention.set_defaults(fn=_prune)
    backup = sub.add_parser(
        "backup",
        help="a consistent copy of the database, safe while the server runs (SQLite's online"
        " backup, pg_dump), with a manifest; the master key is kept apart",
    )
    backup.add_argument("--to", metavar="DIR", help="where (default: <data dir>/backups)")
    backup.set_defaults(fn=_backup)
    restore = sub.add_parser("restore", help="replace the database with a checked backup")
    restore.add_argument("--yes", action="store_true", help="yes: servers and workers are stopped")
    restore.add_argument(
        "source",
        metavar="DIR",
        help="a directory `steward backup` wrote: its files, schema version and master key are"
        " checked before the database is replaced",
    )
    restore.set_defaults(fn=_restore)
    doctor = sub.add_parser(
        "doctor",
        help="check this installation (data dir, database, master key, git, ssh, ansible-core,"
        " the run sandbox with a self-test run, host metrics, broker): one line per check,"
        " exit status 1 when one FAILs",
    )
    doctor.add_argument(
        "--brief", action="store_true", help="a summary line, then only the checks not ok"
    )
    doctor.add_argument(
        "--skip",
        action="append",
        metavar="CHECK",
        help="leave out a check (repeatable), by the name its line shows: e.g. --skip sandbox"
        " (the self-test run)",
    )
    doctor.set_defaults(fn=_doctor)
    directory = sub.add_parser("directory", help="directory (LDAP) accounts")
    directory_sub = directory.add_subparsers(dest="action", required=True)
    directory_sub.add_parser(
        "sync",
        help="check every LDAP user against the directory now: the gone are disabled, the "
        "others get the teams of their groups (servers do it every STEWARD_LDAP_SYNC_MINUTES); "
        "exit status 2 when the sync refused to act, 1 when the directory did not answer",
    ).set_defaults(fn=directory_sync)
    repositories = sub.add_parser("repositories", help="repositories of every project")
    repositories_sub = repositories.add_subparsers(dest="action", required=True)
    repositories_sub.add_parser(
        "check",
        help="name every local repository (or git file:// URL) outside its project's local"
        " directories, with the fix (the server says the same at start); exit status 2 if any",
    ).set_defaults(fn=_repositories_check)
