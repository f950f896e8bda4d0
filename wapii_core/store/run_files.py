"""Reading a run directory that someone else may have written: bounded, and only its own regular files.

A run directory can come from a colleague's shards or a download. Every read of one of its files
goes through :func:`read_run_file`, which refuses, in one line naming the file (an
:class:`~wapii_core.base.errors.InputError`, exit 2):

- a file larger than its cap (:data:`JSON_CAP` for ``run.json`` and ``summary.json``,
  :data:`JSONL_CAP` for ``generations.jsonl`` and ``results.jsonl``), before reading it;
- anything that is not a regular file (a device such as ``/dev/zero``, a FIFO, a socket, a
  directory), without blocking on it;
- a symbolic link that leads out of the run directory (a link to another file of the same
  directory is followed).

:func:`open_for_append` opens a run file for appending the same way, so that a ``results.jsonl`` that
is a link to a file elsewhere is never written through.
"""

from __future__ import annotations

import os
from pathlib import Path

from wapii_core.base.errors import InputError
from wapii_core.base.regular_files import open_regular, read_fd

JSON_CAP = 64 * 2**20
"""Bytes of ``run.json`` or ``summary.json`` read at most (64 MiB; a run of a million tasks needs ~30 MiB)."""
JSONL_CAP = 4 * 2**30
"""Bytes of ``generations.jsonl`` or ``results.jsonl`` read at most (4 GiB)."""


def _inside(path: Path) -> Path:
    """``path``, or where its link leads when it is a link to a file of the same directory."""
    if not path.is_symlink():
        return path
    target = path.resolve()
    directory = path.parent.resolve()
    if target.parent != directory and directory not in target.parents:
        raise InputError(path, "is a link to a file outside its run directory (not read)")
    return target


def _open(path: Path, flags: int) -> int:
    """An fd of the regular run file ``path`` (no link followed at its last step), or a one-line refusal."""
    return open_regular(_inside(path), flags, follow=False)


def read_run_file(path: Path, cap: int) -> bytes:
    """The bytes of the run file ``path``, at most ``cap`` of them (else a one-line refusal)."""
    fd = _open(Path(path), os.O_RDONLY)
    try:
        return read_fd(Path(path), fd, cap)
    finally:
        os.close(fd)


def truncate_run_file(path: Path, size: int) -> None:
    """Cut the run file ``path`` to ``size`` bytes (a line a crash left cut off), not through a link."""
    fd = _open(Path(path), os.O_WRONLY)
    try:
        os.ftruncate(fd, size)
    finally:
        os.close(fd)


def open_for_append(path: Path) -> int:
    """An fd appending to the run file ``path``, created if missing (never a link's target elsewhere)."""
    try:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                       0o666)
    except FileExistsError:
        return _open(Path(path), os.O_WRONLY | os.O_APPEND)
