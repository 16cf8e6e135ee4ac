"""PCP for the test session: a real ``pmcd`` (with the linux PMDA) and ``pmproxy`` on
127.0.0.1, from Debian's ``pcp`` package (``make setup-test`` installs it): ``pcp_server``;
and ``PmproxyStandIn``, a few lines that answer as pmproxy does to the first request.

Nothing of the system's PCP is used: the namespace, the configurations, the sockets, the pid
files and the logs are in a directory of the session; pmproxy reaches this pmcd (``PMCD_PORT``)
and no Redis (its time series are off).
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from support.processes import free_port, stop, wait_until_ready
from support.served import Served

BINARIES = Path("/usr/lib/pcp/bin")
PMNS = Path("/usr/lib/pcp/pmns")
PMDAS = Path("/var/lib/pcp/pmdas")

PMCD_CONF = f"""\
pmcd\t2\tdso\tpmcd_init\t{PMDAS}/pmcd/pmda_pmcd.so
linux\t60\tpipe\tbinary\t\t{PMDAS}/linux/pmdalinux

[access]
disallow ".*" : store;
disallow ":*" : store;
allow "local:*" : all;
"""
PMPROXY_CONF = """\
[pmproxy]
pcp.enabled = true
http.enabled = true
redis.enabled = false
secure.enabled = false
[redis]
enabled = false
[discover]
enabled = false
[pmsearch]
enabled = false
[pmseries]
enabled = false
"""


class PmproxyStandIn(Served):
    """Enough of pmproxy to be asked, on 127.0.0.1: a context for every request (a fetch gets
    one too, which a probe cannot read); ``asked``: every path, without its query."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                stand_in.asked.append(self.path.split("?", 1)[0])
                body = b'{"context": 7}'
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: Any) -> None:
                return None

        super().__init__(ThreadingHTTPServer(("127.0.0.1", 0), Handler))


@dataclass
class PcpServer:
    pmcd_port: int
    pmproxy_port: int

    @property
    def endpoint(self) -> str:
        """An inventory's ``metrics_endpoint`` for hosts whose address is 127.0.0.1."""
        return f"http://{{host}}:{self.pmproxy_port}"


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/pmapi/context", timeout=1) as r:
            return "context" in json.loads(r.read())
    except (OSError, ValueError):
        return False


def _start(
    name: str, options: list[str], workdir: Path, env: dict[str, str]
) -> subprocess.Popen[bytes]:
    """``name`` in the foreground on 127.0.0.1, its sockets, pid file and logs in ``workdir``."""
    argv = [str(BINARIES / name), "-f", "-A", "-i", "127.0.0.1", *options]
    argv += ["-s", str(workdir / f"{name}.socket"), "-c", str(workdir / f"{name}.conf")]
    argv += ["-l", str(workdir / f"{name}.log"), "-x", str(workdir / f"{name}.fatal")]
    with (workdir / f"{name}.out").open("ab") as out:
        return subprocess.Popen(
            argv, cwd=workdir, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT
        )


@pytest.fixture(scope="session")
def pcp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PcpServer]:
    if not (BINARIES / "pmcd").exists():
        raise RuntimeError("pmcd not found: install Debian's 'pcp' (make setup-test does it)")
    workdir = tmp_path_factory.mktemp("pcp")
    namespace = workdir / "pmns"
    subprocess.run(
        [BINARIES / "pmnsmerge", PMNS / "root_linux", PMNS / "root_pmcd", namespace],
        check=True,
        capture_output=True,
    )
    (workdir / "pmcd.conf").write_text(PMCD_CONF)
    (workdir / "pmproxy.conf").write_text(PMPROXY_CONF)
    pmcd_port, pmproxy_port = free_port(), free_port()
    env = {"PCP_RUN_DIR": str(workdir)}
    pmcd = _start("pmcd", ["-p", str(pmcd_port), "-n", str(namespace)], workdir, env)
    pmproxy_env = {**env, "PMCD_PORT": str(pmcd_port)}
    pmproxy = _start("pmproxy", ["-p", str(pmproxy_port)], workdir, pmproxy_env)
    try:
        wait_until_ready(pmproxy, lambda: _answers(pmproxy_port), workdir / "pmproxy.log")
        yield PcpServer(pmcd_port, pmproxy_port)
    finally:
        stop(pmproxy)
        stop(pmcd)  # pmcd stops its PMDAs
