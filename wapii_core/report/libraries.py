"""Libraries side by side: the report of runs that differ only in their adapter (HTTP library), and the
tasks one library solved and another did not (``wapii compare``, and ``wapii report`` over such runs).

A task counts as solved by a library when at least one of its draws was judged correct.
"""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path
from typing import Any

from wapii_core.judge.reasons import why_not


def solved_tasks(results: list[Any]) -> set[str]:
    """Sample ids with at least one correct draw."""
    return {r.sample for r in results if r.verdict == "correct"}


def library_differences(runs: list[Any]) -> list[dict[str, Any]]:
    """For each setup and each ordered pair of runs with different adapters, over the tasks both judged:
    ``{"setup", "solved_by", "not_by", "tasks", "why"}`` (tasks sorted; ``why``: per task, what the
    second library's draw got wrong, :func:`why_not`)."""
    out = []
    setups = list(dict.fromkeys(r.run.setup for r in runs))
    for setup in setups:
        group = [r for r in runs if r.run.setup == setup and r.results is not None]
        for a, b in permutations(group, 2):
            if a.run.adapter == b.run.adapter:
                continue
            common = {r.sample for r in a.results} & {r.sample for r in b.results}
            tasks = sorted((solved_tasks(a.results) - solved_tasks(b.results)) & common, key=_sample_order)
            correct = {r.sample: r for r in a.results if r.verdict == "correct"}
            first = {}
            for r in b.results:
                first.setdefault(r.sample, r)
            out.append({"setup": setup, "solved_by": a.run.adapter, "not_by": b.run.adapter,
                        "run_a": a.name, "run_b": b.name, "tasks": tasks,
                        "why": {t: why_not(first[t], correct[t]) for t in tasks}})
    return out


def _sample_order(sample_id: str) -> tuple[str, int]:
    api, _, index = sample_id.rpartition("/")
    return (api, int(index)) if index.isdigit() else (sample_id, 0)


def differences_markdown(differences: list[dict[str, Any]]) -> str:
    """The differences as a Markdown section (empty string when there are none to compare)."""
    if not differences:
        return ""
    lines = ["## Tasks one library solved and another did not", ""]
    for diff in differences:
        tasks = ", ".join(f"`{t}`" for t in diff["tasks"]) or "none"
        lines.append(f"- {diff['setup']}: solved by **{diff['solved_by']}**, not by **{diff['not_by']}** "
                     f"({len(diff['tasks'])}): {tasks}")
        lines += [f"  - `{task}`: {why}" for task, why in (diff.get("why") or {}).items()]
    return "\n".join(lines) + "\n"


def print_differences(differences: list[dict[str, Any]], shown: int = 20, more: str = "") -> None:
    """The differences on the terminal: one rich table per ordered pair that has any, a line per task
    with what the second library got wrong (at most ``shown`` tasks each, then ``... and N more``
    followed by ``more``, where the rest is listed); the pairs without any in one line per setup."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from wapii_core.base.text import visible

    console = Console()
    for setup in dict.fromkeys(d["setup"] for d in differences):
        if not any(d["tasks"] for d in differences if d["setup"] == setup):
            console.print(f"{visible(setup)}: every library solved the same tasks", highlight=False, markup=False)
    for diff in differences:
        title = f"{diff['setup']}: solved by {diff['solved_by']}, not by {diff['not_by']} ({len(diff['tasks'])})"
        if not diff["tasks"]:
            continue
        table = Table(title=Text(visible(title)), title_justify="left")
        table.add_column("Task", no_wrap=True)
        table.add_column(Text(f"What {visible(diff['not_by'])} got wrong"), overflow="fold")
        for task in diff["tasks"][:shown]:  # Text: never parsed as markup (a program's error may hold `[/]`)
            table.add_row(Text(visible(task)), Text(visible((diff.get("why") or {}).get(task, ""))))
        console.print(table)
        if len(diff["tasks"]) > shown:
            console.print(f"... and {len(diff['tasks']) - shown} more" + (f" ({more})" if more else ""),
                          highlight=False)


def side_by_side(run_dirs: list[Path], resamples: int = 2000, seed: int = 0) -> tuple[Any, list[dict[str, Any]]]:
    """The report of ``run_dirs`` (per setup overall, then per API) and the library differences."""
    from wapii_core.report.tables import build_report, load_runs

    runs = load_runs(run_dirs, with_results=True)
    report = build_report(runs, resamples=resamples, seed=seed)
    for api in sorted({api for r in runs for api in r.summary.per_api}):
        report.tables += build_report(runs, api=api, resamples=0).tables
    return report, library_differences(runs)


def write_outputs(out: Path, report: Any, differences: list[dict[str, Any]]) -> None:
    """``<out>/compare.md`` and ``<out>/compare.json``: the report and the differences."""
    from wapii_core.report.tables import render_markdown
    from wapii_core.report.formats import report_dict
    from wapii_core.store.rundir import write_atomic

    write_atomic(out / "compare.md", render_markdown(report) + "\n" + differences_markdown(differences))
    write_atomic(out / "compare.json", json.dumps({**report_dict(report), "differences": differences}, indent=2) + "\n")
