"""Upload pages: the form, the live progress page and the rejected-records report."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from records import reports
from records.forms import UploadForm
from records.models import UploadStatus
from records.selectors import event_list, upload_get, upload_records
from records.services import event_pick, upload_create

#: an upload in these states is still being worked on: its page polls the API
UPLOAD_BUSY = (UploadStatus.PENDING, UploadStatus.PROCESSING)


@login_required
@require_http_methods(["GET", "POST"])
def upload_new(request: HttpRequest) -> HttpResponse:
    events = event_list(user=request.user)
    if request.method != "POST":
        context = {"form": UploadForm(), "events": events}
        return render(request, "records/upload_new.html", context)
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            event = event_pick(owner=request.user, name=form.cleaned_data["event"])
            upload = upload_create(
                owner=request.user,
                file=form.cleaned_data["file"],
                visibility=form.cleaned_data["visibility"],
                event=event,
            )
        except ValidationError as exc:
            form.add_error("file", exc)
        else:
            return redirect("records:upload-detail", pk=upload.pk)
    context = {"form": form, "events": events}
    return render(request, "records/upload_new.html", context, status=400)


@require_GET
def upload_detail(request: HttpRequest, pk: int) -> HttpResponse:
    upload = upload_get(user=request.user, pk=pk)
    done = upload.records_verified + upload.records_rejected + upload.records_incomplete
    context = {
        "upload": upload,
        "records": upload_records(upload=upload),
        "busy": upload.status in UPLOAD_BUSY,
        "checked": done,
        "api_url": reverse("api:upload-detail", kwargs={"pk": upload.pk}),
        "game_url_template": reverse("records:game-detail", kwargs={"pk": 0}),
    }
    return render(request, "records/upload_detail.html", context)


@require_GET
def upload_report(request: HttpRequest, pk: str, fmt: str) -> StreamingHttpResponse:
    """The rejected records of an upload as a JSON or CSV download (streamed)."""
    upload = upload_get(user=request.user, pk=pk)
    if fmt == "csv":
        body, kind = reports.report_csv(upload), "text/csv; charset=utf-8"
    else:
        body, kind = reports.report_json(upload), "application/json"
    response = StreamingHttpResponse(body, content_type=kind)
    stem = Path(upload.original_name).name.split(".")[0] or "upload"
    response["Content-Disposition"] = f'attachment; filename="{stem}-report.{fmt}"'
    return response
