"""A process and thread budget per worker: a ``pids`` cgroup of its own.

``RLIMIT_NPROC`` counts every task (process or thread) of a *user*: every worker of a run drops to
the same sandbox user, so one sample that starts threads until the limit holds every slot, and an
ordinary sample on another worker cannot fork. Where this process may create cgroups in a ``pids``
hierarchy (cgroup v1 ``/sys/fs/cgroup/pids``, or v2 with the ``pids`` controller; as root), each
worker starts in a cgroup of its own whose ``pids.max`` is :data:`WORKER_PIDS`, set by an exec
prefix (:func:`exec_prefix`: standard library only, run before Landlock, bubblewrap and the
privilege drop); what one worker's snippets start counts against that worker alone, and
``RLIMIT_NPROC`` is then left as it was (:mod:`.launch`). A group is removed when its worker has
been reaped (:func:`release`); one left by a killed wapii is removed by the next worker start.

Elsewhere (an ordinary user, a read-only cgroup file system) the layer is off, and each worker gets
a budget of its own from a user namespace instead (:mod:`.userns`; ``wapii doctor`` says which
layer holds). ``WAPII_PIDS_CGROUP=0`` acts as if it were off.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

ENV = "WAPII_PIDS_CGROUP"
WORKER_PIDS = 256
"""Tasks (processes and threads) one worker and everything it starts may hold at once."""
PREFIX = "wapii-"


def _own_group() -> Path | None:
    """The directory of this process's cgroup in a ``pids`` hierarchy (v1, else v2), or None."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "pids" in controllers.split(","):
            return Path("/sys/fs/cgroup/pids") / path.lstrip("/")
    for line in lines:
        if line.startswith("0::"):
            root = Path("/sys/fs/cgroup")
            try:
                if "pids" in (root / "cgroup.controllers").read_text().split():
                    return root / line[3:].lstrip("/")
            except OSError:
                return None
    return None


@functools.lru_cache(maxsize=1)
def _probe() -> tuple[Path | None, str | None]:
    group = _own_group()
    if group is None or not group.is_dir():
        return None, "no pids cgroup hierarchy is mounted here"
    test = group / f"{PREFIX}probe-{os.getpid()}"
    try:
        test.mkdir()
        (test / "pids.max").write_text(str(WORKER_PIDS))
    except OSError as exc:
        return None, f"cannot create a pids cgroup under {group} ({exc.strerror or exc})"
    finally:
        try:
            test.rmdir()
        except OSError:
            pass
    return group, None


def unavailable() -> str | None:
    """None when each worker can get a pids cgroup of its own here, else why not."""
    if os.environ.get(ENV, "").lower() in ("0", "off", "false", "no"):
        return f"{ENV}=0"
    return _probe()[1]


def exec_prefix(limit: int = WORKER_PIDS) -> list[str]:
    """The argv prefix that starts the rest of a command line in a new pids cgroup of ``limit``
    tasks (empty where :func:`unavailable`)."""
    group = None if unavailable() else _probe()[0]
    if group is None:
        return []
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), str(group), str(limit), "--"]


def release(pid: int) -> None:
    """Removes the cgroup of the worker that was process ``pid`` (after it was reaped)."""
    group = None if unavailable() else _probe()[0]
    if group is not None:
        try:
            (group / f"{PREFIX}{pid}").rmdir()
        except OSError:
            pass


def _enter(base: Path, limit: str) -> None:
    for stale in base.glob(f"{PREFIX}[0-9]*"):
        try:
            stale.rmdir()  # empty: its worker is gone (an occupied group refuses)
        except OSError:
            pass
    group = base / f"{PREFIX}{os.getpid()}"
    for _ in range(3):  # another wapii's sweep may remove the group between mkdir and joining it
        try:
            group.mkdir(exist_ok=True)
            (group / "pids.max").write_text(limit)
            (group / "cgroup.procs").write_text(str(os.getpid()))
            return
        except FileNotFoundError:
            continue
    raise SystemExit(f"cannot join the pids cgroup {group}")


if __name__ == "__main__":  # pragma: no cover - see exec_prefix; replaces the process
    base, limit, separator, *command = sys.argv[1:]
    if separator != "--" or not command:
        raise SystemExit("usage: pids.py GROUP LIMIT -- COMMAND...")
    _enter(Path(base), limit)
    os.execv(command[0], command)
