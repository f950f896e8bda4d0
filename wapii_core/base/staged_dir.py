"""Directories built whole or not at all: built beside their place, then renamed into it.

:func:`staged_directory` gives a fresh sibling of the target to fill; when the block ends without an
exception the sibling takes the target's place in one rename (a previous target moved aside first and
put back if the rename fails), and it is removed otherwise, so a reader never sees half a directory.
:func:`build_once` builds a cache directory (npm packages, a converted model) at most once among
processes: under a file lock (:func:`wapii_core.base.file_lock.locked`), and a complete directory a racing builder put in place
first is kept.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def staged_directory(target: Path, *, ready: Callable[[Path], bool] | None = None,
                     mode: int | None = None) -> Iterator[Path]:
    """A fresh directory beside ``target`` (mode ``mode``; default ``mkdtemp``'s 0700, which the rename
    keeps) that replaces ``target`` when the block ends without an exception. ``ready``: whether a
    directory is complete; a complete ``target`` that a racing builder put in place is kept, and ours
    discarded. Raises ``OSError`` when the rename fails (``target`` is then as it was)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        if mode is not None:
            staging.chmod(mode)
        yield staging
        _put_in_place(staging, target, ready)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _put_in_place(staging: Path, target: Path, ready: Callable[[Path], bool] | None) -> None:
    backup = None
    if os.path.lexists(target):
        if ready is not None and ready(target):
            return  # a racing builder finished first
        backup = target.with_name(f".{target.name}.old-{uuid.uuid4().hex[:8]}")
        os.replace(target, backup)
    try:
        os.rename(staging, target)
    except OSError:
        if backup is not None:
            with contextlib.suppress(OSError):
                os.rename(backup, target)
        if ready is not None and ready(target):
            return  # lost the rename to a racing builder: theirs is complete
        raise
    finally:
        if backup is not None and os.path.lexists(backup):
            shutil.rmtree(backup, ignore_errors=True)


def build_once(target: Path, ready: Callable[[Path], bool], build: Callable[[Path], None], *,
               mode: int = 0o755) -> Path:
    """``target``, built by ``build(staging)`` into a staged directory (see :func:`staged_directory`)
    unless ``ready(target)`` already; one process builds at a time (a lock file beside ``target``),
    and one that waited uses what the other built. Safe to call from several processes at once."""
    from wapii_core.base.file_lock import locked

    if ready(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with locked(target.parent / f".{target.name}.lock"):
        if ready(target):
            return target
        with staged_directory(target, ready=ready, mode=mode) as staging:
            build(staging)
    return target
