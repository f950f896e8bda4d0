"""A snippet process that cannot be started (the sandbox user's process limit is held by others) is
that job's runtime error; the worker answers it and goes on, leaking no descriptor."""

from __future__ import annotations

import errno
import os

import pytest

from wapii_core.sandbox.pyworker import Parent


def test_a_fork_refused_for_exhaustion_is_the_jobs_error(monkeypatch: pytest.MonkeyPatch) -> None:
    parent = Parent(lambda code: None, {"seccomp": False})
    before = len(os.listdir("/proc/self/fd"))

    def exhausted() -> int:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", exhausted)
    answer = parent.run("print(1)", 1.0)
    assert answer["ok"] is False and answer["error"] == "runtime_error"
    assert "could not start a process" in answer["detail"] and "limit" in answer["detail"]
    assert "retire" not in answer
    assert len(os.listdir("/proc/self/fd")) == before
