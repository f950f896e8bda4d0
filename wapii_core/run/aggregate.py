"""The run's last stage: the stored results aggregated by the metric providers into summary.json, and
report.md."""

from __future__ import annotations

from typing import Any

from wapii_core.base import plugins
from wapii_core.base.model import Sample
from wapii_core.base.protocols import Dataset
from wapii_core.judge.unstarted import provisional
from wapii_core.run.plan import metric_names
from wapii_core.store.record import RECORD_VERSION, Summary
from wapii_core.store.rundir import REPORT_FILE, SUMMARY_FILE, RunStore, write_atomic, write_json

__all__ = ["finish"]


def finish(store: RunStore, dataset: Dataset, samples: list[Sample], keys: list[str],
           names: list[str] | None = None) -> Summary:
    """Aggregate the stored results into summary.json and report.md, applying the metric providers
    ``names`` (default: :func:`metric_names`); what each provider declares of its values is stored
    under ``metric_kinds``, so that a report shows them without the plugin installed."""
    from wapii_core.judge.metric_guard import apply_provider
    from wapii_core.base.declared import top_level
    from wapii_core.base.metric_kinds import record
    from wapii_core.report.tables import markdown_report
    from wapii_core.store.rundir import ordered

    results = ordered([store.results[k] for k in keys if k in store.results], keys)
    failed = [g for g in store.failed_generations() if g.key in set(keys) and g.key not in store.results]
    missing = [k for k in keys if provisional(store.results.get(k))]
    store.write_run()
    summary = Summary(record_version=RECORD_VERSION, complete=not missing, samples=len(keys), tasks=len(samples),
                      tasks_of=len(dataset.samples), judged=len(results),
                      not_executed=sum(result.provisional for result in results),
                      failed_generations=[{"sample": g.sample, "draw": g.draw, "error": g.error} for g in failed],
                      mode=store.run.mode, setup=store.run.setup)
    paper: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    kinds: dict[str, Any] = {}
    for name in names if names is not None else metric_names():
        provider = plugins.metrics.get(name)
        kinds[name] = record(provider.values)
        outcome = apply_provider(provider, results, dataset)
        if not top_level(provider):
            if outcome.value == {} and not outcome.failure:
                kinds.pop(name)  # nothing to say about this run (the workflows provider on one-call tasks)
                continue
            extra[name] = outcome.recorded()
            continue
        paper = outcome.value or {}  # the paper's rows live at the top level
        if outcome.failure:
            extra[name] = outcome.failure
    summary = Summary.model_validate({**summary.data(), **paper, "metrics": extra, "metric_kinds": kinds})
    write_json(store.directory / SUMMARY_FILE, summary.data())
    write_atomic(store.directory / REPORT_FILE, markdown_report([(store.directory.name, store.run, summary)]))
    return summary
