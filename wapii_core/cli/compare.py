"""``wapii compare``: one backend over several adapters (HTTP libraries) on the same tasks, side by side.

For every adapter and setup it runs (or resumes) ``wapii run`` into ``<out>/<adapter>-<setup>``, in
``wire`` mode unless told otherwise (the one yardstick that judges every library by what it sends),
then prints and writes ``<out>/compare.md`` and ``<out>/compare.json``: the paper's rows with one
column per library (per setup, overall and per API; the tables ``wapii report`` gives for the same
run directories) and, for every two libraries, the tasks that one solved and the other did not.
A task counts as solved by a library when at least one of its draws was judged correct.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from itertools import permutations
from pathlib import Path
from typing import Any, Optional

import typer

from wapii_core.base.errors import WapiiError
from wapii_core.base.model import Setup

DEFAULT_MODE = "wire"


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


def print_differences(differences: list[dict[str, Any]], shown: int = 20) -> None:
    """The differences on the terminal: one rich table per ordered pair that has any, a line per task
    with what the second library got wrong (at most ``shown`` tasks each)."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for diff in differences:
        title = f"{diff['setup']}: solved by {diff['solved_by']}, not by {diff['not_by']} ({len(diff['tasks'])})"
        if not diff["tasks"]:
            console.print(f"{title}: none", highlight=False, markup=False)
            continue
        table = Table(title=title, title_justify="left")
        table.add_column("Task", no_wrap=True)
        table.add_column(f"What {diff['not_by']} got wrong", overflow="fold")
        for task in diff["tasks"][:shown]:
            table.add_row(task, (diff.get("why") or {}).get(task, ""))
        console.print(table)
        if len(diff["tasks"]) > shown:
            console.print(f"... and {len(diff['tasks']) - shown} more (compare.md lists them all)", highlight=False)


def side_by_side(run_dirs: list[Path], resamples: int = 2000, seed: int = 0) -> tuple[Any, list[dict[str, Any]]]:
    """The report of ``run_dirs`` (per setup overall, then per API) and the library differences."""
    from wapii_core.report.tables import build_report, load_runs

    runs = load_runs(run_dirs, with_results=True)
    report = build_report(runs, resamples=resamples, seed=seed)
    for api in sorted({api for r in runs for api in r.summary.get("per_api", {})}):
        report.tables += build_report(runs, api=api, resamples=0).tables
    return report, library_differences(runs)


def parse_generations(values: list[str], adapters: list[str]) -> dict[str, Path]:
    """``ADAPTER=PATH`` per adapter, or one bare ``PATH`` for every adapter."""
    out: dict[str, Path] = {}
    for value in values:
        name, sep, path = value.partition("=")
        if sep and name in adapters:
            out[name] = Path(path)
        elif len(values) == 1:
            out = {adapter: Path(value) for adapter in adapters}
        else:
            raise WapiiError(f"--generations {value!r}: expected ADAPTER=PATH with ADAPTER one of {', '.join(adapters)}")
    return out


def default_out(dataset: str, backend: str, model: Optional[str]) -> Path:
    parts = ["compare", dataset, backend] + ([model] if model else [])
    return Path("runs") / "-".join(re.sub(r"[^A-Za-z0-9_.]+", "_", p).strip("_") for p in parts)


def write_outputs(out: Path, report: Any, differences: list[dict[str, Any]]) -> None:
    from wapii_core.report.tables import render_markdown
    from wapii_core.report.formats import report_dict
    from wapii_core.store.rundir import write_atomic

    write_atomic(out / "compare.md", render_markdown(report) + "\n" + differences_markdown(differences))
    write_atomic(out / "compare.json", json.dumps({**report_dict(report), "differences": differences}, indent=2) + "\n")


def add_to(app: typer.Typer) -> None:
    @app.command("compare")
    def compare_command(
        adapter: list[str] = typer.Option(..., "--adapter", "-a", help="An adapter (HTTP library); repeat for each."),
        backend: str = typer.Option("oracle", "--backend", "-b", help="Where completions come from."),
        model: Optional[str] = typer.Option(None, "--model", "-m", help="Model name or path, for model backends."),
        dataset: str = typer.Option("demo", "--dataset", "-d", help="Dataset name (`wapii datasets list`)."),
        data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                                help="Where the dataset's files are (default: the per-user cache)."),
        setup: list[Setup] = typer.Option([Setup.full], "--setup", "-s", help="Setups to run; repeat for several."),
        mode: str = typer.Option(DEFAULT_MODE, "--mode", help="Comparison mode for every library: wire (default), "
                                 "reference or strict."),
        generations: list[str] = typer.Option([], "--generations", "-g",
                                              help="replay: ADAPTER=PATH per adapter (or one PATH for all)."),
        draws: int = typer.Option(1, "--draws", "-n", min=1, help="Completions per task."),
        option: list[str] = typer.Option([], "--backend-option", "-O", help="KEY=VALUE passed to the backend."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Only the first N samples."),
        api: list[str] = typer.Option([], "--api", help="Only these APIs of the dataset."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Directory of the runs and the comparison "
                                           "(default runs/compare-<dataset>-<backend>[-<model>])."),
        resamples: int = typer.Option(2000, "--resamples", min=0, help="Bootstrap resamples for the intervals."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars or tables."),
    ) -> None:
        """Run one backend with several adapters on the same tasks and compare the libraries side by side."""
        from wapii_core.report.terminal import print_report
        from wapii_core.run.runner import RunConfig, run
        from wapii_core.cli.progress import progress_bars
        from wapii_core.cli.run import generation_failures, parse_options

        adapters = list(dict.fromkeys(adapter))
        replay = parse_generations(generations, adapters)
        target = out or default_out(dataset, backend, model)
        run_dirs = []
        summaries = []
        for name in adapters:
            for one_setup in dict.fromkeys(setup):
                config = RunConfig(dataset=dataset, data_dir=data_dir, adapter=name, backend=backend, model=model,
                                   setup=one_setup, mode=mode, generations=replay.get(name), draws=draws,
                                   backend_options=parse_options(option), limit=limit, apis=api or None)
                directory = target / f"{name}-{one_setup.value}"
                if not quiet:
                    typer.echo(f"{name}, {one_setup.value} completion: {directory}", err=True)
                with progress_bars(not quiet) as progress:
                    summaries.append((str(directory), run(config, directory, progress)))
                run_dirs.append(directory)
        report, differences = side_by_side(run_dirs, resamples=resamples)
        write_outputs(target, report, differences)
        if not quiet:
            print_report(replace(report, tables=[t for t in report.tables if not any(t.scopes)]))
            print_differences(differences)
            typer.echo(f"wrote {target / 'compare.md'} and {target / 'compare.json'}")
        failure = generation_failures(summaries)
        if failure is not None:
            raise failure
