"""manage.py import_kgn PATH... [--owner USERNAME] [--private] [--now]"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from records.models import Visibility
from records.services import import_paths

#: owner of imports that name none: an account nobody can log in to
DEFAULT_OWNER = "kibitz"


class Command(BaseCommand):
    help = (
        "Import KGN files (files, folders searched recursively for *.kgn, glob patterns) "
        "as uploads. Without --now they are sent to the Celery workers and their ids "
        "printed; with --now they are verified here and their counts printed."
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
            "--private", action="store_true", help="visible to the owner and staff only"
        )
        parser.add_argument(
            "--now", action="store_true", help="verify in this process instead of a worker"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        if options["owner"]:
            try:
                owner = User.objects.get(username=options["owner"])
            except User.DoesNotExist:
                raise CommandError(f"no user named {options['owner']!r}") from None
        else:
            owner, created = User.objects.get_or_create(username=DEFAULT_OWNER)
            if created:
                owner.set_unusable_password()
                owner.save(update_fields=["password"])
        visibility = Visibility.PRIVATE if options["private"] else Visibility.PUBLIC
        try:
            uploads = import_paths(
                paths=options["paths"], owner=owner, visibility=visibility, now=options["now"]
            )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        for upload in uploads:
            if options["now"]:
                self.stdout.write(
                    f"upload {upload.pk} {upload.original_name}: {upload.status}, "
                    f"{upload.records_found} found, {upload.records_verified} verified, "
                    f"{upload.records_rejected} rejected, {upload.records_incomplete} incomplete"
                    + (f" ({upload.error})" if upload.error else "")
                )
            else:
                self.stdout.write(f"upload {upload.pk} {upload.original_name}: queued")
        if not uploads:
            self.stderr.write("no .kgn, .kgn.gz or .zip files found")
