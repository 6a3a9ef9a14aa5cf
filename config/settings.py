"""Kibitz settings: one module, every value read from the environment (docs/settings.md).

Two profiles, chosen by DEBUG (default off):

- development (DEBUG=1): a generated SECRET_KEY kept in var/secret_key, local hosts,
  plain-HTTP cookies;
- production (DEBUG unset or 0): SECRET_KEY and ALLOWED_HOSTS are required, HTTPS only
  (secure cookies, SSL redirect, HSTS), `manage.py check --deploy` is clean.

A checkout's ``.env.local`` (written by ``make run``: DEBUG=1) fills the variables the
environment leaves unset, so local ``manage.py`` commands run in the development
profile; ``KIBITZ_DOTENV`` names another file or ``off`` (the tests).

Both default to an SQLite file and a filesystem Celery broker under var/, so nothing
else has to run; DATABASE_URL and CELERY_BROKER_URL switch to PostgreSQL and Redis.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

from config.csp import SITE_POLICY
from config.env import (
    database_from_url,
    env_bool,
    env_int,
    env_list,
    env_path,
    env_str,
    filesystem_broker_options,
    read_dotenv,
    sqlite_database,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)
#: the checkout's local settings file when there is one (``make run`` writes ``.env.local``
#: with DEBUG=1): it fills only what the environment leaves unset (config/env.py)
DOTENV = read_dotenv(BASE_DIR)

DEBUG = env_bool("DEBUG", False)

# --- secrets and hosts ---------------------------------------------------------------


def _dev_secret_key() -> str:
    """Generated once per checkout and reused, so dev sessions survive a restart."""
    path = VAR_DIR / "secret_key"
    if path.exists() and path.read_text().strip():
        return path.read_text().strip()
    key = get_random_secret_key()
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "") or _dev_secret_key()
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
else:
    SECRET_KEY = env_str(
        "SECRET_KEY",
        required=True,
        hint="In production (DEBUG off) set SECRET_KEY to at least 50 random characters, "
        "e.g. the output of: python -c 'import secrets; print(secrets.token_urlsafe(50))' "
        "(or set DEBUG=1 for development).",
    )
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must be set in production (DEBUG off): the comma-separated host "
            "names the site is served under, e.g. ALLOWED_HOSTS=kibitz.example.org "
            "(or set DEBUG=1 for development)."
        )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
#: route the web benchmark's baseline view (bench/web.py sets it; never in production)
KIBITZ_BENCH_VIEWS = env_bool("KIBITZ_BENCH_VIEWS", False)

# --- applications --------------------------------------------------------------------

DATABASES = {
    "default": (
        database_from_url(
            env_str("DATABASE_URL", ""),
            base=BASE_DIR,
            conn_max_age=env_int("CONN_MAX_AGE", 60, minimum=0),
        )
        if env_str("DATABASE_URL", "")
        else sqlite_database(VAR_DIR / "kibitz.sqlite3")
    )
}
ON_POSTGRES = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
#: PostgreSQL's JIT compiles a query's expressions once its estimated cost passes
#: ``jit_above_cost``: 20-30 ms a query, which Kibitz's queries (reads and upserts of a
#: few thousand rows, searches by index) never win back; the ingest's profile upkeep
#: paid it on every round.  Off for Kibitz's connections unless PG_JIT=1 (or the URL's
#: ``options`` names ``jit``).
PG_JIT = env_bool("PG_JIT", False)
if ON_POSTGRES and not PG_JIT:
    _pg_options = DATABASES["default"]["OPTIONS"]
    if "jit" not in _pg_options.get("options", ""):
        _pg_options["options"] = f"{_pg_options.get('options', '')} -c jit=off".strip()

INSTALLED_APPS = [
    # django.contrib.admin on our admin site: its log-in is throttled (accounts/admin_site.py)
    "accounts.admin_apps.KibitzAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    *(["django.contrib.postgres"] if ON_POSTGRES else []),
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "records",
    "players",
    "ratings",
    "events",
    "search",
    "viewer",
    "api",
    "accounts",
]

MIDDLEWARE = [
    # an over-long URL is a JSON 414 before anything else reads it (api/middleware.py)
    "api.middleware.UrlLengthMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on every answer (CONTENT_SECURITY_POLICY below), the
    # middlewares' own refusals below included
    "csp.middleware.CSPMiddleware",
    # CORS for anonymous read-only use of /api/ (api/cors.py)
    "api.cors.CorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # a NUL in the path or the query is a 400 naming it (api/middleware.py)
    "api.middleware.UnstorableTextMiddleware",
    # Bearer tokens on the site's machine-readable routes (api/scopes.py SITE_ROUTES)
    "api.site_tokens.SiteTokenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # RateLimit-* headers and absolute Locations (api/middleware.py), then ETag,
    # Last-Modified and 304 on the API's JSON answers (api/conditional.py)
    "api.middleware.RateLimitHeadersMiddleware",
    # Cache-Control: private on answers to a token, Vary: Authorization on the API's
    "api.middleware.PrivateAnswersMiddleware",
    "api.conditional.ConditionalMiddleware",
]

# Content-Security-Policy (config/csp.py)
CONTENT_SECURITY_POLICY = SITE_POLICY

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES_DIR = BASE_DIR / "templates"
STATIC_DIR = BASE_DIR / "static"
TEMPLATES_DIR.mkdir(exist_ok=True)
STATIC_DIR.mkdir(exist_ok=True)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [TEMPLATES_DIR],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
# One language (English), no translations: the translation machinery off, as Django's
# docs advise; it cost every rendered variable a lookup of the active language
# (about a tenth of the replay page's CPU, docs/performance-web.md)
USE_I18N = False
USE_TZ = True

# --- files ---------------------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = env_path("STATIC_ROOT", VAR_DIR / "static", base=BASE_DIR)
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # collectstatic fills it; WhiteNoise reads it
STATICFILES_DIRS = [STATIC_DIR]
MEDIA_URL = "/media/"
MEDIA_ROOT = env_path("MEDIA_ROOT", VAR_DIR / "media", base=BASE_DIR)
#: where uploaded originals are kept (docs/settings.md, "Uploads storage"): the web
#: process writes them and nothing reads them back to verify (batches carry their bytes
#: in PostgreSQL), so workers need no shared folder.  Several machines: S3 through
#: django-storages (KIBITZ_UPLOADS_STORAGE=storages.backends.s3.S3Storage).
KIBITZ_UPLOADS_STORAGE = env_str(
    "KIBITZ_UPLOADS_STORAGE", "django.core.files.storage.FileSystemStorage"
)
_UPLOADS_OPTIONS: dict[str, Any] = {}
if KIBITZ_UPLOADS_STORAGE.startswith("storages.backends.s3"):  # django-storages' S3
    _UPLOADS_OPTIONS = {
        "bucket_name": env_str("KIBITZ_UPLOADS_BUCKET", ""),
        "location": env_str("KIBITZ_UPLOADS_PREFIX", ""),
        "endpoint_url": env_str("KIBITZ_UPLOADS_ENDPOINT", "") or None,
        "default_acl": "private",
        "querystring_auth": True,
    }
STORAGES = {
    # Files kept under MEDIA_ROOT (never served directly: records are shown through the
    # archive).  Uploaded originals go to "uploads".
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "uploads": {"BACKEND": KIBITZ_UPLOADS_STORAGE, "OPTIONS": _UPLOADS_OPTIONS},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

#: the largest file an upload may have; larger ones are refused before storing
KIBITZ_UPLOAD_MAX_BYTES = env_int("KIBITZ_UPLOAD_MAX_BYTES", 50 * 1024 * 1024, minimum=1)
#: the most an upload may unpack to (a .kgn.gz, or all .kgn files of a .zip together)
KIBITZ_UPLOAD_MAX_UNPACKED_BYTES = env_int(
    "KIBITZ_UPLOAD_MAX_UNPACKED_BYTES", 10 * KIBITZ_UPLOAD_MAX_BYTES, minimum=1
)
#: bytes a user may upload in any 24 hours (staff: no limit; a user's own quota, set in
#: the admin, replaces it; 0: no limit): see records/quota.py
KIBITZ_UPLOAD_QUOTA_BYTES = env_int("KIBITZ_UPLOAD_QUOTA_BYTES", 1024 * 1024 * 1024, minimum=0)
#: the most a compressed file may unpack to, as a multiple of its compressed size
KIBITZ_UPLOAD_MAX_RATIO = env_int("KIBITZ_UPLOAD_MAX_RATIO", 100, minimum=2)
#: limits per KGN file (each file of a zip on its own), refused before verification
KIBITZ_UPLOAD_MAX_RECORDS = env_int("KIBITZ_UPLOAD_MAX_RECORDS", 1_000_000, minimum=1)
KIBITZ_RECORD_MAX_BYTES = env_int("KIBITZ_RECORD_MAX_BYTES", 1024 * 1024, minimum=100)
KIBITZ_LINE_MAX_BYTES = env_int("KIBITZ_LINE_MAX_BYTES", 100_000, minimum=100)
#: records per batch: the unit of work a worker verifies and stores at once
KIBITZ_BATCH_SIZE = env_int("KIBITZ_BATCH_SIZE", 500, minimum=1)
#: a large file's batches grow up to this many records, as long as the file keeps at
#: least KIBITZ_BATCH_SPREAD batches for the workers to share (docs/settings.md)
KIBITZ_BATCH_MAX_SIZE = env_int("KIBITZ_BATCH_MAX_SIZE", 2000, minimum=1)
KIBITZ_BATCH_SPREAD = env_int("KIBITZ_BATCH_SPREAD", 16, minimum=1)
#: seconds a worker holds a batch; past it the sweep gives the batch to another worker
KIBITZ_BATCH_LEASE_SECONDS = env_int("KIBITZ_BATCH_LEASE_SECONDS", 300, minimum=5)
#: claims of one batch before its upload is marked failed (a batch that kills workers)
KIBITZ_BATCH_MAX_ATTEMPTS = env_int("KIBITZ_BATCH_MAX_ATTEMPTS", 5, minimum=1)
#: seconds a stored row may take to become visible (a batch's games carry the time its
#: verification began and commit at its end, within the task's time limit): a sync
#: cursor never moves past rows stored more recently than this (docs/api.md "Sync")
KIBITZ_SYNC_SETTLE_SECONDS = env_int("KIBITZ_SYNC_SETTLE_SECONDS", 600, minimum=0)
# Request bodies past this go to a temporary file instead of memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# --- security (production profile) ---------------------------------------------------

SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container health check speaks plain HTTP
SECURE_HSTS_SECONDS = 0 if DEBUG else env_int("SECURE_HSTS_SECONDS", 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
# Preload (on by default, so check --deploy is clean) only marks the header; the site
# joins browsers' preload lists when someone submits it at hstspreload.org.
SECURE_HSTS_PRELOAD = not DEBUG and env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"


def _proxy_ssl_header() -> tuple[str, str] | None:
    """``X-Forwarded-Proto,https`` -> ("HTTP_X_FORWARDED_PROTO", "https"); set it only
    behind a proxy that overwrites that header, or clients can fake HTTPS."""
    parts = env_list("SECURE_PROXY_SSL_HEADER")
    if not parts:
        return None
    if len(parts) != 2:
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER must be HEADER,VALUE, e.g. X-Forwarded-Proto,https."
        )
    header = parts[0].upper().replace("-", "_")
    return (header if header.startswith("HTTP_") else f"HTTP_{header}", parts[1])


SECURE_PROXY_SSL_HEADER = _proxy_ssl_header()

# --- cache ---------------------------------------------------------------------------

#: ``redis://host:6379/1``: one cache shared by every web process (API throttle counts
#: then hold across gunicorn workers and machines); unset, each process keeps its own.
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"CACHE_URL must be a redis:// URL; got {CACHE_URL!r}.")
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
        }
    }
#: seconds a game page's cached replay and HTML are kept (viewer/cache.py: keys
#: name one value forever, so this only bounds the cache's size, never staleness)
KIBITZ_REPLAY_CACHE_SECONDS = env_int("KIBITZ_REPLAY_CACHE_SECONDS", 24 * 3600, minimum=1)
#: bytes of those values each web process also keeps itself (0: none)
KIBITZ_REPLAY_LOCAL_BYTES = env_int("KIBITZ_REPLAY_LOCAL_BYTES", 32 * 1024 * 1024, minimum=0)

# --- API -----------------------------------------------------------------------------


def _api_rate(name: str, default: str) -> str | None:
    """A throttle rate from the environment: ``<count>/<second|minute|hour|day>`` (DRF's
    form, e.g. ``60/min``), or ``off`` for no limit."""
    value = env_str(name, default).strip().lower()
    if value in ("off", "none", "0"):
        return None
    count, _, period = value.partition("/")
    if not count.isdigit() or int(count) < 1 or period[:1] not in ("s", "m", "h", "d"):
        raise ImproperlyConfigured(
            f"{name} must be a rate such as 60/min (count/second|minute|hour|day) or off; "
            f"got {value!r}."
        )
    return value


#: requests per client IP without a token or session (reads of public data)
KIBITZ_API_ANON_RATE = _api_rate("KIBITZ_API_ANON_RATE", "120/min")
#: requests per signed-in user (API token or session)
KIBITZ_API_USER_RATE = _api_rate("KIBITZ_API_USER_RATE", "600/min")
#: uploads created (POST /api/uploads/) per user, on top of the user rate
KIBITZ_API_UPLOAD_RATE = _api_rate("KIBITZ_API_UPLOAD_RATE", "60/hour")
#: the longest URL (path and query) read: a longer one is a JSON 414 (gunicorn.conf.py
#: lets gunicorn pass request lines of any length on, so this is the one limit)
KIBITZ_MAX_URL_BYTES = env_int("KIBITZ_MAX_URL_BYTES", 8192, minimum=256)


def _form_rate(name: str, default: str) -> str | None:
    """A throttle rate of the account forms (accounts/throttle.py): ``<count>/<n><unit>``
    with unit s, min, hour or day (e.g. ``10/15min``), or ``off``."""
    value = env_str(name, default).strip().lower()
    if value in ("off", "none", "0"):
        return None
    if not re.fullmatch(r"[1-9]\d*/\d*(s|sec|m|min|h|hour|day)", value):
        raise ImproperlyConfigured(
            f"{name} must be a rate such as 10/15min (count/[n]s|min|hour|day) or off; "
            f"got {value!r}."
        )
    return value


#: failed log-ins per client IP and, separately, per username, in a window
KIBITZ_LOGIN_FAILURE_RATE = _form_rate("KIBITZ_LOGIN_FAILURE_RATE", "10/15min")
#: accounts created per client IP
KIBITZ_SIGNUP_RATE = _form_rate("KIBITZ_SIGNUP_RATE", "20/hour")

#: how many proxies of ours stand in front (each appending to X-Forwarded-For): every
#: throttle counts the client's address by it (lib/client_address.py); 0 reads
#: REMOTE_ADDR only and ignores the header
KIBITZ_TRUSTED_PROXIES = env_int("KIBITZ_TRUSTED_PROXIES", 0, minimum=0)

REST_FRAMEWORK = {
    # Personal API tokens first (``Bearer <token>``, accounts.ApiToken: it names the
    # 401's WWW-Authenticate scheme), then legacy ``Token <key>``, then the site session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.AnonThrottle",
        "api.throttling.UserThrottle",
        "api.throttling.UploadThrottle",
    ],
    # DRF's own reading of X-Forwarded-For follows the same setting (its throttles here
    # read lib.client_address, which follows it too)
    "NUM_PROXIES": KIBITZ_TRUSTED_PROXIES,
    "DEFAULT_THROTTLE_RATES": {
        "anon": KIBITZ_API_ANON_RATE,
        "user": KIBITZ_API_USER_RATE,
        "uploads": KIBITZ_API_UPLOAD_RATE,
    },
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.MultiPartParser",
        "rest_framework.parsers.FormParser",
    ],
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    # ?format= and Accept (406 for an unknown one), and the query parameters each
    # operation declares in the schema (others: 400), checked before every API view
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.strict.StrictNegotiation",
    "DEFAULT_SCHEMA_CLASS": "api.schema.KibitzAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "api.pagination.CursorPagination",
    "PAGE_SIZE": 50,
}

# The OpenAPI 3 schema (drf-spectacular) at /api/schema/, its docs page at /api/docs/
# (Swagger UI served from drf-spectacular-sidecar's static files: nothing from a CDN).
SPECTACULAR_SETTINGS = {
    "TITLE": "Kibitz API",
    "DESCRIPTION": "Verified card-game records: games, uploads, events, players and stats. "
    "See docs/api.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # ETag / 304, RateLimit headers and the 414 on every operation (api/schema_manners.py);
    # each operation's security, x-scopes and 401/403 from api/scopes.py's table
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema_manners.document_manners",
        "api.schema_security.scope_security",
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "records.models.GameStatus",
        "UploadStatusEnum": "records.models.UploadStatus",
    },
}

# --- Celery --------------------------------------------------------------------------

CELERY_FILESYSTEM_DIR = VAR_DIR / "celery"
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(CELERY_FILESYSTEM_DIR)
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "kibitz")
# Long work (verifying batches, re-verifying) goes to its own queue, so that scans and
# the sweep never wait behind it; empty: "<default queue>.ingest" (config.celery.route).
# Every worker names its queues: celery -A config worker -Q kibitz,kibitz.ingest
KIBITZ_INGEST_QUEUE = env_str("KIBITZ_INGEST_QUEUE", "")
CELERY_TASK_ROUTES = ("config.celery.route",)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600, minimum=10)
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 5
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # a batch is long: never hold one back from another worker
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env_int(  # KiB; a prefork child past it is replaced
    "CELERY_WORKER_MAX_MEMORY_PER_CHILD", 400_000, minimum=50_000
)
CELERY_TASK_IGNORE_RESULT = True  # verdicts live in the database; no result backend
CELERY_RESULT_BACKEND = None
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BEAT_SCHEDULE = {
    "sweep-uploads": {"task": "records.tasks.sweep_uploads", "schedule": 60.0},
    "sweep-ratings": {"task": "ratings.tasks.sweep_ratings", "schedule": 60.0},
    "sweep-profiles": {"task": "players.tasks.sweep_profiles", "schedule": 60.0},
}

# --- logging -------------------------------------------------------------------------

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        }
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
