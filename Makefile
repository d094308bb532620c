# Two entry points: `make demo` (install, then crawl the local web) and `make test`.
PYTHON ?= python3
VENV := .venv

.PHONY: demo test
demo: $(VENV)/.installed
	$(VENV)/bin/python -m focused.demo

test: $(VENV)/.installed
	$(VENV)/bin/python -m pytest -q

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q -r requirements.txt
	touch $@
