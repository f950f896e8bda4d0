"""One library's calls run on demand: the worker pool an adapter starts on first use and stops on close."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from wapii_core.base.model import Capture
from wapii_core.base.workers import LazyPool
from wapii_core.sandbox.layers import Isolation
from wapii_core.sandbox.node.answer import to_capture
from wapii_core.sandbox.node.env import ensure_runtime, find_node
from wapii_core.sandbox.node.library import NodeLibrary
from wapii_core.sandbox.node.pool import NodePool
from wapii_core.sandbox.supervisor import ELAPSED


class NodeRunner:
    """Executes calls of ``library()`` (called on first use: building it reads files) in a
    :class:`NodePool` started on first use; each answer is checked against ``schema`` (the
    adapter's record of a request, :func:`to_capture`). ``workers`` (default: one per CPU) Node
    processes run the calls, each under ``timeout_s`` seconds; ``keep`` (``"last"`` or ``"first"``)
    says which request a call that issues several is judged by. Thread-safe."""

    def __init__(self, library: Callable[[], NodeLibrary], schema: type[BaseModel], *, workers: int | None = None,
                 timeout_s: float = 2.0, keep: str = "last") -> None:
        if keep not in ("last", "first"):
            raise ValueError(f"keep_request must be 'last' or 'first', not {keep!r}")
        self.library, self.schema = library, schema
        self.workers, self.timeout_s, self.keep = workers, timeout_s, keep
        self._pool: LazyPool[NodePool] = LazyPool(self._make_pool, "node")

    def setup(self) -> None:
        """Checks for Node.js and installs the library's pinned npm packages once (idempotent)."""
        find_node()
        ensure_runtime(self.library())

    def isolation(self) -> Isolation:
        """Which sandbox layers protect the calls on this machine (``wapii doctor`` shows them)."""
        find_node()
        return NodePool(self.library(), ensure_runtime(self.library()), size=1).isolation()

    def _make_pool(self) -> NodePool:
        find_node()
        library = self.library()
        return NodePool(library, ensure_runtime(library), size=self.workers, timeout_s=self.timeout_s, keep=self.keep)

    def start(self) -> None:
        """Starts the workers in the background (finding Node and the npm packages too) and returns at
        once; :meth:`execute` reports whatever fails here again. A :meth:`close` before the start
        is under way cancels it."""
        self._pool.start_in_background()

    def execute(self, calls: list[str], responders: list[Any] | None = None) -> list[Capture]:
        """Runs each call in its own sandboxed context; one Capture per call, in order. ``responders``
        (one per call, or None): who answers each program's requests (the program runs to its end
        and its Capture holds every exchange)."""
        if not calls:
            return []
        from wapii_core.sandbox.dialogue import dialogues

        talks = dialogues(responders, len(calls))
        answers = self._pool.get().run(list(calls), talks)
        return [self._capture(answer, talk) for answer, talk in zip(answers, talks)]

    def _capture(self, answer: Any, talk: Any = None) -> Capture:
        elapsed = answer.pop(ELAPSED, None) if isinstance(answer, dict) else None
        return to_capture(answer, self.keep, self.schema).model_copy(
            update={"execution_s": elapsed, "exchanges": talk.exchanges if talk is not None else None})

    def close(self) -> None:
        """Stops the workers (they restart on the next :meth:`execute`)."""
        self._pool.close()
