# The two commands of the README's quick start. Each installs what it needs, idempotently.
.PHONY: run test bench install

VENV := .venv
WAPII := $(VENV)/bin/wapii
SHARED ?= $(abspath ../shared)

install:
	./scripts/bootstrap
	$(WAPII) setup

# The main job on the embedded default: the bundled demo dataset, axios_js, the hf backend on
# wapii-tiny (a small model built locally on first use).
run: install
	$(WAPII) run --backend hf --model wapii-tiny

# The whole test suite (reads the reference data from $(SHARED)).
test: install
	WAPII_SHARED=$(SHARED) $(VENV)/bin/python -m pytest -q $(PYTEST_ARGS)

# Every benchmark script under benchmarks/ (numbers go into the README).
bench: install
	for b in benchmarks/bench_*.py; do $(VENV)/bin/python $$b || exit 1; done
