"""The mock that answers a judged program's requests: a stateful server derived from the API's
OpenAPI description (resources, responses, faults, a seeded store), and the types of one exchange.

The store lives outside the program's reach (in the supervisor's process or a host realm); a program
only exchanges bytes with it. The first-call benchmark answers every request with an empty ``200``
(:data:`~wapii_core.mock.exchange.EMPTY_OK`), as the published pipeline's mock adapter did.

:class:`SpecMock` (``SpecMock.load(spec)``, or ``SpecMock.for_spec(spec)``, memoised per process) derives the mock; its
``responder(seed, setup=..., faults=...)`` gives each sample a responder with a store of its own,
whose ``state()`` is the end state. :class:`FaultPlan` is a task's injected faults. Both are
imported on first use (this package is imported by the adapters, which need only the exchange types).
"""

from __future__ import annotations

from typing import Any

_LAZY = {"SpecMock": "wapii_core.mock.spec_mock", "SpecResponder": "wapii_core.mock.responder",
         "FaultPlan": "wapii_core.mock.faults", "Declaration": "wapii_core.mock.declaration",
         "config_request": "wapii_core.mock.configs"}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
