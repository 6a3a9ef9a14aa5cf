#!/usr/bin/env bash
# make run: migrate, load the demo archive, start a Celery worker (with beat) and the
# web server on http://127.0.0.1:8000.  Embedded defaults: SQLite and a filesystem
# broker under var/, so nothing else has to run.  Ctrl-C stops everything.
# It also writes .env.local (git-ignored; when there is none: scripts/dev_env.sh) choosing
# the development profile, which config/settings.py reads: manage.py commands then run
# as the README shows them, without exporting DEBUG=1 by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
bash scripts/dev_env.sh
export DEBUG=${DEBUG:-1}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
mkdir -p var/log

$PY manage.py migrate --no-input
$PY manage.py demo_setup

.venv/bin/celery -A config worker --beat -Q kibitz,kibitz.ingest --concurrency=2 --loglevel=INFO \
    --schedule var/celerybeat-schedule >var/log/worker.log 2>&1 &
WORKER=$!
trap 'kill $WORKER 2>/dev/null; wait $WORKER 2>/dev/null' EXIT INT TERM

cat <<MSG

  Kibitz is running at  http://$HOST:$PORT/
  Demo login:           demo / kibitz-demo   (upload at http://$HOST:$PORT/uploads/new/)
  Worker log:           var/log/worker.log
  Stop with Ctrl-C.

MSG
$PY manage.py runserver "$HOST:$PORT"
