"""The client's address, the one identity every throttle counts by (the API's, the
site's exports, log-ins, sign-ups and uploads).

``REMOTE_ADDR`` unless ``KIBITZ_TRUSTED_PROXIES`` (N, default 0) says that N proxies
of ours stand in front: each appends the address it received the request from to
``X-Forwarded-For``, so the client is the N-th entry from the right (the outermost
proxy's).  Entries further left are the client's own to write and are never read; with
no proxies trusted the header is ignored altogether, so sending one changes nothing.
This is DRF's ``NUM_PROXIES`` rule, read from one setting (config.settings sets
``NUM_PROXIES`` from it too).  docs/operations.md says what to set behind a proxy."""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def client_address(request: Any) -> str:
    """The address ``request`` (a Django or a DRF request) is counted by."""
    meta = getattr(request, "META", None)
    if meta is None:  # a DRF request proxies META; this reads the Django one under it
        meta = request._request.META
    remote = str(meta.get("REMOTE_ADDR") or "unknown")
    trusted = int(getattr(settings, "KIBITZ_TRUSTED_PROXIES", 0) or 0)
    if trusted <= 0:
        return remote
    entries = [a.strip() for a in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    entries = [a for a in entries if a]
    if not entries:
        return remote
    chosen = entries[-min(trusted, len(entries))]
    try:
        return str(ipaddress.ip_address(chosen))
    except ValueError:  # a proxy of ours wrote something else: count the proxy's peer
        return remote
