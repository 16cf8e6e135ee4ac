"""Each cluster test gets a fresh database on a PostgreSQL of its own and a flushed Redis of its
own (they are stopped and restarted by some tests, so not the session's shared ones). The
database is a copy of one migrated and seeded once (support.server.seed_database): a server
then starts without migrating, and neither it nor a login pays argon2's real parameters."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.postgres import PostgresServer, throwaway_postgres
from support.server import seed_database

from cluster.harness import Cluster, Redis, cluster_of

# fast failure detection, so the tests take seconds: a lease of 4 s renewed every 0.5 s
FAST = {
    "heartbeat_seconds": "0.5",
    "lease_seconds": "4",
    "redeliver_seconds": "1",
    "cancel_grace_seconds": "2",
}


@pytest.fixture(scope="session")
def cluster_postgres() -> Iterator[PostgresServer]:
    with throwaway_postgres("steward-cluster-pg-") as server:
        yield server


@pytest.fixture(scope="session")
def cluster_template(cluster_postgres: PostgresServer) -> str:
    """The name of a database migrated to head holding the admin, to copy for each test."""
    name = cluster_postgres.create_database()
    seed_database(cluster_postgres.url(name))
    return name


@pytest.fixture(scope="session")
def cluster_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    redis = Redis(tmp_path_factory.mktemp("cluster-redis"))
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
def cluster(
    tmp_path: Path, cluster_postgres: PostgresServer, cluster_template: str, cluster_redis: Redis
) -> Iterator[Cluster]:
    with cluster_of(
        tmp_path, cluster_postgres, cluster_redis, template=cluster_template, **FAST
    ) as made:
        yield made
