"""``wapii run`` and ``wapii evaluate``."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Optional

import typer

from wapii_core.base.errors import GenerationsFailed, WapiiError
from wapii_core.base.model import Setup


METRIC_HELP = ("A metric provider to apply besides the default ones (repeat for several; `wapii plugins` lists "
               "them).")
NO_DEFAULT_METRICS_HELP = "Apply only the --metric providers, not the default ones (the paper's table among them)."


def default_out(dataset: str, adapter: str, backend: str, model: Optional[str], setup: Setup,
                setting: str = "unconstrained", mode: Optional[str] = None, draws: int = 1,
                limit: Optional[int] = None, apis: Optional[list[str]] = None) -> Path:
    """``runs/<dataset>-<adapter>-<backend>[-<model>]-<setup>[-<setting>][-<mode>][-n<draws>][-<apis>][-limit<N>]``.

    Every option that changes what a run measures is in the name (the optional parts only when they
    differ from the default), so the same command resumes the same run and a different one never
    lands in its directory."""
    parts = [dataset, adapter, backend] + ([model] if model else []) + [setup.value]
    if setting != "unconstrained":
        parts.append(setting)
    if mode:
        parts.append(mode)
    if draws != 1:
        parts.append(f"n{draws}")
    if apis:
        parts.append("+".join(sorted(set(apis))))
    if limit is not None:
        parts.append(f"limit{limit}")
    name = "-".join(re.sub(r"[^A-Za-z0-9_.+]+", "_", p).strip("_") for p in parts)
    return Path("runs") / name


def parse_options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise WapiiError(f"backend option {pair!r} is not KEY=VALUE")
        key, value = pair.split("=", 1)
        key = key.strip()
        out[key] = f"{out[key]},{value}" if key in out else value  # a repeated option adds to a list
    return out


def generation_failures(runs: list[tuple[str, dict]]) -> GenerationsFailed | None:
    """The error that ends a command whose runs (``(run directory, summary)``) had generations
    fail, naming how many samples each run lost and the two most frequent causes; None when none did."""
    parts = []
    for target, summary in runs:
        failed = summary.get("failed_generations") or []
        if not failed:
            continue
        causes = Counter(str(f.get("error")) for f in failed).most_common()
        shown = "; ".join(f"{count}x {cause}" for cause, count in causes[:2])
        more = f"; {sum(c for _, c in causes[2:])}x other causes" if len(causes) > 2 else ""
        parts.append(f"{target}: {len(failed)} of {summary.get('samples', len(failed))} generations failed "
                     f"({shown}{more})")
    if not parts:
        return None
    errors = [str(f.get("error")) for _, summary in runs for f in summary.get("failed_generations") or []]
    if all(error.startswith("no program for") for error in errors):  # a replay: running it again changes nothing
        return GenerationsFailed("; ".join(parts) + "; those samples are not scored: add their programs to the "
                                 "replay file, or leave them out of the run (--api, --limit)")
    return GenerationsFailed("; ".join(parts) + "; those samples are not scored: run the same command again to "
                             "retry them")


def _require_isolation(required: bool) -> None:
    if required:
        from wapii_core.sandbox import set_require_isolation

        set_require_isolation(True)


def add_to(app: typer.Typer) -> None:
    @app.command("run")
    def run_command(
        dataset: str = typer.Option("demo", "--dataset", "-d", help="Dataset name (`wapii datasets list`)."),
        data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                                help="Where the dataset's files are (default: the per-user cache)."),
        dataset_dir: Optional[Path] = typer.Option(None, "--dataset-dir",
                                                   help="Benchmark any directory in the WAPIIBench layout "
                                                        "(dataset.json, specs/, prompts/): your own API."),
        adapter: str = typer.Option("axios_js", "--adapter", "-a", help="Target language + HTTP library."),
        backend: str = typer.Option("oracle", "--backend", "-b", help="Where completions come from."),
        model: Optional[str] = typer.Option(None, "--model", "-m", help="Model name or path, for model backends."),
        setup: list[Setup] = typer.Option([Setup.full], "--setup", "-s",
                                          help="full: starter ends with `axios.`; argument: method and URL given; "
                                               "import: only the import. Repeat for several."),
        mode: Optional[str] = typer.Option(None, "--mode", help="Comparison: reference (the paper's; axios_js's "
                                           "default), strict (spec path characters matched literally) or wire (what "
                                           "is sent; the Python adapters' default). Default: the adapter's."),
        setting: str = typer.Option("unconstrained", "--setting",
                                    help="unconstrained, constrained (decoding masked by a grammar from the spec), "
                                         "rag (the most relevant endpoints' documentation in the prompt) or "
                                         "constrained-rag."),
        generations: Optional[Path] = typer.Option(None, "--generations", "-g",
                                                   help="replay: JSONL of {sample, code} or a <api>/<index>_code.js dir."),
        draws: int = typer.Option(1, "--draws", "-n", min=1, help="Completions per task."),
        option: list[str] = typer.Option([], "--backend-option", "-O", help="KEY=VALUE passed to the backend."),
        metric: list[str] = typer.Option([], "--metric", help=METRIC_HELP),
        no_default_metrics: bool = typer.Option(False, "--no-default-metrics", help=NO_DEFAULT_METRICS_HELP),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Only the first N samples."),
        api: list[str] = typer.Option([], "--api", help="Only these APIs of the dataset."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Run directory (default runs/<derived name>); "
                                           "with several setups, one sub-directory per setup."),
        by_api: bool = typer.Option(False, "--by-api", help="Also print one table per API."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars or tables."),
        require_isolation: bool = typer.Option(False, "--require-isolation", envvar="WAPII_REQUIRE_ISOLATION",
                                               help="Refuse to execute generated code unless every sandbox layer "
                                                    "is active (see `wapii doctor`)."),
        force: bool = typer.Option(False, "--force", help="Start over in a run directory that already holds a "
                                                          "run (its files are replaced)."),
    ) -> None:
        """Generate, execute and judge programs for every task; resumes an interrupted run directory.

        Exit codes: 0 done (or a provider-side batch still running: its status is printed), 2 bad
        input or a failed preflight check, 3 generations failed (cause and count printed)."""
        _require_isolation(require_isolation)
        from wapii_core.base.errors import GenerationPending
        from wapii_core.report.tables import print_table
        from wapii_core.run.runner import RunConfig, run
        from wapii_core.store.rundir import load_run
        from wapii_core.cli.progress import progress_bars

        if dataset_dir is not None:
            dataset = dataset_dir.resolve().name
        columns = []
        for one_setup in dict.fromkeys(setup):
            config = RunConfig(dataset=dataset, data_dir=data_dir, dataset_dir=dataset_dir, adapter=adapter,
                               backend=backend, model=model,
                               setup=one_setup, setting=setting, mode=mode, generations=generations, draws=draws,
                               backend_options=parse_options(option), metrics=metric,
                               default_metrics=not no_default_metrics, limit=limit,
                               apis=api or None)
            if out is None:
                target = default_out(dataset, adapter, backend, model, one_setup, setting, mode, draws, limit, api)
            else:
                target = out / one_setup.value if len(set(setup)) > 1 else out
            try:
                with progress_bars(not quiet) as progress:
                    summary = run(config, target, progress, force=force,
                                  note=lambda text: typer.echo(text, err=True))
            except GenerationPending as pending:  # not an error: the status, and how to go on
                typer.echo(f"{target}: {pending}")
                continue
            columns.append((str(target), load_run(target), summary))
            if not quiet:
                typer.echo(f"run directory: {target}")
        if not quiet and columns:
            print_table(columns)
            if by_api:
                for api_name in sorted({a for _, _, s in columns for a in s.get("per_api", {})}):
                    print_table(columns, api_name)
        failure = generation_failures([(target, summary) for target, _, summary in columns])
        if failure is not None:
            raise failure

    @app.command("evaluate")
    def evaluate_command(
        run_dir: Path = typer.Argument(..., help="A run directory written by `wapii run`."),
        data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                                help="Where the dataset's files are (default: where the run found "
                                                     "them)."),
        metric: list[str] = typer.Option([], "--metric", help=METRIC_HELP),
        no_default_metrics: bool = typer.Option(False, "--no-default-metrics", help=NO_DEFAULT_METRICS_HELP),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars or table."),
        require_isolation: bool = typer.Option(False, "--require-isolation", envvar="WAPII_REQUIRE_ISOLATION",
                                               help="Refuse to execute generated code unless every sandbox layer "
                                                    "is active (see `wapii doctor`)."),
    ) -> None:
        """Re-execute and re-score the stored generations of a run directory."""
        _require_isolation(require_isolation)
        from wapii_core.report.tables import print_table
        from wapii_core.run.runner import evaluate
        from wapii_core.store.rundir import load_run
        from wapii_core.cli.progress import progress_bars

        with progress_bars(not quiet) as progress:
            summary = evaluate(run_dir, progress, data_dir=data_dir, metrics=metric,
                               default_metrics=not no_default_metrics)
        if not quiet:
            print_table([(str(run_dir), load_run(run_dir), summary)])
