"""A download: a body streamed as it is produced, saved by the browser under a file name."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from fastapi.responses import StreamingResponse


def attachment(
    body: Iterator[str] | Iterator[bytes] | Iterable[str], media_type: str, filename: str
) -> StreamingResponse:
    """``body`` streamed as ``media_type``, offered as the file ``filename`` (a name the
    server chose: no quote or path in it)."""
    return StreamingResponse(
        body,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
