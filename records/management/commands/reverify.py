"""manage.py reverify [--game G] [--since V] [--before V] [--now|--wait] | --report RUN"""

from __future__ import annotations

import time
from typing import Any, TextIO, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lib.progress import Bar
from records.models import Reverify, ReverifyStatus
from records.reverify import reverify_now, reverify_start
from replay import ENGINE_VERSION, registry

#: how often --wait reads the run's progress
POLL_SECONDS = 0.5
#: changes listed in full (the rest are counted)
SHOWN = 50


class Command(BaseCommand):
    help = (
        "Judge stored records again with this engine "
        f"({ENGINE_VERSION}) and report which verdicts changed. Records are picked by game "
        "and by the engine version of their verdict; the work goes to the Celery workers "
        "(--wait follows it) or runs here (--now). --report RUN shows a run's changes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=registry.game_ids())
        parser.add_argument(
            "--since", metavar="VERSION", help="verdicts given by VERSION or a later engine"
        )
        parser.add_argument(
            "--before", metavar="VERSION", help="verdicts given by an engine older than VERSION"
        )
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--now", action="store_true", help="re-verify in this process")
        mode.add_argument("--wait", action="store_true", help="wait for the workers to finish")
        mode.add_argument("--report", type=int, metavar="RUN", help="show run RUN's changes")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["report"]:
            run = Reverify.objects.filter(pk=options["report"]).first()
            if run is None:
                raise CommandError(f"no reverify run {options['report']}")
            self._report(run)
            return
        run, chunks = reverify_start(
            game=options["game"] or "", since=options["since"] or "", before=options["before"] or ""
        )
        self.stdout.write(
            f"reverify run {run.pk}: {run.total} records in {len(chunks)} chunks, "
            f"engine {ENGINE_VERSION}"
        )
        if options["now"]:
            bar = Bar(cast(TextIO, self.stderr._out), total=run.total, label="reverify")
            for k, chunk in enumerate(chunks, start=1):
                reverify_now(run=run, chunks=[chunk])
                bar.update(run.checked, note=f"chunk {k}/{len(chunks)}")
            bar.finish()
            run.refresh_from_db()
            self._report(run)
            return
        from records.tasks import reverify_chunk

        for chunk in chunks:
            reverify_chunk.delay(run.pk, chunk.number, chunk.first_id, chunk.last_id)
        if not options["wait"]:
            self.stdout.write(f"queued; see the changes with: manage.py reverify --report {run.pk}")
            return
        bar = Bar(cast(TextIO, self.stderr._out), total=run.total, label="reverify")
        while run.status != ReverifyStatus.DONE:
            time.sleep(POLL_SECONDS)
            run.refresh_from_db()
            bar.update(run.checked, note=f"{run.changed} changed")
        bar.finish()
        self._report(run)

    def _report(self, run: Reverify) -> None:
        self.stdout.write(
            f"run {run.pk} ({run.status}): {run.checked} of {run.total} records checked, "
            f"{run.changed} verdicts changed"
        )
        changes = run.changes.select_related("record").order_by("record_id")
        for change in changes[:SHOWN]:
            record = change.record
            after = change.new_error or change.new_result
            self.stdout.write(
                f"  upload {record.upload_id} record {record.index} (game {record.game_id}): "
                f"{change.old_status} -> {change.new_status} "
                f"[engine {change.old_engine or '?'} -> {run.engine}]"
                + (f": {after}" if after else "")
            )
        if run.changed > SHOWN:
            self.stdout.write(f"  … and {run.changed - SHOWN} more")
