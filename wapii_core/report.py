"""The paper's tables: rows = the paper's metric rows, columns = runs (or APIs), with intervals.

:func:`build_report` turns loaded runs into :class:`Table` objects (one per setup: full completion,
argument completion and import runs are never mixed in one table; or, with ``by_api``, one per run
with the columns Overall and each API), each cell holding the value from ``summary.json``, a 95 %
bootstrap interval recomputed from ``results.jsonl`` (:mod:`wapii_core.stats`) and whether it is the
best value of its row. Renderers: Markdown here (``report.md`` of every run), CSV, JSON and the
terminal in :mod:`wapii_core.report_formats`, HTML in :mod:`wapii_core.report_html`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Iterable

from .model import SampleResult
from .row_terms import COUNT_ROWS, lower_is_better

RunColumn = tuple[str, dict[str, Any], dict[str, Any]]
"""(column title, run.json contents, summary.json contents): what ``runner.finish`` passes."""

SETUP_TITLES = {"full": "Full completion", "argument": "Argument completion", "import": "Import completion"}


@dataclass
class RunData:
    """One run directory as a report sees it; ``results`` is None when no intervals are wanted."""

    name: str
    run: dict[str, Any]
    summary: dict[str, Any]
    results: list[SampleResult] | None = None

    def with_api(self, api: str) -> "RunData":
        """This run restricted to one API."""
        values = self.summary.get("per_api", {}).get(api, {})
        return RunData(self.name, self.run, {**self.summary, "overall": values, "per_api": {api: values}},
                       self.scoped(api)[1])

    @property
    def label(self) -> str:
        """model × setup × setting × adapter."""
        parts = [self.run.get("model") or self.run.get("backend"), self.run.get("setup"),
                 self.run.get("setting"), self.run.get("adapter")]
        return " · ".join(str(p) for p in parts if p)

    def scoped(self, api: str | None) -> tuple[dict[str, Any], list[SampleResult] | None]:
        """The summary values and results of the whole run (``api`` None) or of one API."""
        values = self.summary.get("overall", {}) if api is None else self.summary.get("per_api", {}).get(api, {})
        results = self.results
        if results is not None and api is not None:
            results = [r for r in results if r.api == api]
        return values, results


@dataclass
class Cell:
    value: float | None
    interval: tuple[float, float] | None = None
    best: bool = False
    kind: str | None = None  # a metric provider's value: rate, count or mean (None: a paper row)


@dataclass
class Table:
    """One table: ``columns`` titles and ``rows`` of (row name, one cell per column)."""

    title: str
    setup: str | None
    columns: list[str]
    rows: list[tuple[str, list[Cell]]]
    runs: list[str] = field(default_factory=list)  # the run directory name behind each column
    scopes: list[str | None] = field(default_factory=list)  # the API behind each column (None: all)
    kind: str = "paper"  # "paper": the paper's rows; "provider": another metric provider's values
    notes: list[str] = field(default_factory=list)  # what rows mean (a provider's descriptions)


@dataclass
class Report:
    tables: list[Table]
    runs: list[RunData]
    paired: list[dict[str, Any]] = field(default_factory=list)
    resamples: int = 0
    seed: int = 0


def row_names() -> list[str]:
    from .metrics import ROW_NAMES

    return list(ROW_NAMES)


def load_runs(directories: Iterable[Path], with_results: bool = True) -> list[RunData]:
    """Read run.json, summary.json and (for intervals) results.jsonl of each run directory."""
    from .store import RESULTS_FILE, load_run, load_summary, read_jsonl

    directories = [Path(d) for d in directories]
    names = [d.resolve().name or str(d) for d in directories]
    runs = []
    for directory, name in zip(directories, names):
        run, summary = load_run(directory), load_summary(directory)
        results = read_jsonl(directory / RESULTS_FILE, SampleResult) if with_results else None
        runs.append(RunData(name if names.count(name) == 1 else str(directory), run, summary, results))
    return runs


def _mark_best(rows: list[tuple[str, list[Cell]]], among: slice = slice(None)) -> None:
    """Flag the best value of each row among the columns ``among`` (no flag when all are equal)."""
    for row, cells in rows:
        candidates = [c for c in cells[among] if c.value is not None]
        values = {c.value for c in candidates}
        if len(values) < 2:
            continue
        best = min(values) if lower_is_better(row) else max(values)
        for cell in candidates:
            cell.best = cell.value == best


def _cells(values: dict[str, Any], results: list[SampleResult] | None, resamples: int,
           seed: int) -> dict[str, Cell]:
    intervals: dict[str, Any] = {}
    if results and resamples > 0:
        from .stats import intervals_for

        intervals = intervals_for(results, resamples=resamples, seed=seed)
    return {row: Cell(values.get(row), intervals.get(row)) for row in row_names()}


def _table(title: str, setup: str | None, columns: list[str], runs: list[str], scopes: list[str | None],
           per_column: list[dict[str, Cell]], among: slice = slice(None)) -> Table:
    rows = [(row, [cells[row] for cells in per_column]) for row in row_names()]
    _mark_best(rows, among)
    return Table(title, setup, columns, rows, runs, scopes)


def _unique_titles(runs: list[RunData]) -> list[str]:
    labels = [r.label for r in runs]
    return [f"{r.name}: {label}" if labels.count(label) > 1 or not label else label for r, label in zip(runs, labels)]


def build_report(runs: list[RunData], by_api: bool = False, api: str | None = None, resamples: int = 2000,
                 seed: int = 0) -> Report:
    """The tables and the paired tests.

    Default: one table per setup with the runs as columns (``api``: of that API only); ``by_api``:
    one table per run with the columns Overall and each API. A run made without the paper's
    provider (``--no-default-metrics``) has no paper table, only its providers' tables.
    """
    report = Report([], runs, resamples=resamples if resamples > 0 and any(r.results for r in runs) else 0, seed=seed)
    if by_api:
        for run in runs:
            apis = sorted(run.summary.get("per_api", {}))
            scopes: list[str | None] = [None, *apis]
            per_column = [_cells(*run.scoped(scope), resamples, seed) for scope in scopes]
            if "overall" in run.summary:
                report.tables.append(_table(f"{run.name}: {run.label} by API", run.run.get("setup"),
                                            ["Overall", *apis], [run.name] * len(scopes), scopes, per_column,
                                            among=slice(1, None)))
            report.tables += _provider_tables([run], f"{run.name} by API: ", by_api=True)
        return report
    titles = dict(zip((id(r) for r in runs), _unique_titles(runs)))
    for setup in _setups(runs):
        group = [r for r in runs if r.run.get("setup") == setup and "overall" in r.summary]
        if not group:
            continue
        per_column = [_cells(*r.scoped(api), resamples, seed) for r in group]
        title = SETUP_TITLES.get(str(setup), f"Setup {setup}")
        report.tables.append(_table(f"{api} — {title}" if api else title, setup, [titles[id(r)] for r in group],
                                    [r.name for r in group], [api] * len(group), per_column))
        report.paired += _paired([r.with_api(api) for r in group] if api else group, resamples, seed)
    if api is None:
        report.tables += _provider_tables(runs, "", by_api=False)
    return report


def _provider_tables(runs: list[RunData], prefix: str, by_api: bool) -> list[Table]:
    """One table per other metric provider (:mod:`wapii_core.provider_tables`)."""
    from .provider_tables import provider_tables

    return provider_tables(runs, prefix, by_api, _unique_titles)


def _setups(runs: list[RunData]) -> list[Any]:
    order = list(SETUP_TITLES)
    found = list(dict.fromkeys(r.run.get("setup") for r in runs))
    return sorted(found, key=lambda s: (order.index(s) if s in order else len(order), str(s)))


def _paired(group: list[RunData], resamples: int, seed: int) -> list[dict[str, Any]]:
    """A paired test of correct implementations for every two runs of ``group`` over the same tasks."""
    from .stats import paired_test

    out: list[dict[str, Any]] = []
    if resamples <= 0:
        return out
    for a, b in combinations(group, 2):
        if not a.results or not b.results or {r.sample for r in a.results} != {r.sample for r in b.results}:
            continue
        test = paired_test(a.results, b.results, resamples=resamples, seed=seed)
        out.append({"setup": a.run.get("setup"), "run_a": a.name, "run_b": b.name, **test.as_dict()})
    return out


def format_value(row: str, value: Any) -> str:
    """Rates as percentages with one decimal, counts (count rows, integers) as integers, a missing
    ratio as ``n/a``."""
    if value is None:
        return "n/a"
    if row in COUNT_ROWS or (isinstance(value, int) and not isinstance(value, bool)):
        return str(int(value))
    return f"{100 * float(value):.1f}"


def format_cell(row: str, cell: Cell) -> str:
    """A cell's value: as its provider declared it (:func:`~wapii_core.metric_kinds.format_metric`), or
    as :func:`format_value` shows a paper row."""
    if cell.kind is not None:
        from .metric_kinds import format_metric

        return format_metric(cell.value, cell.kind)
    return format_value(row, cell.value)


def format_interval(interval: tuple[float, float] | None) -> str:
    """``[40.1, 50.2]`` in percent, or an empty string."""
    return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]" if interval else ""


def describe_run(run: RunData) -> str:
    """One line: dataset, adapter, backend, model, setup, setting, mode and completeness."""
    r, s = run.run, run.summary
    model = f", model `{r['model']}`" if r.get("model") else ""
    done = "" if s.get("complete", True) else " (**incomplete**)"
    return (f"**{run.name}**: dataset `{r.get('dataset')}`, adapter `{r.get('adapter')}`, backend `{r.get('backend')}`"
            f"{model}, setup `{r.get('setup')}`, setting `{r.get('setting')}`, comparison mode "
            f"`{s.get('mode', r.get('mode'))}`; {s.get('judged', 0)} of {s.get('samples', 0)} samples judged{done}")


def describe_paired(test: dict[str, Any]) -> str:
    """One sentence per paired test."""
    low, high = test["interval"]
    return (f"{test['run_a']} vs {test['run_b']} ({test['tasks']} tasks): correct implementations "
            f"{100 * test['rate_a']:.1f} % vs {100 * test['rate_b']:.1f} %, difference "
            f"{100 * test['difference']:+.1f} points, 95 % paired bootstrap interval [{100 * low:+.1f}, "
            f"{100 * high:+.1f}], {test['method']} p = {test['p_value']:.4g}")


def _md_cell(row: str, cell: Cell) -> str:
    text = format_cell(row, cell)
    if cell.interval:
        text += " " + format_interval(cell.interval)
    return f"**{text}**" if cell.best else text


def markdown_table(table: Table) -> str:
    head = ["Metric", *[c.replace("\n", "<br>").replace("|", "\\|") for c in table.columns]]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join([row, *(_md_cell(row, c) for c in cells)]) + " |" for row, cells in table.rows]
    return "\n".join(lines)


def render_markdown(report: Report) -> str:
    """The whole report as Markdown: runs, tables (best values in bold), paired tests, failures."""
    out = ["# wapii report", ""]
    out += [f"- {describe_run(run)}" for run in report.runs]
    out += ["", "Rates in %; (t) over all samples, (e) over executable samples; best value per row in bold."]
    if report.resamples:
        out.append(f"Brackets: 95 % bootstrap interval ({report.resamples} resamples of tasks, seed {report.seed}).")
    for table in report.tables:
        out += ["", f"## {table.title}", "", markdown_table(table)]
        if table.notes:
            out += [""] + [f"- {note}" for note in table.notes]
    if report.paired:
        out += ["", "## Paired tests", ""] + [f"- {describe_paired(t)}" for t in report.paired]
    for run in report.runs:
        failed = run.summary.get("failed_generations") or []
        if failed:
            out += ["", f"## Failed generations in {run.name}", ""]
            out += [f"- {f['sample']} (draw {f['draw']}): {f['error']}" for f in failed]
        failures = provider_failures(run.summary)
        if failures:
            out += ["", f"## Metric provider failures in {run.name}", ""] + [f"- {line}" for line in failures]
    return "\n".join(out) + "\n"


def provider_failures(summary: dict[str, Any]) -> list[str]:
    """One line per metric provider that failed, as summary.json records it (:mod:`wapii_core.metric_guard`)."""
    lines = []
    for name, value in (summary.get("metrics") or {}).items():
        if not isinstance(value, dict):
            continue
        if value.get("error"):
            lines.append(f"{name}: failed, no values ({value['error']})")
        for key, error in (value.get("sample_errors") or {}).items():
            lines.append(f"{name}: failed on {key}, left out of its values ({error})")
    return lines


def _apis(runs: list[RunData]) -> list[str]:
    return sorted({api for run in runs for api in run.summary.get("per_api", {})})


def markdown_report(columns: list[RunColumn]) -> str:
    """report.md of a run (or of several): the overall tables of :func:`build_report`, then one set
    per API, without intervals (those need ``wapii report``)."""
    runs = [RunData(name, run, summary) for name, run, summary in columns]
    report = build_report(runs)
    for api in _apis(runs):
        report.tables += build_report(runs, api=api).tables
    return render_markdown(report)


def print_table(columns: list[RunColumn], scope: str | None = None) -> None:
    """The overall (or one API's) tables of ``columns`` on the terminal (used by ``wapii run``)."""
    from .report_formats import print_report

    print_report(build_report([RunData(name, run, summary) for name, run, summary in columns], api=scope))
