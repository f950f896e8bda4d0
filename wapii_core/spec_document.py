"""The parsed document of an indexed spec, for readers that need more than the index keeps.

The grammar builder (schemas) and the retrieval documentation (prose) both read the spec file
again; :func:`spec_document` parses it once per file content in a process (the last few kept).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from . import yamlload
from .spec import SpecIndex
from .spec_reader import _Resolver


def spec_document(index: SpecIndex) -> tuple[dict[str, Any], _Resolver]:
    """The spec's parsed document and a ``$ref`` resolver for it (the index's own reader)."""
    return _parse(index.path, index.sha256)


@functools.lru_cache(maxsize=8)
def _parse(path: Path, sha256: str) -> tuple[dict[str, Any], _Resolver]:
    raw = path.read_bytes()
    if hashlib.sha256(raw).hexdigest() != sha256:
        raise RuntimeError(f"{path} changed since it was indexed")
    doc = yamlload.load(raw)
    return doc, _Resolver(doc, path)
