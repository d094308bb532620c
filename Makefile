# Two entry points: `make demo` (install, then crawl the local web) and `make test`.
PYTHON ?= python3
VENV := .venv

.PHONY: demo test test-fast lint types benchweb system
demo: $(VENV)/.installed
	$(VENV)/bin/python -m testbed.demo

# One pytest process per core (pytest-xdist), a test file to each: a file's module fixtures (a trained model,
# a shared crawl) are made once, and two files' crawls share the machine.
test: $(VENV)/.installed system
	$(VENV)/bin/python -m pytest -q --numprocesses auto --dist loadfile

# pyflakes-level checks and the formatting (pyproject.toml, [tool.ruff]).
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check focused testbed tests benchmarks
	$(VENV)/bin/ruff format --check focused testbed tests benchmarks

# Type checks of the package (pyproject.toml, [tool.mypy]).
types: $(VENV)/.installed
	$(VENV)/bin/python -m mypy

# The fast lane: no local web, crawl, Redis or browser (pytest markers, tests/conftest.py).
test-fast: $(VENV)/.installed
	$(VENV)/bin/python -m pytest -q -m "not e2e and not browser"

# Debian packages the tests drive for real: Chromium (rendering) and a Redis server. Needs root.
SYSTEM_PACKAGES := chromium redis-server
system:
	@command -v chromium >/dev/null && command -v redis-server >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(SYSTEM_PACKAGES); }

# The benchmark web of real documents: Debian's documentation packages (needs root for
# apt-get), built into benchweb/. Then: $(VENV)/bin/python -m benchmarks.side_by_side
benchweb: $(VENV)/.installed
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$$($(VENV)/bin/python -m testbed.docsweb packages)
	$(VENV)/bin/python -m testbed.docsweb build --root benchweb

# focused itself (editable) with every extra, at the exact versions of requirements.txt.
$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -qq -c requirements.txt -e ".[embedding,render,redis,dev]"
	touch $@
