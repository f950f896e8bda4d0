"""Running untrusted generated code: isolation layers and sandboxed worker pools.

Adapters execute hundreds of programs written by a language model; this package runs them so that
nothing leaves the sandbox, every hostile program gets its own error, and the run goes on, fast.

- :class:`PythonPool` / :class:`SnippetResult` (:mod:`.python_pool`): sandboxed Python workers
  that run snippets through an adapter's harness (fork-reuse children with seccomp and rlimits).
- :class:`ProgramPool` / :class:`ProgramResult` (:mod:`.programs`): one executable per sample (a
  compiled program, a JVM), each in its own sandboxed process, capturing what it writes to
  descriptor 3.
- :class:`Supervisor` (:mod:`.supervisor`): the generic pool of worker processes speaking JSON
  lines (per-job timeout, hard deadline with process-group kill, restarts, crash-loop breaker);
  the JavaScript runtime (:mod:`.node`) runs its Node workers on it.
- :mod:`.node`: the sandboxed JavaScript runtime every JavaScript adapter runs on (``NodeLibrary``,
  ``NodeRunner``, ``NodePool``).
- :class:`Program`, :func:`plan` (:mod:`.launch`): one worker wrapped in the layers available here:
  bubblewrap (:mod:`.bwrap`), the privilege drop (:mod:`.users`), rlimits and a clean environment
  (:mod:`.limits`).
- :class:`CompileBudget`, :func:`run_compiler`, :func:`isolate_failures` (:mod:`.compile_budget`):
  compilers of generated code under a budget, and the search for the programs that make a batch fail.
- :class:`Isolation`, :func:`enforce`, :func:`set_require_isolation` (:mod:`.layers`): which layers
  are active, a warning for those that are not, or a refusal under ``--require-isolation``.
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

_WHERE = {
    "Plan": "launch", "Program": "launch", "plan": "launch",
    "Isolation": "layers", "IsolationError": "layers", "Layer": "layers", "enforce": "layers",
    "isolation_required": "layers", "set_require_isolation": "layers",
    "GiB": "limits", "MiB": "limits", "Limits": "limits", "clean_env": "limits",
    "NoRequest": "pychild",
    "PythonPool": "python_pool", "SnippetResult": "python_pool",
    "ProgramPool": "programs", "ProgramResult": "programs",
    "CompileBudget": "compile_budget", "CompilerRun": "compile_budget", "CompileAttempt": "compile_budget",
    "run_compiler": "compile_budget", "isolate_failures": "compile_budget",
    "Supervisor": "supervisor", "WorkerStartError": "supervisor", "default_worker_count": "supervisor",
}
"""Where each public name lives: imported on first use, so that a sandboxed worker, which imports
only the modules it runs, stays small (its every snippet process is a fork of it)."""

__all__ = sorted(_WHERE)


__getattr__ = lazy_exports(__name__, {name: f".{module}" for name, module in _WHERE.items()})[0]
