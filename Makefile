# Two entry points: `make demo` (install, then crawl the local web) and `make test`.
PYTHON ?= python3
VENV := .venv

.PHONY: demo test benchweb
demo: $(VENV)/.installed
	$(VENV)/bin/python -m focused.demo

test: $(VENV)/.installed
	$(VENV)/bin/python -m pytest -q

# The benchmark web of real documents: Debian's documentation packages (needs root for
# apt-get), built into benchweb/. Then: $(VENV)/bin/python -m benchmarks.side_by_side
benchweb: $(VENV)/.installed
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$$($(VENV)/bin/python -m focused.docsweb packages)
	$(VENV)/bin/python -m focused.docsweb build --root benchweb

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q -r requirements.txt
	touch $@
