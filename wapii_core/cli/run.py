"""``wapii run`` (generate, execute and judge) and ``wapii evaluate`` (re-judge a run's stored programs)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from wapii_core.base.setups import Setup
from wapii_core.base.text import visible
from wapii_core.cli.options import (ApisOption, BackendOption, BackendOptionsOption, DataDirOption, DatasetOption,
                                    DrawsOption, FullOption, LimitOption, MetricsOption, ModelOption,
                                    NoDefaultMetricsOption, QuietOption, RequireIsolationOption, parse_option_pairs,
                                    parse_setups, refuse_generations_without_replay, require_isolation)
from wapii_core.cli.run_failures import generation_failures

if TYPE_CHECKING:
    from wapii_core.run.runner import RunConfig
    from wapii_core.store.record import RunRecord, Summary


def default_run_dir(dataset: str, adapter: str, backend: str, model: Optional[str], setup: Setup,
                setting: str = "unconstrained", mode: Optional[str] = None, draws: int = 1,
                limit: Optional[int] = None, apis: Optional[list[str]] = None, shard: Optional[str] = None,
                answers: str = "empty") -> Path:
    """``runs/<dataset>-<adapter>-<backend>[-<model>]-<setup>[-<setting>][-<mode>][-n<draws>][-mockanswers]``
    ``[-<apis>][-limit<N>]``
    (a shard's: ``...-shard<I>of<N>``).

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
    if answers != "empty":
        parts.append(f"{answers}answers")
    if apis:
        parts.append("+".join(sorted(set(apis))))
    if limit is not None:
        parts.append(f"limit{limit}")
    if shard:
        index, count = shard.split("/")
        parts.append(f"shard{index}of{count}")
    name = "-".join(re.sub(r"[^A-Za-z0-9_.+]+", "_", p).strip("_") for p in parts)
    return Path("runs") / name


def run_command(
    dataset: DatasetOption = "demo",
    data_dir: DataDirOption = None,
    dataset_dir: Optional[Path] = typer.Option(None, "--dataset-dir",
                                               help="Benchmark any directory in the WAPIIBench layout "
                                                    "(dataset.json, specs/, prompts/): your own API."),
    adapter: Optional[str] = typer.Option(None, "--adapter", "-a", help="Target language + HTTP library (default: "
                                          "the one the dataset names)."),
    backend: BackendOption = None,
    model: ModelOption = None,
    setup: list[str] = typer.Option(["full"], "--setup", "-s",
                                      help="full: starter ends with `axios.`; argument: method and URL given; "
                                           "import: only the import; workflow: a whole program of several calls, for a workflow "
                                           "dataset (docs/workflows.md). Repeat for several."),
    mode: Optional[str] = typer.Option(None, "--mode", help="Comparison: reference (the paper's; axios_js's "
                                       "default), strict (spec path characters matched literally), wire (what "
                                       "is sent; the Python adapters' default) or journal (the journal edition's: "
                                       "reference, where outside the body a one-element list equals its element). "
                                       "Default: the adapter's."),
    setting: str = typer.Option("unconstrained", "--setting",
                                help="unconstrained, constrained (decoding masked by a grammar from the spec), "
                                     "rag (the most relevant endpoints' documentation in the prompt), "
                                     "constrained-rag, or spec (the whole OpenAPI document in the prompt, "
                                     "the journal edition's)."),
    generations: Optional[Path] = typer.Option(None, "--generations", "-g",
                                               help="replay: JSONL of {sample, code} or a <api>/<index>_code.js dir."),
    draws: DrawsOption = 1,
    answers: str = typer.Option("empty", "--answers", metavar="empty|mock",
                                help="What answers each program's requests: empty (200 with no body: the program "
                                     "stops at its first request, the published benchmark) or mock (the stateful "
                                     "mock of the sample's API description, fresh per sample and draw: the program "
                                     "runs on and results.jsonl records its exchanges). The first request is "
                                     "judged either way."),
    option: BackendOptionsOption = [],
    metric: MetricsOption = [],
    no_default_metrics: NoDefaultMetricsOption = False,
    limit: LimitOption = None,
    sample: Optional[int] = typer.Option(None, "--sample", min=1, help="N tasks drawn at random, stratified by "
                                         "API (each API's share in proportion to its tasks); see --seed."),
    seed: int = typer.Option(0, "--seed", help="Seed of --sample's draw (kept in run.json)."),
    api: ApisOption = [],
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Run directory (default runs/<derived name>); "
                                       "with several setups, one sub-directory per setup."),
    by_api: bool = typer.Option(False, "--by-api", help="Also print one table per API."),
    full: FullOption = False,
    quiet: QuietOption = False,
    isolated: RequireIsolationOption = False,
    force: bool = typer.Option(False, "--force", help="Start over in a run directory that already holds a "
                                                      "run (its files are replaced)."),
    shard: Optional[str] = typer.Option(None, "--shard", metavar="I/N",
                                        help="Only shard I (from 0) of N of the (task, draw) pairs, a fixed "
                                             "partition by hash; `wapii merge` joins the N run directories."),
) -> None:
    """Generate, execute and judge programs for every task; resumes an interrupted run directory.

    Exit codes: 0 done (or a provider-side batch still running: its status is printed), 2 bad
    input or a failed preflight check, 3 generations failed or programs did not run because no
    sandbox worker could start (cause and count printed; the run's files are written, and the
    same command again retries them)."""
    require_isolation(isolated)
    from wapii_core.base.declared import default_adapter, default_backend

    backend = backend or default_backend()
    adapter = adapter or default_adapter(dataset, dataset_dir)
    refuse_generations_without_replay(backend, generations)
    from wapii_core.base.errors import GenerationPending, WapiiError
    from wapii_core.run.runner import RunConfig

    if sample is not None and limit is not None:
        raise WapiiError("give --sample N (tasks drawn across the APIs) or --limit N (the first N), not both")
    from wapii_core.run.shards import parse_shard

    one_shard = parse_shard(shard) if shard is not None else None
    if dataset_dir is not None:
        dataset = dataset_dir.resolve().name
    setups = parse_setups(setup)
    targets = {}
    for one_setup in setups:
        if out is not None:
            targets[one_setup] = out / one_setup.value if len(setups) > 1 else out
        else:
            named = f"{setting}-typescript" if parse_option_pairs(option).get("rag_format") == "typescript" else setting
            targets[one_setup] = default_run_dir(dataset, adapter, backend, model, one_setup, named, mode, draws,
                                             limit, api, str(one_shard) if one_shard else None, answers)
            if sample is not None:
                targets[one_setup] = targets[one_setup].with_name(f"{targets[one_setup].name}-sample{sample}s{seed}")
    if out is not None:
        _check_outs(out, setups)
    columns = []
    for one_setup, target in targets.items():
        config = RunConfig(dataset=dataset, data_dir=data_dir, dataset_dir=dataset_dir, adapter=adapter,
                           backend=backend, model=model,
                           setup=one_setup, setting=setting, mode=mode, generations=generations, draws=draws,
                           answers=answers,
                           backend_options=parse_option_pairs(option), metrics=metric,
                           default_metrics=not no_default_metrics, limit=limit,
                           apis=api or None, shard=one_shard, sample=sample, sample_seed=seed)
        try:
            columns.append(_run_one(config, target, quiet=quiet, force=force))
        except GenerationPending as pending:  # not an error: the status, and how to go on
            typer.echo(f"{target}: {visible(pending, lines=True)}")
    if not quiet and columns:
        _print_runs(columns, full=full, by_api=by_api)
    _end(backend, [(target, summary) for target, _, summary in columns])


def _check_outs(out: Path, setups: list[Setup]) -> None:
    """Refuse an ``--out`` that holds something else than this run (before anything starts)."""
    from wapii_core.store.out_guard import check_parent_out, check_run_out

    if len(setups) > 1:
        check_parent_out(out, [s.value for s in setups])
    for one_setup in setups:
        check_run_out(out / one_setup.value if len(setups) > 1 else out)


def _run_one(config: "RunConfig", target: Path, *, quiet: bool, force: bool) -> tuple[str, "RunRecord", "Summary"]:
    """One setup's run into ``target``, with progress bars unless ``quiet``: its column of the tables."""
    from wapii_core.cli.progress import progress_bars
    from wapii_core.generation.backends import replay_hint
    from wapii_core.run.runner import run
    from wapii_core.store.record import load_run

    with progress_bars(not quiet) as progress:
        summary = run(config, target, progress, force=force, note=lambda text: typer.echo(visible(text), err=True))
    hint = replay_hint(config.backend, summary.overall.get("counts", {}))
    if hint:
        typer.echo(visible(hint), err=True)
    if not quiet:
        typer.echo(f"run directory: {target}")
    return str(target), load_run(target), summary


def _print_runs(columns: list[tuple[str, "RunRecord", "Summary"]], *, full: bool, by_api: bool) -> None:
    """The headline rows of the runs side by side (every row with ``full`` or ``by_api``), then one
    table per API with ``by_api``."""
    from wapii_core.report.tables import print_table

    if full or by_api:
        print_table(columns)
    else:
        from wapii_core.report.headline import print_run_headline

        print_run_headline(columns, "--full, or report.md in the run directory")
    if by_api:
        for api_name in sorted({a for _, _, s in columns for a in s.per_api}):
            print_table(columns, api_name)


def _end(backend: str, runs: list[tuple[str, "Summary"]]) -> None:
    """Exit 3 when generations failed or programs did not run; exit 1, under the tables, when the
    oracle did not score everything correct."""
    from wapii_core.cli.run_failures import unrun_failure
    from wapii_core.generation.backends import oracle_shortfall

    failure = generation_failures(runs)
    if failure is not None:
        raise failure
    unrun = unrun_failure(runs)
    if unrun is not None:
        raise unrun
    shortfalls = [f"{target}: {line}" for target, summary in runs if (line := oracle_shortfall(backend, summary.overall))]
    for line in shortfalls:  # last, under the tables, where it is seen
        typer.secho(visible(line), err=True, fg=typer.colors.RED, bold=True)
    if shortfalls:
        raise typer.Exit(1)


def evaluate_command(
    run_dir: Path = typer.Argument(..., help="A run directory written by `wapii run`."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Where the dataset's files are (default: where the run found "
                                                 "them)."),
    metric: MetricsOption = [],
    no_default_metrics: NoDefaultMetricsOption = False,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars or table."),
    full: FullOption = False,
    isolated: RequireIsolationOption = False,
) -> None:
    """Re-execute and re-score the stored generations of a run directory."""
    require_isolation(isolated)
    from wapii_core.cli.progress import progress_bars
    from wapii_core.cli.run_failures import unrun_failure
    from wapii_core.run.runner import evaluate
    from wapii_core.store.record import load_run

    with progress_bars(not quiet) as progress:
        summary = evaluate(run_dir, progress, data_dir=data_dir, metrics=metric,
                           default_metrics=not no_default_metrics)
    if not quiet:
        _print_runs([(str(run_dir), load_run(run_dir), summary)], full=full, by_api=False)
    unrun = unrun_failure([(str(run_dir), summary)])
    if unrun is not None:
        raise unrun
