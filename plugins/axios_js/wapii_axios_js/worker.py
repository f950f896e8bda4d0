"""A pool of persistent Node workers (``js/worker.js``) that execute extracted calls.

Each worker is one ``node`` process started with a clean environment in an empty scratch
directory; it reads one JSON job per line on stdin and answers one JSON line on stdout (protocol in
``js/worker.js``). One thread per worker feeds it jobs from a shared queue, so a batch runs on all
workers at once. A worker that ran past its deadline is killed; one that crashed, exited or asked to
be restarted is replaced before its next job, so one hostile snippet never stops the batch.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Any

from wapii_core.errors import MissingToolError, WapiiError

from .node_env import find_node, js_dir, worker_env

MIN_NODE_MAJOR = 18
STARTUP_TIMEOUT_S = 60.0
GRACE_S = 1.0
"""Beyond the snippet's own timeout, how long the worker may take to report before it is killed."""


def default_worker_count() -> int:
    """One worker per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class WorkerProcess:
    """One running ``node js/worker.js`` and a thread that queues the lines it writes."""

    def __init__(self, node: str, runtime: Path, scratch: Path, number: int) -> None:
        self._log_path = scratch / f"worker-{number}.log"
        with open(self._log_path, "w") as log:
            self.process = subprocess.Popen(
                [node, str(js_dir() / "worker.js"), str(runtime)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=scratch,
                env=worker_env(),
                text=True,
                encoding="utf-8",
                errors="replace",
            )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, name="wapii-axios-worker-reader", daemon=True).start()
        self.wait_ready()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)  # end of output: the process is gone

    def wait_ready(self) -> None:
        """Waits for the worker's ``ready`` line; raises if Node is too old or the worker cannot start."""
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        message = self._next_message(deadline, lambda m: m.get("ready") is True)
        if message is None:
            self.kill()
            raise WapiiError(f"the axios_js Node worker did not start: {self.log_tail() or 'no output'}")
        major = int(str(message.get("node", "v0")).lstrip("v").split(".")[0] or 0)
        if major < MIN_NODE_MAJOR:
            self.kill()
            raise MissingToolError(f"the axios_js adapter needs Node.js {MIN_NODE_MAJOR} or newer, found {message.get('node')}")

    def _next_message(self, deadline: float, wanted: Any) -> dict[str, Any] | None:
        """The next JSON line that ``wanted`` accepts, or None at the deadline or end of output."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                return None
            if line is None:
                self._lines.put(None)  # keep reporting the end
                return None
            try:
                message = json.loads(line)
            except ValueError:
                continue  # not a protocol line
            if isinstance(message, dict) and wanted(message):
                return message

    def run(self, job_id: int, code: str, timeout_s: float, keep: str) -> dict[str, Any]:
        """Runs one snippet; a worker that does not answer in time is killed (see :attr:`alive`)."""
        job = json.dumps({"id": job_id, "code": code, "timeout_ms": max(1, round(timeout_s * 1000)), "keep": keep})
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(job + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return self._crashed()
        message = self._next_message(time.monotonic() + timeout_s + GRACE_S, lambda m: m.get("id") == job_id)
        if message is not None:
            if message.get("restart"):
                self.kill()
            return message
        if self.process.poll() is None:
            self.kill()
            return {"error": "runtime_error", "detail": f"timeout after {timeout_s:g} s (worker killed)"}
        return self._crashed()

    def _crashed(self) -> dict[str, Any]:
        self.kill()
        tail = self.log_tail()
        detail = f"the Node worker exited (code {self.process.returncode})" + (f": {tail}" if tail else "")
        return {"error": "runtime_error", "detail": detail}

    def log_tail(self) -> str:
        try:
            lines = self._log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(lines[-3:])

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that ignores SIGKILL
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def _shutdown(workers: list[WorkerProcess | None], scratch: list[Path]) -> None:
    for worker in workers:
        if worker is not None:
            worker.kill()
    workers[:] = []
    for directory in scratch:
        shutil.rmtree(directory, ignore_errors=True)
    scratch[:] = []


class WorkerPool:
    """Runs snippets on up to ``size`` persistent Node workers, each snippet under ``timeout_s``.

    A snippet that issues several requests reports the ``keep`` one: ``"last"`` (what the reference
    pipeline's log file ended up holding, every request overwriting it) or ``"first"``.

    ``run`` is thread-safe (calls are serialised); workers start on first use and stop on
    :meth:`close`, when the pool is garbage-collected, or when the interpreter exits.
    """

    def __init__(self, runtime: Path, size: int | None = None, timeout_s: float = 2.0, keep: str = "last") -> None:
        if keep not in ("last", "first"):
            raise ValueError(f"keep must be 'last' or 'first', not {keep!r}")
        self.runtime = runtime
        self.size = size or default_worker_count()
        self.timeout_s = timeout_s
        self.keep = keep
        self._workers: list[WorkerProcess | None] = []
        self._scratch: list[Path] = []
        self._lock = threading.Lock()
        self._next_id = 0
        self._finalizer = weakref.finalize(self, _shutdown, self._workers, self._scratch)

    def _scratch_dir(self) -> Path:
        if not self._scratch:
            self._scratch.append(Path(tempfile.mkdtemp(prefix="wapii-axios-js-")))
        return self._scratch[0]

    def _worker(self, slot: int, node: str) -> WorkerProcess:
        worker = self._workers[slot]
        if worker is None or not worker.alive:
            worker = WorkerProcess(node, self.runtime, self._scratch_dir(), slot)
            self._workers[slot] = worker
        return worker

    def run(self, codes: list[str]) -> list[dict[str, Any]]:
        """One result per snippet, in order: ``{"request": ...}`` or ``{"error", "detail"}``."""
        if not codes:
            return []
        with self._lock:
            node = find_node()
            slots = min(self.size, len(codes))
            while len(self._workers) < slots:
                self._workers.append(None)
            jobs: queue.Queue[int] = queue.Queue()
            for index in range(len(codes)):
                jobs.put(index)
            first_id = self._next_id
            self._next_id += len(codes)
            results: list[dict[str, Any] | None] = [None] * len(codes)
            failures: list[BaseException] = []

            def serve(slot: int) -> None:
                try:
                    while True:
                        try:
                            index = jobs.get_nowait()
                        except queue.Empty:
                            return
                        worker = self._worker(slot, node)
                        results[index] = worker.run(first_id + index, codes[index], self.timeout_s, self.keep)
                except BaseException as exc:  # noqa: BLE001 - re-raised in the calling thread
                    failures.append(exc)

            threads = [threading.Thread(target=serve, args=(slot,), name=f"wapii-axios-slot-{slot}") for slot in range(slots)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            if failures:
                raise failures[0]
            missing = [index for index, result in enumerate(results) if result is None]
            assert not missing, f"no result for jobs {missing}"
            return [result for result in results if result is not None]

    def close(self) -> None:
        """Stops every worker and removes the scratch directory (the pool can be used again)."""
        with self._lock:
            _shutdown(self._workers, self._scratch)
