"""Every hook a wapii plugin can implement.

All hooks are *collect-all*: every plugin that implements one is called, in registration order,
and none of them returns a value that wapii uses; plugins hand their contributions to the
``register`` callback instead (the register-callback style of simonw/llm). Hooks are called once
per process, lazily, the first time the registry they fill is needed.

Everything registered is checked against its protocol (:mod:`wapii_core.base.protocols`,
:mod:`wapii_core.base.plugin_checks`): a member that is missing or cannot be called as the core calls
it, or a name another plugin registers too, makes that name unusable, with a one-line error
naming the plugin's distribution when it is used (``wapii plugins`` lists such problems).
Plugins import from :mod:`wapii_core.api`, the kits (:mod:`wapii_core.kits`) and :mod:`wapii_core.testing` only;
``docs/plugins.md`` is the author's guide.
"""

from __future__ import annotations

from typing import Any, Callable

import pluggy

hookspec = pluggy.HookspecMarker("wapii")
hookimpl = pluggy.HookimplMarker("wapii")


@hookspec
def register_backends(register: Callable[..., None]) -> None:
    """Register model backends: ``register(name, factory, description="")``.

    ``factory(options: BackendOptions, context: RunContext) -> Backend`` (a class or a function) is
    called only when a run uses that backend, so it is where heavy imports (torch, an HTTP client)
    belong. ``options.extra`` holds the ``-O KEY=VALUE`` options as strings (validate them, e.g.
    with ``parse_options``). The backend it returns is checked against ``Backend`` then.
    """


@hookspec
def register_adapters(register: Callable[..., None]) -> None:
    """Register target language + HTTP library adapters: ``register(name, factory, description="")``.

    ``factory() -> Adapter`` (a class or a function); the adapter owns prompt, extraction,
    sandboxed execution, normalisation and rendering for its library. The adapter it returns is
    checked against ``wapii_core.base.protocols.Adapter``, and its optional members it lacks get their
    defaults.
    """


@hookspec
def register_metrics(register: Callable[..., None]) -> None:
    """Register metric providers: ``register(name, provider, description="", default=True)``.

    ``provider`` (an instance) follows ``wapii_core.base.protocols.MetricProvider``:
    ``aggregate(results: Iterable[SampleResult], dataset: Dataset)`` returns a JSON-serialisable
    mapping that is stored under ``summary.json``'s ``metrics.<name>``, and ``values`` declares
    each value's kind and description (``{key: Metric(kind, description)}``). A provider with
    ``default=True`` is applied by every run unless ``--no-default-metrics``; one with
    ``default=False`` only when asked for with ``--metric NAME``.
    """


@hookspec
def register_datasets(register: Callable[..., None]) -> None:
    """Register datasets: ``register(name, loader, description="")``.

    ``loader(data_dir: Path | None) -> Dataset`` reads (never downloads) the dataset; ``data_dir``
    is the ``--data-dir`` the user gave, if any (``load_dataset_dir`` reads a directory in the
    WAPIIBench layout). A loader may also have a ``fetch(data_dir, base_url=None)`` attribute that
    downloads it (``wapii datasets fetch``), and a ``default_adapter`` attribute naming the adapter its
    tasks are written for (a run of it without ``--adapter`` uses that one; a minor addition to the
    plugin API).
    """


@hookspec
def register_commands(app: Any) -> None:
    """Add CLI commands to the typer ``app`` (``@app.command("name")``); called once per process, when
    the command line is first built (``wapii_core.cli.build_command``), never at import. A command
    raises :class:`~wapii_core.base.errors.WapiiError` for a one-line error and exit code 2."""
