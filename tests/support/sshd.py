"""An OpenSSH server on 127.0.0.1 for the test session: the "remote host" of runner tests."""

from __future__ import annotations

import contextlib
import getpass
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.processes import answers, free_port, stop, wait_until_ready

SSHD = Path("/usr/sbin/sshd")


@dataclass
class SshServer:
    port: int
    user: str
    authorized_keys: Path
    host: str = "127.0.0.1"

    def authorize(self, public_key: str) -> None:
        """Let ``user`` log in with the key whose public half (OpenSSH format) is given."""
        with self.authorized_keys.open("a") as keys:
            keys.write(public_key.strip() + "\n")


def _config(workdir: Path, port: int) -> str:
    return f"""\
Port {port}
ListenAddress 127.0.0.1
HostKey {workdir / "host_ed25519"}
PidFile {workdir / "sshd.pid"}
AuthorizedKeysFile {workdir / "authorized_keys"}
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
"""


def start_sshd(workdir: Path) -> tuple[SshServer, subprocess.Popen[bytes]]:
    if not SSHD.exists():
        raise RuntimeError(
            f"{SSHD} not found: install 'openssh-server' (make setup-test does it as root)"
        )
    # sshd insists on its privilege-separation directory; only root can create it
    with contextlib.suppress(PermissionError):
        Path("/run/sshd").mkdir(mode=0o755, parents=True, exist_ok=True)
    hostkey = workdir / "host_ed25519"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(hostkey)],
        check=True,
        capture_output=True,
    )
    keys = workdir / "authorized_keys"
    keys.touch(mode=0o600)
    port = free_port()
    config = workdir / "sshd_config"
    config.write_text(_config(workdir, port))
    log = workdir / "sshd.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(SSHD), "-D", "-e", "-f", str(config)], stdout=out, stderr=subprocess.STDOUT
        )
    wait_until_ready(proc, lambda: answers(port, expect=b"SSH-2.0"), log)
    return SshServer(port=port, user=getpass.getuser(), authorized_keys=keys), proc


@pytest.fixture(scope="session")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    """sshd on 127.0.0.1:<sshd.port>; log in as ``sshd.user`` with a key given to ``authorize``."""
    server, proc = start_sshd(tmp_path_factory.mktemp("sshd"))
    try:
        yield server
    finally:
        stop(proc)
