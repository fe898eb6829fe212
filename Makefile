# The two commands in the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test prod lint format fairness bench bench-load messages

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The site for real: nginx (TLS, static files) in front of Daphne processes, PostgreSQL and
# Redis; see docs/operations.md. scripts/prod.sh start|stop|status runs it in the background.
prod: $(STAMP)
	bash scripts/prod.sh run

lint: $(STAMP)
	$(BIN)/ruff check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Regenerates the measured tables in docs/fairness.md (takes a few minutes).
fairness: $(STAMP)
	$(BIN)/python manage.py fairness_tables --rounds 1000000 --write docs/fairness.md

bench: $(STAMP)
	$(BIN)/python -m tools.bench_engine --write docs/performance.md

# Rooms of bots over real WebSockets against the production mode, and an echo baseline
# (about 6 minutes); writes docs/performance.md. Run it when nothing else is running.
bench-load: $(STAMP)
	bash scripts/bench_load.sh

# Refresh the message catalogues and compile them (needs gettext's msgfmt).
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l ja -l zh_Hans --ignore=.venv --ignore=tests --ignore=staticfiles
	$(BIN)/python manage.py compilemessages --ignore=.venv
