"""The per-user disk cache of what wapii derives from a spec file, keyed by the file's sha256.

An entry is ``cache_dir()/specs/<sha256>.<kind>.json``: a header line (``format``, ``sha256``,
``kind``, ``tagged``) and the data as JSON (:mod:`wapii_core.openapi.tagged_json`), kept as every
disk-cache entry is (:mod:`wapii_core.base.disk_cache`: trusted only when it is this user's, a miss
otherwise, written atomically and best effort).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wapii_core.base.disk_cache import read_entry_with_header, write_entry
from wapii_core.base.paths import cache_dir
from wapii_core.openapi import tagged_json


def entry_path(sha256: str, kind: str) -> Path:
    """Where the entry ``kind`` (``document-yaml``, ``index``...) of the file with ``sha256`` lives."""
    return cache_dir() / "specs" / f"{sha256}.{kind}.json"


def read(sha256: str, kind: str, format_version: int) -> Any | None:
    """The cached data, or None on a miss (see the module docstring)."""
    found = read_entry_with_header(entry_path(sha256, kind))
    if found is None:
        return None
    header, text = found
    if not (header.get("format") == format_version and header.get("sha256") == sha256 and header.get("kind") == kind
            and isinstance(header.get("tagged"), bool)):
        return None
    try:
        return tagged_json.loads(text, header["tagged"])
    except (ValueError, RecursionError):
        return None


def write(sha256: str, kind: str, format_version: int, data: Any, tree: bool = False,
          string_keys: bool = False) -> None:
    """Store ``data`` (atomically; silently skipped when it cannot be stored exactly or at all);
    ``tree``: no object is reachable twice in it, ``string_keys``: and every mapping key in it is a
    string, no value a tuple (see :func:`wapii_core.openapi.tagged_json.dumps`)."""
    try:
        text, tagged = tagged_json.dumps(data, tree=tree, string_keys=string_keys)
    except (tagged_json.Unencodable, RecursionError):
        return
    write_entry(entry_path(sha256, kind), {"format": format_version, "sha256": sha256, "kind": kind, "tagged": tagged},
                text)
