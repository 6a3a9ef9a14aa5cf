#!/usr/bin/env bash
# Writes DIR/.env.local (default: the checkout's top level) choosing the development profile,
# unless a .env.local is there already (yours is never overwritten).  `make run` calls it;
# config/settings.py reads the file, so that `.venv/bin/python manage.py ...` runs as
# the README shows without exporting DEBUG=1 by hand.  Git-ignored.
set -euo pipefail
DIR=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
if [ -e "$DIR/.env.local" ]; then
    if ! grep -qE '^[[:space:]]*(export[[:space:]]+)?DEBUG=' "$DIR/.env.local"; then
        echo "make run: .env.local sets no DEBUG; manage.py commands run in the production" \
             "profile unless you export DEBUG=1 (or add DEBUG=1 to .env.local)" >&2
    fi
    exit 0
fi
cat >"$DIR/.env.local" <<'ENV'
# Written by `make run`: this checkout's local settings, read by config/settings.py
# (docs/settings.md).  Variables exported in the shell win over these lines.
# The development profile: a generated secret key in var/, local hosts, plain HTTP;
# SQLite and the filesystem broker under var/ unless DATABASE_URL / CELERY_BROKER_URL
# are set.  Not read by docker compose (its containers' settings are .env, a copy of
# .env.example).
DEBUG=1
ENV
echo "make run: wrote .env.local (DEBUG=1, the development profile) for manage.py commands" >&2
