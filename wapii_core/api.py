"""The plugin API: the small face every wapii plugin meets.

A plugin (backend, adapter, metric provider, dataset, command) imports the records it exchanges
with the core, the protocols it implements, the errors it raises and ``hookimpl`` from here::

    from wapii_core.api import Generation, GenerationRequest, hookimpl, WapiiError

What an adapter or a backend builds on (the Node runtime, the Python harness, the JVM, grammars,
decoding options, ...) is in one versioned kit per kind of machinery, :mod:`wapii_core.kits`; what a
plugin's tests use is :mod:`wapii_core.testing`. Everything else is internal and may change in any
release: a test fails if a built-in plugin imports around the face, the kits and the testing module.

Names are imported on first use (a sandboxed worker or ``wapii --help`` stays small).
:data:`API_VERSION` versions these names and the protocols' members the semver way
(``docs/changelog.md`` lists every version's changes, and where 1.x's names went in 2.0).
"""

from __future__ import annotations

import importlib
from typing import Any

from wapii_core.base.lazy import lazy_exports

API_VERSION = "2.0"
"""The plugin API's version, ``MAJOR.MINOR``: MINOR grows when names or optional protocol members are
added (a plugin written for 2.0 works with every 2.x); MAJOR grows when a name is removed or renamed,
or a signature or protocol changes incompatibly."""

_WHERE: dict[str, str] = {
    # Hooks and registration.
    "hookimpl": "wapii_core.base.hookspecs",
    # Records exchanged with the core.
    "Setup": "wapii_core.base.model", "Sample": "wapii_core.base.model", "Prompt": "wapii_core.base.model",
    "GenerationRequest": "wapii_core.base.model", "Generation": "wapii_core.base.model",
    "GenerationTimings": "wapii_core.base.model", "ChatMessage": "wapii_core.base.model",
    "Extraction": "wapii_core.base.model", "Capture": "wapii_core.base.model", "SampleResult": "wapii_core.base.model",
    "Reference": "wapii_core.base.references",
    # Protocols a plugin implements, and what the core passes to it.
    "Backend": "wapii_core.base.protocols", "Adapter": "wapii_core.base.protocols",
    "MetricProvider": "wapii_core.base.protocols", "Dataset": "wapii_core.base.protocols",
    "BackendOptions": "wapii_core.base.protocols", "RunContext": "wapii_core.base.protocols",
    # What an adapter declares it can do (language, single call, constrained decoding, modes).
    "AdapterCapabilities": "wapii_core.base.capabilities",
    # Metric providers: what each value is (rate, count, mean) and means.
    "Metric": "wapii_core.base.metric_kinds",
    # Datasets a plugin ships: read a directory in the WAPIIBench layout.
    "load_dataset_dir": "wapii_core.datasets.loader",
    # Errors.
    "WapiiError": "wapii_core.base.errors", "InputError": "wapii_core.base.errors",
    "GenerationPending": "wapii_core.base.errors",
}
"""Where each public name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "API_VERSION"])


def moved_to(name: str) -> str | None:
    """The module a name of plugin API 1.x lives in since 2.0 (a kit, or :mod:`wapii_core.testing`);
    None if no kit and not the testing module has it."""
    from wapii_core.kits import KITS

    for module in [*(f"wapii_core.kits.{kit}" for kit in KITS), "wapii_core.testing"]:
        if name in importlib.import_module(module).__all__:
            return module
    return None


_lazy_getattr, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.api has no {name!r}: it is not part of the plugin API")


def __getattr__(name: str) -> Any:
    if name not in _WHERE and not name.startswith("__") and (home := moved_to(name)):
        raise AttributeError(f"wapii_core.api has no {name!r} since plugin API 2.0: import it from {home} "
                             "(docs/changelog.md)")
    return _lazy_getattr(name)
