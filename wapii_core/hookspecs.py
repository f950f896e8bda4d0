"""Every hook a wapii plugin can implement.

All hooks are *collect-all*: every plugin that implements one is called, in registration order,
and none of them returns a value that wapii uses; plugins hand their contributions to the
``register`` callback instead (the register-callback style of simonw/llm). Hooks are called once
per process, lazily, the first time the registry they fill is needed.
"""

from __future__ import annotations

from typing import Any, Callable

import pluggy

hookspec = pluggy.HookspecMarker("wapii")
hookimpl = pluggy.HookimplMarker("wapii")


@hookspec
def register_backends(register: Callable[..., None]) -> None:
    """Register model backends: ``register(name, factory, description="")``.

    ``factory(options: BackendOptions, context: RunContext) -> Backend`` is called only when a run
    uses that backend, so it is where heavy imports (torch, an HTTP client) belong.
    """


@hookspec
def register_adapters(register: Callable[..., None]) -> None:
    """Register target language + HTTP library adapters: ``register(name, factory, description="")``.

    ``factory() -> Adapter``; the adapter owns prompt, extraction, sandboxed execution,
    normalisation and rendering for its library (see ``wapii_core.protocols.Adapter``).
    """


@hookspec
def register_metrics(register: Callable[..., None]) -> None:
    """Register metric providers: ``register(name, provider)``.

    ``provider`` follows ``wapii_core.protocols.MetricProvider``: ``aggregate(results)`` returns a
    JSON-serialisable mapping that is stored under the provider's name in ``summary.json``.
    """


@hookspec
def register_datasets(register: Callable[..., None]) -> None:
    """Register datasets: ``register(name, loader, description="")``.

    ``loader(data_dir: Path | None) -> Dataset`` reads (never downloads) the dataset; ``data_dir``
    is the ``--data-dir`` the user gave, if any. A loader may also have a ``fetch(data_dir, base_url)``
    attribute that downloads it (``wapii datasets fetch``).
    """


@hookspec
def register_commands(app: Any) -> None:
    """Add CLI commands to the typer ``app``; called from ``main()``, never at import."""
