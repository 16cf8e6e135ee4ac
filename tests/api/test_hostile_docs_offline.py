"""The API reference works without Internet access: every asset it loads is served by Steward."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.security

DOCS = "/api/v1/docs"
# src="…", href="…" and Swagger UI's url: '…' (the OpenAPI document)
REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|\burl:\s*["']([^"']+)["']""")


def _references(html: str) -> list[str]:
    return [a or b for a, b in REFERENCE.findall(html)]


def test_docs_reference_no_external_host(client: TestClient) -> None:
    page = client.get(DOCS, headers={"Authorization": ""})
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    references = _references(page.text)
    assert any(ref.endswith("swagger-ui-bundle.js") for ref in references), references
    assert any(ref.endswith("swagger-ui.css") for ref in references), references
    assert "/api/v1/openapi.json" in references
    external = [ref for ref in references if re.match(r"^(https?:)?//", ref)]
    assert external == []
    assert not re.search(r"https?://", page.text), "the page names an external host"


def test_every_referenced_asset_is_served(client: TestClient) -> None:
    page = client.get(DOCS, headers={"Authorization": ""})
    references = _references(page.text)
    assert len(references) >= 4  # css, favicon, js, openapi.json
    for ref in references:
        asset = client.get(ref, headers={"Authorization": ""})
        assert asset.status_code == 200, ref
        assert asset.content, ref
    script = client.get(next(ref for ref in references if ref.endswith(".js")))
    assert script.headers["content-type"].startswith(("text/javascript", "application/javascript"))
    assert b"SwaggerUIBundle" in script.content
    style = client.get(next(ref for ref in references if ref.endswith(".css")))
    assert style.headers["content-type"].startswith("text/css")
