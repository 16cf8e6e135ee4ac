"""A real OpenLDAP ``slapd`` on 127.0.0.1 for the LDAP login tests: ``slapd_server``.

Each server gets its own cn=config directory (built with ``slapadd -n0``), TLS (a throwaway CA
and a certificate for 127.0.0.1: StartTLS on ``url``, and ``ldaps_url``), an MDB database for
``dc=example,dc=test``, the memberof overlay (so ``memberOf`` works as on Active Directory) and
the usual ACLs: passwords readable by nobody, anonymous users may only bind, Steward's service
account (``cn=steward,ou=services``) reads the tree. Seeded with ``ldapadd``. Started in the
foreground as a child process, stopped by its PID.

It also allows unauthenticated binds (``olcAllows: bind_anon_dn``: a DN with an empty password
"succeeds" without checking anything), as some directories do: the tests show that Steward
refuses an empty password itself instead of trusting the server to.

``ldap_client``: the real app (as ``client``) with LDAP login pointed at the session's slapd.

``Directory`` adds and changes people and groups for one test (as the directory's root) and
removes them afterwards: the session's server is shared by the tests.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fastapi.testclient import TestClient
from ldap3 import BASE, MODIFY_ADD, MODIFY_DELETE, MODIFY_REPLACE, Connection, Server
from pydantic import SecretStr

from steward.config import Settings
from steward.server import build_app
from support.admin import ADMIN_TOKEN
from support.processes import answers, free_port, stop, wait_until_ready

SUFFIX = "dc=example,dc=test"
ROOT_DN = f"cn=admin,{SUFFIX}"
ROOT_PASSWORD = "root-secret-for-tests"
SERVICE_DN = f"cn=steward,ou=services,{SUFFIX}"
SERVICE_PASSWORD = "service-secret-for-tests"
PEOPLE = f"ou=people,{SUFFIX}"
GROUPS = f"ou=groups,{SUFFIX}"
ADMINS = f"cn=steward-admins,{GROUPS}"  # the admin group of ``ldap_settings``
SCHEMAS = ("core", "cosine", "inetorgperson", "nis")

CONFIG = """\
dn: cn=config
objectClass: olcGlobal
cn: config
olcPidFile: {workdir}/slapd.pid
olcAllows: bind_anon_dn
olcTLSCACertificateFile: {workdir}/ca.pem
olcTLSCertificateFile: {workdir}/server.pem
olcTLSCertificateKeyFile: {workdir}/server.key

dn: cn=module{{0}},cn=config
objectClass: olcModuleList
cn: module{{0}}
olcModulePath: /usr/lib/ldap
olcModuleLoad: back_mdb
olcModuleLoad: memberof

dn: cn=schema,cn=config
objectClass: olcSchemaConfig
cn: schema

{schemas}

dn: olcDatabase={{-1}}frontend,cn=config
objectClass: olcDatabaseConfig
objectClass: olcFrontendConfig
olcDatabase: {{-1}}frontend

dn: olcDatabase={{0}}config,cn=config
objectClass: olcDatabaseConfig
olcDatabase: {{0}}config
olcAccess: {{0}}to * by * none

dn: olcDatabase={{1}}mdb,cn=config
objectClass: olcDatabaseConfig
objectClass: olcMdbConfig
olcDatabase: {{1}}mdb
olcDbDirectory: {workdir}/db
olcSuffix: {suffix}
olcRootDN: {root_dn}
olcRootPW: {root_password}
olcDbIndex: objectClass eq
olcDbIndex: uid,member eq
olcAccess: {{0}}to attrs=userPassword by anonymous auth by * none
olcAccess: {{1}}to * by dn.exact="{service_dn}" read by self read by * none

dn: olcOverlay={{0}}memberof,olcDatabase={{1}}mdb,cn=config
objectClass: olcOverlayConfig
objectClass: olcMemberOf
olcOverlay: {{0}}memberof
olcMemberOfRefInt: TRUE
olcMemberOfGroupOC: groupOfNames
olcMemberOfMemberAD: member
olcMemberOfMemberOfAD: memberOf
"""

SEED = """\
dn: {suffix}
objectClass: dcObject
objectClass: organization
dc: example
o: Example

dn: ou=people,{suffix}
objectClass: organizationalUnit
ou: people

dn: ou=groups,{suffix}
objectClass: organizationalUnit
ou: groups

dn: ou=services,{suffix}
objectClass: organizationalUnit
ou: services

dn: {service_dn}
objectClass: person
cn: steward
sn: Steward
userPassword: {service_password}
"""


@dataclass
class SlapdServer:
    port: int  # ldap:// (StartTLS offered)
    tls_port: int  # ldaps://
    proc: subprocess.Popen[bytes]
    workdir: Path

    @property
    def url(self) -> str:
        return f"ldap://127.0.0.1:{self.port}"

    @property
    def ldaps_url(self) -> str:
        return f"ldaps://127.0.0.1:{self.tls_port}"

    @property
    def ca_file(self) -> Path:
        """The CA that signed the server's certificate (for 127.0.0.1 only)."""
        return self.workdir / "ca.pem"

    def stop(self) -> None:
        stop(self.proc)


def _config(workdir: Path) -> str:
    schemas = "\n\n".join(
        Path(f"/etc/ldap/schema/{name}.ldif").read_text().strip() for name in SCHEMAS
    )
    return CONFIG.format(
        workdir=workdir,
        schemas=schemas,
        suffix=SUFFIX,
        root_dn=ROOT_DN,
        root_password=ROOT_PASSWORD,
        service_dn=SERVICE_DN,
    )


def _certificates(workdir: Path) -> None:
    """A throwaway CA (ca.pem) and a server certificate for 127.0.0.1 it signed."""
    now = dt.datetime.now(dt.UTC)

    def name(cn: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("Steward test CA"))
        .issuer_name(name("Steward test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    (workdir / "ca.pem").write_bytes(ca.public_bytes(pem))
    (workdir / "server.pem").write_bytes(cert.public_bytes(pem))
    (workdir / "server.key").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    (workdir / "server.key").chmod(0o600)


def start_slapd(workdir: Path) -> SlapdServer:
    """A seeded slapd on a free port of 127.0.0.1, running until ``stop()``."""
    slapd, slapadd, ldapadd = (
        shutil.which(b, path="/usr/sbin:/usr/bin") for b in ("slapd", "slapadd", "ldapadd")
    )
    if slapd is None or slapadd is None or ldapadd is None:
        raise RuntimeError("slapd not found: install 'slapd ldap-utils' (make setup-test does it)")
    confdir, dbdir = workdir / "slapd.d", workdir / "db"
    confdir.mkdir(parents=True)
    dbdir.mkdir()
    _certificates(workdir)
    (workdir / "config.ldif").write_text(_config(workdir))
    subprocess.run(
        [slapadd, "-n0", "-F", str(confdir), "-l", str(workdir / "config.ldif")],
        check=True,
        capture_output=True,
    )
    port, tls_port = free_port(), free_port()
    log = workdir / "slapd.log"
    urls = f"ldap://127.0.0.1:{port}/ ldaps://127.0.0.1:{tls_port}/"
    cmd = [slapd, "-d", "0", "-h", urls, "-F", str(confdir)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    wait_until_ready(proc, lambda: answers(port) and answers(tls_port), log)
    seed = SEED.format(suffix=SUFFIX, service_dn=SERVICE_DN, service_password=SERVICE_PASSWORD)
    (workdir / "seed.ldif").write_text(seed)
    added = subprocess.run(
        [
            ldapadd,
            "-x",
            "-H",
            f"ldap://127.0.0.1:{port}",
            "-D",
            ROOT_DN,
            "-w",
            ROOT_PASSWORD,
            "-f",
            str(workdir / "seed.ldif"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if added.returncode != 0:
        stop(proc)
        raise RuntimeError(f"ldapadd failed: {added.stderr}\n{log.read_text()}")
    return SlapdServer(port=port, tls_port=tls_port, proc=proc, workdir=workdir)


@pytest.fixture(scope="session")
def slapd_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SlapdServer]:
    server = start_slapd(tmp_path_factory.mktemp("slapd"))
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Directory:
    """People and groups of one test, added as the directory's root (removed afterwards)."""

    server: SlapdServer
    added: list[str] = field(default_factory=list)

    def _conn(self) -> Connection:
        conn = Connection(Server(self.server.url), ROOT_DN, ROOT_PASSWORD, auto_bind=True)
        return conn

    def person(self, uid: str, password: str, *, mail: str = "", cn: str = "", **extra: str) -> str:
        dn = f"uid={uid},{PEOPLE}"
        attributes: dict[str, object] = {
            "uid": uid,
            "cn": cn or uid.title(),
            "sn": uid,
            "userPassword": password,
        }
        if mail:
            attributes["mail"] = mail
        attributes.update(extra)
        self._add(dn, ["inetOrgPerson"], attributes)
        return dn

    def group(self, cn: str, *members: str) -> str:
        dn = f"cn={cn},{GROUPS}"
        # groupOfNames needs a member: the service account is in every group, so that the
        # last person can leave
        self._add(dn, ["groupOfNames"], {"cn": cn, "member": [*members, SERVICE_DN]})
        return dn

    def join(self, group: str, member: str) -> None:
        self._modify(group, {"member": [(MODIFY_ADD, [member])]})

    def leave(self, group: str, member: str) -> None:
        self._modify(group, {"member": [(MODIFY_DELETE, [member])]})

    def unit(self, ou: str, parent: str = SUFFIX) -> str:
        """An organizational unit under ``parent`` (to move people into)."""
        dn = f"ou={ou},{parent}"
        self._add(dn, ["organizationalUnit"], {"ou": ou})
        return dn

    def move(self, dn: str, rdn: str, superior: str | None = None) -> str:
        """Rename an entry (a new RDN, the old RDN's value kept as an attribute) and/or move it
        under ``superior``: its new DN. The entry stays the same one (same entryUUID)."""
        conn = self._conn()
        try:
            moved_ok = conn.modify_dn(dn, rdn, delete_old_dn=False, new_superior=superior)
            assert moved_ok, conn.result
        finally:
            conn.unbind()
        moved = f"{rdn},{superior or dn.split(',', 1)[1]}"
        self.added.remove(dn)
        self.added.append(moved)  # removed before the unit it was moved into
        return moved

    def remove(self, dn: str) -> None:
        """Delete an entry now (a person leaving the organisation)."""
        conn = self._conn()
        try:
            assert conn.delete(dn), conn.result  # type: ignore[no-untyped-call]
        finally:
            conn.unbind()
        self.added.remove(dn)

    def replace(self, dn: str, attribute: str, *values: str) -> None:
        self._modify(dn, {attribute: [(MODIFY_REPLACE, list(values))]})

    def entry_uuid(self, dn: str) -> str:
        conn = self._conn()
        try:
            conn.search(dn, "(objectClass=*)", search_scope=BASE, attributes=["entryUUID"])
            return str(conn.entries[0].entryUUID.value)
        finally:
            conn.unbind()

    def _add(self, dn: str, classes: list[str], attributes: dict[str, object]) -> None:
        conn = self._conn()
        try:
            assert conn.add(dn, classes, attributes), conn.result  # type: ignore[no-untyped-call]
        finally:
            conn.unbind()
        self.added.append(dn)

    def _modify(self, dn: str, changes: dict[str, list[tuple[str, list[str]]]]) -> None:
        conn = self._conn()
        try:
            assert conn.modify(dn, changes), conn.result  # type: ignore[no-untyped-call]
        finally:
            conn.unbind()

    def clear(self) -> None:
        conn = self._conn()
        try:
            for dn in reversed(self.added):  # groups before the people they name
                conn.delete(dn)  # type: ignore[no-untyped-call]
        finally:
            conn.unbind()
        self.added.clear()


@pytest.fixture
def directory(slapd_server: SlapdServer) -> Iterator[Directory]:
    people = Directory(slapd_server)
    try:
        yield people
    finally:
        people.clear()


def ldap_settings(settings: Settings, server: SlapdServer, **overrides: object) -> Settings:
    """``settings`` with LDAP login on ``server``: groups searched under ou=groups, members of
    ``ADMINS`` admins; ``overrides`` change any of it (validated as at start)."""
    values: dict[str, object] = {
        "ldap_url": [server.url],
        "ldap_bind_dn": SERVICE_DN,
        "ldap_bind_password": SecretStr(SERVICE_PASSWORD),
        "ldap_user_base": PEOPLE,
        "ldap_group_base": GROUPS,
        "ldap_admin_groups": [ADMINS],
        "ldap_timeout_seconds": 3.0,
        **overrides,
    }
    return Settings(**{**settings.model_dump(), **values})


@contextmanager
def serve(settings: Settings) -> Iterator[TestClient]:
    """The real app on ``settings``, authenticated as the bootstrap admin (as ``client``)."""
    app = build_app(settings, migrate=False)
    with TestClient(app) as c:
        c.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield c
    app.state.runtime.engine.dispose()


@pytest.fixture
def ldap_client(settings: Settings, slapd_server: SlapdServer) -> Iterator[TestClient]:
    with serve(ldap_settings(settings, slapd_server)) as c:
        yield c


def main(argv: list[str]) -> None:
    """``python -m support.slapd WORKDIR SEED_JSON`` (from tests/): a seeded slapd for the
    console's end-to-end tests, until this process gets SIGTERM or its stdin closes; then it
    stops slapd by its PID. SEED_JSON: ``{"people": [{"uid", "password", "mail", "cn"}],
    "groups": {"cn": ["uid", …]}}``. Prints one JSON line: the URL and the groups' DNs."""
    import json
    import signal
    import sys

    seed = json.loads(argv[1])
    server = start_slapd(Path(argv[0]))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        people = Directory(server)
        dns = {}
        for person in seed["people"]:
            uid, password = person.pop("uid"), person.pop("password")
            dns[uid] = people.person(uid, password, **person)
        groups = {}
        for cn, members in seed["groups"].items():
            groups[cn] = people.group(cn, *(dns[uid] for uid in members))
        sys.stdout.write(json.dumps({"url": server.url, "groups": groups}) + "\n")
        sys.stdout.flush()
        sys.stdin.read()
    finally:
        server.stop()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
