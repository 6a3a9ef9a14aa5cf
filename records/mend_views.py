"""The page of one record of an upload: its text in an editor with its error marked,
its history of edits; the uploader (or staff) sends an edit from it (records/mend.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from records.mend import (
    MendBusy,
    TextFault,
    diff_lines,
    edit_submit,
    line_in_text,
    may_mend,
    original_text,
    pending_edit,
    record_edits,
    record_get,
)
from records.models import Record


@require_http_methods(["GET", "POST"])
def record_mend(request: HttpRequest, pk: int, index: int) -> HttpResponse:
    """GET: the record, its error marked, its history.  POST (the uploader or staff):
    send the edited text to be verified, then back here (where the verdict shows)."""
    record = record_get(user=request.user, upload_id=pk, index=index)
    may_edit = may_mend(user=request.user, record=record)
    text, fault, status = record.source, None, 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not may_edit:
            raise PermissionDenied("only the uploader (or staff) may edit the records of an upload")
        text = request.POST.get("text", "")
        try:
            edit_submit(user=request.user, record=record, text=text)
        except TextFault as exc:
            fault, status = exc, 400
        except MendBusy as exc:
            messages.error(request, str(exc)[:1].upper() + str(exc)[1:] + ".")
            status = 409
        else:
            messages.success(request, "Your edit was sent to be verified.")
            return redirect("records:record-mend", pk=record.upload_id, index=record.index)
    context = _context(request, record, text=text, fault=fault, may_edit=may_edit)
    return render(request, "records/record_mend.html", context, status=status)


def _context(
    request: HttpRequest,
    record: Record,
    *,
    text: str,
    fault: TextFault | None,
    may_edit: bool,
) -> dict[str, Any]:
    if fault is not None:  # where the edit sent is wrong, in its own text
        mark = {"line": fault.line, "column": fault.column, "message": fault.reason}
    elif record.error_message:
        mark = {
            "file_line": record.error_line,
            "line": line_in_text(record, record.error_line),
            "column": record.error_column,
            "message": record.error_message,
        }
    else:
        mark = None
    edits = list(record_edits(record=record))
    return {
        "record": record,
        "upload": record.upload,
        "text": text,
        "fault": fault,
        "mark": mark,
        "may_edit": may_edit,
        "pending": pending_edit(record=record),
        "edits": [
            {
                "edit": edit,
                "lines": diff_lines(edit.diff),
                "error_line": line_in_text(record, edit.error_line),
            }
            for edit in reversed(edits)
        ],
        "original": original_text(record=record) if edits else "",
        "api_url": reverse(
            "api:record-detail", kwargs={"pk": record.upload_id, "index": record.index}
        ),
    }
