"""What every JavaScript adapter does the same way: its calls run on :class:`NodeRunner`.

A JavaScript adapter subclasses :class:`NodeAdapterBase` and gives its prompt, extraction,
normalisation and rendering; the base runs the calls in wapii's sandboxed JavaScript runtime and
reads its settings from the arguments or the environment.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel

from wapii_core.base.model import Capture
from wapii_core.base.workers import ClosedOnExit, worker_settings
from wapii_core.sandbox.layers import Isolation
from wapii_core.sandbox.node.library import NodeLibrary
from wapii_core.sandbox.node.runner import NodeRunner

class NodeAdapterBase(ClosedOnExit):
    """Sandboxed execution of a JavaScript library's calls (setup, isolation, start, execute, close).

    Subclasses set :attr:`node_library` (called on first use: building it reads files),
    :attr:`record` (the pydantic model a captured request must fit), :attr:`env_prefix`
    (``WAPII_<ADAPTER>``: :func:`wapii_core.base.workers.env_prefix`) and
    :attr:`default_keep`. ``workers`` (default: one per CPU, or ``$<env_prefix>_WORKERS``) Node
    processes execute the calls; each call gets ``timeout_s`` seconds of wall time (default 2, or
    ``$<env_prefix>_TIMEOUT``); ``keep_request`` (``"first"`` or ``"last"``, or
    ``$<env_prefix>_KEEP_REQUEST``, default :attr:`default_keep`) says which request a call that
    issues several is judged by. Use as a context manager, or call :meth:`close`, to stop the workers
    early; they are also stopped when the adapter is garbage-collected and when the interpreter exits.
    """

    node_library: ClassVar[Callable[[], NodeLibrary]]
    record: ClassVar[type[BaseModel]]
    env_prefix: ClassVar[str]
    default_keep: ClassVar[str] = "first"

    def __init__(self, workers: int | None = None, timeout_s: float | None = None,
                 keep_request: str | None = None) -> None:
        self.workers, self.timeout_s = worker_settings(self.env_prefix, workers, timeout_s)
        self.keep_request = keep_request or os.environ.get(f"{self.env_prefix}_KEEP_REQUEST") or self.default_keep
        self._runner = NodeRunner(type(self).node_library, self.record, workers=self.workers,
                                  timeout_s=self.timeout_s, keep=self.keep_request)

    def setup(self) -> None:
        """Checks for Node.js and installs the pinned npm packages once (idempotent)."""
        self._runner.setup()

    def isolation(self) -> Isolation:
        """Which sandbox layers protect the calls on this machine (``wapii doctor`` shows them)."""
        return self._runner.isolation()

    def start(self) -> None:
        """Starts the Node workers in the background (a run calls this first; ``execute`` does not need it)."""
        self._runner.start()

    def execute(self, calls: list[str], responders: list[Any] | None = None) -> list[Capture]:
        """Runs each extracted call in its own sandboxed context; one Capture per call, in order.
        ``responders`` (one per call, or None): who answers each program's requests, outside the
        program's realm (the program runs to its end; its Capture holds every exchange)."""
        return self._runner.execute(calls, responders)

    def with_definitions(self, call: str, definitions: dict[str, Any]) -> str:
        """``call`` run after ``const <name> = <json>;`` per definition (a context task's variables, as the
        published pipeline defines them before the extracted call)."""
        from wapii_core.generation.code_context import definitions_source

        return definitions_source(definitions) + call

    def close(self) -> None:
        """Stops the Node workers (they restart on the next :meth:`execute`)."""
        self._runner.close()
