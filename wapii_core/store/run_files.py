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
is a link to a file elsewhere is never written through; :func:`read_jsonl` reads one of its JSONL files
into records (with :mod:`wapii_core.store.record` and :mod:`wapii_core.store.rundir` both reading
through it, neither imports the other's reader).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

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


M = TypeVar("M", bound=BaseModel)


def read_jsonl(path: Path, model: type[M], *, repair: bool = False, unfinished_ok: bool = False) -> list[M]:
    """Read a JSONL file of ``model`` lines.

    A last line without its newline is what a crash mid-write leaves: with ``repair`` it is cut
    off the file and ignored; with ``unfinished_ok`` (a reader of a file another process may be
    appending to) it is ignored and the file left alone. Any other bad line is an
    :class:`InputError` naming file and line, and so is a file
    :func:`~wapii_core.store.run_files.read_run_file` refuses (larger than
    :data:`~wapii_core.store.run_files.JSONL_CAP`, not a regular file, a link out of the directory).
    """
    if not path.exists() and not path.is_symlink():
        return []
    raw = read_run_file(path, JSONL_CAP)
    if raw and not raw.endswith(b"\n"):
        cut = raw.rfind(b"\n") + 1
        if unfinished_ok and not repair:
            raw = raw[:cut]
        elif not repair:
            last = raw.count(b"\n") + 1
            raise InputError(path, f"line {last} is cut off (no newline at the end)")
        else:
            truncate_run_file(path, cut)
            raw = raw[:cut]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(path, f"line {line}: not UTF-8 text ({exc.reason})") from None
    items: list[M] = []
    for number, line in enumerate(text.split("\n"), 1):  # not splitlines(): U+2028 and friends live in values
        if not line.strip():
            continue
        try:
            items.append(model.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "line"
            raise InputError(path, f"line {number}: {where}: {first.get('msg', 'invalid')}") from None
    return items
