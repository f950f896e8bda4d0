"""The snippet process of the Python worker: forked from the pre-loaded parent, it runs jobs until
one taints it.

Right after the fork it hides the worker's pipes (its standard streams become ``/dev/null``, so a
snippet cannot write protocol lines), lowers its own rlimits, records its :class:`~.pyguard.Baseline`,
installs the audit hook and the seccomp filter, and then answers jobs read from its own pipe. Each
job is one call of the harness on one snippet; the answer carries the job's nonce (a snippet
cannot forge an answer for a later job, whose nonce does not exist yet) and, when the job left the
process changed, ``tainted``: the process then exits and the parent forks a fresh one.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from . import seccomp
from .limits import apply_limits
from .pyguard import Auditor, Baseline, Blocked, blocked_errno

MAX_ANSWER = 4 << 20
"""Bytes of JSON a job's answer may hold."""
MAX_DETAIL = 500


class NoRequest(Exception):
    """Raised by a harness when the snippet ran without issuing a request (error ``no_request``)."""


def _detail(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:MAX_DETAIL]


def run_job(harness: Callable[[str], Any], code: str, auditor: Auditor) -> dict[str, Any]:
    """Runs the harness on ``code``: ``{"ok", "value", "error", "detail"}`` (see ``SnippetResult``).

    A refused operation makes the job ``blocked: <what>`` even when the snippet caught the refusal.
    """
    auditor.arm()
    refused = False
    try:
        value, error, detail = harness(code), None, None
    except NoRequest as exc:
        value, error, detail = None, "no_request", str(exc)[:MAX_DETAIL] or None
    except SystemExit as exc:
        value, error, detail = None, "exited", f"sys.exit({exc.code!r})"[:MAX_DETAIL]
    except BaseException as exc:  # noqa: BLE001 - every failure of a snippet is a result
        value, error, detail = None, "runtime_error", _detail(exc)
        refused = blocked_errno(exc)
        if isinstance(exc, Blocked) and exc.what not in auditor.blocked:
            auditor.blocked.insert(0, exc.what)
    finally:
        auditor.disarm()
    if auditor.blocked or refused:
        what = auditor.blocked[0] if auditor.blocked else "an operation refused by the kernel"
        if error is None:
            detail = "the snippet caught the refusal and went on"
        value, error = None, f"blocked: {what}"
    return {"ok": error is None, "value": value, "error": error, "detail": detail}


def _encode(answer: dict[str, Any]) -> bytes:
    try:
        line = json.dumps(answer, allow_nan=False)
    except (TypeError, ValueError) as exc:
        line = json.dumps({**answer, "ok": False, "value": None, "error": "runtime_error",
                           "detail": f"the harness returned a value that is not JSON: {exc}"[:MAX_DETAIL]})
    if len(line) > MAX_ANSWER:
        line = json.dumps({**answer, "ok": False, "value": None, "error": "runtime_error",
                           "detail": f"the harness returned more than {MAX_ANSWER} bytes of JSON"})
    return line.encode() + b"\n"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _hide_streams(keep: set[int], close: list[int]) -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    for fd in close:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def child_main(jobs_fd: int, answers_fd: int, parent_fds: list[int], harness: Callable[[str], Any],
               config: dict[str, Any]) -> None:
    """The body of a forked snippet process; never returns."""
    status = 0
    try:
        _hide_streams({jobs_fd, answers_fd}, parent_fds)
        apply_limits({int(kind): value for kind, value in config["child_limits"].items()})
        sys.dont_write_bytecode = True
        baseline = Baseline(config["watch"])
        auditor = Auditor(config["read_roots"])
        if config.get("landlock_ruleset") is not None:
            config["landlock_ruleset"].restrict()  # before seccomp, whose filter need not allow it
        if config["seccomp"]:
            seccomp.install()
        jobs = os.fdopen(jobs_fd, "rb", buffering=0)
        served = 0
        while True:
            line = jobs.readline()
            if not line:
                break
            job = json.loads(line)
            answer = run_job(harness, job["code"], auditor)
            served += 1
            taint = baseline.taint()
            if taint is None and served >= config["max_jobs"]:
                taint = f"served {served} jobs"
            answer["nonce"] = job["nonce"]
            answer["tainted"] = taint
            _write_all(answers_fd, _encode(answer))
            if taint is not None:
                break
    except BaseException:  # noqa: BLE001 - the parent reports a dead process
        status = 70
    os._exit(status)
