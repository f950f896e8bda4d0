"""The per-user disk cache of what wapii derives from a spec file, keyed by the file's sha256.

An entry is ``cache_dir()/specs/<sha256>.<kind>.json``: a header line (``format``, ``sha256``,
``kind``, ``tagged``) and the data as JSON (:mod:`wapii_core.spec.tagged_json`), written atomically.
Reading one is parsing JSON, never running code, and an entry is only trusted when it is a regular
file owned by the current user that no one else can write; anything else (absent, foreign,
truncated, another format or sha256) reads as a miss and is rebuilt. Writing is best effort: an
unwritable cache only costs the next process a rebuild.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from wapii_core.spec import tagged_json
from wapii_core.base.paths import cache_dir


def entry_path(sha256: str, kind: str) -> Path:
    """Where the entry ``kind`` (``document-yaml``, ``index``...) of the file with ``sha256`` lives."""
    return cache_dir() / "specs" / f"{sha256}.{kind}.json"


def read(sha256: str, kind: str, format_version: int) -> Any | None:
    """The cached data, or None on a miss (see the module docstring)."""
    try:
        fd = os.open(entry_path(sha256, kind), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            header = json.loads(handle.readline())
            if not (isinstance(header, dict) and header.get("format") == format_version
                    and header.get("sha256") == sha256 and header.get("kind") == kind
                    and isinstance(header.get("tagged"), bool)):
                return None
            return tagged_json.loads(handle.read(), header["tagged"])
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def write(sha256: str, kind: str, format_version: int, data: Any, tree: bool = False) -> None:
    """Store ``data`` (atomically; silently skipped when it cannot be stored exactly or at all);
    ``tree``: no object is reachable twice in it (see :func:`wapii_core.spec.tagged_json.dumps`)."""
    try:
        text, tagged = tagged_json.dumps(data, tree=tree)
    except (tagged_json.Unencodable, RecursionError):
        return
    header = json.dumps({"format": format_version, "sha256": sha256, "kind": kind, "tagged": tagged})
    target = entry_path(sha256, kind)
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{sha256[:12]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(header + "\n" + text)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass
