"""Running untrusted generated code: isolation layers and sandboxed worker pools.

Adapters execute hundreds of programs written by a language model; this package runs them so that
nothing leaves the sandbox, every hostile program gets its own error, and the run goes on, fast.

- :class:`PythonPool` / :class:`SnippetResult` (:mod:`.python_pool`): sandboxed Python workers
  that run snippets through an adapter's harness (fork-reuse children with seccomp and rlimits).
- :class:`Supervisor` (:mod:`.supervisor`): the generic pool of worker processes speaking JSON
  lines (per-job timeout, hard deadline with process-group kill, restarts, crash-loop breaker);
  the axios_js adapter runs its Node workers on it.
- :class:`Program`, :func:`plan` (:mod:`.launch`): one worker wrapped in the layers available here:
  bubblewrap (:mod:`.bwrap`), the privilege drop (:mod:`.users`), rlimits and a clean environment
  (:mod:`.limits`).
- :class:`Isolation`, :func:`enforce`, :func:`set_require_isolation` (:mod:`.layers`): which layers
  are active, a warning for those that are not, or a refusal under ``--require-isolation``.
"""

from .launch import Plan, Program, plan
from .layers import Isolation, IsolationError, Layer, enforce, isolation_required, set_require_isolation
from .limits import GiB, MiB, Limits, clean_env
from .pychild import NoRequest
from .python_pool import PythonPool, SnippetResult
from .supervisor import Supervisor, WorkerStartError, default_worker_count

__all__ = [
    "GiB", "Isolation", "IsolationError", "Layer", "Limits", "MiB", "NoRequest", "Plan", "Program", "PythonPool",
    "SnippetResult", "Supervisor", "WorkerStartError", "clean_env", "default_worker_count", "enforce",
    "isolation_required", "plan", "set_require_isolation",
]
