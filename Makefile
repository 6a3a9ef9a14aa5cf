# Kibitz — the two commands a newcomer needs are `make run` and `make test`.
# Each sets up its own virtualenv (.venv) when missing or when pyproject.toml changed.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup run test lint fmt bench clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP)

## make run: serve the archive with demo data on http://127.0.0.1:8000
run: setup
	@bash scripts/run.sh

## make test: lint, then the whole test suite (PostgreSQL/Redis when found)
test: setup
	@bash scripts/test.sh

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=1 $(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

fmt: setup
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

## make bench: the benchmark suite (see docs/performance.md); ONLY=<name> runs one
bench: setup
	@$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) -m bench $(if $(ONLY),--only $(ONLY))

clean:
	rm -rf var/ .pytest_cache .ruff_cache .mypy_cache
