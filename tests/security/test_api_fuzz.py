"""Fuzzing of every API input, against a live server (bounded by example counts):

- the operations that write (``POST /api/uploads/``, ``DELETE /api/uploads/{id}/``),
  with requests generated from the schema (schemathesis) and with hostile files and
  names (Hypothesis), as the owner of a token, another user and nobody;
- every GET operation with requests that break the schema (schemathesis' negative mode:
  wrong types, unknown enum values, out-of-range numbers).

Never a server error; every refusal is a JSON error (``code``, ``detail``, and for a 400
the field it is about); and what was stored before the fuzzing is unchanged after it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import hypothesis
import pytest
import requests
import schemathesis
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from accounts.models import ApiToken
from records.models import Game, Record, Seat, Upload, Visibility
from tests.fuzzing import fuzz_settings, fuzzable_schema

#: generated requests per operation and per way of calling it
EXAMPLES = 25
#: what a refusal of an upload may be: documented in the schema (docs/api.md)
UPLOAD_REFUSALS = {400, 401, 403, 404, 413, 429}
SETTINGS = fuzz_settings(EXAMPLES)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_throttles")]


@pytest.fixture
def stored(user_factory: Any, upload_factory: Any, kgn: Any) -> dict[str, Any]:
    """Two users with tokens; the owner's public and private uploads, verified."""
    owner, other = user_factory("owner"), user_factory("other")
    public = upload_factory(owner=owner, text=kgn.valid(3, seed=71))
    private = upload_factory(owner=owner, text=kgn.valid(2, seed=72), visibility=Visibility.PRIVATE)
    return {
        "owner": owner,
        "other": other,
        "uploads": [public, private],
        "tokens": {
            "owner": ApiToken.issue(owner=owner, name="fuzz")[1],
            "other": ApiToken.issue(owner=other, name="fuzz")[1],
        },
        "before": _snapshot([public.pk, private.pk]),
    }


def _snapshot(upload_ids: list[int]) -> dict[str, Any]:
    """Every row of the uploads ``upload_ids``: their records, games and seats."""
    records = Record.objects.filter(upload_id__in=upload_ids).order_by("pk")
    games = Game.objects.filter(records__upload_id__in=upload_ids).distinct().order_by("pk")
    return {
        "uploads": list(
            Upload.objects.filter(pk__in=upload_ids)
            .order_by("pk")
            .values("pk", "status", "visibility", "sha256", "size", "original_name")
        ),
        "records": list(records.values("pk", "game_id", "status", "duplicate", "canonical")),
        "games": list(games.values("pk", "identity", "status", "public", "result")),
        "seats": list(Seat.objects.filter(game__in=games).order_by("pk").values()),
    }


def _schema() -> Any:
    return fuzzable_schema()


def _operation(schema: Any, method: str, path: str) -> Any:
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() == method and operation.path == path:
            return operation
    raise LookupError(f"{method} {path} is not in the schema")


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _content_type(response: Any) -> str:
    """The Content-Type of a requests response or of schemathesis' (lists by lower-case
    name)."""
    value = response.headers.get("content-type") or response.headers.get("Content-Type", "")
    return value[0] if isinstance(value, list) else str(value)


def assert_json_error(response: Any, *, where: str) -> dict[str, Any]:
    """A refusal: JSON with a code and a detail in words; a 400 names what it is about."""
    kind = _content_type(response)
    assert kind.startswith("application/json"), (where, response.status_code, response.text[:300])
    body = response.json()
    assert isinstance(body.get("code"), str) and body["code"], (where, body)
    assert isinstance(body.get("detail"), str) and body["detail"].strip(), (where, body)
    if response.status_code == 400 and body["code"] == "invalid":
        assert body.get("errors"), (where, body)
    return body


def assert_unchanged(stored: dict[str, Any]) -> None:
    after = _snapshot([u.pk for u in stored["uploads"]])
    assert after == stored["before"]


#: a tag line: what makes a file one in which a KGN record can be found (else a 400)
TAG = b'[Event "fuzz"]\n'


def _raw(sent: Any) -> bytes:
    """A generated file or body as bytes (schemathesis' Binary, text or bytes)."""
    sent = getattr(sent, "data", sent)
    return sent.encode() if isinstance(sent, str) else bytes(sent)


def test_generated_uploads_are_stored_as_sent_or_refused_with_a_json_error(
    live_server: Any, stored: dict[str, Any]
) -> None:
    """POST /api/uploads/ from the schema, as the owner, another user and nobody: a 201
    stores the very bytes sent under the caller's name; anything else is a documented
    refusal with a JSON error."""
    operation = _operation(_schema(), "POST", "/api/uploads/")
    tokens = [None, stored["tokens"]["owner"], stored["tokens"]["other"]]
    statuses: dict[int, int] = {}

    # besides the generated requests, one that must be stored and one that must be
    # refused (no token), so that both outcomes are met whatever is generated
    sound = {"file": TAG + b"A: 5\n"}
    form = "multipart/form-data"

    @SETTINGS
    @hypothesis.given(
        case=operation.as_strategy(), token=st.sampled_from(tokens), tagged=st.booleans()
    )
    @hypothesis.example(
        case=operation.Case(body=dict(sound), media_type=form), token=tokens[1], tagged=False
    )
    @hypothesis.example(
        case=operation.Case(body=dict(sound), media_type=form), token=None, tagged=False
    )
    def run(case: Any, token: str | None, tagged: bool) -> None:
        if tagged:  # a tag line first: a file in which a KGN record can be found
            if isinstance(case.body, dict) and "file" in case.body:
                case.body["file"] = TAG + _raw(case.body["file"])
            elif case.body is not None and not isinstance(case.body, dict):
                case.body = TAG + _raw(case.body)
        response = case.call_and_validate(
            base_url=live_server.url, headers=_auth(token), checks=[not_a_server_error]
        )
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        where = f"POST with {case.body!r:.200}"
        if response.status_code == 201:
            assert token is not None, where
            upload = Upload.objects.get(pk=response.json()["id"])
            sent = _raw(case.body["file"] if isinstance(case.body, dict) else case.body)
            assert upload.sha256 == hashlib.sha256(sent).hexdigest(), where
            caller = "owner" if token == stored["tokens"]["owner"] else "other"
            assert upload.owner_id == stored[caller].pk, where
            return
        assert response.status_code in UPLOAD_REFUSALS, (where, response.status_code)
        assert_json_error(response, where=where)
        if token is None:
            assert response.status_code == 401, where

    run()
    # the requests reached both outcomes
    assert statuses.get(201) and statuses.get(401), statuses
    assert_unchanged(stored)


def test_broken_uploads_are_refused_with_a_json_error(
    live_server: Any, stored: dict[str, Any]
) -> None:
    """POST /api/uploads/ breaking the schema (no file, a file as text, wrong types,
    unknown visibility): never a 5xx, always a JSON refusal."""
    operation = _operation(_schema(), "POST", "/api/uploads/")
    token = stored["tokens"]["owner"]

    @SETTINGS
    @hypothesis.given(case=operation.as_strategy(schemathesis.GenerationMode.NEGATIVE))
    def run(case: Any) -> None:
        response = case.call_and_validate(
            base_url=live_server.url, headers=_auth(token), checks=[not_a_server_error]
        )
        if response.status_code != 201:
            assert_json_error(response, where=f"POST with {case.body!r:.200}")

    run()
    assert_unchanged(stored)


NAMES = st.one_of(
    st.sampled_from(
        ["../../etc/passwd.kgn", "a/b\\c.kgn", ".kgn", "x.kgn.gz", "x.zip", "CON.kgn", "é.kgn"]
    ),
    st.text(min_size=1, max_size=80).filter(lambda s: "\x00" not in s and s.strip()),
)
CONTENTS = st.one_of(
    st.binary(max_size=2000),
    st.text(max_size=2000).map(str.encode),
    st.sampled_from([b"", b"\x1f\x8b\x08garbage", b"PK\x03\x04garbage", b'[Game "x"]\n']),
    # a tag line, then anything: a KGN record can be found in it (junk alone is a 400)
    st.binary(max_size=2000).map(lambda data: b'[Event "fuzz"]\n' + data),
)


def test_hostile_files_and_names_are_stored_safely_or_refused(
    live_server: Any, stored: dict[str, Any]
) -> None:
    """Arbitrary bytes under arbitrary names (traversal, back slashes, fake archives):
    a 201 keeps the bytes under a safe name in the media folder, or a 400 about the
    file; never a 5xx."""
    token = stored["tokens"]["owner"]
    outcomes: set[int] = set()

    @SETTINGS
    @hypothesis.given(name=NAMES, content=CONTENTS, visibility=st.sampled_from(Visibility.values))
    def run(name: str, content: bytes, visibility: str) -> None:
        response = requests.post(
            f"{live_server.url}/api/uploads/",
            files={"file": (name, content)},
            data={"visibility": visibility},
            headers=_auth(token),
            timeout=30,
        )
        outcomes.add(response.status_code)
        where = f"{name!r}: {content[:60]!r}"
        assert response.status_code in {201, 400}, (where, response.status_code, response.text)
        if response.status_code == 400:
            body = assert_json_error(response, where=where)
            assert "file" in body.get("errors", {}), (where, body)
            return
        upload = Upload.objects.get(pk=response.json()["id"])
        assert upload.sha256 == hashlib.sha256(content).hexdigest(), where
        assert ".." not in upload.file.name and "\\" not in upload.file.name, upload.file.name
        assert upload.visibility == visibility

    run()
    assert outcomes == {201, 400}, outcomes
    assert_unchanged(stored)


def test_deletes_by_anyone_but_the_uploader_are_refused(
    live_server: Any, stored: dict[str, Any], upload_factory: Any, kgn: Any
) -> None:
    """DELETE /api/uploads/{id}/ with generated and known ids, as nobody and as another
    user: a 401, a 403 (a public upload) or a 404 (a private one, or none), never a
    deletion; then the owner deletes an upload of their own: 204, and a 404 after."""
    operation = _operation(_schema(), "DELETE", "/api/uploads/{id}/")
    known = [u.pk for u in stored["uploads"]]
    other = stored["tokens"]["other"]

    @SETTINGS
    @hypothesis.given(
        case=operation.as_strategy(),
        pick=st.sampled_from([None, *known]),
        token=st.sampled_from([None, other]),
    )
    def run(case: Any, pick: int | None, token: str | None) -> None:
        if pick is not None:
            case.path_parameters = {"id": pick}
        response = case.call_and_validate(
            base_url=live_server.url, headers=_auth(token), checks=[not_a_server_error]
        )
        where = f"DELETE {case.path_parameters} as {'other' if token else 'nobody'}"
        assert response.status_code in {401, 403, 404}, (where, response.status_code)
        assert_json_error(response, where=where)
        if token is None:
            assert response.status_code == 401, where
        elif pick == known[0]:
            assert response.status_code == 403, where  # public: seen, not theirs
        elif pick == known[1]:
            assert response.status_code == 404, where  # private: not even seen

    run()
    assert_unchanged(stored)
    victim = upload_factory(owner=stored["owner"], text=kgn.valid(1, seed=73))
    url = f"{live_server.url}/api/uploads/{victim.pk}/"
    mine = _auth(stored["tokens"]["owner"])
    assert requests.delete(url, headers=mine, timeout=30).status_code == 204
    gone = requests.delete(url, headers=mine, timeout=30)
    assert gone.status_code == 404 and assert_json_error(gone, where="second delete")
    assert_unchanged(stored)


def test_no_get_operation_fails_on_requests_that_break_the_schema(
    live_server: Any, stored: dict[str, Any]
) -> None:
    """Every GET operation, with negative cases (wrong types, unknown enum values,
    numbers out of range, missing parameters): never a 5xx; a refusal is a JSON error."""
    schema = _schema()
    token = stored["tokens"]["other"]
    refused: dict[str, set[int]] = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() != "GET":
            continue

        @hypothesis.settings(SETTINGS, max_examples=10)
        @hypothesis.given(
            case=operation.as_strategy(schemathesis.GenerationMode.NEGATIVE),
            token=st.sampled_from([None, token]),
        )
        def run(case: Any, token: str | None) -> None:
            response = case.call_and_validate(
                base_url=live_server.url, headers=_auth(token), checks=[not_a_server_error]
            )
            if response.status_code >= 400:
                assert_json_error(response, where=f"GET {case.formatted_path} {case.query}")
                refused.setdefault(case.operation.path, set()).add(response.status_code)

        try:
            run()
        except hypothesis.errors.Unsatisfiable:
            continue  # nothing in this operation can be broken (no parameters)
    # the negative cases did reach the views' checks, not only the router
    assert any(400 in codes for codes in refused.values()), json.dumps(
        {k: sorted(v) for k, v in refused.items()}
    )
    assert_unchanged(stored)
