"""Reading a file that someone else may have placed: only a regular file, at most a given size.

A path can name a device (``/dev/zero`` is endless), a FIFO (opening it blocks until a writer
comes), a socket or a directory, directly or through a symbolic link. :func:`read_regular` opens it
without blocking, refuses anything but a regular file and anything larger than its cap in one line
naming the file (an :class:`~wapii_core.base.errors.InputError`, exit 2), and reads at most the cap.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from wapii_core.base.errors import InputError


def open_regular(path: Path, flags: int = os.O_RDONLY, *, follow: bool = True) -> int:
    """An fd of the regular file ``path`` (``follow=False``: not when its last step is a link), or a
    one-line refusal; never blocks on a FIFO."""
    extra = os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags | extra)
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except OSError as exc:
        raise InputError(path, f"cannot open it: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError(path, "is not a regular file (a device, a pipe or a directory): not read")
    os.set_blocking(fd, True)
    return fd


def read_fd(path: Path, fd: int, cap: int) -> bytes:
    """The bytes of the open regular file ``fd`` (named ``path`` in errors), at most ``cap`` of them."""
    size = os.fstat(fd).st_size
    if size > cap:
        raise InputError(path, f"is {size} bytes, more than such a file may hold here ({cap} bytes): not read")
    chunks = []
    left = cap + 1
    while left > 0:
        chunk = os.read(fd, min(left, 2**24))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    if left <= 0:
        raise InputError(path, f"grew past what such a file may hold here ({cap} bytes) while read")
    return b"".join(chunks)


def read_regular(path: Path, cap: int, *, follow: bool = True) -> bytes:
    """The bytes of the regular file ``path``, at most ``cap`` of them (else a one-line refusal)."""
    fd = open_regular(path, follow=follow)
    try:
        return read_fd(path, fd, cap)
    finally:
        os.close(fd)
