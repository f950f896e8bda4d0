"""Building blocks of the programs the ``oracle`` backend renders for a Python adapter.

How a request config's body is written (:func:`py_body_kind`), which ``Content-Type`` header the
library sets by itself and is therefore left out (:func:`py_code_headers`), and values written so that
the library sends what JavaScript would (:func:`py_whole_number`, :func:`py_form_value`); the keyword
arguments every ``requests``-like library spells alike (:func:`py_call_arguments`).
"""

from __future__ import annotations

from typing import Any, Callable

from wapii_core.base.media import FORM_TYPE, JSON_TYPE, MULTIPART_TYPE, form_kind, header_value, is_json, media_type
from wapii_core.judge.wire import wire_text
from wapii_core.pyhttp.pyliteral import py_literal

LIBRARY_SETS = {"json": JSON_TYPE, "form": FORM_TYPE, "multipart": MULTIPART_TYPE}
"""The Content-Type a library sets by itself for each body kind."""
_ABSENT = object()


def content_type(config: dict[str, Any]) -> str | None:
    """The config's ``Content-Type`` header value (any spelling), or None."""
    found = header_value(config.get("headers"), "content-type", default=_ABSENT)
    return None if found is _ABSENT else str(found)


def py_body_kind(config: dict[str, Any]) -> str:
    """``json``, ``form``, ``multipart`` or ``raw`` (a non-object body under another content type)."""
    found = content_type(config)
    kind = form_kind(found)
    if kind is not None:
        return kind
    if found is None or is_json(found) or isinstance(config.get("data"), (dict, list)):
        return "json"
    return "raw"


def py_whole_number(value: Any) -> Any:
    """A float with an integral value as an int (Python would send ``1.0`` where JavaScript sends ``1``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    return value


def py_form_value(value: Any) -> Any:
    """A form field's value as the string (or list of strings) it is sent as."""
    return [wire_text(item) for item in value] if isinstance(value, list) else wire_text(value)


def py_code_headers(config: dict[str, Any], kind: str | None) -> dict[str, Any]:
    """The config's headers less a ``Content-Type`` that the library sets by itself for body ``kind``
    (a multipart body needs the library's boundary)."""
    headers = dict(config.get("headers") or {})
    for name in list(headers):
        if (name.lower() == "content-type" and kind is not None
                and media_type(str(headers[name])) == LIBRARY_SETS.get(kind)):
            del headers[name]
    return headers


def py_call_arguments(config: dict[str, Any], query_value: Callable[[Any], Any]) -> tuple[list[str], str | None]:
    """The keyword arguments after the URL that ``requests``-like libraries spell alike, as Python
    source: ``params=`` (each value as ``query_value`` writes it), ``headers=`` (:func:`py_code_headers`),
    ``json=`` and a form's ``data=``; and the body's kind (:func:`py_body_kind`, None without a body),
    for the library to add its own spelling of a ``multipart`` or ``raw`` body."""
    data = config.get("data")
    kind = py_body_kind(config) if data is not None else None
    args = []
    if config.get("params") is not None:
        params = {key: query_value(value) for key, value in config["params"].items()}
        args.append(f"params={py_literal(params)}")
    headers = py_code_headers(config, kind)
    if headers:
        args.append(f"headers={py_literal(headers)}")
    if kind == "json":
        args.append(f"json={py_literal(data)}")
    elif kind == "form":
        args.append(f"data={py_literal({key: py_form_value(value) for key, value in data.items()})}")
    return args, kind
