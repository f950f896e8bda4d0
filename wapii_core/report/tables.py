"""The paper's tables: rows = the paper's metric rows, columns = runs (or APIs), with intervals.

:func:`build_report` turns loaded runs into :class:`Table` objects (one per setup: full completion,
argument completion and import runs are never mixed in one table; or, with ``by_api``, one per run
with the columns Overall and each API), each cell holding the value from ``summary.json``, a 95 %
bootstrap interval recomputed from ``results.jsonl`` (:mod:`wapii_core.report.stats`) and whether it is the
best value of its row. Renderers: Markdown here (``report.md`` of every run), CSV and JSON in
:mod:`wapii_core.report.formats`, the terminal in :mod:`wapii_core.report.terminal`, HTML in
:mod:`wapii_core.report.html`; column labels and comparability notes come from
:mod:`wapii_core.report.labels`, legends from :mod:`wapii_core.report.legend`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterable

from wapii_core.base.model import SampleResult
from wapii_core.report.rate_terms import COUNT_ROWS, lower_is_better
from wapii_core.store.record import FailedGeneration, RunRecord, Summary

RunColumn = tuple[str, RunRecord, Summary]
"""(column title, run.json, summary.json): what ``wapii_core.run.aggregate.finish`` passes."""

SETUP_TITLES = {"full": "Full completion", "argument": "Argument completion", "import": "Import completion"}


@dataclass
class RunData:
    """One run directory as a report sees it; ``results`` is None when no intervals are wanted."""

    name: str
    run: RunRecord
    summary: Summary
    results: list[SampleResult] | None = None

    def with_api(self, api: str) -> "RunData":
        """This run restricted to one API."""
        return RunData(self.name, self.run, self.summary.for_api(api), self.scoped(api)[1])

    @property
    def label(self) -> str:
        """model × setup × setting × adapter."""
        return self.run.label

    def scoped(self, api: str | None) -> tuple[dict[str, Any], list[SampleResult] | None]:
        """The summary values and results of the whole run (``api`` None) or of one API."""
        values = self.summary.values(api)
        results = self.results
        if results is not None and api is not None:
            results = [r for r in results if r.api == api]
        return values, results


@dataclass
class Cell:
    """One value; ``metric`` names the paper row it holds when that is not its table row (leaderboards)."""

    value: float | None
    interval: tuple[float, float] | None = None
    best: bool = False
    metric: str | None = None
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
    kind: str = "paper"  # "paper": the paper's rows; "provider": another metric provider's values; "leaderboard"
    caption: str = ""  # what every column shares (dataset, adapter, setup, ...)
    notes: list[str] = field(default_factory=list)  # what keeps the columns from being compared directly
    descriptions: list[str] = field(default_factory=list)  # what a provider's rows mean (its descriptions)


@dataclass
class Report:
    tables: list[Table]
    runs: list[RunData]
    paired: list[dict[str, Any]] = field(default_factory=list)
    resamples: int = 0
    seed: int = 0
    paired_notes: list[str] = field(default_factory=list)  # why a pair of runs has no paired test


def row_names() -> list[str]:
    from wapii_core.judge.metrics import ROW_NAMES

    return list(ROW_NAMES)


def load_runs(directories: Iterable[Path], with_results: bool = True,
              summaries: Callable[[Path], Summary] | None = None) -> list[RunData]:
    """Read run.json, summary.json and (for intervals) results.jsonl of each run directory;
    ``summaries`` reads a directory's summary in place of ``summary.json`` (the command line's
    also reads runs still being written: :func:`wapii_core.run.live.read_summary`)."""
    from wapii_core.store.record import load_run, load_summary, read_results

    directories = [Path(d) for d in directories]
    names = [d.resolve().name or str(d) for d in directories]
    runs = []
    for directory, name in zip(directories, names):
        run, summary = load_run(directory), (summaries or load_summary)(directory)
        results = read_results(directory, live=summary.live is not None) if with_results else None
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
        from wapii_core.report.stats import intervals_for

        intervals = intervals_for(results, resamples=resamples, seed=seed)
    return {row: Cell(values.get(row), intervals.get(row)) for row in row_names()}


def _table(title: str, setup: str | None, columns: list[str], runs: list[str], scopes: list[str | None],
           per_column: list[dict[str, Cell]], among: slice = slice(None)) -> Table:
    rows = [(row, [cells[row] for cells in per_column]) for row in row_names()]
    _mark_best(rows, among)
    return Table(title, setup, columns, rows, runs, scopes)


def build_report(runs: list[RunData], by_api: bool = False, api: str | None = None, resamples: int = 2000,
                 seed: int = 0, leaderboard: bool = False) -> Report:
    """The tables and the paired tests.

    Default: one table per setup with the runs as columns (``api``: of that API only), captioned
    with what the runs share and noting what keeps them from being compared directly; ``by_api``:
    one table per run with the columns Overall and each API; ``leaderboard``: one table per setup
    with the runs as rows (:mod:`wapii_core.report.leaderboard`). A run made without the paper's provider
    (``--no-default-metrics``) has no paper table, only its providers' tables.
    """
    from wapii_core.report.labels import comparability_notes, facets, labels

    report = Report([], runs, resamples=resamples if resamples > 0 and any(r.results for r in runs) else 0, seed=seed)
    if leaderboard:
        from wapii_core.report.leaderboard import leaderboard_tables

        report.tables = leaderboard_tables(runs, resamples, seed)
        return report
    if by_api:
        for run in runs:
            apis = sorted(run.summary.per_api)
            scopes: list[str | None] = [None, *apis]
            per_column = [_cells(*run.scoped(scope), resamples, seed) for scope in scopes]
            if run.summary.has_paper_rows:
                table = _table(f"{run.name} by API", run.run.setup, ["Overall", *apis],
                               [run.name] * len(scopes), scopes, per_column, among=slice(1, None))
                table.caption = " · ".join(facets(run).values())
                table.notes = comparability_notes([run], [run.name])
                report.tables.append(table)
            report.tables += _provider_tables([run], f"{run.name} by API: ", by_api=True)
        return report
    for setup in _setups(runs):
        group = [r for r in runs if r.run.setup == setup and r.summary.has_paper_rows]
        if not group:
            continue
        per_column = [_cells(*r.scoped(api), resamples, seed) for r in group]
        title = SETUP_TITLES.get(str(setup), f"Setup {setup}")
        columns, caption = labels(group)
        table = _table(f"{api} — {title}" if api else title, setup, columns, [r.name for r in group],
                       [api] * len(group), per_column)
        table.caption, table.notes = caption, comparability_notes(group, columns)
        report.tables.append(table)
        scoped = [r.with_api(api) for r in group] if api else group
        paired, notes = _paired(scoped, dict(zip((id(r) for r in scoped), columns)), resamples, seed)
        report.paired += paired
        report.paired_notes += notes
    if api is None:
        report.tables += _provider_tables(runs, "", by_api=False)
    return report


def _provider_tables(runs: list[RunData], prefix: str, by_api: bool) -> list[Table]:
    """One table per other metric provider (:mod:`wapii_core.report.provider_tables`)."""
    from wapii_core.report.provider_tables import provider_tables

    return provider_tables(runs, prefix, by_api)


def _setups(runs: list[RunData]) -> list[Any]:
    order = list(SETUP_TITLES)
    found = list(dict.fromkeys(r.run.setup for r in runs))
    return sorted(found, key=lambda s: (order.index(s) if s in order else len(order), str(s)))


MAX_PAIRED_RUNS = 8
"""Paired tests are run between every two runs of a table of at most this many columns."""


def _paired(group: list[RunData], names: dict[int, str], resamples: int,
            seed: int) -> tuple[list[dict[str, Any]], list[str]]:
    """A paired test of correct implementations for every two runs of ``group``, over the tasks both
    judged; and one sentence for each pair (or group) left without one, saying why."""
    from wapii_core.report.stats import paired_test

    out: list[dict[str, Any]] = []
    if len(group) < 2:
        return out, []
    if resamples <= 0:
        return out, ["No paired tests: --resamples 0."]
    if len(group) > MAX_PAIRED_RUNS:
        return out, [f"No paired tests: {len(group)} runs in one table (at most {MAX_PAIRED_RUNS}); report fewer "
                     "runs together to compare them pairwise."]
    notes = []
    for a, b in combinations(group, 2):
        pair = f"{names[id(a)]} vs {names[id(b)]}"
        if not a.results or not b.results:
            notes.append(f"{pair}: no paired test (a run without judged samples).")
            continue
        tasks_a, tasks_b = {r.sample for r in a.results}, {r.sample for r in b.results}
        shared = tasks_a & tasks_b
        if not shared:
            notes.append(f"{pair}: no paired test (no task judged in both).")
            continue
        test = paired_test([r for r in a.results if r.sample in shared], [r for r in b.results if r.sample in shared],
                           resamples=resamples, seed=seed)
        entry = {"setup": a.run.setup, "run_a": a.name, "run_b": b.name, "label_a": names[id(a)],
                 "label_b": names[id(b)], **test.as_dict()}
        if shared != tasks_a or shared != tasks_b:
            entry["shared_only"] = {"a": len(tasks_a), "b": len(tasks_b)}
        out.append(entry)
    return out, notes


def format_value(row: str, value: Any) -> str:
    """Rates as percentages with one decimal, counts (count rows, integers) as integers, a missing
    ratio as ``n/a``."""
    if value is None:
        return "n/a"
    if row in COUNT_ROWS or (isinstance(value, int) and not isinstance(value, bool)):
        return str(int(value))
    return f"{100 * float(value):.1f}"


def format_cell(row: str, cell: Cell) -> str:
    """A cell's value: as its provider declared it (:func:`~wapii_core.base.metric_kinds.format_metric`), or
    as :func:`format_value` shows a paper row."""
    if cell.kind is not None:
        from wapii_core.base.metric_kinds import format_metric

        return format_metric(cell.value, cell.kind)
    return format_value(row, cell.value)


def format_interval(interval: tuple[float, float] | None) -> str:
    """``[40.1, 50.2]`` in percent, or an empty string."""
    return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]" if interval else ""


def task_scope(run: RunData) -> str:
    """``3 of 26 tasks (the samples the replayed generations hold); `` for a run over part of its
    dataset, empty for one over all of it (or one from before summaries counted tasks)."""
    r, s = run.run, run.summary
    tasks, of = s.tasks, s.tasks_of
    if tasks is None or of is None or tasks >= of:
        return ""
    why = [f"--api {','.join(r.apis)}"] if r.apis else []
    why += [f"--limit {r.limit}"] if r.limit is not None else []
    why += ["the samples the replayed generations hold"] if r.task_set else []
    return f"{tasks} of {of} tasks ({'; '.join(why) or 'a part of the dataset'}), "


def run_description_line(run: RunData) -> str:
    """One line: dataset, adapter, backend, model, setup, setting, mode and completeness."""
    r, s = run.run, run.summary
    model = f", model `{r.model}`" if r.model else ""
    done = "" if s.complete else " (**incomplete**)"
    return (f"**{run.name}**: dataset `{r.dataset}`, adapter `{r.adapter}`, backend `{r.backend}`"
            f"{model}, setup `{r.setup}`, setting `{r.setting}`, comparison mode "
            f"`{s.mode or r.mode}`; {task_scope(run)}{s.judged} of {s.samples} samples judged{done}")


def describe_paired(test: dict[str, Any]) -> str:
    """One sentence per paired test."""
    low, high = test["interval"]
    a, b = test.get("label_a", test["run_a"]), test.get("label_b", test["run_b"])
    shared = test.get("shared_only")
    tasks = (f"on the {test['tasks']} tasks both judged, of {shared['a']} and {shared['b']}" if shared
             else f"{test['tasks']} tasks")
    return (f"{a} vs {b} ({tasks}): correct implementations "
            f"{100 * test['rate_a']:.1f} % vs {100 * test['rate_b']:.1f} %, difference "
            f"{100 * test['difference']:+.1f} points, 95 % paired bootstrap interval [{100 * low:+.1f}, "
            f"{100 * high:+.1f}], {test['method']} p = {test['p_value']:.4g}{describe_mdd(test)}")


def describe_mdd(test: dict[str, Any]) -> str:
    """``; minimal detectable difference 6.2 points (...)``, saying whether the gap reaches it. Where
    every task differs by the same amount (both runs at 0 % or at 100 %, or one at 100 % and the other
    at 0 %), the differences do not vary and a minimal detectable difference says nothing: the
    sentence says so, with no power claim."""
    mdd = test.get("mdd")
    if mdd is None:
        return ""
    if mdd <= 1e-12:
        a, b = test["rate_a"], test["rate_b"]
        if a == b and a in (0.0, 1.0):
            return (f"; both runs are at {100 * a:.0f} % on every one of these tasks: nothing varies, so there "
                    "is no difference to detect and this size says nothing about the power to detect one")
        return ("; every task differs the same way: nothing varies, so no minimal detectable difference "
                "can be estimated at this size (no power claim)")
    verdict = ("the gap reaches it" if abs(test["difference"]) >= mdd
               else "the gap is below it: it could be noise")
    return (f"; minimal detectable difference {100 * mdd:.1f} points at this size (paired, 80 % power, "
            f"α = 0.05): {verdict}")


def _md_cell(row: str, cell: Cell) -> str:
    text = format_cell(row, cell)
    if cell.interval:
        text += " " + format_interval(cell.interval)
    return f"**{text}**" if cell.best else text


def markdown_table(table: Table) -> str:
    first = "Run" if table.kind == "leaderboard" else "Metric"
    head = [first, *[c.replace("\n", "<br>").replace("|", "\\|") for c in table.columns]]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join([row.replace("|", "\\|"), *(_md_cell(c.metric or row, c) for c in cells)]) + " |"
              for row, cells in table.rows]
    return "\n".join(lines)


def render_markdown(report: Report) -> str:
    """The whole report as Markdown: runs, tables (best values in bold) each with its caption, notes
    and legend, paired tests (and why a pair has none), failures grouped by cause."""
    from wapii_core.report.legend import METRICS_DOC, legend

    out = ["# wapii report", ""]
    out += [f"- {run_description_line(run)}" for run in report.runs]
    out += ["", f"What every row means: `{METRICS_DOC}` in the wapii repository."]
    if report.resamples:
        out.append(f"Brackets: 95 % bootstrap interval ({report.resamples} resamples of tasks, seed {report.seed}).")
    for table in report.tables:
        out += ["", f"## {table.title}", ""]
        if table.caption:
            out += [f"All {'runs' if table.kind == 'leaderboard' else 'columns'}: {table.caption}.", ""]
        out += [f"> **Note:** {note}" for note in table.notes] + ([""] if table.notes else [])
        out += [markdown_table(table), ""]
        out += [f"- {line}" for line in legend(table, intervals=True)]
    if report.paired or report.paired_notes:
        out += ["", "## Paired tests", ""] + [f"- {describe_paired(t)}" for t in report.paired]
        out += [f"- {note}" for note in report.paired_notes]
    for run in report.runs:
        failed = run.summary.failed_generations
        if failed:
            out += ["", f"## Failed generations in {run.name}", ""] + [f"- {line}" for line in failure_lines(failed)]
        failures = provider_failures(run.summary)
        if failures:
            out += ["", f"## Metric provider failures in {run.name}", ""] + [f"- {line}" for line in failures]
    return "\n".join(out) + "\n"


def failure_lines(failed: list[FailedGeneration], shown: int = 5) -> list[str]:
    """One line per cause of failed generations: how many, the cause, the first few samples."""
    by_cause: dict[str, list[str]] = {}
    for f in failed:
        by_cause.setdefault(str(f.error), []).append(f"{f.sample} (draw {f.draw})" if f.draw else f.sample)
    lines = []
    for cause, samples in sorted(by_cause.items(), key=lambda item: -len(item[1])):
        more = f" and {len(samples) - shown} more" if len(samples) > shown else ""
        lines.append(f"{len(samples)} × {cause}: {', '.join(samples[:shown])}{more}")
    return lines


def provider_failures(summary: Summary) -> list[str]:
    """One line per metric provider that failed, as summary.json records it (:mod:`wapii_core.judge.metric_guard`)."""
    lines = []
    for name, failure in summary.provider_failures().items():
        if failure.error:
            lines.append(f"{name}: failed, no values ({failure.error})")
        for key, error in failure.sample_errors.items():
            lines.append(f"{name}: failed on {key}, left out of its values ({error})")
    return lines


def _apis(runs: list[RunData]) -> list[str]:
    return sorted({api for run in runs for api in run.summary.per_api})


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
    from wapii_core.report.terminal import print_report

    print_report(build_report([RunData(name, run, summary) for name, run, summary in columns], api=scope))
