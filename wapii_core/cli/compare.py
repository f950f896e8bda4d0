"""``wapii compare``: one backend over several adapters (HTTP libraries) on the same tasks, side by side.

For every adapter and setup it runs (or resumes) ``wapii run`` into ``<out>/<adapter>-<setup>``, in
``wire`` mode unless told otherwise (the one yardstick that judges every library by what it sends),
then prints and writes ``<out>/compare.md`` and ``<out>/compare.json``: the paper's rows with one
column per library (per setup, overall and per API; the tables ``wapii report`` gives for the same
run directories) and, for every two libraries, the tasks that one solved and the other did not.
A task counts as solved by a library when at least one of its draws was judged correct.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Optional

import typer

from wapii_core.base.errors import WapiiError
from wapii_core.base.text import visible
from wapii_core.cli.options import (ApisOption, BackendOption, BackendOptionsOption, DataDirOption, DatasetOption,
                                    DrawsOption, LimitOption, MetricsOption, ModelOption, NoDefaultMetricsOption,
                                    QuietOption, RequireIsolationOption, parse_option_pairs, parse_setups,
                                    refuse_generations_without_replay, require_isolation)
from wapii_core.cli.run_failures import generation_failures

DEFAULT_MODE = "wire"


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


def default_compare_dir(dataset: str, backend: str, model: Optional[str], setting: str = "unconstrained") -> Path:
    parts = ["compare", dataset, backend] + ([model] if model else [])
    parts += [setting] if setting != "unconstrained" else []
    return Path("runs") / "-".join(re.sub(r"[^A-Za-z0-9_.]+", "_", p).strip("_") for p in parts)


def compare_command(
    adapter: list[str] = typer.Option(..., "--adapter", "-a", help="An adapter (HTTP library); repeat for each."),
    backend: BackendOption = None,
    model: ModelOption = None,
    dataset: DatasetOption = "demo",
    data_dir: DataDirOption = None,
    dataset_dir: Optional[Path] = typer.Option(None, "--dataset-dir",
                                               help="Compare the libraries on any directory in the WAPIIBench "
                                                    "layout (dataset.json, specs/, prompts/): your own API."),
    setup: list[str] = typer.Option(["full"], "--setup", "-s", help="Setups to run (full, argument, import); "
                                    "repeat for several."),
    mode: str = typer.Option(DEFAULT_MODE, "--mode", help="Comparison mode for every library: wire (default), "
                             "reference, strict or journal."),
    setting: str = typer.Option("unconstrained", "--setting",
                                help="unconstrained, constrained, rag, constrained-rag or spec (as for `wapii run`)."),
    generations: list[str] = typer.Option([], "--generations", "-g",
                                          help="replay: ADAPTER=PATH per adapter (or one PATH for all)."),
    draws: DrawsOption = 1,
    option: BackendOptionsOption = [],
    metric: MetricsOption = [],
    no_default_metrics: NoDefaultMetricsOption = False,
    limit: LimitOption = None,
    api: ApisOption = [],
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Directory of the runs and the comparison "
                                       "(default runs/compare-<dataset>-<backend>[-<model>])."),
    resamples: int = typer.Option(2000, "--resamples", min=0, help="Bootstrap resamples for the intervals."),
    quiet: QuietOption = False,
    isolated: RequireIsolationOption = False,
    force: bool = typer.Option(False, "--force", help="Start every run over (the runs' files in --out are "
                                                      "replaced)."),
) -> None:
    """Run one backend with several adapters on the same tasks and compare the libraries side by side."""
    require_isolation(isolated)
    from wapii_core.base.declared import default_backend

    backend = backend or default_backend()
    from wapii_core.report.libraries import print_differences, side_by_side, write_outputs
    from wapii_core.run.runner import RunConfig, run
    from wapii_core.cli.progress import progress_bars

    setups = parse_setups(setup)
    adapters = list(dict.fromkeys(adapter))
    refuse_generations_without_replay(backend, generations)
    replay = parse_generations(generations, adapters)
    if dataset_dir is not None:
        dataset = dataset_dir.resolve().name
    target = out or default_compare_dir(dataset, backend, model, setting)
    from wapii_core.store.out_guard import COMPARE_FILES, check_parent_out

    check_parent_out(target, [f"{name}-{s.value}" for name in adapters for s in setups], COMPARE_FILES)
    run_dirs = []
    summaries = []
    for name in adapters:
        for one_setup in setups:
            config = RunConfig(dataset=dataset, data_dir=data_dir, dataset_dir=dataset_dir, adapter=name,
                               backend=backend, model=model, setup=one_setup, setting=setting, mode=mode,
                               generations=replay.get(name), draws=draws, backend_options=parse_option_pairs(option),
                               metrics=metric, default_metrics=not no_default_metrics, limit=limit,
                               apis=api or None)
            directory = target / f"{name}-{one_setup.value}"
            if not quiet:
                typer.echo(f"{name}, {one_setup.value} completion: {directory}", err=True)
            with progress_bars(not quiet) as progress:
                summaries.append((str(directory), run(config, directory, progress, force=force,
                                                      note=lambda text: typer.echo(visible(text), err=True))))
            run_dirs.append(directory)
    report, differences = side_by_side(run_dirs, resamples=resamples)
    write_outputs(target, report, differences)
    if not quiet:
        from wapii_core.report.headline import print_headline

        print_differences(differences, more=f"{target / 'compare.md'} lists them all")
        typer.echo(f"wrote {target / 'compare.md'} and {target / 'compare.json'}")
        print_headline(replace(report, tables=[t for t in report.tables if not any(t.scopes)]),
                       f"{target / 'compare.md'}")
    failure = generation_failures(summaries)
    if failure is not None:
        raise failure
    from wapii_core.generation.backends import oracle_shortfall

    shortfalls = [f"{d}: {line}" for d, s in summaries if (line := oracle_shortfall(backend, s.overall))]
    for line in shortfalls:
        typer.secho(visible(line), err=True, fg=typer.colors.RED, bold=True)
    if shortfalls:
        raise typer.Exit(1)
