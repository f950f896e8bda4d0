"""What the code *wrote* for a request's query: the typed values of a literal ``params=`` and the literal
URL, read from the extracted call's source in wapii's own process.

Reference mode judges query values as the code wrote them (``limit=50`` is the number 50, as the
reference's axios config kept it), which the bytes on the wire cannot tell (``50`` and ``"50"`` are
both sent as ``limit=50``). Anything recorded while the program runs could be rewritten by the
program, so the types come from its source instead: the first request call's ``params=`` when it is
a literal (a dict, or a list of pairs), or a name bound to a literal by a top-level assignment of the
extracted code before the call, and no other request call of the code is given another query (the
source cannot tell which call ran); its URL when that is a string literal. A value computed at run time
gives no type: the query value then counts as the string that was sent. The normalisation still
keeps a typed value only where the library writes it as exactly what was sent
(:meth:`wapii_core.pyhttp.library.PythonLibrary.sends_as`).
"""

from __future__ import annotations

import ast
from typing import Any

from wapii_core.pyhttp.recording import typed_params

from wapii_core.pyhttp.library import PYTHON_REQUEST_METHODS
URL_SECOND = ("request", "stream")
"""Calls whose URL is the second positional argument (after the method)."""


def _literal(node: ast.AST | None, names: dict[str, Any]) -> tuple[bool, Any]:
    if node is None:
        return False, None
    if isinstance(node, ast.Name):
        return (node.id in names), names.get(node.id)
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _request_call(tree: ast.AST) -> ast.Call | None:
    """The request call, in source order: the first request method given ``params=``, else the first
    given a URL literal (``://``), else the first given a computed URL (so that
    ``os.environ.get("X")`` is passed over)."""
    calls = sorted((node for node in ast.walk(tree) if isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in (*PYTHON_REQUEST_METHODS, *URL_SECOND)),
                   key=lambda node: (node.lineno, node.col_offset))

    def url_of(node: ast.Call) -> ast.AST | None:
        position = 1 if node.func.attr in URL_SECOND else 0  # type: ignore[union-attr]
        keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
        return keywords.get("url") or (node.args[position] if len(node.args) > position else None)

    def literal_url(node: ast.Call) -> bool:
        url = url_of(node)
        return isinstance(url, ast.Constant) and isinstance(url.value, str) and "://" in url.value

    def computed_url(node: ast.Call) -> bool:
        url = url_of(node)
        return url is not None and not isinstance(url, ast.Constant)

    for wanted in (lambda node: any(k.arg == "params" for k in node.keywords), literal_url, computed_url):
        found = next((node for node in calls if wanted(node)), None)
        if found is not None:
            return found
    return None


def _the_only_query(tree: ast.AST, found: ast.Call, params: Any, names: dict[str, Any]) -> bool:
    """Whether ``found``'s ``params=`` is the only query the code can send: every other request call
    given ``params=`` gives the same literal. A call the program never makes (``if False:
    requests.get(url, params={"limit": 50})`` before the one it makes with ``"50"``) must not type
    the values another call sent."""
    for node in ast.walk(tree):
        if node is found or not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                                 and node.func.attr in (*PYTHON_REQUEST_METHODS, *URL_SECOND)):
            continue
        other = next((keyword.value for keyword in node.keywords if keyword.arg == "params"), None)
        if other is None:
            continue
        known, value = _literal(other, names)
        if not known or value != params or typed_params(value) != typed_params(params):
            return False
    return True


def written_query(call: str) -> dict[str, Any]:
    """``{"url": str | None, "params": {name: typed value} | None}`` of the first request call in
    ``call`` (the adapter's extraction); ``{}`` when the source does not parse."""
    try:
        tree = ast.parse(call)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return {}
    names: dict[str, Any] = {}
    found = _request_call(tree)
    if found is None:
        return {}
    for statement in getattr(tree, "body", []):
        if statement.lineno >= found.lineno:
            break
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            known, value = _literal(statement.value, names)
            if known:
                names[statement.targets[0].id] = value
            else:
                names.pop(statement.targets[0].id, None)
    keywords = {keyword.arg: keyword.value for keyword in found.keywords if keyword.arg}
    position = 1 if found.func.attr in URL_SECOND else 0  # type: ignore[union-attr]
    url_node = keywords.get("url") or (found.args[position] if len(found.args) > position else None)
    has_url, url = _literal(url_node, names)
    has_params, params = _literal(keywords.get("params"), names)
    if has_params and not _the_only_query(tree, found, params, names):
        has_params = False
    return {"url": url if has_url and isinstance(url, str) else None,
            "params": typed_params(params) if has_params else None}
