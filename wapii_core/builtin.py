"""The core's built-in plugin, discovered through the ``wapii`` entry-point group like any other.

It registers the ``oracle`` and ``replay`` backends, the ``wapii`` metric provider (the paper's
table rows) and the ``wapiibench``, ``wapiibench-context``, ``demo`` and ``workflows`` datasets. Imports are
deferred to first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from wapii_core.base.hookspecs import hookimpl


def _oracle(options: Any, context: Any) -> Any:
    from wapii_core.generation.backends import OracleBackend

    return OracleBackend(options, context)


def _replay(options: Any, context: Any) -> Any:
    from wapii_core.generation.backends import ReplayBackend

    return ReplayBackend(options, context)


_oracle.kind = "renders"  # type: ignore[attr-defined]  (read before the backend is created: wapii_core.base.declared)
_replay.kind = "replays"  # type: ignore[attr-defined]


@hookimpl
def register_backends(register: Callable[..., None]) -> None:
    register("oracle", _oracle, description="renders each expected request through the adapter (self-test)")
    register("replay", _replay, description="re-scores stored programs (--generations FILE.jsonl or DIR)")


class _LazyProvider:
    """A metric provider whose module is imported only when a run aggregates."""

    def __init__(self, module: str, name: str, top_level: bool = False) -> None:
        self._module, self._name = module, name
        self.top_level = top_level  # its values are the summary's top-level rows (wapii_core.base.declared)

    @property
    def _provider(self) -> Any:
        import importlib

        return getattr(importlib.import_module(self._module), self._name)()

    @property
    def values(self) -> Any:
        return self._provider.values

    def aggregate(self, results: Any, dataset: Any) -> dict[str, Any]:
        return self._provider.aggregate(results, dataset)


@hookimpl
def register_metrics(register: Callable[..., None]) -> None:
    register("wapii", _LazyProvider("wapii_core.judge.metrics", "PaperMetrics", top_level=True),
             description="the paper's table rows, overall and per API")
    register("spec_validation", _LazyProvider("wapii_core.judge.spec_validation", "SpecValidation"),
             description="captured requests validated against the spec's schemas with openapi-core: wrong types, "
                         "bad enum values, missing required arguments, undeclared content types")
    register("pass_at_k", _LazyProvider("wapii_core.judge.pass_at_k", "PassAtK"),
             description="unbiased pass@k and pass^k of a correct implementation (Chen et al. 2021; tau-bench), "
                         "k = 1, 5, 10 where --draws allows, the flip rate across draws and the minimal detectable "
                         "difference")
    register("workflows", _LazyProvider("wapii_core.report.workflow_metrics", "WorkflowMetrics"),
             description="multi-step tasks: task success, end state, step precision and recall, illegal requests, "
                         "collateral damage and extra requests, each with a 95 % bootstrap interval")


def _wapiibench(data_dir: Path | None) -> Any:
    from wapii_core.datasets.loader import load_wapiibench

    return load_wapiibench(data_dir)


def _fetch_wapiibench(data_dir: Path, base_url: str | None = None) -> Path:
    from wapii_core.datasets.loader import fetch_wapiibench

    return fetch_wapiibench(data_dir, base_url) if base_url else fetch_wapiibench(data_dir)


_wapiibench.fetch = _fetch_wapiibench  # type: ignore[attr-defined]
_wapiibench.spec_validation_baseline = (  # type: ignore[attr-defined]  (under a spec_validation table of its runs)
    " (WAPIIBench: 4.6 % of the expected requests violate a schema, the 18 samples `datasets check` flags, "
    "and 46.2 % send an undeclared content type: every Slack body is JSON, as axios sends it, while the Slack "
    "spec declares form bodies only.)")


def _wapiibench_context(data_dir: Path | None) -> Any:
    from wapii_core.datasets.fetch_context import load_wapiibench_context

    return load_wapiibench_context(data_dir)


def _fetch_wapiibench_context(data_dir: Path, base_url: str | None = None) -> Path:
    from wapii_core.datasets.fetch_context import fetch_wapiibench_context

    return fetch_wapiibench_context(data_dir, base_url)


_wapiibench_context.fetch = _fetch_wapiibench_context  # type: ignore[attr-defined]


def _demo(data_dir: Path | None) -> Any:
    from wapii_core.datasets.loader import load_demo

    return load_demo(data_dir)


def _workflows(data_dir: Path | None) -> Any:
    from wapii_core.datasets.loader import load_workflows

    return load_workflows(data_dir)


for _loader in (_wapiibench, _wapiibench_context, _demo, _workflows):
    _loader.default_adapter = "axios_js"  # type: ignore[attr-defined]  (the tasks' prompts are JavaScript + axios)


@hookimpl
def register_datasets(register: Callable[..., None]) -> None:
    register("wapiibench", _wapiibench, description="WAPIIBench: 395 tasks over Asana, Google Calendar, "
             "Google Sheets and Slack Web (download with `wapii datasets fetch wapiibench`)")
    register("wapiibench-context", _wapiibench_context,
             description="WAPIIBench's real-world tasks in code context (the journal edition): 28 tasks over 11 APIs "
                         "(download with `wapii datasets fetch wapiibench-context`)")
    register("demo", _demo, description="the project's own bundled demo API (always available)")
    register("workflows", _workflows, description="multi-step tasks (2-4 calls chained through the mock's answers) "
             "over the demo API, Asana, Google Calendar and Slack (needs WAPIIBench's specs: `wapii datasets fetch "
             "wapiibench`)")
