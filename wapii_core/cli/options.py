"""The options several commands share (declared once) and the parsing of their values: ``-O
KEY=VALUE`` pairs, ``--setup`` names, ``--require-isolation``.

An option is an ``Annotated`` type: a command declares ``dataset: DatasetOption = "demo"``, so the
flag, its short form, environment variable and help text are the same wherever it appears.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from wapii_core.base.errors import WapiiError
from wapii_core.base.model import MAX_DRAWS

if TYPE_CHECKING:
    from wapii_core.base.model import Setup

DatasetOption = Annotated[str, typer.Option("--dataset", "-d", help="Dataset name (`wapii datasets list`).")]
DataDirOption = Annotated[Optional[Path], typer.Option(
    "--data-dir", envvar="WAPII_DATA_DIR", help="Where the dataset's files are (default: the per-user cache).")]
BackendOption = Annotated[Optional[str], typer.Option(
    "--backend", "-b", help="Where completions come from (default: the backend that renders each task's expected "
                            "request, a self-test).")]
ModelOption = Annotated[Optional[str], typer.Option("--model", "-m", help="Model name or path, for model backends.")]
DrawsOption = Annotated[int, typer.Option("--draws", "-n", min=1, max=MAX_DRAWS, help="Completions per task.")]
BackendOptionsOption = Annotated[list[str], typer.Option("--backend-option", "-O",
                                                          help="KEY=VALUE passed to the backend.")]
LimitOption = Annotated[Optional[int], typer.Option("--limit", min=1, help="Only the first N samples.")]
ApisOption = Annotated[list[str], typer.Option("--api", help="Only these APIs of the dataset.")]
MetricsOption = Annotated[list[str], typer.Option("--metric", help=(
    "A metric provider to apply besides the default ones (repeat for several; `wapii plugins` lists them)."))]
NoDefaultMetricsOption = Annotated[bool, typer.Option("--no-default-metrics", help=(
    "Apply only the --metric providers, not the default ones (the paper's table among them)."))]
FullOption = Annotated[bool, typer.Option("--full", help=(
    "Print every row, the providers' tables and the legends (default: the headline rows only)."))]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or tables.")]
RequireIsolationOption = Annotated[bool, typer.Option(
    "--require-isolation", envvar="WAPII_REQUIRE_ISOLATION",
    help="Refuse to execute generated code unless every sandbox layer is active (see `wapii doctor`).")]


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """``-O KEY=VALUE`` pairs as a mapping; a repeated key adds to a comma-separated list."""
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise WapiiError(f"backend option {pair!r} is not KEY=VALUE")
        key, value = pair.split("=", 1)
        key = key.strip()
        out[key] = f"{out[key]},{value}" if key in out else value
    return out


def require_isolation(required: bool) -> None:
    """Under ``--require-isolation``, refuse to execute generated code unless every sandbox layer is active."""
    if required:
        from wapii_core.sandbox import set_require_isolation

        set_require_isolation(True)


def refuse_generations_without_replay(backend: str, generations: object) -> None:
    """``--generations`` is read by a backend that replays stored programs only: any other would ignore it."""
    from wapii_core.base.declared import backend_kind, backend_of_kind

    if generations and backend_kind(backend) != "replays":
        replay = backend_of_kind("replays")
        raise WapiiError(f"--generations is read by the {replay} backend only; backend {backend!r} ignores it "
                         f"(add --backend {replay} to re-score the stored programs)")


def parse_setups(values: list[str]) -> list["Setup"]:
    """``--setup`` values as setups, each once, in order; an unknown one is refused with "did you mean"."""
    from wapii_core.base.errors import did_you_mean
    from wapii_core.base.model import Setup

    known = [s.value for s in Setup]
    for value in values:
        if value not in known:
            raise WapiiError(f"unknown setup {value!r}{did_you_mean(value, known)} (known: {', '.join(known)})")
    return list(dict.fromkeys(Setup(value) for value in values))
