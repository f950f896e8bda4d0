"""What the registered plugins declare of themselves, asked instead of their names.

The core never compares a plugin's name: a backend declares its ``kind`` (:data:`BACKEND_KINDS`:
it generates programs, replays stored ones, or renders the answer key), a dataset loader the adapter
its tasks are written for (``default_adapter``), a metric provider whether its values are the
summary's top-level rows (``top_level``). The CLI's defaults and the run's checks read these.
"""

from __future__ import annotations

from typing import Any

from wapii_core.base import plugins
from wapii_core.base.errors import WapiiError
from wapii_core.base.backend_kinds import BACKEND_KINDS, GENERATES

__all__ = ["BACKEND_KINDS", "backend_kind", "backend_of_kind", "default_adapter", "default_backend", "top_level"]


def backend_kind(name: str) -> str:
    """The ``kind`` the backend registered as ``name`` declares (on its class, or on its factory
    function); ``generates`` when it declares none or no backend has that name (a run refuses an
    unknown backend in its own words)."""
    entry = plugins.backends.entries().get(name)
    return getattr(entry.value, "kind", GENERATES) if entry is not None else GENERATES


def backend_of_kind(kind: str) -> str | None:
    """The name of the first registered backend (by name) that declares ``kind``, or None."""
    return next((name for name in plugins.backends.names() if backend_kind(name) == kind), None)


def default_backend() -> str:
    """The backend a run uses unless told: the one that renders each task's expected request (a
    self-test that needs no model)."""
    name = backend_of_kind("renders")
    if name is None:
        raise WapiiError("no installed backend renders the answer key; name one with --backend "
                         "(`wapii plugins` lists what is installed)")
    return name


def default_adapter(dataset: str, dataset_dir: Any = None) -> str:
    """The adapter a run of ``dataset`` uses unless told: the one its registered loader names
    (``loader.default_adapter``). A dataset that names none (a directory given with ``--dataset-dir``,
    a plugin's dataset from before the member) gets the one every registered dataset that names one
    agrees on; a one-line error when they do not agree."""
    entries = plugins.datasets.entries()
    entry = entries.get(dataset) if dataset_dir is None else None
    named = getattr(entry.value, "default_adapter", None) if entry is not None else None
    if named:
        return str(named)
    agreed = {getattr(e.value, "default_adapter", None) for e in entries.values()} - {None}
    if len(agreed) == 1:
        return str(agreed.pop())
    raise WapiiError(f"dataset {dataset!r} names no default adapter; name one with --adapter "
                     "(`wapii adapters list`)")


def top_level(provider: Any) -> bool:
    """Whether a metric provider's values are the summary's top-level rows (the paper's table)."""
    return bool(getattr(provider, "top_level", False))
