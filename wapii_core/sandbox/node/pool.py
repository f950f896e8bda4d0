"""The pool of sandboxed Node workers (``js/worker.js``) that execute extracted calls of one library.

The workers run on wapii's sandbox supervisor (:mod:`wapii_core.sandbox`): inside bubblewrap when it
works here (else confined by Landlock: reads of their own and the system's files only, no writes,
no TCP, no signals outside the sandbox), as an unprivileged user when wapii runs as root, under rlimits (2 GiB of address space:
an ArrayBuffer bomb fails to allocate) with a clean environment, one worker per CPU by default, a
per-call timeout enforced by the worker and a hard deadline after which the supervisor kills the
worker's process group and starts a new one. Node itself runs with:

- its permission model (``--permission`` / ``--experimental-permission``): no file writes, reads of
  the worker's own files only, no child processes, worker threads, addons or WASI;
- ``--frozen-intrinsics`` and ``--disallow-code-generation-from-strings``: an object of the worker's
  realm that reaches a snippet anyway can neither be altered nor turned into ``Function``;
- ``--experimental-vm-modules``, so that ``import()`` in a snippet stays pending instead of handing
  it an error object of the worker's realm;
- ``--max-old-space-size`` and ``--disable-wasm-trap-handler`` (which an address-space limit needs).

Every call runs in a fresh ``vm`` context that holds no object of the worker (``js/run.js``).
"""

from __future__ import annotations

import functools
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wapii_core.base.errors import MissingToolError, WapiiError
from wapii_core.sandbox import (GiB, Isolation, Layer, Limits, Program, Supervisor, clean_env, default_worker_count,
                                enforce, plan)

from wapii_core.sandbox.node.env import find_node, js_dir
from wapii_core.sandbox.node.library import NodeLibrary

MIN_NODE_MAJOR = 18
HEAP_MB = 512
GRACE_S = 1.0
"""Beyond a call's own timeout, how long the worker may take to answer before it is killed."""

__all__ = ["NodePool", "default_worker_count", "node_features"]


@dataclass(frozen=True)
class NodeFeatures:
    """What the ``node`` binary supports: its major version and which hardening flags it accepts."""

    version: str
    major: int
    flags: frozenset[str]

    @property
    def permission_flag(self) -> str | None:
        for flag in ("--permission", "--experimental-permission"):
            if flag in self.flags:
                return flag
        return None


CANDIDATE_FLAGS = ("--permission", "--experimental-permission", "--frozen-intrinsics",
                   "--disallow-code-generation-from-strings", "--experimental-vm-modules",
                   "--no-experimental-require-module", "--disable-wasm-trap-handler")


GC_FLAGS = ("--single-threaded-gc", "--max-semi-space-size=32")
"""V8 tuning for many short-lived contexts on few cores: ~10 % less CPU per call."""


def _ask(node: str, extra: tuple[str, ...]) -> dict[str, Any]:
    """Node's version and which candidate flags it accepts, asked with ``extra`` flags set."""
    probe = ("const f = %s; process.stdout.write(JSON.stringify({v: process.version, "
             "f: f.filter((x) => process.allowedNodeEnvironmentFlags.has(x))}))" % json.dumps(CANDIDATE_FLAGS))
    done = subprocess.run([node, *extra, "-e", probe], capture_output=True, text=True, timeout=60, env=clean_env())
    answer = json.loads(done.stdout)
    return {"version": str(answer["v"]), "flags": set(answer["f"]) | set(extra)}


@functools.lru_cache(maxsize=None)
def node_features(node: str) -> NodeFeatures:
    """Asks ``node`` (once per binary) for its version and the flags it accepts."""
    try:
        try:
            answer = _ask(node, GC_FLAGS)
        except ValueError:  # a Node whose V8 lacks one of the GC flags: ask without them
            answer = _ask(node, ())
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        raise MissingToolError(f"cannot run Node.js at {node}: {exc}") from exc
    version = answer["version"]
    return NodeFeatures(version, int(version.lstrip("v").split(".")[0]), frozenset(answer["flags"]))


def node_flags(features: NodeFeatures, read_paths: list[Path]) -> list[str]:
    """The hardening flags of a worker (those this Node supports).

    ``--openssl-config=/dev/null``: the worker needs no OpenSSL configuration, and reads none in any
    mode (bubblewrap shows it no ``/etc/ssl``; Landlock, without bubblewrap, refuses it, which Node
    would treat as fatal)."""
    flags = [f"--max-old-space-size={HEAP_MB}", "--no-warnings", "--openssl-config=/dev/null"]
    flags += [flag for flag in (*GC_FLAGS, *CANDIDATE_FLAGS[2:]) if flag in features.flags]
    if features.permission_flag:
        flags.append(features.permission_flag)
        flags += [f"--allow-fs-read={path}" for path in read_paths]
    return flags


class NodePool:
    """Runs snippets of ``library`` on up to ``size`` sandboxed Node workers, each under ``timeout_s``.

    ``runtime`` is the directory its npm packages are installed in (:func:`.env.ensure_runtime`).

    A snippet that issues several requests reports the ``keep`` one: ``"last"`` (what the reference
    pipeline's log file ended up holding, every request overwriting it) or ``"first"``.
    ``run`` returns, per snippet, ``{"request", "requests"}`` or ``{"error", "detail"}`` with error
    ``runtime_error``, ``no_request``, ``timeout`` or ``worker_died``. Thread-safe; workers start on
    first use and stop on :meth:`close`, on garbage collection, or at exit.
    """

    def __init__(self, library: NodeLibrary, runtime: Path, size: int | None = None, timeout_s: float = 2.0,
                 keep: str = "last") -> None:
        if keep not in ("last", "first"):
            raise ValueError(f"keep must be 'last' or 'first', not {keep!r}")
        self.library = library
        self.runtime = runtime
        self.size = size or default_worker_count()
        self.timeout_s = timeout_s
        self.keep = keep
        self._plan: Any = None
        self._supervisor = Supervisor(library.name.replace("_", "-"), self._start_plan, size=self.size, timeout=timeout_s, grace=GRACE_S)

    def program(self) -> tuple[Program, NodeFeatures]:
        node = str(Path(find_node()).resolve())
        features = node_features(node)
        if features.major < MIN_NODE_MAJOR:
            raise MissingToolError(f"the {self.library.name} adapter needs Node.js {MIN_NODE_MAJOR} or newer, "
                                   f"found {features.version}")
        read_paths = [js_dir().resolve(), self.library.dir, self.runtime.resolve()]
        argv = [node, *node_flags(features, read_paths), str(js_dir() / "worker.js"), str(self.runtime),
                self.library.worker_argument()]
        limits = Limits(address_space=2 * GiB if "--disable-wasm-trap-handler" in features.flags else None)
        return Program(argv=argv, read_paths=[Path(node), *read_paths], env=clean_env(), limits=limits), features

    def isolation(self) -> Isolation:
        """The layers protecting this pool's snippets."""
        program, features = self.program()
        started = self._plan or plan(program)
        permission = features.permission_flag
        hardening = [flag for flag in ("--frozen-intrinsics", "--disallow-code-generation-from-strings",
                                       "--experimental-vm-modules") if flag in features.flags]
        return Isolation("node", [
            *started.layers,
            Layer("node permission model", permission is not None,
                  f"{permission}: no file writes, reads of the worker's own files only, no child processes, "
                  "worker threads or addons" if permission else f"Node {features.version} has no permission model",
                  "after a sandbox escape: file writes, child processes"),
            Layer("vm context", len(hardening) == 3, "a fresh context per call holding no object of the worker; "
                  f"{', '.join(hardening)}" if hardening else "no hardening flags supported",
                  "dynamic import() hands a snippet objects of the worker's realm"),
        ])

    def _start_plan(self) -> Any:
        if self._plan is None:
            program, _ = self.program()
            started = plan(program)
            enforce(self.isolation())  # before the plan is kept: a refused start is refused again next time
            self._plan = started
        return self._plan

    def start(self) -> None:
        """Starts the workers in the background (optional: :meth:`run` starts what is missing)."""
        self._supervisor.start()

    def run(self, codes: list[str], talks: list[Any] | None = None) -> list[dict[str, Any]]:
        """One result per snippet, in order (see the class documentation); ``talks``: one
        :class:`~wapii_core.sandbox.dialogue.Dialogue` (or None) per snippet, whose requests it answers."""
        try:
            return self._supervisor.run([{"code": code, "keep": self.keep} for code in codes], talks)
        except WapiiError:
            raise
        except OSError as exc:
            raise WapiiError(f"cannot start the {self.library.name} Node workers: {exc}") from exc

    def close(self) -> None:
        """Stops every worker (the pool can be used again)."""
        self._supervisor.close()
