"""``wapii mock``: serve the stateful mock derived from a spec over HTTP on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from wapii_core.cli.options import DataDirOption


def mock_command(
    source: str = typer.Argument(..., metavar="SPEC_OR_DATASET",
                                 help="An OpenAPI spec file, a dataset directory, or a dataset name (`wapii datasets list`)."),
    port: int = typer.Option(0, "--port", "-p", min=0, max=65535, help="Port on 127.0.0.1 (default: any free port)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of every generated value (the same seed, the same answers)."),
    api: Optional[str] = typer.Option(None, "--api", help="Which API of a dataset with several."),
    faults: Optional[Path] = typer.Option(None, "--faults", help="A fault plan (JSON): injected 429s and 5xx (docs/mock.md)."),
    declaration: Optional[Path] = typer.Option(None, "--declaration",
                                               help="What operations do to the store, where the paths cannot say "
                                                    "(JSON, docs/mock.md; default: the dataset's mock/<api>.json)."),
    open_world: bool = typer.Option(False, "--open-world", help="Every identifier names an object (generated on "
                                                                "first use) instead of a 404 for what was not created."),
    data_dir: DataDirOption = None,
) -> None:
    """Serve the API's mock: responses, state and faults derived from its OpenAPI spec (docs/mock.md)."""
    from wapii_core.cli.interrupt import Interrupted
    from wapii_core.mock.spec_mock import SpecMock
    from wapii_core.mock.server import MockServer

    spec = _spec_of(source, api, data_dir)
    plan = _fault_plan(faults) if faults is not None else None
    mock = SpecMock.load(spec, declaration)
    try:
        server = MockServer(port, mock.responder(seed, faults=plan, open_world=open_world))
    except OSError as exc:
        from wapii_core.base.errors import WapiiError

        raise WapiiError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from exc
    collections = sorted(name for name, c in mock.collections.items()
                         if any(s.collection == name and s.action != "other" for s in mock.steps.values()))
    print(f"serving the mock of {spec} ({len(mock.steps)} operations, {len(collections)} collections) "
          f"at {server.url}{mock.server_path or ''} (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except (KeyboardInterrupt, Interrupted):
        typer.echo("stopped")
    finally:
        server.server_close()


def _spec_of(source: str, api: Optional[str], data_dir: Optional[Path]) -> Path:
    """The spec file ``source`` names: itself, or the spec of ``api`` in a dataset (directory or name)."""
    from wapii_core.base import plugins
    from wapii_core.base.errors import InputError, WapiiError
    from wapii_core.datasets.loader import load_dataset_dir

    path = Path(source)
    if path.is_file():
        return path
    if path.is_dir():
        dataset = load_dataset_dir(path, path.resolve().name)
    elif "/" in source or source.endswith((".yaml", ".yml", ".json")):
        raise InputError(path, "no such spec file or dataset directory")
    else:
        dataset = plugins.datasets.get(source)(data_dir)
    if api is None:
        if len(dataset.specs) != 1:
            raise WapiiError(f"dataset {dataset.name!r} has {len(dataset.specs)} APIs; pick one with --api "
                             f"({', '.join(sorted(dataset.specs))})")
        return next(iter(dataset.specs.values()))
    if api not in dataset.specs:
        raise WapiiError(f"dataset {dataset.name!r} has no API {api!r} ({', '.join(sorted(dataset.specs))})")
    return dataset.specs[api]


def _fault_plan(path: Path):  # noqa: ANN202 - a FaultPlan, imported lazily
    from wapii_core.base.json_files import read_json_model
    from wapii_core.mock.faults import FaultPlan

    return read_json_model(path, FaultPlan, "fault plan")
