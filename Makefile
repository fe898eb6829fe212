# The two commands in the README: `make run` and `make test` (and, for iterating,
# `make test-fast`; before resolving an issue that changes the pages, `make test-matrix`).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two installs: what running the site needs, and that plus the test tools (pytest,
# Playwright, hypothesis, axe, ruff, import-linter). `make run` never pulls the second.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test test-fast test-matrix screenshots prod lint format lock fairness bench bench-load bench-page soak messages

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Both at the versions of requirements.lock (pip's constraints), so that every machine
# runs what was tested; `make lock` writes it anew after a change to pyproject.toml.
$(RUN_STAMP): pyproject.toml requirements.lock | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -c requirements.lock -e .
	@touch $(RUN_STAMP)

# The test tools include everything the site needs, so this stamps both.
$(TEST_STAMP): pyproject.toml requirements.lock | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -c requirements.lock -e '.[test]'
	@touch $(RUN_STAMP) $(TEST_STAMP)

# Where `make run` listens: `make run PORT=8001`, `make run HOST=0.0.0.0` (other machines
# too: add the name they use to ALLOWED_HOSTS). Set on make's command line only: a PORT or
# HOST the environment happens to have (a platform's, a shell's) does not move the site.
HOST = 127.0.0.1
PORT = 8000

run: $(RUN_STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# pytest runs in parallel workers (pytest-xdist; what each keeps to itself: tests/workers.py).
# The suite mostly waits (on servers, browsers, sockets), so more workers than cores pay.
# Each worker takes the Redis database REDIS_URL names plus its index: keep REDIS_URL's
# database number + TEST_WORKERS at most 16. TEST_WORKERS=0 runs the tests in one process.
TEST_WORKERS ?= 4

test: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run
	@echo "$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)"
	@started=$$(date +%s); status=0; \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS) || status=$$?; \
	echo "make test: pytest took $$(( $$(date +%s) - started )) s with $(TEST_WORKERS) workers"; \
	exit $$status

# For iterating: ruff and pytest without the browser tests and the tests that start server
# processes (markers browser and system, set in tests/conftest.py). `make test` stays the
# whole suite and what CI runs.
test-fast: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@started=$$(date +%s); status=0; \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal -m "not browser and not system" $(PYTEST_ARGS) || status=$$?; \
	echo "make test-fast: pytest took $$(( $$(date +%s) - started )) s with $(TEST_WORKERS) workers"; \
	exit $$status

# The whole suite with the browser checks in every combination of locale, size and colour
# scheme (tests/matrix.py) instead of each value once, as `make test` runs them: before resolving an issue
# that changes templates, CSS or the table's scripts.
test-matrix:
	TEST_MATRIX=full SCREENSHOT_DIR=test-artifacts/screenshots $(MAKE) test

# The browser tests (each value once) with the screenshots of what they saw, for a person to look
# at; `make test` takes none (tests/browser/conftest.py: SCREENSHOTS).
screenshots: $(TEST_STAMP)
	SCREENSHOT_DIR=test-artifacts/screenshots $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal -m browser $(PYTEST_ARGS)

# The site for real: nginx (TLS, static files) in front of Daphne processes, PostgreSQL and
# Redis; see docs/operations.md. scripts/prod.sh start|stop|status runs it in the background.
prod: $(RUN_STAMP)
	bash scripts/prod.sh run

# The lockfile from a fresh test install of pyproject.toml's ranges (the newest versions
# they allow), in a throwaway venv; run the suite on it before committing it.
lock:
	rm -rf $(VENV)-lock && $(PYTHON) -m venv $(VENV)-lock
	$(VENV)-lock/bin/python -m pip install -q --upgrade pip
	$(VENV)-lock/bin/python -m pip install -q -e '.[test]'
	{ sed -n '1,3p' requirements.lock; $(VENV)-lock/bin/python -m pip freeze --exclude-editable | sort -f; } > requirements.lock.new
	mv requirements.lock.new requirements.lock && rm -rf $(VENV)-lock

lint: $(TEST_STAMP)
	$(BIN)/ruff check .

format: $(TEST_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Searches and measures every deal (games/fairness_data.json) and rewrites the tables in
# docs/fairness.md: about 35 CPU minutes over two processes, at the lowest priority. The
# research is development only (tools/fairness, numpy), so it needs the test install.
fairness: $(TEST_STAMP)
	nice -n 19 $(BIN)/python -m tools.fairness --search --write docs/fairness.md

bench: $(TEST_STAMP)
	$(BIN)/python -m tools.bench_engine --write docs/performance.md

# Rooms of bots over real WebSockets against the production mode, and an echo baseline
# (about 6 minutes); writes docs/performance.md. Run it when nothing else is running.
# The table page's weight (gzip, first visit) and how soon it can be played, in Chromium.
bench-page: $(TEST_STAMP)
	$(BIN)/python -m tools.page_weight --write docs/performance.md

bench-load: $(TEST_STAMP)
	bash scripts/bench_load.sh

# The production mode for 10 minutes under bots, spectators, /healthz polls, lobby sockets
# and a flooding client (scripts/soak.sh, python -m tools.soak); fails if a figure grows
# with time or the flood slows the players; writes docs/performance.md. Run it alone.
soak: $(TEST_STAMP)
	bash scripts/soak.sh

# Refresh the message catalogues and compile them (needs gettext's msgfmt).
LOCALES := de ja ko zh_Hans zh_Hant
messages: $(RUN_STAMP)
	$(BIN)/python manage.py makemessages $(foreach l,$(LOCALES),-l $(l)) --no-obsolete --ignore=.venv --ignore=tests --ignore=staticfiles --ignore=tools
	$(BIN)/python manage.py compilemessages --ignore=.venv
