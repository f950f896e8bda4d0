"""Writing a file so that readers see the old content or the new, never half of it: :func:`write_atomic`."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str, *, mode: int | None = None, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` (its directory created if need be) through a temporary sibling that is
    flushed to disk and renamed over it; the file gets ``mode`` (default: what ``open`` would give it
    under this process's umask). On any failure the temporary file is removed and ``path`` is as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, (0o666 & ~umask()) if mode is None else mode)  # mkstemp's 0600 unless asked for
        with os.fdopen(fd, "w", encoding=encoding) as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def umask() -> int:
    """The process's umask (read by setting it, then restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
