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
    ``{"setup", "solved_by", "not_by", "tasks", "why"}`` (tasks sorted; ``why``: per task, what the
    second library's draw got wrong, :func:`why_not`)."""
    out = []
    setups = list(dict.fromkeys(r.run.get("setup") for r in runs))
    for setup in setups:
        group = [r for r in runs if r.run.get("setup") == setup and r.results is not None]
        for a, b in permutations(group, 2):
            if a.run.get("adapter") == b.run.get("adapter"):
                continue
            common = {r.sample for r in a.results} & {r.sample for r in b.results}
            tasks = sorted((solved_tasks(a.results) - solved_tasks(b.results)) & common, key=_sample_order)
            correct = {r.sample: r for r in a.results if r.verdict == "correct"}
            first = {}
            for r in b.results:
                first.setdefault(r.sample, r)
            out.append({"setup": setup, "solved_by": a.run.get("adapter"), "not_by": b.run.get("adapter"),
                        "run_a": a.name, "run_b": b.name, "tasks": tasks,
                        "why": {t: why_not(first[t], correct[t]) for t in tasks}})
    return out


def _shown(value: Any, limit: int = 40) -> str:
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _sent(request: dict[str, Any] | None, field: str, name: str, wire: bool = False) -> Any:
    """The value of argument ``name`` of ``field`` in ``request``; in wire mode a query value as the
    string sent (captured on the wire, or written as the query carries it: ``true``, ``20``)."""
    from wapii_core.judge.wire import wire_text

    if wire and field == "params" and isinstance((request or {}).get("sent_params"), dict):
        field = "sent_params"
    values = (request or {}).get(field)
    if field == "data" and not isinstance(values, dict):
        return values
    value = values.get(name, _ABSENT) if isinstance(values, dict) else _ABSENT
    if wire and field == "params" and value is not _ABSENT:
        return [wire_text(v) for v in value] if isinstance(value, list) else wire_text(value)
    return value


_ABSENT = object()


_BODY_KINDS = {"json": "JSON", "form": "a form", "multipart": "a multipart form"}


def _body_note(request: dict[str, Any], expected: dict[str, Any], wire: bool) -> str | None:
    """How the body of ``request`` is not the kind of ``expected``'s: sent as text (a string the
    library did not encode, e.g. fetch's ``'[object Object]'``), or, in wire mode, in another
    encoding (the ``Content-Type`` decides: a form where a JSON body is expected). None when alike."""
    from wapii_core.judge.wire import body_kind

    data, wanted = request.get("data"), _BODY_KINDS[body_kind(expected.get("headers"))]
    if data is not None and not isinstance(data, dict):
        return f"body sent as text {_shown(data)}, expected {wanted}"
    sent = _BODY_KINDS[body_kind(request.get("headers"))]
    if wire and isinstance(data, dict) and sent != wanted:
        return f"body sent as {sent}, expected {wanted}"
    return None


def why_not(failed: Any, solved: Any) -> str:
    """What ``failed`` (a draw of the library that did not solve the task) got wrong, told against
    ``solved`` (a correct draw of another library): ``params.available: sent 'True', expected 'true'``.

    A correct request matches the expected one, so its values stand for the expected values."""
    if failed.verdict == "nonexecutable":
        detail = f" ({failed.error_detail})" if failed.error_detail else ""
        return f"did not run: {failed.error}{detail}"
    parts = []
    request, expected = failed.request or {}, solved.request or {}
    if failed.url != "correct":
        parts.append(f"URL {failed.url}: sent {_shown(request.get('url'), 60)}, expected "
                     f"{_shown(expected.get('url'), 60)}")
    if failed.method != "correct":
        parts.append(f"method {failed.method}: sent {_shown(request.get('method'))}, expected "
                     f"{_shown(expected.get('method'))}")
    wire = failed.mode == "wire"
    for field, names in failed.arguments.items():
        note = _body_note(request, expected, wire) if field == "data" else None
        if note and any(v in ("incorrect_value", "missing") for v in names.values()):
            parts.append(note)
        for name, verdict in names.items():
            if verdict == "correct" or (field == "headers" and name == "Accept"):
                continue  # Accept never decides a verdict (metrics.md §1); Content-Type names the body's encoding
            sent, wanted = _sent(request, field, name, wire), _sent(expected, field, name, wire)
            if verdict == "missing":
                parts.append(f"{field}.{name} missing (expected {_shown(wanted)})" if wanted is not _ABSENT
                             else f"{field}.{name} missing")
            elif verdict == "incorrect_value" and note and sent == wanted:
                continue  # the value is right, its encoding (the note) is not
            elif verdict == "incorrect_value" and sent is not _ABSENT and wanted is not _ABSENT:
                parts.append(f"{field}.{name}: sent {_shown(sent)}, expected {_shown(wanted)}")
            elif verdict == "incorrect_value" and field == "path_params":  # the value is in the URL
                parts.append(f"{field}.{name} wrong: sent {_shown(request.get('url'), 60)}, expected "
                             f"{_shown(expected.get('url'), 60)}")
            else:
                parts.append(f"{field}.{name} {verdict.replace('_', ' ')}")
    return "; ".join(parts) or f"judged {failed.verdict}"


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

    console = Console()
    for setup in dict.fromkeys(d["setup"] for d in differences):
        if not any(d["tasks"] for d in differences if d["setup"] == setup):
            console.print(f"{setup}: every library solved the same tasks", highlight=False, markup=False)
    for diff in differences:
        title = f"{diff['setup']}: solved by {diff['solved_by']}, not by {diff['not_by']} ({len(diff['tasks'])})"
        if not diff["tasks"]:
            continue
        table = Table(title=title, title_justify="left")
        table.add_column("Task", no_wrap=True)
        table.add_column(f"What {diff['not_by']} got wrong", overflow="fold")
        for task in diff["tasks"][:shown]:
            table.add_row(task, (diff.get("why") or {}).get(task, ""))
        console.print(table)
        if len(diff["tasks"]) > shown:
            console.print(f"... and {len(diff['tasks']) - shown} more" + (f" ({more})" if more else ""),
                          highlight=False)


def side_by_side(run_dirs: list[Path], resamples: int = 2000, seed: int = 0) -> tuple[Any, list[dict[str, Any]]]:
    """The report of ``run_dirs`` (per setup overall, then per API) and the library differences."""
    from wapii_core.report.tables import build_report, load_runs

    runs = load_runs(run_dirs, with_results=True)
    report = build_report(runs, resamples=resamples, seed=seed)
    for api in sorted({api for r in runs for api in r.summary.get("per_api", {})}):
        report.tables += build_report(runs, api=api, resamples=0).tables
    return report, library_differences(runs)


def write_outputs(out: Path, report: Any, differences: list[dict[str, Any]]) -> None:
    """``<out>/compare.md`` and ``<out>/compare.json``: the report and the differences."""
    from wapii_core.report.tables import render_markdown
    from wapii_core.report.formats import report_dict
    from wapii_core.store.rundir import write_atomic

    write_atomic(out / "compare.md", render_markdown(report) + "\n" + differences_markdown(differences))
    write_atomic(out / "compare.json", json.dumps({**report_dict(report), "differences": differences}, indent=2) + "\n")
