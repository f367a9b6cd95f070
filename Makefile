# The two entry points of the README: `make demo` (set up + main job) and `make test`
# (set up + tests + lint + types). Everything installs into .venv from pyproject.toml.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-quick setup lint types clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/tourney simulate data/specs/demo.toml
	$(BIN)/tourney report data/runs/demo data/runs/demo-without-curses

# Every test but the full replication studies, on every core, each test named as it ends
# (-v) and the ten slowest listed at the end.
test: $(STAMP)
	$(BIN)/python -m pytest -v -n auto --dist loadfile --durations=10
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The unmarked tests only: no Ray, no object store, no optimal-player solves.
test-quick: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m "not slow and not cluster and not replication"

# Rewrite every golden file the tests compare with (each game's playthrough, each metric
# query's answer): on purpose, after a change meant to alter them; read the diff.
.PHONY: goldens
goldens: $(STAMP)
	$(BIN)/python -m scripts.goldens

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
