"""Scratch space of one wapii process, and the removal of what killed processes left behind.

While a command runs, every temporary directory the process makes (the sandbox supervisors'
working directories, ``wapii-<pool>-*``, among them) is created inside one directory of its own,
``<tmp>/wapii-<pid>-<random>``, whose ``owner.lock`` the process holds locked (``flock``: :mod:`wapii_core.base.file_lock`)
until it ends. A process that ends normally removes that directory; one killed with SIGKILL
cannot, so the next wapii command removes every such directory whose owner is gone: its pid no
longer runs and its lock is free (the kernel drops a dead process's locks; the lock also covers a
reused pid and another pid namespace sharing ``/tmp``). Only directories of the current user are
touched.
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

OWNER_FILE = "owner.lock"
_NAME = re.compile(r"^wapii-(\d+)-[A-Za-z0-9_]+$")
"""A process's scratch directory (``mkdtemp``'s random part is letters, digits and ``_``)."""


@contextmanager
def process_scratch() -> Iterator[Path | None]:
    """Remove stale scratch directories, then make this process's own the default temporary directory
    (``tempfile.tempdir``) until the block ends, when it is removed. Where no temporary directory
    can be made, the block runs without one (``None``) and whatever needs one reports it."""
    from wapii_core.base.file_lock import flock

    try:
        base = Path(tempfile.gettempdir())
        sweep(base)
        root: Path | None = Path(tempfile.mkdtemp(prefix=f"wapii-{os.getpid()}-", dir=base))
    except OSError:
        root = None
    if root is None:
        yield None
        return
    fd = os.open(root / OWNER_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    flock(fd)
    previous = tempfile.tempdir
    tempfile.tempdir = str(root)
    try:
        yield root
    finally:
        tempfile.tempdir = previous
        _remove_own(root)
        os.close(fd)


def _remove_own(root: Path) -> None:
    """Remove ``root``, unless a sandbox supervisor that is still alive owns a directory in it (it removes
    its own when it is collected; the next start removes the rest)."""
    gc.collect()  # supervisors nobody holds any more clean up now
    busy = False
    for child in root.iterdir():
        if child.name == OWNER_FILE:
            continue
        if child.name.startswith("wapii-") and child.is_dir():
            busy = True
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
    if not busy:
        shutil.rmtree(root, ignore_errors=True)


def sweep(base: Path) -> list[Path]:
    """Remove the scratch directories in ``base`` that processes now gone left behind; return them."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(base))
    except OSError:
        return removed
    for entry in entries:
        match = _NAME.match(entry.name)
        if match is None:
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
        except OSError:
            continue
        pid = int(match[1])
        if pid == os.getpid() or _running(pid) or not _lock_free(Path(entry.path) / OWNER_FILE):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(Path(entry.path))
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _lock_free(path: Path) -> bool:
    """Whether nobody holds ``path`` locked (True when it does not exist: its owner died before making it)."""
    from wapii_core.base.file_lock import flock

    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        return flock(fd, wait=False)
    except OSError:
        return False
    finally:
        os.close(fd)
