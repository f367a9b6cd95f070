# The two entry points of the README: `make demo` (set up + main job) and `make test`
# (set up + tests + lint + types). Everything installs into .venv, at the versions of
# requirements.lock.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCKED := $(VENV)/.locked

.PHONY: demo test test-quick setup lock lint types clean

# The venv holds exactly the packages of requirements.lock: a new lock makes a new venv (pip
# does not remove what a lock dropped), then the project itself is installed over it without
# its dependencies (again when pyproject.toml changes: its entry points are install metadata).
$(LOCKED): requirements.lock
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet pip==26.3
	$(BIN)/python -m pip install --quiet -r requirements.lock
	touch $(LOCKED)

$(STAMP): $(LOCKED) pyproject.toml
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m sim.treasure_island.compiled
	touch $(STAMP)

setup: $(STAMP)

# The lock again, from pyproject.toml's ranges, after a dependency is added, removed or
# changed (tests/test_lock.py fails until then). uv, because it resolves for every platform
# and Python 3.11+ at once (markers such as `sys_platform == 'win32'`) into a plain
# requirements file that pip installs with no other tool; pip's own `pip lock` is still
# experimental, locks for this machine only and records the index URLs it resolved from. A
# version already in the lock is kept while it fits the ranges, so the lock moves only where
# it must (`make lock LOCK_FLAGS=--upgrade` takes the newest versions the ranges allow); an
# unchanged lock is not rewritten, so the venv is not rebuilt for nothing.
LOCK_FLAGS ?=
lock: $(STAMP)
	cp requirements.lock $(VENV)/requirements.lock
	$(BIN)/uv pip compile pyproject.toml --extra dev --universal --python-version 3.11 \
		--quiet --custom-compile-command "make lock" $(LOCK_FLAGS) -o $(VENV)/requirements.lock
	cmp -s $(VENV)/requirements.lock requirements.lock \
		|| cp $(VENV)/requirements.lock requirements.lock

demo: $(STAMP)
	$(BIN)/tourney simulate data/specs/demo.toml
	$(BIN)/tourney report data/runs/demo data/runs/demo-without-curses

# Every test but the full replication studies, on every core, each test named as it ends
# (-v) and the ten slowest listed at the end. Files are handed out in the order the tests'
# conftest sets (the longest first): xdist would otherwise reorder them by their number of
# tests, leaving the few long ones for the end.
test: $(STAMP)
	$(BIN)/python -m pytest -v -n auto --dist loadfile --no-loadscope-reorder --durations=10
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The unmarked tests only: no Ray, no object store, no optimal-player solves.
test-quick: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder \
		-m "not slow and not cluster and not replication"

# Rewrite every golden file the tests compare with (each game's playthrough, each metric
# query's answer): on purpose, after a change meant to alter them; read the diff.
.PHONY: goldens
goldens: $(STAMP)
	$(BIN)/python -m scripts.goldens

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
