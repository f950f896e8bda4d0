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
from wapii_core.base.setups import Setup
from wapii_core.cli.common import (ApisOption, BackendOption, BackendOptionsOption, DataDirOption, DatasetOption,
                                   DrawsOption, LimitOption, ModelOption, QuietOption, generation_failures,
                                   parse_options)

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


def default_out(dataset: str, backend: str, model: Optional[str]) -> Path:
    parts = ["compare", dataset, backend] + ([model] if model else [])
    return Path("runs") / "-".join(re.sub(r"[^A-Za-z0-9_.]+", "_", p).strip("_") for p in parts)


def add_to(app: typer.Typer) -> None:
    @app.command("compare")
    def compare_command(
        adapter: list[str] = typer.Option(..., "--adapter", "-a", help="An adapter (HTTP library); repeat for each."),
        backend: BackendOption = "oracle",
        model: ModelOption = None,
        dataset: DatasetOption = "demo",
        data_dir: DataDirOption = None,
        setup: list[Setup] = typer.Option([Setup.full], "--setup", "-s", help="Setups to run; repeat for several."),
        mode: str = typer.Option(DEFAULT_MODE, "--mode", help="Comparison mode for every library: wire (default), "
                                 "reference or strict."),
        generations: list[str] = typer.Option([], "--generations", "-g",
                                              help="replay: ADAPTER=PATH per adapter (or one PATH for all)."),
        draws: DrawsOption = 1,
        option: BackendOptionsOption = [],
        limit: LimitOption = None,
        api: ApisOption = [],
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Directory of the runs and the comparison "
                                           "(default runs/compare-<dataset>-<backend>[-<model>])."),
        resamples: int = typer.Option(2000, "--resamples", min=0, help="Bootstrap resamples for the intervals."),
        quiet: QuietOption = False,
    ) -> None:
        """Run one backend with several adapters on the same tasks and compare the libraries side by side."""
        from wapii_core.report.terminal import print_report
        from wapii_core.report.libraries import print_differences, side_by_side, write_outputs
        from wapii_core.run.runner import RunConfig, run
        from wapii_core.cli.progress import progress_bars

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
