"""The core's built-in plugin, discovered through the ``wapii`` entry-point group like any other.

It registers the ``oracle`` and ``replay`` backends, the ``wapii`` metric provider (the paper's
table rows) and the ``wapiibench`` and ``demo`` datasets. Imports are deferred to first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from .hookspecs import hookimpl


def _oracle(options: Any, context: Any) -> Any:
    from .backends import OracleBackend

    return OracleBackend(options, context)


def _replay(options: Any, context: Any) -> Any:
    from .backends import ReplayBackend

    return ReplayBackend(options, context)


@hookimpl
def register_backends(register: Callable[..., None]) -> None:
    register("oracle", _oracle, description="renders each expected request through the adapter (self-test)")
    register("replay", _replay, description="re-scores stored programs (--generations FILE.jsonl or DIR)")


class _LazyPaperMetrics:
    """Defers importing the metrics module until a run aggregates."""

    @property
    def _provider(self) -> Any:
        from .metrics import PaperMetrics

        return PaperMetrics()

    @property
    def descriptions(self) -> dict[str, str]:
        return self._provider.descriptions

    def aggregate(self, results: Any, dataset: Any) -> dict[str, Any]:
        return self._provider.aggregate(results, dataset)


@hookimpl
def register_metrics(register: Callable[..., None]) -> None:
    register("wapii", _LazyPaperMetrics(), description="the paper's table rows, overall and per API")


def _wapiibench(data_dir: Path | None) -> Any:
    from .datasets import load_wapiibench

    return load_wapiibench(data_dir)


def _fetch_wapiibench(data_dir: Path, base_url: str | None = None) -> Path:
    from .datasets import fetch_wapiibench

    return fetch_wapiibench(data_dir, base_url) if base_url else fetch_wapiibench(data_dir)


_wapiibench.fetch = _fetch_wapiibench  # type: ignore[attr-defined]


def _demo(data_dir: Path | None) -> Any:
    from .datasets import load_demo

    return load_demo(data_dir)


@hookimpl
def register_datasets(register: Callable[..., None]) -> None:
    register("wapiibench", _wapiibench, description="WAPIIBench: 395 tasks over Asana, Google Calendar, "
             "Google Sheets and Slack Web (download with `wapii datasets fetch wapiibench`)")
    register("demo", _demo, description="the project's own bundled demo API (always available)")
