# Two commands a newcomer needs: `make play` and `make test`. Each sets itself up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Playing needs only the game's own dependencies; the checks add the development tools
# (pytest, Playwright, mypy, ruff) on top, so a player never waits for them.
READY_PLAY := $(VENV)/.ready-play
READY_DEV := $(VENV)/.ready-dev
READY_BYTECODE := $(VENV)/.ready-bytecode

.PHONY: play test tests lint typecheck compiled collected checks packages clean

# Each environment is brought up to date whenever the project's requirements change.
# pip would byte-compile every file it installs (numpy's own tests, every Pygments lexer, all of
# Numba): on the 2-core machine 6 s of the 11 the game's install took, most of it for modules
# nothing here imports. The installs leave that out; what is imported is compiled instead, by
# importing it once with bytecode caches on (the environment may turn them off: then every start
# would compile it again, 1.5 s of `kismet`'s 2.8): the game's modules before the first game, the
# tests' while the checks run (below).
#
# The environment is made without pip, and the Python that makes it installs the latest pip into it:
# 1.8 s, against 4.5 s for venv's own copy of an older pip upgraded at once (which an older pip
# installs the rest with about twice as slowly). A Python whose pip cannot do that (none, or older
# than 22.3) gives the environment venv's own, then upgraded.
$(READY_PLAY): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	$(BIN)/python -m pip --version >/dev/null 2>&1 \
		|| $(PYTHON) -m pip --python $(BIN)/python install --quiet --upgrade pip \
		|| ($(BIN)/python -m ensurepip && $(BIN)/python -m pip install --quiet --upgrade pip)
	$(BIN)/python -m pip install --quiet --no-compile -e .
	touch $(READY_PLAY)

$(READY_BYTECODE): $(READY_PLAY)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -c 'import numba, kismet_dice.cli, kismet_dice.tui.app, kismet_dice.web'
	touch $(READY_BYTECODE)

# The tests cover a site's store too, so they install its extra (psycopg) alongside the tools.
$(READY_DEV): $(READY_PLAY)
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev,site]'
	touch $(READY_DEV)

play: $(READY_BYTECODE)
	$(BIN)/kismet play

lint: $(READY_DEV)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(READY_DEV)
	$(BIN)/mypy --strict src tests

# Numba compiles the strategy's loops on their first run (into the source tree's __pycache__, so a
# clean clone has none): compiled once here, the tests' workers and commands load them instead of
# each compiling them at once. It needs only the game's own dependencies, so it runs while the
# tools are installed; the source is put on the path itself, since that install replaces the
# project's own link to it meanwhile. With bytecode caches on, it compiles the modules it imports
# (numpy, Numba, the strategy) for the workers too.
compiled: $(READY_PLAY)
	PYTHONDONTWRITEBYTECODE= PYTHONPATH="$(CURDIR)/src" $(BIN)/python -m tests.support.warm

# What the tests import beyond the game (pytest and its plugins, Playwright, the test modules
# themselves, rewritten for pytest's asserts) is compiled once by collecting them, before the
# workers do: each would compile it again at once while the others did (the first tests began
# 9 s after pytest started, 5 s with it compiled). If the collecting fails, what it said is shown
# without the list of the tests (each named with its file and "::").
collected: $(READY_DEV)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest --collect-only -q -p no:xdist >$(VENV)/collected.log \
		|| (grep -v :: $(VENV)/collected.log; exit 1)

# The compiling (two processes, see tests/support/warm.py), installing the tools and checking: side by side.
# Once the tools are in, the type check (the longest) and the collecting run beside the compiling,
# three at once on two cores: two at a time, whichever came last ran alone for 6 s at the end.
checks: $(READY_PLAY)
	$(MAKE) --no-print-directory -j3 compiled typecheck collected lint

# The Debian packages the tests need, those missing installed by one apt-get: Chromium's headless
# shell for the browser tests (tests/support/browser.py; Playwright's own browser download does not
# work here) and PostgreSQL's server binaries, from which the storage tests start a throwaway cluster.
# One install for both, since make runs the steps beside each other: two apt-gets at once find apt's
# lock taken, and one fails (on a machine with neither package, `make test` stopped there).
# Another apt may hold that lock too (a new machine's first upgrades, say), and apt-get then fails
# at once: `apt-get update`'s lock has no timeout to set. Each apt-get is tried again every 5 s while
# apt's lock is what stops it, for up to APT_WAIT seconds, saying so once; any other failure ends
# the step at once. (Its output is shown when it ends, since it is read for the lock's message.)
# Without the packages Debian only recommends: for the headless shell they are a desktop's (a printer
# dialog, Samba, Avahi, a terminal, Perl's web modules: 107 packages against 19), and installing them
# took 14.7 s against 7.0 s on the 2-core machine, beside the compiling that runs meanwhile.
APT_WAIT ?= 600
packages:
	@missing=; \
	test -x /usr/lib/chromium/chromium-headless-shell || missing="$$missing chromium-headless-shell"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	test -z "$$missing" && exit 0; \
	echo "Installing$$missing with apt-get"; \
	apt_get() { \
		waited=0; \
		until said=$$(apt-get "$$@" 2>&1); do \
			if ! echo "$$said" | grep -q "Could not get lock" || [ $$waited -ge $(APT_WAIT) ]; then \
				echo "$$said"; return 1; \
			fi; \
			[ $$waited -gt 0 ] || echo "apt is busy (another install is running): waiting for it, up to $(APT_WAIT) s"; \
			sleep 5; waited=$$((waited + 5)); \
		done; \
		echo "$$said"; \
	}; \
	apt_get update && apt_get install -y --no-install-recommends $$missing

# A file's tests run in one worker, so each file's session fixtures (the solved table, the
# distribution, a PostgreSQL cluster) are made once per worker that needs them.
# The files are handed out in the order tests/conftest.py gives them (the long ones first, those
# that mostly wait spread among them), not pytest-xdist's (the files with the most tests first).
# The tests start many Python processes (`kismet` commands, servers and their workers), and each
# would compile the whole package again where the environment turns bytecode caches off.
# One worker more than the cores: many tests wait on servers, browsers and timers, and the extra
# worker uses a core meanwhile (on the 2-core machine 157 s, against 172-181 s with two; four
# gave no more).
# The tests start once the loops are compiled and the tests collected, the type check still running
# beside them if it has not ended (it ran alone for the last 3 s of the checks); `make test` fails
# if any of them fails. Debian's packages are installed from the start, beside the game's own
# install (apt waits on the network and the disk, pip keeps one core), rather than after it beside
# the compiling, which keeps both: from a clean clone on the 2-core machine without the packages
# (apt's lists and cache emptied), the steps before the tests took 34.8-43.0 s, 39.0 on average of
# four, against 38.4-45.2 s, 41.6 of three.
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test:
	$(MAKE) --no-print-directory -j3 compiled typecheck collected lint tests

tests: compiled collected packages
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
