"""Settings: the env helpers, the two profiles (in subprocesses), and the test setup
itself (pytest runs the dev profile; in CI a skip fails)."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    database_from_url,
    database_url,
    env_bool,
    env_int,
    env_list,
    env_path,
    env_str,
)

ROOT = Path(__file__).resolve().parents[2]
PROFILE_VARS = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "CI",
)


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in PROFILE_VARS}
    env.update(values)
    return env


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


# --- env helpers ---------------------------------------------------------------------


def test_env_helpers_read_typed_values(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("K_BOOL", "Yes")
    monkeypatch.setenv("K_INT", "1_000")
    monkeypatch.setenv("K_LIST", " a.org, ,b.org ")
    monkeypatch.setenv("K_PATH", "media")
    assert env_bool("K_BOOL", False) is True and env_bool("K_UNSET", True) is True
    assert env_int("K_INT", 1) == 1000 and env_int("K_UNSET", 7) == 7
    assert env_list("K_LIST") == ["a.org", "b.org"] and env_list("K_UNSET", ["x"]) == ["x"]
    assert env_path("K_PATH", Path("x"), base=tmp_path) == tmp_path / "media"
    assert env_str("K_UNSET", "fallback") == "fallback"


@pytest.mark.parametrize(
    ("name", "value", "call", "message"),
    [
        ("K", "maybe", lambda: env_bool("K", False), "K='maybe' is not a boolean"),
        ("K", "ten", lambda: env_int("K", 1), "K='ten' is not a whole number"),
        ("K", "-1", lambda: env_int("K", 1, minimum=0), "K=-1 must be at least 0"),
        ("K", "", lambda: env_str("K", required=True, hint="Set it."), "K must be set. Set it."),
    ],
)
def test_env_helpers_fail_loudly_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, call: Any, message: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=message.replace("(", r"\(")):
        call()


def test_database_from_url_reads_postgres_urls(tmp_path: Path) -> None:
    db = database_from_url(
        "postgresql://kib%40itz:p%2Fw@db.example:6543/archive?sslmode=require", base=tmp_path
    )
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("archive", "kib@itz", "p/w")
    assert (db["HOST"], db["PORT"]) == ("db.example", "6543")
    assert db["OPTIONS"] == {"sslmode": "require"}
    assert db["CONN_MAX_AGE"] == 60 and db["CONN_HEALTH_CHECKS"] is True
    assert database_from_url(database_url(db), base=tmp_path) == db


def test_database_from_url_reads_sqlite_urls_with_a_file_test_database(tmp_path: Path) -> None:
    rel = database_from_url("sqlite:///var/x.sqlite3", base=tmp_path)
    assert rel["NAME"] == str(tmp_path / "var" / "x.sqlite3")
    assert rel["TEST"]["NAME"] == str(tmp_path / "var" / "test-x.sqlite3")
    assert rel["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in rel["OPTIONS"]["init_command"]
    absolute = database_from_url("sqlite:////srv/k.sqlite3", base=tmp_path)
    assert absolute["NAME"] == "/srv/k.sqlite3"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://u@h/db", "scheme must be"),
        ("postgres://u@h:5432/", "names no database"),
        ("postgres://u@h:port/db", "cannot be read"),
        ("sqlite://", "names no file"),
        ("sqlite://host/x.db", "three slashes"),
        ("sqlite:///:memory:", "names no file"),
    ],
)
def test_database_from_url_refuses_bad_urls(tmp_path: Path, url: str, message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        database_from_url(url, base=tmp_path)


# --- profiles ------------------------------------------------------------------------


def test_pytest_session_runs_the_dev_profile() -> None:
    assert os.environ["DEBUG"] == "1"
    # Django's test runner turns settings.DEBUG off; these come from the dev profile.
    assert settings.SESSION_COOKIE_SECURE is False and settings.SECURE_SSL_REDIRECT is False
    assert "testserver" in settings.ALLOWED_HOSTS
    assert settings.SECURE_HSTS_SECONDS == 0


def test_plain_pytest_picks_the_dev_profile_without_exported_variables() -> None:
    """pyproject's ``env = ["D:DEBUG=1"]`` takes effect before pytest-django loads the
    settings: without it this run would stop at "SECRET_KEY must be set"."""
    test = "tests/config/test_config_settings.py::test_pytest_session_runs_the_dev_profile"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_production_refuses_to_start_without_secret_key() -> None:
    run = _manage("check", DEBUG="0", ALLOWED_HOSTS="example.org")
    assert run.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set" in run.stderr
    assert "Traceback" in run.stderr  # it fails at start-up, not at the first request


def test_production_refuses_to_start_without_allowed_hosts() -> None:
    run = _manage("check", SECRET_KEY=secrets.token_urlsafe(50))
    assert run.returncode != 0
    assert "ALLOWED_HOSTS must be set in production" in run.stderr


def test_production_passes_check_deploy() -> None:
    run = _manage(
        "check", "--deploy", "--fail-level", "WARNING",
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="example.org",
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues" in run.stdout


def test_production_reads_the_proxy_header_and_rejects_a_bad_one() -> None:
    code = "from django.conf import settings; print(settings.SECURE_PROXY_SSL_HEADER)"
    base = {"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "a.org"}
    run = _manage("shell", "-c", code, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto,https", **base)
    assert run.returncode == 0, run.stderr
    assert "('HTTP_X_FORWARDED_PROTO', 'https')" in run.stdout
    bad = _manage("shell", "-c", code, SECURE_PROXY_SSL_HEADER="https", **base)
    assert "SECURE_PROXY_SSL_HEADER must be HEADER,VALUE" in bad.stderr


def test_a_redis_cache_url_shares_one_cache_between_processes() -> None:
    import socket

    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        pytest.skip("start Redis on 127.0.0.1:6379 to test the shared cache")
    url = "redis://127.0.0.1:6379/15"
    key = f"kibitz-test-{secrets.token_hex(4)}"
    put = f"from django.core.cache import cache; cache.set('{key}', 'shared', 30)"
    get = f"from django.core.cache import cache; print(cache.get('{key}'))"
    dev = {"DEBUG": "1"}
    assert _manage("shell", "-c", put, CACHE_URL=url, **dev).returncode == 0
    run = _manage("shell", "-c", get, CACHE_URL=url, **dev)
    assert run.returncode == 0 and run.stdout.split()[-1] == "shared", run.stderr
    bad = _manage("shell", "-c", get, CACHE_URL="memcached://x", **dev)
    assert "CACHE_URL must be a redis:// URL" in bad.stderr


def test_makemigrations_check_runs_in_a_fresh_checkout() -> None:
    run = _manage("makemigrations", "--check", "--dry-run")
    assert run.returncode == 0, run.stdout + run.stderr


def test_dev_profile_generates_a_secret_key_once_and_reuses_it(tmp_path: Path) -> None:
    """In a copy of config/ (so the checkout's var/ is left alone)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "__init__.py").write_text("")
    for name in ("env.py", "settings.py"):
        shutil.copy(ROOT / "config" / name, tmp_path / "config" / name)
    code = "import config.settings as s; print(s.SECRET_KEY); print(s.DEBUG)"

    def key() -> str:
        run = subprocess.run(
            [sys.executable, "-c", code],
            cwd=tmp_path,
            env=_env(DEBUG="1", PYTHONPATH=str(tmp_path)),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 0, run.stderr
        value, debug = run.stdout.split()
        assert debug == "True"
        return value

    first = key()
    stored = tmp_path / "var" / "secret_key"
    assert stored.read_text().strip() == first and len(first) >= 50
    assert stored.stat().st_mode & 0o777 == 0o600
    assert key() == first
    assert (tmp_path / "templates").is_dir() and (tmp_path / "static").is_dir()


# --- the test machinery --------------------------------------------------------------


@pytest.mark.parametrize(("ci", "outcome"), [("true", "1 failed"), ("", "1 skipped")])
def test_in_ci_a_skipped_test_fails_with_its_reason(tmp_path: Path, ci: str, outcome: str) -> None:
    (tmp_path / "test_probe.py").write_text(
        "import pytest\n\ndef test_needs_a_unicorn():\n    pytest.skip('no unicorn here')\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "conftest", "-p", "no:cacheprovider",
         str(tmp_path / "test_probe.py")],
        cwd=tmp_path,
        env=_env(
            DEBUG="1", CI=ci, DJANGO_SETTINGS_MODULE="config.settings",
            # its own database: never the outer session's test database
            DATABASE_URL=f"sqlite:///{tmp_path / 'probe.sqlite3'}",
            PYTHONPATH=os.pathsep.join([str(ROOT / "tests"), str(ROOT)]),
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert outcome in run.stdout, run.stdout + run.stderr
    assert "no unicorn here" in run.stdout


def test_every_migration_applies_on_sqlite_as_make_run_does(tmp_path: Path) -> None:
    """``make run`` migrates an SQLite file: every migration must apply there (a table
    SQLite rebuilds must not carry PostgreSQL-only indexes), and none may be missing."""
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    done = _manage("migrate", "--no-input", DEBUG="1", DATABASE_URL=url)
    assert done.returncode == 0, done.stderr[-3000:]
    check = _manage("makemigrations", "--check", "--dry-run", DEBUG="1", DATABASE_URL=url)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgres_connections_run_without_jit_unless_asked() -> None:
    """JIT costs 20-30 ms on every costly-looking query (docs/settings.md, PG_JIT); the
    test database's connection has it off, and PG_JIT=1 leaves the server's setting."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"
    url = database_url(settings.DATABASES["default"])
    with psycopg.connect(url) as worker:  # a worker started from this URL: libpq reads it
        assert worker.execute("SHOW jit").fetchone()[0] == "off"  # type: ignore[index]
    plain = url.split("?")[0]
    with psycopg.connect(plain) as other:  # the server's own setting
        server = other.execute("SHOW jit").fetchone()[0]  # type: ignore[index]
    show = "from django.db import connection; c = connection.cursor(); c.execute('SHOW jit'); "
    show += "print(c.fetchone()[0])"
    asked = _manage("shell", "-c", show, DEBUG="1", DATABASE_URL=plain, PG_JIT="1")
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.split()[-1] == server
    off = _manage("shell", "-c", show, DEBUG="1", DATABASE_URL=plain)
    assert off.returncode == 0 and off.stdout.split()[-1] == "off", off.stderr


# --- where uploaded originals are kept -------------------------------------------------

_SHOW_UPLOADS = (
    "from django.core.files.storage import storages; from records.models import Upload; "
    "print(storages.backends['uploads']); "
    "print(Upload._meta.get_field('file').storage is storages['uploads'])"
)


def test_uploaded_originals_go_to_the_uploads_storage_the_settings_name() -> None:
    run = _manage("shell", "-c", _SHOW_UPLOADS, DEBUG="1")
    assert run.returncode == 0, run.stderr
    assert "FileSystemStorage" in run.stdout and "True" in run.stdout  # the default
    # settings alone (django-storages is an extra: apps would load its backend)
    s3 = subprocess.run(
        [sys.executable, "-c", "from config import settings; print(settings.STORAGES['uploads'])"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env=_env(
            DEBUG="1", KIBITZ_UPLOADS_STORAGE="storages.backends.s3.S3Storage",
            KIBITZ_UPLOADS_BUCKET="kibitz-uploads", KIBITZ_UPLOADS_ENDPOINT="https://s3.example.org",
        ),
    )  # fmt: skip
    assert s3.returncode == 0, s3.stderr
    assert "'BACKEND': 'storages.backends.s3.S3Storage'" in s3.stdout
    assert "'bucket_name': 'kibitz-uploads'" in s3.stdout
    assert "'endpoint_url': 'https://s3.example.org'" in s3.stdout
