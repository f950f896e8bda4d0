"""Cutting the first request out of a generated program: everything up to the end of the first
top-level statement that calls ``urlopen``."""

from __future__ import annotations

import ast

from wapii_core.api import Extraction

FENCE = "\n```"
"""Where the Markdown code block the prompt opened ends (what follows is no longer the program)."""


def _parses(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError):
        return None


def _calls_urlopen(node: ast.AST) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            function = inner.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
            if name == "urlopen":
                return True
    return False


def extract_call(code: str) -> Extraction:
    """The program up to its first ``urlopen`` statement; ``no_request`` when it never calls
    ``urlopen``, ``incomplete_request`` when that call is cut off (the completion ended inside it)."""
    code = code.split(FENCE, 1)[0]
    if "urlopen" not in code:
        return Extraction(error="no_request")
    lines = code.splitlines(keepends=True)
    while lines:  # a completion cut off mid-statement: the longest prefix that parses
        tree = _parses("".join(lines))
        if tree is not None:
            break
        lines.pop()
    else:
        return Extraction(error="incomplete_request")
    for statement in tree.body:
        if _calls_urlopen(statement):
            return Extraction(call="".join(lines[:statement.end_lineno]))
    return Extraction(error="incomplete_request")
