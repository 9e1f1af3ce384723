# The README's commands. `make run` starts the platform on embedded defaults; `make test` runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1
# The development targets run with DEBUG=1, whose built-in SECRET_KEY is for this machine only: with DEBUG off the
# platform refuses to start without a SECRET_KEY of its own (config/settings.py).
DEV := DEBUG=1

.PHONY: run test test-serial test-fast test-services install install-dev migrate demo lint format migrations-check messages ci ci-load bench frontend clean relation-model

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(DEV) $(PY) manage.py migrate --noinput

demo: migrate
	$(DEV) $(PY) manage.py load_demo

## Start the whole platform (HTTP + websockets) on embedded defaults: SQLite, in-memory channel layer, eager Celery.
run: demo
	@echo ""
	@echo "  wozsql is running at http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	@echo "  Sign in as a worker in one browser and as an expert in another (see the accounts above)."
	@echo ""
	$(DEV) $(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application

## Every test on the embedded defaults and, side by side, on real PostgreSQL + Redis started for the run: every test
## that touches the database or the channel layer, and the browser tests of the screens that depend on the stack
## (tests/browser/conftest.py STACK_FILES). tools/run_tests.py runs both passes and gives one verdict; `make
## test-serial` runs them one after the other.
test: install-dev
	$(PY) tools/test_stack.py ensure-system-packages
	$(PY) tools/run_tests.py

test-serial: install-dev
	$(PY) tools/test_stack.py ensure-system-packages
	$(PY) tools/run_tests.py --serial

## The embedded-defaults run only (quick feedback while working).
test-fast: install-dev
	$(PY) -m pytest -x -q -m "not browser"

test-services: install-dev
	$(PY) tools/run_tests.py --only services

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

migrations-check: install
	$(DEV) $(PY) manage.py makemigrations --check --dry-run

ci: lint migrations-check test ci-load

## A short load round on the embedded defaults, the platform as `make run` starts it (SQLite, the in-memory channel
## layer, eager Celery, one Daphne with DEBUG=1): the chat benchmark's scripted rooms, then real CoSQL dialogues
## replayed through the lobby and rooms (bench/replay.py, needs ../shared), then again with the SQLite file named by a
## sqlite:// DATABASE_URL, as a lab that keeps it elsewhere runs. Each fails on a lost or duplicated
## message, a lost ending, or a traceback, OperationalError or "database is locked" in the server's log.
ci-load: install-dev
	$(PY) bench/chat_load.py --stack embedded --rooms 24 --questions 3 --think 0.5 --no-floor
	$(PY) bench/replay.py --stack embedded --dialogues 30 --concurrency 10 --think 0.2
	$(PY) bench/replay.py --stack sqlite-url --dialogues 30 --concurrency 10 --think 0.2

## The translation catalogues (docs/i18n.md): re-extract every marked string of the templates and the Python code into
## locale/zh_Hans/LC_MESSAGES/django.po (and the JavaScript's into djangojs.po), then compile the .mo files, which are
## committed so that running and testing need no gettext. Needs GNU gettext (apt-get install gettext).
MESSAGE_IGNORES := --ignore='*/tests/*' --ignore=tests --ignore=bench --ignore=tools --ignore=deploy --ignore=frontend \
	--ignore=var --ignore=.venv
messages: install
	$(DEV) $(PY) manage.py makemessages -l zh_Hans --no-obsolete --no-wrap $(MESSAGE_IGNORES) --ignore=static
	$(DEV) $(PY) manage.py makemessages -d djangojs -l zh_Hans --no-obsolete --no-wrap $(MESSAGE_IGNORES) --ignore=static/js/vendor
	$(DEV) $(PY) manage.py compilemessages -l zh_Hans --ignore=.venv

bench: install-dev
	$(PY) bench/spider_encoding.py
	$(PY) bench/sandbox.py

## Rebuild the vendored browser files from frontend/package-lock.json: the SQL editor's CodeMirror bundle
## (static/js/vendor/codemirror.bundle.js) and axe-core for the browser tests (tests/browser/vendor/axe.min.js).
## Needs Node 20 and npm; both outputs are committed, so `make run` and `make test` need neither.
frontend:
	cd frontend && npm ci --no-audit --no-fund
	cd frontend && node build.mjs

clean:
	rm -rf $(VENV) var .pytest_cache

## The learned intent model (annotation/labels/relation_model.json) and the list of CHASE labels corrected by definition,
## rebuilt from ../shared/corpora; `bench/relations_cv.py` measures it with whole databases held out (docs/chase.md).
relation-model: install
	$(PY) bench/relation_model_build.py
