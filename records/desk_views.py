"""The organiser's desk pages: "My uploads" and an upload's re-verification."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from lib.paging import page_of
from records.desk import (
    may_reverify,
    my_uploads,
    reverify_latest,
    run_progress,
    runs_of,
    upload_reverify,
)
from records.models import ReverifyStatus, UploadStatus
from records.removal import BUSY, UploadBusy, may_delete
from records.selectors import upload_get

#: uploads a page of "My uploads" lists
UPLOADS_PER_PAGE = 25
#: changed verdicts a re-verification page lists at most
CHANGES_SHOWN = 200


@login_required
@require_GET
def my_uploads_view(request: HttpRequest) -> HttpResponse:
    page, page_range = page_of(request, my_uploads(user=request.user), UPLOADS_PER_PAGE)
    uploads = list(page.object_list)
    runs = runs_of(uploads)
    rows = [
        {
            "upload": u,
            "busy": u.status in BUSY,
            "run": runs.get(u.pk),
            "reports": u.status == UploadStatus.DONE and u.records_rejected > 0,
        }
        for u in uploads
    ]
    context = {"page": page, "page_range": page_range, "rows": rows}
    return render(request, "records/my_uploads.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def upload_reverify_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the upload's latest re-verification (progress, then the verdicts it
    changed).  POST: start one (its uploader or staff), then show it."""
    upload = upload_get(user=request.user, pk=pk)
    if not may_reverify(user=request.user, upload=upload):
        raise PermissionDenied("only the uploader or staff may re-verify an upload")
    status = 200
    if request.method == "POST":
        try:
            started = upload_reverify(user=request.user, upload=upload)
        except UploadBusy as exc:
            messages.error(request, str(exc)[:1].upper() + str(exc)[1:] + ".")
            status = 409
        else:
            if started.new:
                messages.success(request, f"Re-verifying {upload.original_name}.")
            return redirect("records:upload-reverify", pk=upload.pk)
    run = reverify_latest(upload=upload)
    changes = []
    if run is not None and run.status == ReverifyStatus.DONE:
        changes = list(
            run.changes.select_related("record").order_by("record__index")[:CHANGES_SHOWN]
        )
    context = {
        "upload": upload,
        "run": run,
        "progress": run_progress(run),
        "running": run is not None and run.status == ReverifyStatus.RUNNING,
        "changes": changes,
        "busy": upload.status in BUSY,
        "may_delete": may_delete(user=request.user, upload=upload),
        "api_url": reverse("api:upload-reverify", kwargs={"pk": upload.pk}),
    }
    return render(request, "records/upload_reverify.html", context, status=status)
