"""The ``Content-Disposition`` of every download, by Django's own helper: any name (an
uploader's file name with quotes, a non-ASCII one) is quoted as RFC 6266 says."""

from __future__ import annotations

from django.utils.http import content_disposition_header


def attachment(filename: str) -> str:
    """``attachment; filename=...`` (or ``filename*=utf-8''...``) for ``filename``."""
    header = content_disposition_header(True, filename)
    assert header is not None  # an attachment always has a header
    return header
