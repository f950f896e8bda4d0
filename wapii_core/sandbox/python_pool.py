"""``PythonPool``: sandboxed Python workers that run snippets through an adapter's harness.

An adapter plugs in with no isolation code of its own::

    from wapii_core.sandbox import PythonPool
    pool = PythonPool(preload=["requests", "responses"], harness="wapii_requests_py.harness:run_snippet",
                      workers=None, timeout=2.0)
    results = pool.run(snippets)   # list[SnippetResult], in order
    pool.close()

The harness ``run_snippet(code: str) -> dict`` is imported in each worker's pre-loaded parent and
called in a child forked for that one snippet (:mod:`.pyworker`, :mod:`.pychild`): it executes the
snippet with the HTTP libraries' transports sending each request down the wire channel
(:func:`.wire_capture.send_request`) and returns a JSON-able value (hints about the request; the
snippet can rewrite it, so nothing a verdict rests on). Raising :class:`NoRequest` reports
``no_request``; raising anything else reports ``runtime_error`` with the exception as detail.
:attr:`SnippetResult.wire` holds the bytes the snippet sent: parse them with
:func:`.wire_capture.parse_requests`.

Layers: bubblewrap (or, without it, Landlock on the worker), the privilege drop, worker rlimits
(:mod:`.launch`), plus, per child, a lower address-space limit, its own Landlock domain
(:mod:`.landlock`: reads beneath the worker's files and the system's only, no writes), the seccomp
filter (:mod:`.seccomp`) and the audit hook (:mod:`.pyguard`), and a fresh process for every snippet.
"""

from __future__ import annotations

import base64
import binascii
import sys
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from wapii_core.base.text import MAX_DETAIL
from wapii_core.base.workers import ClosedOnExit
from wapii_core.sandbox import bwrap, landlock
from wapii_core.sandbox.code_view import allow_list, code_view
from wapii_core.sandbox.launch import Plan, Program, plan
from wapii_core.sandbox.layers import Isolation, Layer, enforce
from wapii_core.sandbox.limits import GiB, Limits, clean_env
from wapii_core.sandbox.seccomp import unavailable as seccomp_unavailable
from wapii_core.sandbox.supervisor import ELAPSED, Supervisor

ERRORS = ("runtime_error", "no_request", "timeout", "worker_died", "exited")
"""The error kinds a worker may answer, besides ``blocked: <what>``."""


@dataclass(frozen=True)
class SnippetResult:
    """What running one snippet gave.

    ``ok``: the harness returned; ``value``: what it returned (JSON), else None; ``error``: None,
    ``"runtime_error"`` (the harness raised; ``detail`` is the exception), ``"no_request"`` (the
    harness raised :class:`NoRequest`), ``"timeout"`` (past the pool's timeout; the process was
    killed), ``"worker_died"`` (the process was killed by a signal, or the worker stopped
    answering), ``"exited"`` (the snippet ended its process: ``sys.exit``, ``os._exit``) or
    ``"blocked: <what>"`` (the snippet tried something the sandbox refuses, even if it caught the
    refusal); ``detail``: a one-line explanation; ``wire``: every byte the snippet sent down its wire
    channel, whatever the outcome (a request sent before a timeout is there too).
    """

    ok: bool
    value: Any = None
    error: str | None = None
    detail: str | None = None
    wire: bytes = b""
    elapsed_s: float | None = None  # seconds the snippet took, as the supervisor measured it
    exchanges: list[Any] | None = None
    """The snippet's requests and its responder's answers (:class:`~wapii_core.base.model.Exchange`), in
    order, when :meth:`PythonPool.run` was given a responder for it; else None."""


def _text(text: str) -> str:
    """``text`` as text that UTF-8 can carry: a lone surrogate (from a snippet's exception message or a
    file name it tried) is written as its escape, which every JSON writer accepts."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _bad(detail: str) -> SnippetResult:
    return SnippetResult(ok=False, error="runtime_error", detail=f"bad_capture: {detail}")


def _timed(answer: Any) -> SnippetResult:
    """:func:`checked_result` of an answer of the supervisor, with the time it measured."""
    elapsed = answer.pop(ELAPSED, None) if isinstance(answer, dict) else None
    return replace(checked_result(answer), elapsed_s=elapsed)


def checked_result(answer: Any) -> SnippetResult:
    """The :class:`SnippetResult` of one worker answer, every field checked; an answer that breaks
    the protocol is that snippet's ``runtime_error`` with a ``bad_capture`` detail. ``error`` and
    ``detail`` come back as text UTF-8 can carry (lone surrogates escaped)."""
    if not isinstance(answer, dict):
        return _bad("the worker's answer is not an object")
    ok, error, detail, wire = answer.get("ok"), answer.get("error"), answer.get("detail"), answer.get("wire", "")
    if not isinstance(ok, bool) and ok is not None:
        return _bad("'ok' is not a boolean")
    if error is not None and not (isinstance(error, str) and (error in ERRORS or error.startswith("blocked: "))):
        return _bad("'error' is not an error kind")
    if detail is not None and not isinstance(detail, str):
        return _bad("'detail' is not a string")
    if bool(ok) == (error is not None):
        return _bad("'ok' and 'error' disagree")
    try:
        sent = base64.b64decode(wire, validate=True) if isinstance(wire, str) else None
    except (ValueError, binascii.Error):
        sent = None
    if sent is None:
        return _bad("'wire' is not base64")
    return SnippetResult(ok=bool(ok), value=answer.get("value") if ok else None, error=_text(error) if error else error,
                         detail=_text(detail[:MAX_DETAIL]) if detail else detail, wire=sent)



class PythonPool(ClosedOnExit):
    """Runs Python snippets through ``harness`` on ``workers`` sandboxed workers (default: one per CPU).

    ``preload``: modules each worker imports once, before forking; ``timeout``: seconds per snippet;
    ``warmup``: trusted snippets the harness runs once in each worker before it forks, so that what
    libraries initialise on first use (caches, compiled patterns, the mocks) is done once rather than
    in every snippet's process; ``memory``: address-space limit of each snippet process.
    Thread-safe; workers start on first use and stop on :meth:`close` (also on garbage collection
    and at exit).
    """

    def __init__(self, preload: list[str], harness: str, workers: int | None = None, timeout: float = 2.0, *,
                 warmup: list[str] | None = None, memory: int = 1 * GiB) -> None:
        self.preload = list(preload)
        self.harness = harness
        self.timeout = timeout
        seccomp_problem = seccomp_unavailable()
        # The worker imports pyseccomp to load its filter: part of the code it runs, wherever it is
        # installed (an interpreter whose own site directory lacks it gets it on sys.path, like wapii_core).
        view = code_view(["wapii_core", *([] if seccomp_problem else ["pyseccomp"]), *self.preload, harness])
        self.read_paths = list(view.roots)
        self.hidden = list(view.hidden)
        self.import_dirs = list(view.import_dirs)
        self.sys_path = [p for p in sys.path if p and Path(p).is_absolute() and Path(p).exists()
                         and any(Path(p).resolve() == r or r in Path(p).resolve().parents for r in self.read_paths)]
        self.sys_path += [str(p) for p in self.import_dirs if str(p) not in self.sys_path]
        self._seccomp_problem = seccomp_problem
        self._landlock_problem = landlock.unavailable()
        self._init = {
            "sys_path": self.sys_path,
            "preload": self.preload,
            "harness": harness,
            "warmup": list(warmup or []),
            "read_roots": [str(p) for p in self.read_paths],
            "hidden": [str(p) for p in self.hidden],
            "child_limits": {str(kind): value for kind, value in Limits(address_space=memory, file_size=0,
                                                                        processes_headroom=None).resolved(0).items()},
            "seccomp": seccomp_problem is None,
            "landlock": None if self._landlock_problem else vars(self.snippet_policy()),
        }
        self._plan: Plan | None = None
        self._plan_lock = threading.Lock()
        self._supervisor = Supervisor("python", self._start_plan, size=workers, timeout=timeout, init=self._init)

    def snippet_policy(self) -> landlock.Policy:
        """What a snippet process may reach under Landlock: read beneath the worker's own files, the
        system's (what bubblewrap shows; the dynamic linker needs it) and the usual devices; nothing else."""
        return landlock.Policy.of([*allow_list(self.read_paths, self.hidden), *bwrap.SYSTEM_PATHS, *landlock.DEVICES],
                                  list=self.import_dirs)

    def worker_config(self) -> dict[str, Any]:
        """The first line every worker reads (see :mod:`.pyworker`)."""
        return dict(self._init)

    def program(self) -> Program:
        """What one worker runs, before the sandbox's layers wrap it."""
        root = str(Path(__file__).resolve().parents[2])  # where wapii_core is, whatever site-packages says
        bootstrap = f"import sys; sys.path.insert(0, {root!r}); from wapii_core.sandbox.pyworker import main; main()"
        argv = [sys.executable, "-I", "-B", "-c", bootstrap]
        venv = [Path(sys.executable), Path(sys.prefix) / "pyvenv.cfg"]  # how the interpreter finds its environment
        return Program(argv=argv, read_paths=[*venv, *self.read_paths], env=clean_env(),
                       limits=Limits(address_space=4 * GiB), hidden=self.hidden, list_paths=self.import_dirs)

    def _start_plan(self) -> Plan:
        with self._plan_lock:
            if self._plan is None:
                started = plan(self.program())
                enforce(self.isolation())  # before the plan is kept: a refused start is refused again next time
                self._plan = started
            return self._plan

    def isolation(self) -> Isolation:
        """The layers protecting this pool's snippets (computed once per pool)."""
        started = self._plan or plan(self.program())
        problem, confined = self._seccomp_problem, self._landlock_problem is None
        layers = [
            *started.layers,
            Layer("landlock (snippets)", confined,
                  f"{landlock.covers(landlock.abi())}; each snippet process reads only beneath the worker's own "
                  "files and the system's, and writes no file" if confined else str(self._landlock_problem),
                  "reads of files outside the worker's own are refused only by the audit hook, in the snippet's own "
                  "process: advisory, a snippet can switch it off"),
            Layer("seccomp", problem is None, "snippet processes cannot exec, fork, open sockets, write files, "
                  "mount, trace, signal or re-prioritise other processes or change their limits" if problem is None
                  else problem, "processes, sockets and file writes are only refused by the audit hook"),
            Layer("audit hook", True, "names refused operations for the report (advisory: it runs in the snippet's "
                  "own process); refuses reads outside the worker's own files"),
            Layer("process per snippet", True, "every snippet runs in its own process, forked from a parent that "
                  "never runs snippet code; requests are judged from the bytes it sent down a pipe"),
        ]
        return Isolation("python", layers)

    def start(self) -> None:
        """Starts the workers in the background (optional: :meth:`run` starts what is missing)."""
        self._supervisor.start()

    def run(self, snippets: list[str], responders: list[Any] | None = None) -> list[SnippetResult]:
        """One :class:`SnippetResult` per snippet, in order. ``responders`` (one per snippet, or None):
        who answers each snippet's requests (:func:`~.dialogue.dialogues`); an answered snippet runs to
        its end and its result holds the exchanges."""
        from wapii_core.sandbox.dialogue import dialogues

        talks = dialogues(responders, len(snippets))
        answers = self._supervisor.run([{"code": code} for code in snippets], talks)
        return [replace(_timed(answer), exchanges=talk.exchanges if talk is not None else None)
                for answer, talk in zip(answers, talks)]

    def close(self) -> None:
        """Stops the workers (they start again on the next :meth:`run`)."""
        self._supervisor.close()

