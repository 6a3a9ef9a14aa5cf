#!/usr/bin/env bash
# make test: lint, then pytest.  DATABASE_URL / CELERY_BROKER_URL are used when set
# (CI sets them); otherwise a PostgreSQL server on 127.0.0.1:5432 and a Redis server
# on 127.0.0.1:6379 are used when found, and SQLite + the filesystem broker when not.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
source scripts/_services.sh

export DEBUG=1
# a developer's .env.local (make run) is not read: the tests see the settings CI sees
export KIBITZ_DOTENV=off
if [ -z "${DATABASE_URL:-}" ]; then
    if probe 127.0.0.1 5432; then
        export DATABASE_URL=postgres://postgres@127.0.0.1:5432/kibitz
    else
        echo "make test: no PostgreSQL on 127.0.0.1:5432 — running on SQLite; the" \
             "PostgreSQL-only tests will skip (start PostgreSQL to run them)." >&2
    fi
fi
if [ -z "${CELERY_BROKER_URL:-}" ]; then
    if probe 127.0.0.1 6379; then
        export CELERY_BROKER_URL=redis://127.0.0.1:6379/0
    else
        echo "make test: no Redis on 127.0.0.1:6379 — the worker tests use the" \
             "filesystem broker; the Redis tests will skip (start redis-server to run them)." >&2
    fi
fi
case "${DATABASE_URL:-}" in
    postgres*) ensure_pg_database "$DATABASE_URL" ;;
esac
echo "make test: database ${DATABASE_URL:-sqlite (var/)}, broker ${CELERY_BROKER_URL:-filesystem (var/celery)}" >&2

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy  # the whole project (pyproject's files), the engine strict
.venv/bin/lint-imports --no-cache
$PY manage.py makemigrations --check --dry-run >/dev/null
exec .venv/bin/pytest "$@"
