"""Upload pages: the form, the live progress page and the rejected-records report."""

from __future__ import annotations

from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_http_methods

from lib.downloads import attachment
from lib.ratelimit import rate_limited, throttle_wait
from records import reports
from records.desk import pasted_file, upload_submit
from records.forms import UploadForm
from records.quota import QuotaExceeded
from records.removal import UploadBusy, may_delete, upload_delete
from records.selectors import events_owned, upload_get
from records.upload_page import UPLOAD_BUSY, upload_page_context


class SignedInRequest(HttpRequest):
    """The request of a view behind ``login_required``: its user is signed in (for the
    type checker; Django's own ``HttpRequest.user`` may be anonymous)."""

    user: User


@login_required
@require_http_methods(["GET", "POST"])
def upload_new(request: SignedInRequest) -> HttpResponse:
    events = events_owned(user=request.user)
    if request.method != "POST":
        context = {"form": UploadForm(), "events": events}
        return render(request, "records/upload_new.html", context)
    form = UploadForm(request.POST, request.FILES)
    status = 400
    # the API's upload rate, one count for both paths (api.throttling.UploadThrottle)
    if wait := throttle_wait(request, "uploads"):
        form.is_valid()  # bound: show what was chosen, refuse it
        form.errors.clear()
        form.add_error(None, f"Too many uploads. Try again in {wait} seconds.")
        context = {"form": form, "events": events}
        response = render(request, "records/upload_new.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response
    if form.is_valid():
        pasted = not form.cleaned_data["file"]
        field = "text" if pasted else "file"
        try:
            upload = upload_submit(
                owner=request.user,
                file=pasted_file(form.cleaned_data["text"])
                if pasted
                else form.cleaned_data["file"],
                visibility=form.cleaned_data["visibility"],
                event_name=form.cleaned_data["event"],
            )
        except ValidationError as exc:  # refused at the door: nothing was kept
            form.add_error(field, exc)
        except QuotaExceeded as exc:
            form.add_error(field, str(exc)[:1].upper() + str(exc)[1:] + ".")
            status = 429
        else:
            return redirect("records:upload-detail", pk=upload.pk)
    context = {"form": form, "events": events}
    return render(request, "records/upload_new.html", context, status=status)


@require_GET
def upload_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """An upload's page: its summary and its records, a page at a time.  While it is
    verified, its script swaps in the same parts from ``upload_live``."""
    upload = upload_get(user=request.user, pk=pk)
    context = upload_page_context(user=request.user, upload=upload, query=request.GET)
    return render(request, "records/upload_detail.html", context)


@require_GET
def upload_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of an upload's page (summary and records table, for the same
    query), rendered by the page's own templates: what the page polls for."""
    upload = upload_get(user=request.user, pk=pk)
    context = upload_page_context(user=request.user, upload=upload, query=request.GET)
    response = render(request, "records/_upload_live.html", context)
    add_never_cache_headers(response)
    return response


@require_GET
@rate_limited  # an export: the API's throttles count it (docs/api.md, "Throttling")
def upload_report(request: HttpRequest, pk: str, fmt: str) -> StreamingHttpResponse:
    """The rejected records of an upload as a JSON or CSV download (streamed)."""
    upload = upload_get(user=request.user, pk=pk)
    if fmt == "csv":
        body, kind = reports.report_csv(upload), "text/csv; charset=utf-8"
    else:
        body, kind = reports.report_json(upload), "application/json"
    response = StreamingHttpResponse(body, content_type=kind)
    stem = Path(upload.original_name).name.split(".")[0] or "upload"
    # the name is the uploader's: Django's helper quotes any character in it
    response["Content-Disposition"] = attachment(f"{stem}-report.{fmt}")
    return response


@login_required
@require_http_methods(["GET", "POST"])
def upload_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what deleting would remove, and a button.  POST: delete, back home."""
    upload = upload_get(user=request.user, pk=pk)
    if not may_delete(user=request.user, upload=upload):
        raise PermissionDenied("only the uploader or staff may delete an upload")
    busy = upload.status in UPLOAD_BUSY
    if request.method == "POST" and not busy:
        try:
            deleted = upload_delete(user=request.user, upload=upload)
        except UploadBusy:
            busy = True
        else:
            records = f"{deleted.records} record{'s' if deleted.records != 1 else ''}"
            messages.success(request, f"Deleted {deleted.name} and its {records}.")
            return redirect("search:home")
    context = {"upload": upload, "busy": busy, "records": upload.records.count()}
    return render(request, "records/upload_delete.html", context, status=409 if busy else 200)
