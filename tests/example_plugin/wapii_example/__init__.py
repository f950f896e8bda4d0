"""An example third-party wapii plugin, written from ``docs/plugins.md``.

- adapter ``urllib_py``: Python programs that call the API with the standard library's
  ``urllib.request``, run in the core's sandboxed Python pool and judged on what they send
  (:mod:`.adapter`, :mod:`.harness`);
- backend ``fixed``: completes every prompt with the text given as ``-O completion=...``
  (``{method}``, ``{METHOD}`` and ``{url}`` in it are replaced by the sample's expected method and URL)
  (:mod:`.backend`);
- metric provider ``verdict_histogram``: how many samples got each verdict (:mod:`.metric`).

This module only registers them: it is imported by every ``wapii`` command, so it stays cheap and
imports the rest on first use.
"""

from __future__ import annotations

from typing import Any, Callable

from wapii_core.api import hookimpl


def _urllib_adapter() -> Any:
    from .adapter import UrllibAdapter

    return UrllibAdapter()


def _fixed_backend(options: Any, context: Any) -> Any:
    from .backend import FixedBackend

    return FixedBackend(options, context)


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register("urllib_py", _urllib_adapter, description="Python + urllib.request (standard library): calls run in "
                                                        "the core's sandboxed Python pool (example plugin)")


@hookimpl
def register_backends(register: Callable[..., None]) -> None:
    register("fixed", _fixed_backend, description="a fixed completion for every prompt (example plugin)")


@hookimpl
def register_metrics(register: Callable[..., None]) -> None:
    from .metric import VerdictHistogram

    register("verdict_histogram", VerdictHistogram(), description="samples per verdict (example plugin)")
