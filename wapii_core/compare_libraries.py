"""Libraries side by side: the report of runs that differ only in their adapter (HTTP library), and the
tasks one library solved and another did not (``wapii compare``, and ``wapii report`` over such runs).

A task counts as solved by a library when at least one of its draws was judged correct.
"""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path
from typing import Any


def solved_tasks(results: list[Any]) -> set[str]:
    """Sample ids with at least one correct draw."""
    return {r.sample for r in results if r.verdict == "correct"}


def library_differences(runs: list[Any]) -> list[dict[str, Any]]:
    """For each setup and each ordered pair of runs with different adapters, over the tasks both judged:
    ``{"setup", "solved_by", "not_by", "tasks"}`` (tasks sorted)."""
    out = []
    setups = list(dict.fromkeys(r.run.get("setup") for r in runs))
    for setup in setups:
        group = [r for r in runs if r.run.get("setup") == setup and r.results is not None]
        for a, b in permutations(group, 2):
            if a.run.get("adapter") == b.run.get("adapter"):
                continue
            common = {r.sample for r in a.results} & {r.sample for r in b.results}
            tasks = sorted((solved_tasks(a.results) - solved_tasks(b.results)) & common, key=_sample_order)
            out.append({"setup": setup, "solved_by": a.run.get("adapter"), "not_by": b.run.get("adapter"),
                        "run_a": a.name, "run_b": b.name, "tasks": tasks})
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
    return "\n".join(lines) + "\n"


def side_by_side(run_dirs: list[Path], resamples: int = 2000, seed: int = 0) -> tuple[Any, list[dict[str, Any]]]:
    """The report of ``run_dirs`` (per setup overall, then per API) and the library differences."""
    from wapii_core.report import build_report, load_runs

    runs = load_runs(run_dirs, with_results=True)
    report = build_report(runs, resamples=resamples, seed=seed)
    for api in sorted({api for r in runs for api in r.summary.get("per_api", {})}):
        report.tables += build_report(runs, api=api, resamples=0).tables
    return report, library_differences(runs)


def write_outputs(out: Path, report: Any, differences: list[dict[str, Any]]) -> None:
    """``<out>/compare.md`` and ``<out>/compare.json``: the report and the differences."""
    from wapii_core.report import render_markdown
    from wapii_core.report_formats import report_dict
    from wapii_core.store import write_atomic

    write_atomic(out / "compare.md", render_markdown(report) + "\n" + differences_markdown(differences))
    write_atomic(out / "compare.json", json.dumps({**report_dict(report), "differences": differences}, indent=2) + "\n")
