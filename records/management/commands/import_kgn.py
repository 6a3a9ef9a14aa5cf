"""manage.py import_kgn PATH... [--owner USERNAME] [--event NAME] [--private] [--now|--wait]"""

from __future__ import annotations

import time
from typing import Any, TextIO, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lib import celery_send
from lib.progress import Bar
from records.models import Upload, UploadStatus, Visibility
from records.services import event_pick, import_paths

#: owner of imports that name none: an account nobody can log in to
DEFAULT_OWNER = "kibitz"
#: how often --wait reads the uploads' progress
POLL_SECONDS = 0.5


def _checked(upload: Upload) -> int:
    return upload.records_verified + upload.records_rejected + upload.records_incomplete


class Command(BaseCommand):
    help = (
        "Import KGN files (files, folders searched recursively for *.kgn, *.kgn.gz and "
        "*.zip, glob patterns) as uploads. Without --now they are sent to the Celery "
        "workers and their ids printed (--wait: and followed until verified); with --now "
        "they are verified here. On a terminal a progress bar shows how far it has got."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument(
            "--owner",
            metavar="USERNAME",
            help=f"the uploads' owner (default: the account {DEFAULT_OWNER!r}, created "
            "without a usable password when missing)",
        )
        parser.add_argument(
            "--event",
            metavar="NAME",
            help="the owner's event the uploads go into (created if missing; default: "
            "named by each file's first Event tag)",
        )
        parser.add_argument(
            "--private", action="store_true", help="visible to the owner and staff only"
        )
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--now", action="store_true", help="verify in this process instead of a worker"
        )
        mode.add_argument(
            "--wait", action="store_true", help="wait for the workers to verify every upload"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        owner = self._owner(options["owner"])
        visibility = Visibility.PRIVATE if options["private"] else Visibility.PUBLIC
        bar = Bar(cast(TextIO, self.stderr._out), total=0, label="import")  # the terminal, unstyled
        skipped: list[str] = []  # files refused at the door (nothing of them kept)
        celery_send.unsent_clear()
        try:
            event = event_pick(owner=owner, name=options["event"])
            uploads = import_paths(
                paths=options["paths"],
                owner=owner,
                visibility=visibility,
                now=options["now"],
                event=event,
                progress=lambda upload, number, files: bar.update(
                    _checked(upload),
                    total=upload.records_found,
                    note=f"file {number}/{files} {upload.original_name}",
                ),
                refused=lambda path, exc: skipped.append(f"{path}: {'; '.join(exc.messages)}"),
            )
        except ValidationError as exc:
            bar.finish()
            raise CommandError("; ".join(exc.messages)) from None
        bar.finish()
        for line in skipped:
            self.stderr.write(f"skipped {line}")
        waiting = {args[0] for name, args in celery_send.unsent() if args}
        if waiting:
            self.stderr.write(
                "the broker (CELERY_BROKER_URL) is unreachable: the uploads below are "
                "stored and will be sent to the workers when it returns (the periodic "
                "sweep sends them; nothing needs uploading again)"
            )
        if options["wait"] and uploads and not waiting:
            uploads = self._wait(uploads)
        for upload in uploads:
            if options["now"] or options["wait"]:
                self.stdout.write(
                    f"upload {upload.pk} {upload.original_name}: {upload.status}, "
                    f"{upload.records_found} found, {upload.records_verified} verified, "
                    f"{upload.records_rejected} rejected, {upload.records_incomplete} "
                    f"incomplete, {upload.records_duplicate} duplicates"
                    + (f" ({upload.error})" if upload.error else "")
                )
            elif upload.pk in waiting:
                self.stdout.write(
                    f"upload {upload.pk} {upload.original_name}: stored, waiting for the broker"
                )
            else:
                self.stdout.write(f"upload {upload.pk} {upload.original_name}: queued")
        if not uploads and skipped:
            raise CommandError(f"no file was taken: {len(skipped)} refused (above)")
        if not uploads:
            self.stderr.write("no .kgn, .kgn.gz or .zip files found")

    def _owner(self, username: str | None) -> Any:
        User = get_user_model()
        if username:
            try:
                return User.objects.get(username=username)
            except User.DoesNotExist:
                raise CommandError(f"no user named {username!r}") from None
        owner, created = User.objects.get_or_create(username=DEFAULT_OWNER)
        if created:
            owner.set_unusable_password()
            owner.save(update_fields=["password"])
        return owner

    def _wait(self, uploads: list[Upload]) -> list[Upload]:
        """Follow the uploads until none is pending or processing (Ctrl-C stops
        following; the workers go on)."""
        ids = [u.pk for u in uploads]
        bar = Bar(cast(TextIO, self.stderr._out), total=0, label="verify")
        busy = (UploadStatus.PENDING, UploadStatus.PROCESSING)
        try:
            while True:
                rows = list(Upload.objects.filter(pk__in=ids).order_by("pk"))
                found = sum(u.records_found for u in rows)
                waiting = sum(u.status in busy for u in rows)
                bar.update(
                    sum(_checked(u) for u in rows),
                    total=found,
                    note=f"{len(rows) - waiting}/{len(rows)} uploads done",
                )
                if not waiting:
                    return rows
                time.sleep(POLL_SECONDS)
        finally:
            bar.finish()
