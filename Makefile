# Two commands a newcomer needs: `make play` and `make test`. Each sets itself up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
READY := $(VENV)/.ready

.PHONY: play test lint typecheck browser clean

# The virtual environment is rebuilt whenever the project's requirements change.
$(READY): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(READY)

play: $(READY)
	$(BIN)/kismet play

lint: $(READY)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(READY)
	$(BIN)/mypy --strict src

# The browser tests drive Debian's Chromium; Playwright's own browser download does not work here.
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

test: lint typecheck browser
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
