"""The upload page's one rendering: what ``/uploads/<id>/`` shows and what its script
polls for while the upload is verified (``/uploads/<id>/live/``) come from the same
context and the same templates (records/_upload_live.html: the summary, the records
table; records/_upload_record.html: a record's row), so the page that updates itself
shows exactly what the page shows when reloaded.

Cost per rendering: the upload, a count of its (filtered) records and one page of
rows with their games and players (a handful of queries, whatever the upload's size).
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import QueryDict
from django.urls import reverse

from records.models import GameStatus, Upload, UploadStatus
from records.removal import may_delete
from records.selectors import upload_records

#: an upload in these states is still being worked on: its page polls for its live part
UPLOAD_BUSY = (UploadStatus.PENDING, UploadStatus.PROCESSING)
#: records listed per page of an upload (an event's log may hold 100,000)
RECORDS_PER_PAGE = 100


def upload_page_context(*, user: Any, upload: Upload, query: QueryDict) -> dict[str, Any]:
    """The context of the upload page and of its live part, for ``user`` (who may see
    ``upload``), from the page's query: ``status`` (a verdict, to list those only; an
    unknown one lists all) and ``page`` (a page of records, clamped to the pages there
    are)."""
    status = query.get("status") or ""
    status = status if status in GameStatus.values else ""
    page = Paginator(
        upload_records(upload=upload, status=status or None), RECORDS_PER_PAGE
    ).get_page(query.get("page"))
    busy = upload.status in UPLOAD_BUSY
    return {
        "upload": upload,
        "records": list(page.object_list),
        "page": page,
        "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=2),
        "status": status,
        "status_choices": [(s, label) for s, label in GameStatus.choices if s != "pending"],
        "busy": busy,
        "may_delete": may_delete(user=user, upload=upload),
        "checked": upload.records_verified + upload.records_rejected + upload.records_incomplete,
        "live_url": reverse("records:upload-live", kwargs={"pk": upload.pk}),
    }
