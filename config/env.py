"""Typed readers for environment variables: every setting comes through one of these.

Each helper returns a value of one type or raises ImproperlyConfigured naming the
variable and what it expected, so a typo in a deployment fails at start-up rather
than at the first request.  No Django imports beyond the exception: settings.py
calls these before Django is configured.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})

#: SQLite settings that let a web process and worker processes share one file:
#: WAL lets readers run beside the writer; IMMEDIATE takes the write lock at BEGIN so
#: two writers queue on busy_timeout instead of failing with "database is locked".
SQLITE_INIT_COMMAND = (
    "PRAGMA journal_mode=WAL; PRAGMA busy_timeout=10000; PRAGMA synchronous=NORMAL"
)


#: the checkout's local settings file (``make run`` writes it); not ``.env``, which
#: docker-compose.yml reads for the containers (a copy of .env.example)
LOCAL_ENV = ".env.local"
#: values of KIBITZ_DOTENV that read no file (the test suite's: tests see CI's settings)
_DOTENV_OFF = frozenset({"off", "0", "no", "false", "none", ""})


def read_dotenv(base: Path) -> Path | None:
    """Load the checkout's local settings file into the environment; the file read, or
    None.

    ``KIBITZ_DOTENV`` names it (a path; a relative one is taken from ``base``) or turns
    it off (``off``: the test suite's setting, pyproject.toml and scripts/test.sh);
    unset, ``base/.env.local`` is read when it exists (``make run`` writes one choosing the
    development profile).  Its values only fill variables the environment does not set:
    whatever the caller exports wins.  A production host has no such file, so
    production's checks (SECRET_KEY, ALLOWED_HOSTS) are exactly as strict."""
    choice = _raw("KIBITZ_DOTENV")
    if choice is not None and choice.lower() in _DOTENV_OFF:
        return None
    path = Path(choice).expanduser() if choice else base / LOCAL_ENV
    path = path if path.is_absolute() else base / path
    if not path.is_file():
        if choice:
            raise ImproperlyConfigured(f"KIBITZ_DOTENV={choice!r} names no file ({path}).")
        return None
    from dotenv import load_dotenv

    load_dotenv(path, override=False)
    return path


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    return None if value is None else value.strip()


def env_str(
    name: str, default: str | None = None, *, required: bool = False, hint: str = ""
) -> str:
    """The variable as text; ``required`` raises when it is unset or empty."""
    value = _raw(name)
    if value:
        return value
    if required or default is None:
        raise ImproperlyConfigured(f"{name} must be set. {hint}".strip())
    return default


def env_bool(name: str, default: bool) -> bool:
    """1/true/yes/on or 0/false/no/off (any case); anything else is an error."""
    value = _raw(name)
    if value is None:
        return default
    low = value.lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use 1/0, true/false, yes/no or on/off."
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """A whole number (``_`` separators allowed), optionally at least ``minimum``."""
    value = _raw(name)
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} must be at least {minimum}.")
    return number


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """Comma-separated values, blanks dropped: ``a.org, b.org`` -> ['a.org', 'b.org']."""
    value = _raw(name)
    if value is None:
        return list(default or [])
    return [part.strip() for part in value.split(",") if part.strip()]


def env_path(name: str, default: Path, *, base: Path) -> Path:
    """A filesystem path; a relative one is taken from ``base`` (the project root)."""
    value = _raw(name)
    path = Path(value).expanduser() if value else default
    return path if path.is_absolute() else (base / path)


def sqlite_database(path: Path) -> dict[str, Any]:
    """Settings for an SQLite file shared by web and worker processes.

    The test database is a file beside it (``test-<name>``), not memory, so that a
    worker subprocess and a live server can open the same test database.
    """
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {"init_command": SQLITE_INIT_COMMAND, "transaction_mode": "IMMEDIATE"},
        "TEST": {"NAME": str(path.with_name(f"test-{path.name}"))},
    }


def database_from_url(url: str, *, base: Path, conn_max_age: int = 60) -> dict[str, Any]:
    """One DATABASES entry from a URL.

    ``postgres://user:password@host:port/name?sslmode=require`` (or ``postgresql://``)
    -> the psycopg 3 backend with persistent, health-checked connections; query
    parameters become connection OPTIONS.  ``sqlite:///relative/path`` or
    ``sqlite:////absolute/path`` -> :func:`sqlite_database`.
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL {url!r} cannot be read: {exc}.") from None
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        if parts.netloc:
            raise ImproperlyConfigured(
                f"DATABASE_URL {url!r}: write sqlite:///relative/path or sqlite:////absolute/path "
                "(three slashes, then the path)."
            )
        raw_path = unquote(parts.path)[1:]
        if not raw_path or raw_path == ":memory:":
            raise ImproperlyConfigured(
                f"DATABASE_URL {url!r} names no file: Kibitz needs an SQLite file "
                "(web and worker processes share it), e.g. sqlite:///var/kibitz.sqlite3."
            )
        path = Path(raw_path)
        return sqlite_database(path if path.is_absolute() else base / path)
    if scheme in ("postgres", "postgresql"):
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(
                f"DATABASE_URL {url!r} names no database: postgres://user@host:5432/kibitz."
            )
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": unquote(parts.hostname or ""),
            "PORT": str(port) if port else "",
            "CONN_MAX_AGE": conn_max_age,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": dict(parse_qsl(parts.query)),
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL {url!r}: the scheme must be postgres://, postgresql:// or sqlite:///."
    )


def database_url(settings_dict: dict[str, Any]) -> str:
    """The URL that :func:`database_from_url` reads back into ``settings_dict``'s
    database (used to point a worker subprocess at the test database)."""
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(settings_dict['NAME']).resolve()}"
    auth = quote(settings_dict.get("USER") or "", safe="")
    if settings_dict.get("PASSWORD"):
        auth += ":" + quote(settings_dict["PASSWORD"], safe="")
    host = settings_dict.get("HOST") or ""
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    url = f"postgres://{auth}{'@' if auth else ''}{host}{port}/{quote(settings_dict['NAME'])}"
    # %20 for spaces (libpq reads "+" as a plus sign): options="-c jit=off"
    query = urlencode(settings_dict.get("OPTIONS") or {}, quote_via=quote)
    return f"{url}?{query}" if query else url


def filesystem_broker_options(folder: Path) -> dict[str, Any]:
    """Transport options for Kombu's filesystem broker under ``folder`` (created):
    messages are files, so the embedded setup needs no broker server.  Every process
    (web, worker, beat) must see the same folders."""
    folders = {name: folder / name for name in ("messages", "processed", "control")}
    for path in folders.values():
        path.mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folders["messages"]),
        "data_folder_out": str(folders["messages"]),
        "processed_folder": str(folders["processed"]),
        "control_folder": str(folders["control"]),
        "store_processed": False,
    }
