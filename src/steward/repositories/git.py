"""Running git for a repository: credentials off argv and out of .git/config, secrets masked.

An ssh key goes to a 0600 file in a scratch directory; an https password reaches git through a
``GIT_ASKPASS`` script that reads it from the environment. The scratch directory is deleted after.

The git server's host is checked by the outbound guard right before git runs (``vet``), and git
is held to the address checked (``Pin``): curl's resolve list for http(s) (no redirects
followed), ssh's ``HostName`` for ssh (host keys still looked up under the name in the URL).
What the server says itself (``remote:`` lines) is not kept in errors.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from steward.keys.models import KeyKind
from steward.keys.service import KeyMaterial
from steward.masking import MASK
from steward.outbound import network

TIMEOUT_SECONDS = 300
COMMIT = re.compile(r"^[0-9a-f]{7,40}$")
# the server's own environment passed to git: what it needs to find itself, a home and proxies
PASSED_ENV = frozenset(
    {"PATH", "HOME", "TMPDIR", "SSL_CERT_FILE", "GIT_SSL_CAINFO"}
    | {"http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"}
)
_HOST = r"[A-Za-z0-9][A-Za-z0-9.-]*"
_SCP_LIKE = re.compile(rf"^(?:[A-Za-z0-9_][A-Za-z0-9._-]*@)?{_HOST}:(?!:)\S+$")
# transports git may use, for the URL itself and anything it leads to (submodules, redirects);
# never ext:: (runs a command) or fd::
ALLOWED_PROTOCOLS = "file:http:https:ssh"
PROTOCOL_CONFIG = ("-c", "protocol.ext.allow=never", "-c", "protocol.fd.allow=never")
HOST_KEY_REFUSED = "Host key verification failed"
HOST_KEY_ADVICE = (
    "the git server's SSH host key is not the one pinned for this repository (ssh_known_hosts):"
    " someone may be intercepting the connection. If the server's key was changed on purpose,"
    " put its new key in ssh_known_hosts, or clear it to pin the key met at the next fetch."
)
_ASKPASS = """#!/bin/sh
case "$1" in
  [Uu]sername*) printf '%s\\n' "$STEWARD_GIT_USERNAME" ;;
  *) printf '%s\\n' "$STEWARD_GIT_PASSWORD" ;;
esac
"""


class GitFailed(Exception):
    """git exited non-zero or timed out; ``message`` is its stderr with every secret masked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclasses.dataclass(frozen=True)
class GitAccess:
    env: dict[str, str] = dataclasses.field(repr=False)
    secrets: list[str] = dataclasses.field(repr=False)
    known_hosts: Path | None = None  # ssh's file: the pinned keys, or those it met (accept-new)

    def host_keys_met(self) -> str:
        """The known_hosts lines ssh holds now: the pinned ones, or those it accepted."""
        if self.known_hosts is None or not self.known_hosts.exists():
            return ""
        return self.known_hosts.read_text().strip()


def transport(url: str) -> str | None:
    """``https``, ``http``, ``ssh`` or ``file`` for a URL git may use here; None otherwise.

    Never ``ext::``/``fd::`` (git's command-running transports), nor anything beginning with
    ``-`` that git or ssh could read as an option (``--upload-pack=…``).
    """
    if url.startswith("-") or "::" in url.split("://", 1)[0]:
        return None
    if "://" not in url:
        return "ssh" if _SCP_LIKE.match(url) else None
    parts = urlsplit(url)
    if parts.scheme in {"https", "http", "ssh"}:
        return parts.scheme if re.fullmatch(_HOST, parts.hostname or "") else None
    if parts.scheme == "file" and parts.netloc in {"", "localhost"}:
        # no %-escapes: the path checked against the roots must be the one git opens
        return "file" if parts.path.startswith("/") and "%" not in parts.path else None
    return None


def file_path(url: str) -> str | None:
    """The server directory a ``file://`` URL names; None for other URLs."""
    if transport(url) != "file":
        return None
    return urlsplit(url).path


@dataclasses.dataclass(frozen=True)
class Server:
    """Where git connects for a URL: an http(s) or ssh server."""

    transport: str
    host: str
    port: int


@dataclasses.dataclass(frozen=True)
class Pin:
    """The address the guard checked for the URL's server: git connects there and nowhere
    else."""

    server: Server
    address: str


DEFAULT_PORTS = {"https": 443, "http": 80, "ssh": 22}


def server(url: str) -> Server | None:
    """The server a network URL names; None for ``file://`` (and for URLs git may not use)."""
    scheme = transport(url)
    if scheme is None or scheme == "file":
        return None
    if "://" not in url:  # user@host:path
        host = url.split(":", 1)[0].rsplit("@", 1)[-1]
        return Server(scheme, host, DEFAULT_PORTS[scheme])
    parts = urlsplit(url)
    return Server(scheme, parts.hostname or "", parts.port or DEFAULT_PORTS[scheme])


def vet(url: str, guard: network.Guard) -> Pin | None:
    """The checked address of the URL's server, right before git runs; ``network.Refused``
    (or ``network.Unresolved``) with the reason otherwise. None for ``file://``."""
    found = server(url)
    if found is None:
        return None
    return Pin(found, guard.vet(found.host, found.port).address)


def has_password_in_url(url: str) -> bool:
    return "://" in url and urlsplit(url).password is not None


def _ssh_command(
    scratch: Path, material: KeyMaterial | None, *, pinned: bool, pin: Pin | None
) -> str:
    """ssh for git: host keys checked against the repository's pinned ones, or (none pinned
    yet) accepted and written down so that the caller pins them (trust on first use). With a
    ``pin``, ssh connects to its address; the host keys stay those of the name in the URL
    (``HostKeyAlias`` as ssh itself would write it)."""
    checking = "yes" if pinned else "accept-new"
    command = ["ssh", "-o", "BatchMode=yes", "-o", f"StrictHostKeyChecking={checking}"]
    if pin is not None and pin.server.transport == "ssh":
        host, port = pin.server.host, pin.server.port
        alias = host if port == DEFAULT_PORTS["ssh"] else f"[{host}]:{port}"
        command += ["-o", f"HostName={pin.address}", "-o", f"HostKeyAlias={alias}"]
    command += [
        "-o",
        f"UserKnownHostsFile={scratch / 'known_hosts'}",
        "-o",
        "GlobalKnownHostsFile=/dev/null",
    ]
    command += ["-o", "HashKnownHosts=no", "-o", "UpdateHostKeys=no"]
    if material is not None and material.kind == KeyKind.SSH:
        key_file = scratch / "id_key"
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(material.private_key)
        command += ["-i", str(key_file), "-o", "IdentitiesOnly=yes"]
    return shlex.join(command)


def _askpass_env(scratch: Path, material: KeyMaterial) -> dict[str, str]:
    script = scratch / "askpass"
    fd = os.open(script, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o700)
    with os.fdopen(fd, "w") as f:
        f.write(_ASKPASS)
    return {
        "GIT_ASKPASS": str(script),
        "STEWARD_GIT_USERNAME": material.username,
        "STEWARD_GIT_PASSWORD": material.password,
    }


def _http_config(pin: Pin | None) -> dict[str, str]:
    """git's configuration from the environment: curl resolves the server's name to the
    checked address, and no redirect is followed (it could lead anywhere)."""
    settings = {"http.followRedirects": "false"}
    if pin is not None and pin.server.transport in ("http", "https"):
        shown = f"[{pin.address}]" if ":" in pin.address else pin.address
        settings["http.curloptResolve"] = f"{pin.server.host}:{pin.server.port}:{shown}"
    env = {"GIT_CONFIG_COUNT": str(len(settings))}
    for n, (key, value) in enumerate(settings.items()):
        env |= {f"GIT_CONFIG_KEY_{n}": key, f"GIT_CONFIG_VALUE_{n}": value}
    return env


@contextmanager
def access(
    material: KeyMaterial | None,
    scratch_parent: Path,
    known_hosts: str | None = None,
    *,
    pin: Pin | None = None,
) -> Iterator[GitAccess]:
    """The environment for git with this key (and ssh host keys, if pinned), valid inside the
    block; the key files go after. ``pin``: the address ``vet`` checked for the URL's server
    (None for ``file://``)."""
    scratch = Path(tempfile.mkdtemp(prefix=".git-access-", dir=scratch_parent))
    try:
        hosts_file = scratch / "known_hosts"
        fd = os.open(hosts_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            pinned = (known_hosts or "").strip()  # None: a repository not saved yet
            f.write(pinned + "\n" if pinned else "")
        env = {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
        env |= {
            "LC_ALL": "C",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_ALLOW_PROTOCOL": ALLOWED_PROTOCOLS,
        }
        env |= _http_config(pin)
        env["GIT_SSH_COMMAND"] = _ssh_command(scratch, material, pinned=bool(pinned), pin=pin)
        if material is not None and material.kind == KeyKind.LOGIN_PASSWORD:
            env |= _askpass_env(scratch, material)
        secrets = material.secret_values() if material else []
        yield GitAccess(env=env, secrets=secrets, known_hosts=hosts_file)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def mask(text: str, secrets: list[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def run(
    args: list[str], git: GitAccess, *, cwd: Path | None = None, timeout: float = TIMEOUT_SECONDS
) -> str:
    """Run ``git <args>``; its stdout, or GitFailed with the masked tail of its stderr (or
    when it takes more than ``timeout`` seconds)."""
    # no credential helper: a configured "store" helper would write the password to disk;
    # the protocols again as config, beside GIT_ALLOW_PROTOCOL, for every git that reads either
    command = ["git", "-c", "credential.helper=", *PROTOCOL_CONFIG, *args]
    try:
        done = subprocess.run(
            command,
            cwd=cwd,
            env=git.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        raise GitFailed(f"git {args[0]} timed out after {timeout:g} s") from exc
    if done.returncode != 0:
        stderr = mask(own_words(done.stderr), git.secrets).strip()[-4000:]
        if HOST_KEY_REFUSED in stderr:
            stderr = f"{HOST_KEY_ADVICE}\n{stderr}"
        raise GitFailed(stderr or f"git {args[0]} exited with status {done.returncode}")
    return done.stdout


def own_words(stderr: str) -> str:
    """git's (and ssh's) own messages: the lines the server sent (``remote: …``) are
    counted, not kept; what a server answers is never stored or shown."""
    lines = stderr.splitlines()
    kept = [line for line in lines if not line.startswith("remote:")]
    dropped = len(lines) - len(kept)
    if dropped:
        kept.append(f"({dropped} line{'s' if dropped > 1 else ''} from the git server not shown)")
    return "\n".join(kept)


def ls_remote(url: str, git: GitAccess) -> dict[str, str]:
    """The remote's refs (``HEAD``, ``refs/heads/main``, ``refs/tags/v1^{}``…) -> commit."""
    refs: dict[str, str] = {}
    for line in run(["ls-remote", "--", url], git).splitlines():
        commit, _, name = line.partition("\t")
        refs[name] = commit
    return refs


def resolve_ref(refs: dict[str, str], ref: str) -> str | None:
    """The commit ``ref`` names among the remote's refs (a peeled tag wins); None if unknown."""
    if not ref:
        return refs.get("HEAD")
    for name in (f"refs/tags/{ref}^{{}}", f"refs/tags/{ref}", f"refs/heads/{ref}", ref):
        if name in refs:
            return refs[name]
    if COMMIT.match(ref):
        return next((c for c in refs.values() if c.startswith(ref)), None)
    return None
