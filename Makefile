# Campaign Ledger: `make run` serves the embedded site with demo data; `make test` checks it all.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python

.PHONY: run test install install-dev lint format migrate demo messages worker beat bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	@echo ""
	@echo "  Campaign Ledger is at http://127.0.0.1:$(PORT)/"
	@echo "  Demo login: demo / ledger-demo   (opponent: rival / ledger-demo)"
	@echo ""
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

test: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(PY) manage.py makemigrations --check --dry-run
	$(BIN)/pytest

lint: install-dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

format: install-dev
	$(BIN)/ruff check --fix . && $(BIN)/ruff format .

messages: install-dev
	$(PY) manage.py makemessages -l es --ignore=.venv --ignore=tests
	$(PY) manage.py compilemessages -l es --ignore=.venv

worker: install
	$(BIN)/celery -A config worker --loglevel=INFO

beat: install
	$(BIN)/celery -A config beat --loglevel=INFO

# Pages and ratings at 10x and 100x a real campaign's history, served by gunicorn on PostgreSQL
# (bench/run.py; report in bench/last-report.md; BENCH_ARGS="--quick" to try it), then the
# in-process league benchmark.
bench: install-dev
	$(PY) bench/run.py $(BENCH_ARGS)
	$(BIN)/pytest tests/benchmarks -s -p no:cacheprovider -o addopts=""

clean:
	rm -rf $(VENV) staticfiles test-results .pytest_cache .ruff_cache db.sqlite3
