"""The checkout's ``.env.local`` (issue 24, point 9): ``make run`` writes one choosing the
development profile (scripts/dev_env.sh), the settings read it, the caller's
environment wins over it, production stays as strict without it, and the test suite
never reads one.  Each case runs the settings in a subprocess, in a copy of config/
(so the checkout's own .env.local and var/ are never touched)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: what the environment of these subprocesses must not carry in from this session
DROPPED = ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "KIBITZ_DOTENV", "CI")
READ = "import config.settings as s; print(s.DEBUG, s.DOTENV, s.KIBITZ_UPLOAD_MAX_BYTES)"


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder holding a copy of config/ (what the settings need to load)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "__init__.py").write_text("")
    for name in ("env.py", "settings.py"):
        shutil.copy(ROOT / "config" / name, tmp_path / "config" / name)
    return tmp_path


def _settings(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in DROPPED}
    return subprocess.run(
        [sys.executable, "-c", READ],
        cwd=folder,
        env={**clean, "PYTHONPATH": str(folder), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def _dev_env(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "dev_env.sh"), str(folder)],
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_make_runs_env_file_chooses_the_development_profile(checkout: Path) -> None:
    refused = _settings(checkout)  # no .env.local yet: production, which wants a secret key
    assert refused.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set" in refused.stderr
    made = _dev_env(checkout)
    assert made.returncode == 0, made.stderr
    assert "wrote .env.local" in made.stderr
    assert "DEBUG=1" in (checkout / ".env.local").read_text().splitlines()
    run = _settings(checkout)
    assert run.returncode == 0, run.stderr
    debug, path, _ = run.stdout.split()
    assert (debug, path) == ("True", str(checkout / ".env.local"))


def test_make_run_never_overwrites_an_existing_env_file(checkout: Path) -> None:
    (checkout / ".env.local").write_text("KIBITZ_UPLOAD_MAX_BYTES=4096\n")
    made = _dev_env(checkout)
    assert made.returncode == 0 and "sets no DEBUG" in made.stderr
    assert (checkout / ".env.local").read_text() == "KIBITZ_UPLOAD_MAX_BYTES=4096\n"
    run = _settings(checkout, DEBUG="1")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[2] == "4096"  # the file's value, read


def test_the_callers_environment_wins_over_the_env_file(checkout: Path) -> None:
    (checkout / ".env.local").write_text("DEBUG=1\nKIBITZ_UPLOAD_MAX_BYTES=4096\n")
    # DEBUG=0 exported: production, exactly as strict as without a file
    run = _settings(checkout, DEBUG="0", ALLOWED_HOSTS="example.org")
    assert run.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set" in run.stderr
    run = _settings(checkout, KIBITZ_UPLOAD_MAX_BYTES="2048")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", str(checkout / ".env.local"), "2048"]


def test_kibitz_dotenv_names_another_file_or_turns_it_off(checkout: Path) -> None:
    (checkout / ".env.local").write_text("DEBUG=1\n")
    other = checkout / "elsewhere.env"
    other.write_text("DEBUG=yes\nKIBITZ_UPLOAD_MAX_BYTES=777\n")
    run = _settings(checkout, KIBITZ_DOTENV="elsewhere.env")  # relative to the checkout
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", str(other), "777"]
    off = _settings(checkout, KIBITZ_DOTENV="off")
    assert off.returncode != 0 and "SECRET_KEY must be set" in off.stderr
    missing = _settings(checkout, KIBITZ_DOTENV="nowhere.env")
    assert missing.returncode != 0
    assert "KIBITZ_DOTENV='nowhere.env' names no file" in missing.stderr


def test_the_test_suite_never_reads_a_developers_env_file(tmp_path: Path) -> None:
    """pyproject's pytest env forces KIBITZ_DOTENV=off: a run started with a .env
    pointed at (or lying in the checkout) sees the settings CI sees."""
    assert os.environ["KIBITZ_DOTENV"] == "off"
    local = tmp_path / "developer.env"
    local.write_text("KIBITZ_UPLOAD_MAX_BYTES=123\nKIBITZ_BATCH_SIZE=7\n")
    test = tmp_path / "test_probe.py"
    test.write_text(
        "import os\n"
        "from django.conf import settings\n\n"
        "def test_probe():\n"
        "    assert os.environ['KIBITZ_DOTENV'] == 'off'\n"
        "    assert settings.DOTENV is None\n"
        "    assert settings.KIBITZ_UPLOAD_MAX_BYTES == 50 * 1024 * 1024\n"
        "    assert settings.KIBITZ_BATCH_SIZE == 500\n"
    )
    clean = {k: v for k, v in os.environ.items() if k not in DROPPED}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT), str(test)],
        cwd=ROOT,
        env={**clean, "KIBITZ_DOTENV": str(local)},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout
    script = (ROOT / "scripts" / "test.sh").read_text()
    assert "export KIBITZ_DOTENV=off" in script  # make test's lint steps too


def test_docker_composes_env_file_is_not_the_local_one() -> None:
    """``make run``'s development file is not the file docker compose gives its
    containers (``.env``, a copy of .env.example): a checkout where ``make run`` ran
    never starts production containers in the development profile."""
    from config.env import LOCAL_ENV

    compose = (ROOT / "docker-compose.yml").read_text()
    assert "env_file: .env\n" in compose
    assert LOCAL_ENV == ".env.local" and LOCAL_ENV not in compose
