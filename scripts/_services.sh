# Sourced by run.sh and test.sh: find PostgreSQL and Redis on this machine.

PY=${PY:-.venv/bin/python}

# probe HOST PORT: succeed when something accepts TCP connections there
probe() {
    "$PY" - "$1" "$2" <<'PYEOF'
import socket, sys
try:
    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=1).close()
except OSError:
    sys.exit(1)
PYEOF
}

# ensure_pg_database URL: create the database named in URL when it is missing
ensure_pg_database() {
    "$PY" - "$1" <<'PYEOF'
import sys
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

url = urlsplit(sys.argv[1])
name = url.path.lstrip("/")
admin = url._replace(path="/postgres").geturl()
with psycopg.connect(admin, autocommit=True) as conn:
    if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
PYEOF
}
