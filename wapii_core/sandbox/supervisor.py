"""The worker supervisor: a pool of sandboxed worker processes speaking JSON lines over pipes.

Protocol: a worker may first read one ``init`` line (its configuration), writes
``{"ready": true, ...}`` once it can take jobs, then answers every input
line ``{"id": <int>, "timeout_ms": <int>, ...job}`` with one line ``{"id": <int>, ...answer}``; an
answer with ``"retire": true`` (a job spoiled the worker) is its last: the worker is replaced.
The worker enforces ``timeout_ms`` itself and answers ``{"error": "timeout"}``; the supervisor only
steps in at the hard deadline (``timeout`` + ``grace``): it kills the worker's whole process group
(bubblewrap and everything in its PID namespace with it) and answers ``{"error": "timeout"}``. A
worker that exits or crashes during a job answers ``{"error": "worker_died"}``. Either way the next
job gets a fresh worker, so one hostile snippet never stops a batch.

Crash-loop breaker: a worker that cannot start (no ``ready`` line) three times in a row (or, for lack
of processes, for :data:`EXHAUSTED_WAIT_S`) gives up its slot: its job goes back to the queue for the
slots whose workers run, and only a batch left with jobs no worker could take ends with a
:class:`WorkerStartError` (a broken installation, or a limit held elsewhere; the judge makes those
jobs ``worker_start_failed`` results that a resumed run judges again); a slot whose
workers died on several jobs in a row waits a little longer before each restart (up to 1 s).

One thread per slot feeds its worker from a shared queue, so a batch runs on every worker at once;
``run`` calls are serialised. Workers start on first use (or in the background from :meth:`Supervisor.start`,
so that their start-up overlaps the caller's own work) and stop on :meth:`Supervisor.close`, when
the supervisor is garbage-collected, or when the interpreter exits.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wapii_core.base.errors import WapiiError
from wapii_core.sandbox import pids
from wapii_core.sandbox.launch import Plan

if TYPE_CHECKING:
    from wapii_core.sandbox.dialogue import Dialogue

ELAPSED = "elapsed_s"
"""The key of every answer :meth:`Supervisor.run` returns that holds the seconds the job took, from
sending it to its answer (set by the supervisor; a consumer takes it off before reading the answer)."""
EXHAUSTED_WAIT_S = 10.0
"""How long a worker whose start fails for lack of processes (``EAGAIN``) is retried before the run
is told (a crash loop of a broken installation is told after :data:`START_ATTEMPTS` tries)."""
EXHAUSTION_SIGNS = ("Resource temporarily unavailable", "BlockingIOError", "can't start new thread",
                    "EAGAIN", "fork: retry")


def exhaustion(error: BaseException) -> bool:
    """Whether a worker's failure to start says a process or thread limit was reached (transient),
    rather than that its installation is broken."""
    return any(sign in str(error) for sign in EXHAUSTION_SIGNS)


MAX_LINE = 8 << 20
"""The longest answer line a worker may write (bytes); a longer one ends the worker."""
START_ATTEMPTS = 3
BACKOFF_AFTER = 3
MAX_BACKOFF_S = 1.0


class WorkerStartError(WapiiError):
    """A worker did not reach its ``ready`` line, several times in a row."""


def default_worker_count() -> int:
    """One worker per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class WorkerProcess:
    """One running worker and a thread that queues the lines it writes.

    ``spawner``: the long-lived thread to start the process from. bubblewrap's ``--die-with-parent``
    (like any parent-death signal) fires when the *thread* that started it ends, so workers must
    not be started from a thread that ends before them.
    """

    def __init__(self, plan: Plan, scratch: Path, name: str, ready_timeout: float,
                 init: dict[str, Any] | None = None, spawner: ThreadPoolExecutor | None = None) -> None:
        self.log_path = scratch / f"{name}.log"
        argv = plan.command()  # Landlock and rlimits by exec prefixes: no preexec_fn, this process has threads

        def spawn() -> subprocess.Popen[bytes]:
            with open(self.log_path, "wb") as log:
                return subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=plan.env, cwd=scratch,
                    start_new_session=True,
                )

        self.process = spawner.submit(spawn).result() if spawner is not None else spawn()
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self.ended = False  # the worker closed its output (or wrote an overlong line)
        self.overlong = False
        threading.Thread(target=self._pump, name=f"wapii-{name}-reader", daemon=True).start()
        if init is not None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(json.dumps(init).encode() + b"\n")
                self.process.stdin.flush()
            except (BrokenPipeError, OSError):
                pass  # reported below: no ready line
        self.info = self._next(time.monotonic() + ready_timeout, lambda m: m.get("ready") is True)
        if self.info is None:
            self.kill()
            raise WorkerStartError(f"the {name} worker did not start: {self.log_tail() or self.exit_description()}")

    def _pump(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE:
                self.overlong = True
                break
            self._lines.put(line)
        self.ended = True
        self._lines.put(None)

    def _next(self, deadline: float, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
        """The next JSON line that ``wanted`` accepts; None at the deadline or the end of output."""
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
            except (ValueError, RecursionError):  # not a line of the protocol: no job's answer
                continue
            if isinstance(message, dict) and wanted(message):
                return message

    def _write(self, message: dict[str, Any]) -> bool:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps(message).encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def run(self, job_id: int, job: dict[str, Any], timeout: float, grace: float,
            dialogue: Dialogue | None = None) -> dict[str, Any]:
        """Sends one job and returns the worker's answer, or the supervisor's ``timeout`` / ``worker_died``.

        ``dialogue``: the job's requests are answered (the job says ``"answers": true``); the bytes the
        worker relays (``{"id", "sent"}``) are fed to it and its answers written back (``{"id", "reply"}``,
        or ``{"id", "end"}`` once it answers no more), until the job's answer."""
        if not self._write({**job, "id": job_id, "timeout_ms": max(1, round(timeout * 1000)),
                            **({"answers": True} if dialogue is not None else {})}):
            return self.died()
        deadline = time.monotonic() + timeout + grace
        while True:
            answer = self._next(deadline, lambda m: m.get("id") == job_id)
            if answer is None or "sent" not in answer:
                break
            if dialogue is None:
                continue  # relayed bytes of a job nobody answers: the worker's answer holds them too
            ended = dialogue.ended
            try:
                data = base64.b64decode(answer["sent"], validate=True) if isinstance(answer["sent"], str) else b""
            except ValueError:
                data = b""
            for reply in dialogue.feed(data):
                self._write({"id": job_id, "reply": base64.b64encode(reply).decode("ascii")})
            if dialogue.ended is not None and ended is None:
                self._write({"id": job_id, "end": dialogue.ended})
        if answer is not None:
            answer.pop("id", None)
            if answer.pop("retire", False) is True:
                self.kill()  # the worker says it must not take another job: the next one gets a fresh worker
            return answer
        if self.alive and not self.ended:
            self.kill()
            return {"error": "timeout", "detail": f"timeout after {timeout:g} s (the worker did not answer in time "
                                                  "and was killed)"}
        return self.died()

    def died(self) -> dict[str, Any]:
        if self.overlong:
            self.kill()
            return {"error": "worker_died", "detail": f"the worker wrote an answer longer than {MAX_LINE} bytes"}
        try:
            self.process.wait(timeout=1.0)  # it is exiting: learn how, before killing what is left
        except subprocess.TimeoutExpired:
            pass
        description = self.exit_description()
        self.kill()
        tail = self.log_tail()
        return {"error": "worker_died", "detail": description + (f": {tail}" if tail else "")}

    def exit_description(self) -> str:
        code = self.process.poll()
        if code is None:
            return "the worker stopped answering"
        if code < 0:
            return f"the worker was killed by signal {signal.Signals(-code).name}"
        return f"the worker exited with code {code}"

    def log_tail(self) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return lines[-1][:300] if lines else ""

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """Kills the worker's process group (the worker and everything it started)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.wait(timeout=10)
            pids.release(self.process.pid)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that ignores SIGKILL
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


class _Slot:
    """One worker position of the pool: its process (or None) and its run of consecutive deaths."""

    def __init__(self) -> None:
        self.worker: WorkerProcess | None = None
        self.deaths = 0
        self.lock = threading.Lock()  # held while this slot's worker is being started


def _shutdown(slots: list[_Slot], scratch: list[Path], spawner: list[ThreadPoolExecutor]) -> None:
    for slot in slots:
        if slot.worker is not None:
            slot.worker.kill()
            slot.worker = None
    for executor in spawner:
        executor.shutdown(wait=False)
    spawner.clear()
    for directory in scratch:
        for child in directory.iterdir():
            child.unlink(missing_ok=True)
        directory.rmdir()
    scratch.clear()


class Supervisor:
    """Runs JSON jobs on up to ``size`` workers started by ``start_plan()``.

    ``name`` names the workers in messages and logs; ``timeout`` is each job's budget (the worker
    enforces it), ``grace`` the extra time before the supervisor kills a worker that did not answer;
    ``ready_timeout`` bounds a worker's start-up; ``init``, if given, is the first line every worker reads.
    """

    def __init__(self, name: str, start_plan: Callable[[], Plan], size: int | None = None, timeout: float = 2.0,
                 grace: float = 1.0, ready_timeout: float = 60.0, init: dict[str, Any] | None = None) -> None:
        self.name = name
        self.init = init
        self.start_plan = start_plan
        self.size = size or default_worker_count()
        self.timeout = timeout
        self.grace = grace
        self.ready_timeout = ready_timeout
        self.info: dict[str, Any] = {}
        self._slots: list[_Slot] = []
        self._scratch: list[Path] = []
        self._spawner: list[ThreadPoolExecutor] = []
        self._lock = threading.Lock()
        self._shared_lock = threading.Lock()  # the scratch directory and the spawner, made once
        self._closings = 0  # a background start begun before a close() does not start anything after it
        self._next_id = 0
        self._finalizer = weakref.finalize(self, _shutdown, self._slots, self._scratch, self._spawner)

    def _scratch_dir(self) -> Path:
        with self._shared_lock:
            if not self._scratch:
                self._scratch.append(Path(tempfile.mkdtemp(prefix=f"wapii-{self.name}-")))
            return self._scratch[0]

    def _spawner_thread(self) -> ThreadPoolExecutor:
        with self._shared_lock:
            if not self._spawner:
                self._spawner.append(ThreadPoolExecutor(max_workers=1,
                                                        thread_name_prefix=f"wapii-{self.name}-spawner"))
            return self._spawner[0]

    def _worker(self, index: int) -> WorkerProcess:
        slot = self._slots[index]
        with slot.lock:  # a background start of this slot (see start()) is waited for, not repeated
            return self._started_worker(slot, index)

    def _started_worker(self, slot: _Slot, index: int) -> WorkerProcess:
        if slot.worker is not None and slot.worker.alive:
            return slot.worker
        if slot.deaths >= BACKOFF_AFTER:
            time.sleep(min(MAX_BACKOFF_S, 0.05 * 2 ** (slot.deaths - BACKOFF_AFTER)))
        failures, exhausted_until = 0, time.monotonic() + EXHAUSTED_WAIT_S
        while True:
            try:
                slot.worker = WorkerProcess(self.start_plan(), self._scratch_dir(), f"{self.name}-{index}",
                                            self.ready_timeout, self.init, self._spawner_thread())
                self.info = slot.worker.info
                return slot.worker
            except WorkerStartError as exc:
                failures += 1
                if exhaustion(exc):  # transient: the processes holding the slots end; wait for them
                    if time.monotonic() < exhausted_until:
                        time.sleep(min(1.0, 0.1 * failures))
                        continue
                    raise WorkerStartError(f"{exc} (the process or thread limit stayed exhausted for "
                                           f"{EXHAUSTED_WAIT_S:g} s: other processes of the sandbox user hold it; "
                                           "the installation is not broken)") from None
                if failures >= START_ATTEMPTS:
                    raise

    def _serve(self, index: int, jobs: queue.Queue[int], payloads: list[dict[str, Any]], first_id: int,
               results: list[dict[str, Any] | None], dialogues: list[Dialogue | None]) -> None:
        slot = self._slots[index]
        while True:
            try:
                position = jobs.get_nowait()
            except queue.Empty:
                return
            try:
                worker = self._worker(index)  # started first: the time measured is the job's own
            except WorkerStartError:
                jobs.put(position)  # a slot whose worker runs may still take it
                raise
            began = time.perf_counter()
            answer = worker.run(first_id + position, payloads[position], self.timeout, self.grace,
                                dialogues[position])
            answer[ELAPSED] = time.perf_counter() - began  # the supervisor's measure, whatever the worker wrote
            slot.deaths = slot.deaths + 1 if answer.get("error") == "worker_died" else 0
            results[position] = answer

    def start(self, count: int | None = None) -> None:
        """Starts up to ``count`` (default: ``size``) workers in the background and returns at once.

        Optional: :meth:`run` starts what is missing itself. A worker that fails to start here is
        started again (and its failure reported) by the ``run`` that needs it.
        """
        with self._lock:
            wanted = min(self.size, count or self.size)
            while len(self._slots) < wanted:
                self._slots.append(_Slot())

        closings = self._closings

        def start_one(index: int) -> None:
            slot = self._slots[index]
            with slot.lock:
                if self._closings != closings:
                    return
                try:
                    self._started_worker(slot, index)
                except Exception:  # noqa: BLE001 - retried, and reported, by run()
                    pass

        for index in range(wanted):
            if self._slots[index].worker is None:
                threading.Thread(target=start_one, args=(index,), name=f"wapii-{self.name}-start-{index}",
                                 daemon=True).start()

    def run(self, payloads: list[dict[str, Any]], dialogues: list[Dialogue | None] | None = None) -> list[dict[str, Any]]:
        """One answer per job, in order (``{"error": "timeout" | "worker_died", "detail"}`` from the supervisor).

        ``dialogues`` (one per job, or None): the jobs whose requests are answered, each by its own
        :class:`~wapii_core.sandbox.dialogue.Dialogue` (see :meth:`WorkerProcess.run`).

        A slot whose worker cannot start gives its job back to the slots whose workers run; a
        :class:`WorkerStartError` is raised only when jobs are left that no worker could take."""
        if not payloads:
            return []
        talks = list(dialogues) if dialogues is not None else [None] * len(payloads)
        with self._lock:
            slots = min(self.size, len(payloads))
            while len(self._slots) < slots:
                self._slots.append(_Slot())
            jobs: queue.Queue[int] = queue.Queue()
            for position in range(len(payloads)):
                jobs.put(position)
            first_id = self._next_id
            self._next_id += len(payloads)
            results: list[dict[str, Any] | None] = [None] * len(payloads)
            failures: list[BaseException] = []
            failed: set[int] = set()

            def serve(index: int) -> None:
                try:
                    self._serve(index, jobs, payloads, first_id, results, talks)
                except BaseException as exc:  # noqa: BLE001 - re-raised in the calling thread
                    failures.append(exc)
                    failed.add(index)

            serving = list(range(slots))
            while serving:
                threads = [threading.Thread(target=serve, args=(index,), name=f"wapii-{self.name}-slot-{index}")
                           for index in serving]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                # jobs a failed slot gave back after the others had finished: the slots that ran take them
                serving = [] if jobs.empty() or not failures else [i for i in range(slots) if i not in failed]
            if failures and any(result is None for result in results):
                raise failures[0]  # jobs no worker could take (a slot that failed while others ran: none lost)
            return [result if result is not None else {"error": "worker_died", "detail": "no answer"}
                    for result in results]

    def close(self) -> None:
        """Stops every worker and removes the scratch directory (the supervisor can be used again).

        A worker still starting in the background (:meth:`start`) is waited for, then stopped."""
        with self._lock:
            slots = list(self._slots)
            for slot in slots:
                slot.lock.acquire()
            try:
                self._closings += 1
                _shutdown(self._slots, self._scratch, self._spawner)
            finally:
                for slot in slots:
                    slot.lock.release()
