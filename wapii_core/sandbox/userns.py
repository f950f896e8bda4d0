"""A process and thread budget per worker without root: a user namespace of its own.

``RLIMIT_NPROC`` counts the tasks of a user *per user namespace*, and a fork is checked at every
level up to the initial namespace: against the forking process's own limit in its namespace, and
above it against the limit its namespace's creator had when the namespace was made (Linux 5.14's
per-namespace ucounts). So a worker that makes a namespace of its own while its limit is still the
user's ordinary one, then lowers ``RLIMIT_NPROC`` to :data:`~.limits.Limits.processes_headroom`
inside it, holds a budget that counts its own tasks alone: one sample that starts threads until its
worker's budget is spent leaves every other worker's budget as it was (measured by
``tests/test_userns_budget.py``). Without the namespace every worker's limit counts the tasks of
all of them (and of the user's other processes) together.

:func:`exec_prefix` is util-linux ``unshare --user --map-current-user`` (the worker keeps its uid and
gid inside; nothing else is unshared: bubblewrap, when present, nests its own namespaces inside),
then ``prlimit --nproc`` inside it. It follows the privilege drop, so the namespace is the sandbox
user's. ``WAPII_USERNS=0`` acts as if it were unavailable.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

ENV = "WAPII_USERNS"
_PATH = os.environ.get("PATH", "") + ":/usr/bin:/bin"


def _tools() -> tuple[str, str] | None:
    unshare, prlimit = shutil.which("unshare", path=_PATH), shutil.which("prlimit", path=_PATH)
    return (unshare, prlimit) if unshare and prlimit else None


def exec_prefix(budget: int) -> list[str]:
    """The argv prefix that runs the rest of a command line in a new user namespace with
    ``RLIMIT_NPROC`` = ``budget`` there (check :func:`unavailable` first)."""
    tools = _tools()
    assert tools is not None, "check unavailable() first"
    unshare, prlimit = tools
    return [unshare, "--user", "--map-current-user", "--", prlimit, f"--nproc={budget}:{budget}", "--"]


@functools.lru_cache(maxsize=8)
def _probe(drop: tuple[str, ...]) -> str | None:
    tools = _tools()
    if tools is None:
        return "util-linux unshare and prlimit are not both installed"
    try:
        done = subprocess.run([*drop, *exec_prefix(64), "/bin/true"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot start a user namespace ({exc})"
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return f"cannot start a user namespace: {why[:200]}"
    return None


def unavailable(drop: list[str] | None = None) -> str | None:
    """None when a worker started behind the prefix ``drop`` (a privilege drop, or nothing) can make a
    user namespace of its own here, else why not."""
    if os.environ.get(ENV, "").lower() in ("0", "off", "false", "no"):
        return f"{ENV}=0"
    return _probe(tuple(drop or ()))
