"""The parsed document of an indexed spec, for readers that need more than the index keeps.

The grammar builder (schemas) and the retrieval documentation (prose) read the whole document;
:func:`spec_document` hands them the one the shared reader parsed
(:func:`wapii_core.openapi.parsing.read_document`: once per file content, cached on disk).
"""

from __future__ import annotations

from typing import Any

from wapii_core.openapi.parsing import read_document
from wapii_core.openapi.index import SpecIndex
from wapii_core.openapi.refs import Resolver


def spec_document(index: SpecIndex) -> tuple[dict[str, Any], Resolver]:
    """The spec's parsed document and a ``$ref`` resolver for it (the index's own reader)."""
    document = read_document(index.path)
    if document.sha256 != index.sha256:
        raise RuntimeError(f"{index.path} changed since it was indexed")
    return document.data, Resolver(document.data, index.path)
