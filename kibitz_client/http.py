"""Every call the client makes to a Kibitz server, and every field name of the API it
reads, in one place: a renamed field or route is one edit here (docs/api.md is the
contract).

Calls go through one ``requests`` session with the token as ``Authorization: Bearer``.
A 429 is waited out (``Retry-After`` seconds, at most ``MAX_RETRY_AFTER`` each time,
``RETRIES`` times) unless it is an upload quota; any other error answer is raised as
``Refused`` with the server's JSON ``detail``, ``code`` and ``errors``; a server that
cannot be reached, or answers what is not the API, is a ``TransportError``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import urljoin

import requests

from kibitz_client import __version__

KGN_MEDIA_TYPE = "application/x-kgn"
NDJSON_MEDIA_TYPE = "application/x-ndjson"

# --- the API's names (docs/api.md) ----------------------------------------------------
UPLOADS = "api/uploads/"
GAMES = "api/games/"
#: upload detail: page through its records with these
RECORDS_FROM, RECORDS_LIMIT, RECORDS_STATUS = "records_from", "records_limit", "records_status"
#: records an upload detail answer carries at most (its cap)
RECORDS_PAGE = 1000
#: an upload's status once it has its verdicts
FINISHED = frozenset({"done", "failed"})
#: a list's order by when games were stored, oldest first: the one that carries ``sync``
STORE_ORDER = "stored"
#: where a stream in store order sends its resumable cursor (a JSON page: its ``sync``
#: field), and the parameter that takes it back
SYNC_HEADER, CURSOR_PARAM = "Kibitz-Sync", "cursor"

#: 429s waited out per call, and the longest single wait (a longer Retry-After is
#: refused: an hour-long upload quota is not waited for)
RETRIES, MAX_RETRY_AFTER = 8, 300.0
#: seconds to connect, and to wait for each piece of an answer
TIMEOUT = (10.0, 300.0)


class TransportError(Exception):
    """The server could not be reached, or answered something that is not the API."""


@dataclass
class Refused(Exception):
    """An error answer of the API: its status, ``detail``, ``code`` and ``errors``."""

    status: int
    detail: str
    code: str = ""
    errors: dict[str, list[str]] = field(default_factory=dict)
    retry_after: float | None = None

    def __str__(self) -> str:
        fields = "; ".join(
            f"{name}: {' '.join(messages)}" for name, messages in self.errors.items()
        )
        text = f"{self.status} {self.detail}"
        return f"{text} ({fields})" if fields and fields not in self.detail else text


@dataclass
class Stream:
    """A streamed answer: its sync cursor (None: the server sent none) and its bytes."""

    sync: str | None
    chunks: Iterator[bytes]


def _chunks(response: requests.Response) -> Iterator[bytes]:
    try:
        yield from response.iter_content(chunk_size=65536)
    except requests.RequestException as exc:
        raise TransportError(f"the stream broke off: {exc}") from None
    finally:
        response.close()


class _Counted:
    """A file read by ``requests`` as an upload body, telling ``seen`` each piece read
    (the upload's progress bar)."""

    def __init__(self, file: IO[bytes], size: int, seen: Callable[[int], None]) -> None:
        self.file, self.size, self.seen = file, size, seen

    def __len__(self) -> int:  # requests sends it as Content-Length
        return self.size

    def read(self, size: int = -1) -> bytes:
        data = self.file.read(size)
        self.seen(len(data))
        return data


@dataclass
class Server:
    """A Kibitz server at ``base`` (``https://kibitz.example/``), as ``token``'s owner
    (anonymous without one)."""

    base: str
    token: str | None = None
    sleep: Callable[[float], None] = time.sleep
    session: requests.Session = field(default_factory=requests.Session)

    def __post_init__(self) -> None:
        self.base = self.base.rstrip("/") + "/"
        self.session.headers["User-Agent"] = f"kibitz-client/{__version__}"
        if self.token:
            self.session.headers["Authorization"] = f"Bearer {self.token}"

    def url(self, path: str) -> str:
        return urljoin(self.base, path)

    # --- uploads ------------------------------------------------------------------------

    def upload(
        self,
        path: Path,
        *,
        visibility: str | None = None,
        event_name: str | None = None,
        event_id: int | None = None,
        seen: Callable[[int], None] = lambda n: None,
    ) -> tuple[str, dict[str, Any]]:
        """POST the file as a raw body; returns the upload's URL (its ``Location``)
        and the upload as answered (status ``pending``)."""
        params: dict[str, str] = {"name": path.name}
        if visibility:
            params["visibility"] = visibility
        if event_name:
            params["event_name"] = event_name
        if event_id is not None:
            params["event"] = str(event_id)
        size = path.stat().st_size

        def send() -> requests.Response:
            with path.open("rb") as file:
                return self.session.post(
                    self.url(UPLOADS),
                    params=params,
                    data=_Counted(file, size, seen),
                    headers={"Content-Type": KGN_MEDIA_TYPE},
                    timeout=TIMEOUT,
                )

        response = self._call(send)
        body = _json(response)
        location = response.headers.get("Location") or f"{UPLOADS}{body['id']}/"
        return urljoin(response.url, location), body

    def upload_state(self, url: str) -> dict[str, Any]:
        """The upload's status, counts and progress (no records)."""
        return _json(self._get(url, {RECORDS_LIMIT: "1"}))

    def upload_records(self, url: str, status: str) -> Iterator[dict[str, Any]]:
        """Every record of the upload with ``status``, in upload order, page by page.
        Each has ``index``, ``file``, ``file_index``, ``game``, ``status`` and ``error``
        (``line``, ``column``, ``action``, ``message``)."""
        start = 1
        while True:
            params = {RECORDS_FROM: str(start), RECORDS_LIMIT: str(RECORDS_PAGE)}
            records = _json(self._get(url, {**params, RECORDS_STATUS: status}))["records"]
            yield from records
            if len(records) < RECORDS_PAGE:
                return
            start = int(records[-1]["index"]) + 1

    # --- games --------------------------------------------------------------------------

    def games_stream(
        self, filters: Mapping[str, str], media_type: str, *, cursor: str | None = None
    ) -> Stream:
        """Every game matching ``filters`` (after ``cursor`` when given) as one streamed
        answer, KGN or NDJSON; in store order it carries the sync cursor of its end."""
        params = dict(filters)
        if cursor is not None:
            params[CURSOR_PARAM] = cursor
        response = self._get(self.url(GAMES), params, accept=media_type, stream=True)
        return Stream(response.headers.get(SYNC_HEADER) or None, _chunks(response))

    # --- the plumbing -------------------------------------------------------------------

    def _get(
        self,
        url: str,
        params: Mapping[str, str] | None,
        *,
        accept: str = "application/json",
        stream: bool = False,
    ) -> requests.Response:
        return self._call(
            lambda: self.session.get(
                url, params=params, headers={"Accept": accept}, timeout=TIMEOUT, stream=stream
            )
        )

    def _call(self, send: Callable[[], requests.Response]) -> requests.Response:
        """``send()``'s answer, 429s waited out (the last one raised after RETRIES)."""
        attempt = 0
        while True:
            try:
                response = send()
            except requests.RequestException as exc:
                raise TransportError(f"cannot reach {self.base}: {exc}") from None
            if response.status_code < 400:
                return response
            refused = _refused(response)
            wait = refused.retry_after
            waitable = refused.status == 429 and refused.code != "quota" and wait is not None
            if not waitable or wait is None or wait > MAX_RETRY_AFTER or attempt >= RETRIES:
                raise refused
            attempt += 1
            self.sleep(max(wait, 0.5))


def _json(response: requests.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        kind = response.headers.get("Content-Type", "?")
        raise TransportError(
            f"{response.url} answered {response.status_code} with {kind}, not JSON: "
            "is this a Kibitz server?"
        ) from None


def _refused(response: requests.Response) -> Refused:
    try:
        body = response.json()
    except ValueError:
        body = None
    retry = response.headers.get("Retry-After")
    try:
        retry_after = float(retry) if retry is not None else None
    except ValueError:
        retry_after = None
    if not isinstance(body, dict) or "detail" not in body:
        reason = response.reason or "error"
        return Refused(
            response.status_code,
            f"{reason} (not an answer of the Kibitz API: is the server URL right?)",
            retry_after=retry_after,
        )
    errors = body.get("errors") or {}
    return Refused(
        response.status_code,
        str(body["detail"]),
        str(body.get("code", "")),
        {str(k): [str(m) for m in (v if isinstance(v, list) else [v])] for k, v in errors.items()},
        retry_after,
    )
