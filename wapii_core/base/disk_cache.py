"""The per-user disk cache's entries: a JSON header line, then the data, trusted only when it is ours.

An entry is one file: a header (a JSON object on the first line, saying what the data is) and the
data as text. Reading one is parsing, never running code, and an entry is only trusted when it is a
regular file (not a link) owned by the current user that no one else can write, and its header is
the one the reader asks for; anything else (absent, foreign, truncated, another header) reads as a
miss, to be rebuilt. Writing is atomic and best effort: an unwritable cache only costs a rebuild.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from wapii_core.base.atomic import write_atomic


def read_entry(path: Path, header: dict[str, Any]) -> str | None:
    """The data of the entry at ``path`` when it is trusted and its header holds every item of
    ``header``; None otherwise (see the module docstring)."""
    found = read_entry_with_header(path)
    if found is None or any(found[0].get(key) != value for key, value in header.items()):
        return None
    return found[1]


def read_entry_with_header(path: Path) -> tuple[dict[str, Any], str] | None:
    """The header and data of the entry at ``path`` when it is trusted, else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            return None
        with os.fdopen(fd, "r", encoding="utf-8") as handle:
            fd = -1
            header = json.loads(handle.readline())
            return (header, handle.read()) if isinstance(header, dict) else None
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def write_entry(path: Path, header: dict[str, Any], data: str) -> None:
    """Store ``data`` under ``header`` at ``path``, atomically, readable by this user only; an error is ignored."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_atomic(path, json.dumps(header) + "\n" + data, mode=0o600)
    except (OSError, UnicodeEncodeError):
        pass
