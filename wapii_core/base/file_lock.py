"""File locks, wapii's one mechanism for them: ``flock(2)`` on an open file (:func:`flock`, :func:`locked`).

Every lock wapii takes is one of these: a run directory's ``.lock`` (:mod:`wapii_core.store.lock`,
exclusive for a writer, shared for a reader), a process's scratch directory (:mod:`wapii_core.base.scratch`,
held for the process's life) and the lock beside a cache directory while one process builds it
(:func:`wapii_core.base.staged_dir.build_once`).

``flock`` rather than a lock library (``filelock``): the run directory needs what only the system call
gives (shared locks for readers; the kernel's list of held locks, ``/proc/locks``, to tell a live writer
from a killed one; a lock on a descriptor opened without following links), and the kernel drops a lock
when its holder dies, so a killed process never leaves one behind. Two descriptors of the same file
exclude each other even within one process, so threads building the same cache wait for each other too.
"""

from __future__ import annotations

import errno
import fcntl
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

_BUSY = (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)


def flock(fd: int, *, shared: bool = False, wait: bool = True) -> bool:
    """Lock the open file ``fd``: exclusively, or ``shared`` with other shared holders; waiting for it,
    or (``wait=False``) returning False at once when someone else holds a conflicting lock. Any other
    failure is raised (``OSError``). Closing the last descriptor of the open file releases it."""
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | (0 if wait else fcntl.LOCK_NB))
    except OSError as exc:
        if not wait and exc.errno in _BUSY:
            return False
        raise
    return True


@contextmanager
def locked(path: Path, mode: int = 0o644) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created with ``mode`` if missing, left in place) for the block,
    waiting for whoever holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, mode)
    try:
        flock(fd)
        yield
    finally:
        os.close(fd)
