"""The snippet process of the Python worker: forked from the pre-loaded parent for one snippet, it runs
that snippet and exits.

Right after the fork it hides the worker's pipes (its standard streams become ``/dev/null``, so a
snippet cannot write protocol lines), lowers its own rlimits, installs the audit hook and the
seccomp filter, attaches the wire channel (:mod:`.wire_capture`) and runs the harness on the snippet
it inherited from the parent's memory. It then writes one answer line (``ok``, ``value``, ``error``,
``detail``) to its answer pipe and exits; the parent kills it regardless once it has answered.

Nothing here needs to be kept secret from the snippet: the requests it is judged on are the bytes
it sent down the channel, which the parent reads; the answer can only say that the snippet failed
(which costs the snippet itself) or carry hints that the supervisor checks against those bytes.
No process serves two snippets, so nothing a snippet changes can reach another.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from wapii_core.base.text import MAX_DETAIL
from wapii_core.sandbox import seccomp, wire_capture
from wapii_core.sandbox.limits import apply_limits
from wapii_core.sandbox.pyguard import Auditor, Blocked, blocked_errno

MAX_ANSWER = 4 << 20
"""Bytes of JSON a job's answer may hold."""
MAX_ANSWER_DEPTH = 32
"""How deeply the JSON of a job's answer may nest (a harness's hints need a handful of levels; JSON
nested near the interpreter's recursion limit would fail to parse in the supervisor's threads)."""


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


def encode_answer(answer: dict[str, Any]) -> bytes:
    """One JSON line; a value that is not JSON, or too large, becomes the job's runtime error."""
    try:
        line = json.dumps(answer, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
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


def _hide_streams(keep: set[int]) -> None:
    """Standard streams to ``/dev/null``, every other descriptor but ``keep`` closed."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX") if os.sysconf("SC_OPEN_MAX") > 0 else 65536)


def child_main(code: str, answers_fd: int, wire_fd: int, harness: Callable[[str], Any],
               config: dict[str, Any], reply_fd: int | None = None) -> None:
    """The body of a forked snippet process: runs ``code`` once and exits; never returns. ``reply_fd``:
    the channel its requests' answers come back on (None: nothing answers them)."""
    status = 0
    try:
        ruleset = config.get("landlock_ruleset")
        keep = {answers_fd, wire_fd} | ({reply_fd} if reply_fd is not None else set())
        _hide_streams(keep | ({ruleset.fd} if ruleset is not None and ruleset.fd is not None else set()))
        apply_limits({int(kind): value for kind, value in config["child_limits"].items()})
        sys.dont_write_bytecode = True
        auditor = Auditor(config["read_roots"], config.get("hidden", ()))
        if ruleset is not None:
            ruleset.restrict()  # before seccomp, whose filter need not allow it
        if config["seccomp"]:
            seccomp.install()
        wire_capture.attach(wire_fd, reply_fd)
        answer = run_job(harness, code, auditor)
        _write_all(answers_fd, encode_answer(answer))
    except BaseException:  # noqa: BLE001 - the parent reports a dead process
        status = 70
    os._exit(status)
