"""The API as the command line calls it: where (``--url``/STEWARD_URL), as whom
(``--token``/``--token-file``/STEWARD_TOKEN, or asked on a terminal), and every failure as one
line naming the cause (``exits.CliError``): unreachable, not Steward, or the problem+json the
server answered with (the field and the cause of a 422)."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from steward.cli.exits import CliError, Exit, usage
from steward.config import Settings

if TYPE_CHECKING:
    import httpx2 as httpx

# seconds: to connect, and for each answer (httpx2 is imported by the first client: the
# `steward` command also starts the server, which needs none)
CONNECT_TIMEOUT, TIMEOUT = 10, 60
HINTS = {
    401: "give a valid API token: --token-file, STEWARD_TOKEN or --token",
    403: "the token's user or scope lacks this permission",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--url``, ``--token``, ``--token-file``: on each client command."""
    where = parser.add_argument_group("server")
    where.add_argument(
        "--url",
        help="Steward's address, e.g. https://steward.example.com (default: STEWARD_URL, else "
        "http://STEWARD_HOST:STEWARD_PORT)",
    )
    where.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help="read the API token from FILE ('-': standard input)",
    )
    where.add_argument(
        "--token",
        help="an API token, scope 'run' or 'write' (default: STEWARD_TOKEN; asked on a terminal "
        "when neither is given). Other users of the machine may see a command line: prefer "
        "STEWARD_TOKEN or --token-file",
    )


def base_url(settings: Settings, args: argparse.Namespace) -> str:
    url = str(args.url or settings.url).rstrip("/")
    if not url.lower().startswith(("http://", "https://")):
        raise usage(f"--url: {url!r} is not an http:// or https:// address")
    return url


def token(settings: Settings, args: argparse.Namespace) -> str:
    """From --token-file, --token, STEWARD_TOKEN, or a prompt without echo on a terminal."""
    if args.token_file is not None and args.token:
        raise usage("give --token or --token-file, not both")
    if args.token_file is not None:
        text = read_file(args.token_file, "--token-file").strip()
    elif args.token:
        text = args.token
    elif settings.token is not None:
        text = settings.token.get_secret_value()
    elif sys.stdin.isatty():
        text = getpass.getpass("Steward API token: ").strip()
    else:
        raise usage("no API token: give --token-file FILE, set STEWARD_TOKEN, or --token")
    if not text or not text.isascii() or not text.isprintable():
        raise usage("the API token is empty or has characters a token never has")
    return text


def read_file(path: Path, what: str) -> str:
    """The text of ``path`` (``-``: standard input), one final newline removed."""
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise usage(f"{what}: cannot read {path}: {exc.__class__.__name__}: {exc}") from None
    return text.removesuffix("\n")


class Api:
    def __init__(self, url: str, token: str) -> None:
        import httpx2 as httpx

        self.url = url
        self.http = httpx.Client(
            base_url=f"{url}/api/v1",
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(TIMEOUT, connect=CONNECT_TIMEOUT),
        )

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.http.close()

    def get(self, path: str, **params: Any) -> Any:
        return self._call("GET", path, params=params)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self._call("POST", path, json=body)

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        import httpx2 as httpx

        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            raise self.unreachable(exc) from None
        return self.answer(response)

    def unreachable(self, exc: httpx.TransportError) -> CliError:
        import httpx2 as httpx

        if isinstance(exc, httpx.TimeoutException):
            cause = "no answer in time"
        else:
            cause = str(exc) or exc.__class__.__name__
        return CliError(f"cannot reach Steward at {self.url}: {cause}", Exit.API)

    def answer(self, response: httpx.Response) -> Any:
        """The JSON of a success; a ``CliError`` naming the problem otherwise."""
        request = response.request
        where = f"{request.method} {request.url.path}"
        try:
            body = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            kind = response.headers.get("content-type", "no content type").split(";")[0]
            raise CliError(
                f"{self.url} answered {where} with HTTP {response.status_code} ({kind}), not as"
                " Steward's API: is --url (STEWARD_URL) the server's address?",
                Exit.API,
            ) from None
        if not response.is_error:
            return body
        raise CliError(problem_line(response.status_code, body, where), Exit.API)

    def find(self, path: str, name: str, what: str) -> dict[str, Any]:
        """The item named ``name`` of a paged list."""
        offset = 0
        while True:
            page = self.get(path, limit=500, offset=offset)
            for item in page["items"]:
                if item["name"] == name:
                    return dict(item)
            offset += len(page["items"])
            if not page["items"] or offset >= page["total"]:
                raise CliError(f"no {what} named '{name}' (or not visible to you)", Exit.API)

    def events(self, path: str, after: int) -> Iterator[tuple[str, Any]]:
        """Server-Sent Events of ``path`` from line ``after`` on, as (event, data)."""
        import httpx2 as httpx

        # a quiet playbook sends nothing
        timeout = httpx.Timeout(TIMEOUT, connect=CONNECT_TIMEOUT, read=None)
        try:
            with self.http.stream("GET", path, params={"after": after}, timeout=timeout) as sse:
                if sse.is_error:
                    sse.read()
                    self.answer(sse)
                event = ""
                for line in sse.iter_lines():
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: "):
                        yield event, json.loads(line[6:])
        except httpx.TransportError as exc:
            raise Dropped(str(self.unreachable(exc)), Exit.API) from None


class Dropped(CliError):
    """The connection of a stream failed: following may reconnect where it stopped."""


def problem_line(status: int, body: Any, where: str) -> str:
    """``403 Forbidden: <detail>``, from a problem+json answer (RFC 9457): its detail names the
    field and the cause of a 422; the others get a hint of what to check."""
    if isinstance(body, dict) and isinstance(body.get("detail"), str):
        title = str(body.get("title") or "")
        detail = body["detail"]
        text = f"{status} {title}: {detail}" if title and title != detail else f"{status} {detail}"
    else:
        text = f"{status} (no problem details) from {where}"
    hint = HINTS.get(status)
    if status == 404 and where.endswith(("/projects", "/runs")):
        hint = "is --url (STEWARD_URL) the server's address?"
    return f"{text} ({hint})" if hint else text
