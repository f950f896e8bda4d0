"""``wapii datasets``: list, show and fetch the registered datasets; check, scaffold and generate a
dataset for any API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from wapii_core.base.text import visible
from wapii_core.cli.options import BackendOptionsOption, parse_option_pairs
from wapii_core.cli.plain_help import App

if TYPE_CHECKING:
    from wapii_core.base.model import Sample
    from wapii_core.base.protocols import Dataset
    from wapii_core.datasets.check import Replayer

datasets_app = App(help="List, inspect and download datasets; check, scaffold and generate one for any API.")


@datasets_app.command("list")
def list_command(
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Look for the datasets' files here (default: the per-user cache)."),
) -> None:
    """The registered datasets and whether each is available here (`wapii run --dataset-dir DIR`
    benchmarks any directory in the WAPIIBench layout besides these)."""
    from wapii_core.base import plugins
    from wapii_core.base.errors import WapiiError

    for name, entry in sorted(plugins.datasets.entries().items()):
        try:
            entry.value(data_dir)
            state = "available"
        except WapiiError as exc:
            state = f"not available ({exc})"
        typer.echo(f"{name:<12} {state}\n{'':<12} {entry.description}")


@datasets_app.command("show")
def show_command(
    name: str = typer.Argument(..., help="Dataset name."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Where the dataset's files are (default: the per-user cache)."),
) -> None:
    """Where a dataset is, its sha256 and its samples per API, as JSON."""
    from wapii_core.base import plugins
    from wapii_core.datasets.loader import dataset_summary

    typer.echo(json.dumps(dataset_summary(plugins.datasets.get(name)(data_dir)), indent=2))


@datasets_app.command("fetch")
def fetch_command(
    name: str = typer.Argument("wapiibench", help="Dataset name."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Where to put it (default: the per-user cache)."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="Download from this mirror instead of upstream."),
) -> None:
    """Download a dataset and verify every file's sha256; nothing is half-written on failure."""
    from wapii_core.base import plugins
    from wapii_core.base.errors import WapiiError
    from wapii_core.base.paths import default_data_dir

    loader = plugins.datasets.get(name)
    fetch = getattr(loader, "fetch", None)
    if fetch is None:
        raise WapiiError(f"dataset {name!r} is bundled or local; there is nothing to fetch")
    target = fetch(data_dir or default_data_dir(name), base_url)
    typer.echo(f"{name}: ready in {target}, verified")


def load_for_cli(dataset: Optional[str], dataset_dir: Optional[Path], data_dir: Optional[Path]):
    """The dataset a command names: a directory in the WAPIIBench layout, or a registered name."""
    from wapii_core.base import plugins
    from wapii_core.datasets.loader import load_dataset_dir
    from wapii_core.base.errors import WapiiError

    if dataset_dir is not None:
        if dataset is not None:
            raise WapiiError("give --dataset or --dataset-dir, not both")
        return load_dataset_dir(dataset_dir, dataset_dir.resolve().name)
    return plugins.datasets.get(dataset or "demo")(data_dir)


def workflow_replayer(dataset: Dataset) -> Replayer:
    """What ``datasets check`` replays a workflow task with: the expected run on the mock of its API
    (the mock is imported only when a dataset has a workflow task)."""

    def replayed(sample: Sample) -> Any:
        from wapii_core.mock import SpecMock
        from wapii_core.workflows.replay import replay

        return replay(sample, SpecMock.for_spec(dataset.specs[sample.api]), str(dataset.source))

    return replayed


@datasets_app.command("check")
def check_command(
    dataset: Optional[str] = typer.Option(None, "--dataset", "-d", help="A registered dataset (default: demo)."),
    dataset_dir: Optional[Path] = typer.Option(None, "--dataset-dir",
                                               help="A directory with dataset.json and specs/ instead."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Where a registered dataset's files are."),
    values: bool = typer.Option(True, "--values/--no-values",
                                help="Also validate every value against its schema (--no-values: names and "
                                     "required arguments only, like WAPIIBench's own check)."),
) -> None:
    """Validate every expected request against its spec; one line per problem, exit code 1 if any. A
    workflow task (several calls) is also replayed on its mock: every call answered, every reference
    resolved, the store changed unless it only reads; a workflow task that fails cannot be run at all:
    exit code 2."""
    from wapii_core.datasets.check import check_dataset

    ds = load_for_cli(dataset, dataset_dir, data_dir)
    problems = check_dataset(ds, values=values, replayer=workflow_replayer(ds))
    for problem in problems:
        typer.echo(visible(problem))
    flagged = {p.sample for p in problems}
    typer.echo(f"{ds.name}: {len(problems)} problem(s) in {len(flagged)} of {len(ds.samples)} samples", err=True)
    if any(s.workflow for s in ds.samples if s.id in flagged):
        raise typer.Exit(2)
    if problems:
        raise typer.Exit(1)

@datasets_app.command("scaffold")
def scaffold_command(
    spec: Path = typer.Option(..., "--spec", help="The OpenAPI 3 spec (YAML or JSON) to write tasks for."),
    out: Path = typer.Option(..., "--out", "-o", help="New dataset directory (dataset.json, specs/, apis.json)."),
    api: Optional[str] = typer.Option(None, "--api", help="The API's name (default: the spec file's stem)."),
    every: int = typer.Option(1, "--every", min=1, help="Only every N-th operation (a subset of a large API)."),
) -> None:
    """Write a template task for every endpoint of a spec (no model: values from the schemas), each
    checked against the spec: a smoke test of an API before generating natural tasks."""
    from wapii_core.datasets.scaffold import scaffold_dataset

    report = scaffold_dataset(spec, out, api, every)
    for line in report.lines():
        typer.echo(visible(line), err=True)
    typer.echo(str(out))

@datasets_app.command("generate")
def generate_command(
    spec: Path = typer.Option(..., "--spec", help="The OpenAPI 3 spec (YAML or JSON) to write tasks for."),
    backend: str = typer.Option("openai", "--backend", "-b", help="A chat backend (`wapii plugins`)."),
    model: str = typer.Option(..., "--model", "-m", help="The model that writes the tasks."),
    out: Path = typer.Option(..., "--out", "-o", help="New dataset directory (dataset.json, specs/, prompts/)."),
    prompts: Optional[Path] = typer.Option(None, "--prompts",
                                           help="Directory with dataset_generation_prompt.md, template.json "
                                                "(and <api>_instructions.md); default: WAPIIBench's."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Where WAPIIBench is (for its prompts)."),
    api: Optional[str] = typer.Option(None, "--api", help="The API's name (default: the spec file's stem)."),
    max_endpoints: int = typer.Option(100, "--max-endpoints", min=1,
                                      help="Specs with more endpoints are asked for in subsets."),
    chunk_endpoints: int = typer.Option(30, "--chunk-endpoints", min=1,
                                        help="Endpoints per request when a spec is split."),
    retries: int = typer.Option(2, "--retries", min=0, help="Re-asks after a malformed answer."),
    subset_spec: bool = typer.Option(False, "--subset-spec/--whole-spec",
                                     help="When a spec is split: show each request only its paths and the "
                                          "components they use (default: the whole spec every time)."),
    drop_failing: bool = typer.Option(False, "--drop-failing",
                                      help="Leave out samples that fail the check (default: keep them, "
                                           "with their problems in `checks`, for vetting)."),
    option: BackendOptionsOption = [],
) -> None:
    """Have a model write tasks and expected requests for every endpoint of a spec (the paper's
    dataset creation), check them against the spec, and write a dataset directory."""
    from wapii_core.datasets.generate import GenerateConfig, generate_dataset

    config = GenerateConfig(spec=spec, backend=backend, model=model, out=out, prompts_dir=prompts,
                            data_dir=data_dir, api=api, max_endpoints=max_endpoints,
                            chunk_endpoints=chunk_endpoints, retries=retries, drop_failing=drop_failing,
                            subset_spec=subset_spec,
                            backend_options=parse_option_pairs(option))
    report = generate_dataset(config)
    for line in report.lines():
        typer.echo(visible(line), err=True)
    typer.echo(str(out))
