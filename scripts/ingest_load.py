"""Load test of ingest: one big upload verified by N real workers on PostgreSQL + Redis.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kibitz_load \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python scripts/ingest_load.py --workers 2 FILE.kgn|FILE.zip

Migrates the database, uploads FILE through the real service (as the web process
would), starts N Celery workers (one process each) on a queue of their own, and waits
until every record has its verdict.  It prints records/s end to end and per worker,
and the resident memory (RSS, from /proc) of this process and of each worker, sampled
every second: the first and the peak.  The figures are for the issue notes; the
benchmark suite with baselines is `make bench` (issue 8).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rss_kb(pid: int) -> int:
    """Resident memory of a process and its children, in kB (from /proc)."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def _quarters(rss: list[int], done: list[int], total: int) -> list[int]:
    """RSS when a quarter, a half, three quarters and all of the records had verdicts:
    flat figures mean memory does not grow with the number of records."""
    out = []
    for q in (0.25, 0.5, 0.75, 1.0):
        k = next((i for i, d in enumerate(done) if d >= q * total), len(done) - 1)
        out.append(rss[k])
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=500)
    args = parser.parse_args()
    queue = f"kibitz-load-{uuid.uuid4().hex[:8]}"
    media = Path(os.environ.get("MEDIA_ROOT", "/tmp/kibitz-load-media"))
    env = {
        **os.environ,
        # production mode: with DEBUG on, Django keeps the last 9,000 SQL statements
        # of every connection, which would show as memory growth
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or uuid.uuid4().hex * 2,
        "ALLOWED_HOSTS": os.environ.get("ALLOWED_HOSTS") or "localhost",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "KIBITZ_BATCH_SIZE": str(args.batch_size),
        "KIBITZ_UPLOAD_MAX_BYTES": str(2 * 1024**3),
        "MEDIA_ROOT": str(media),
    }
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files import File

    from records.models import Batch, Upload, UploadStatus
    from records.services import upload_create

    workers = [
        subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "config", "worker",
                "--concurrency=1", "-Q", f"{queue},{queue}.ingest", "-n", f"load{k}-{queue}@%h",
                "--without-gossip", "--without-mingle", "--loglevel=WARNING",
            ],
            cwd=ROOT,
            env=env,
        )
        for k in range(args.workers)
    ]  # fmt: skip
    time.sleep(8)  # let them connect
    user, _ = get_user_model().objects.get_or_create(username="load")
    samples: dict[str, list[int]] = {"web": []}
    samples.update({f"worker{k}": [] for k in range(len(workers))})
    done_at: list[int] = []  # records with a verdict at each sample
    start = time.monotonic()
    with open(args.file, "rb") as fh:
        upload = upload_create(owner=user, file=File(fh, name=Path(args.file).name))
    created = time.monotonic()
    while True:
        samples["web"].append(rss_kb(os.getpid()))
        for k, w in enumerate(workers):
            samples[f"worker{k}"].append(rss_kb(w.pid))
        upload = Upload.objects.get(pk=upload.pk)
        done_at.append(
            upload.records_verified + upload.records_rejected + upload.records_incomplete
        )
        if upload.status in (UploadStatus.DONE, UploadStatus.FAILED):
            break
        time.sleep(1.0)
    elapsed = time.monotonic() - start
    per_worker: dict[str, int] = {}
    for name, count in Batch.objects.filter(upload=upload).values_list("worker", "count"):
        per_worker[name] = per_worker.get(name, 0) + count
    for w in workers:
        w.terminate()
    for w in workers:
        w.wait(timeout=30)
    records = upload.records_found
    report = {
        "status": upload.status,
        "error": upload.error,
        "records": records,
        "verified": upload.records_verified,
        "workers": args.workers,
        "seconds_end_to_end": round(elapsed, 1),
        "seconds_storing_upload": round(created - start, 1),
        "records_per_second": round(records / elapsed, 1),
        "records_per_worker": per_worker,
        "records_per_second_per_worker": round(records / elapsed / args.workers, 1),
        "rss_kb_first_peak": {k: (v[0], max(v)) for k, v in samples.items() if v},
        "rss_kb_at_quarters": {k: _quarters(v, done_at, records) for k, v in samples.items()},
    }
    print(json.dumps(report, indent=1))
    return 0 if upload.status == UploadStatus.DONE else 1


if __name__ == "__main__":
    raise SystemExit(main())
