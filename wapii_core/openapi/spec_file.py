"""Reading one OpenAPI spec file: its document, parsed once and shared, and the shape wapii relies on.

Every stage that needs a spec's whole document (a dataset's specs, request validation, the chat of
``datasets generate``) reads it here, so a file that is not an OpenAPI 3 description is refused
with the same one-line :class:`~wapii_core.base.errors.InputError` wherever it is met.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wapii_core.openapi.parsing import read_document
from wapii_core.base.errors import InputError, json_type_name


def read_spec(path: Path) -> dict[str, Any]:
    """Parse an OpenAPI 3 spec (YAML or JSON; Swagger 2.0 read as its conversion) and check its basic
    shape; raise InputError otherwise.

    The document is shared with every other reader of the same file content
    (:func:`wapii_core.openapi.parsing.read_document`): treat the result as read-only.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "no such file")
    document = read_document(path).data
    _check_openapi(path, document)
    return document


def _check_openapi(path: Path, document: Any) -> None:
    """The minimum wapii relies on: ``openapi: 3.x``, a non-empty ``paths`` mapping, a server URL."""
    def fail(why: str) -> InputError:
        return InputError(path, f"not an OpenAPI 3 document ({why})")

    if not isinstance(document, dict):
        raise fail(f"the top level is {json_type_name(document)}, expected a mapping")
    version = document.get("openapi")
    if version is None:  # a Swagger 2.0 description was read as its conversion (wapii_core.openapi.swagger2)
        raise fail("no 'openapi: 3.x' field")
    if not str(version).startswith("3."):
        raise fail(f"'openapi' is {str(version)!r}, expected 3.x")
    paths = document.get("paths")
    if not isinstance(paths, dict) or not paths:
        raise fail("no 'paths'")
    servers = document.get("servers")
    if not (isinstance(servers, list) and servers and isinstance(servers[0], dict)
            and isinstance(servers[0].get("url"), str) and servers[0]["url"]):
        # a valid OpenAPI 3 document (servers are optional) that wapii cannot use: it needs the base URL
        raise InputError(path, "no 'servers' entry with a 'url': wapii needs the API's base URL to match and judge "
                               "requests; add e.g. servers: [{url: 'https://api.example.com/v1'}]")
