"""Resource limits (rlimits) and the clean environment of sandboxed workers.

Limits are applied in a worker's own process before it execs its command (the prefix of
:mod:`.rlimit_exec`: no ``preexec_fn`` in a threaded parent), so they hold from the worker's first
instruction and pass through bubblewrap to the sandboxed program,
and again, tighter, inside the Python worker's forked children. A limit is never raised above the
current hard limit.

- ``address_space`` (``RLIMIT_AS``): stops memory bombs, including ArrayBuffer allocations that
  Node's ``--max-old-space-size`` does not count; Node needs at least 1 GiB to start.
- ``file_size`` (``RLIMIT_FSIZE``): caps every file a worker writes (a write past it fails).
- ``open_files`` (``RLIMIT_NOFILE``), ``core`` (``RLIMIT_CORE``: no core dumps).
- ``processes`` (``RLIMIT_NPROC``): counts every task (process or thread) of the worker's *real
  user*, and is ignored for root; ``processes_headroom`` sets it to the tasks that user already
  runs plus the headroom, so a fork bomb stops there without starving the workers' own threads
  (where a worker has a user namespace of its own, :mod:`.userns`, the headroom alone is its
  budget there, and this limit is not set).
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path

MiB = 1 << 20
GiB = 1 << 30

ESSENTIAL_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TZ": "UTC"}
"""The whole environment of a sandboxed worker, whatever this process's environment holds: no
secrets, no NODE_OPTIONS / PYTHONPATH / NODE_EXTRA_CA_CERTS (which costs ~250 ms per Node start)."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed process (``None``: leave the inherited limit)."""

    address_space: int | None = 2 * GiB
    file_size: int | None = 1 * MiB
    open_files: int | None = 256
    core: int | None = 0
    processes_headroom: int | None = 256

    def resolved(self, uid: int) -> dict[int, int]:
        """``{RLIMIT_*: value}`` for a process whose real user is ``uid`` (``RLIMIT_NPROC`` counted now)."""
        wanted: dict[int, int | None] = {
            resource.RLIMIT_AS: self.address_space,
            resource.RLIMIT_FSIZE: self.file_size,
            resource.RLIMIT_NOFILE: self.open_files,
            resource.RLIMIT_CORE: self.core,
        }
        if self.processes_headroom is not None and uid != 0:
            wanted[resource.RLIMIT_NPROC] = tasks_of(uid) + self.processes_headroom
        return {kind: value for kind, value in wanted.items() if value is not None}

    def apply(self, uid: int | None = None) -> None:
        """Lowers this process's limits (``uid``: the real user it will run as; default: its own)."""
        apply_limits(self.resolved(os.getuid() if uid is None else uid))


def apply_limits(limits: dict[int, int]) -> None:
    """``setrlimit`` for each ``{RLIMIT_*: value}``, never above the current hard limit."""
    for kind, value in limits.items():
        _, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(kind, (value, value))


def tasks_of(uid: int) -> int:
    """How many tasks (processes and threads) user ``uid`` runs now (what ``RLIMIT_NPROC`` counts)."""
    count = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        try:
            if int(fields["Uid"].split()[0]) == uid:
                count += int(fields["Threads"])
        except (KeyError, ValueError, IndexError):
            continue
    return count


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a worker runs with: :data:`ESSENTIAL_ENV` plus ``extra``."""
    return {**ESSENTIAL_ENV, **(extra or {})}
