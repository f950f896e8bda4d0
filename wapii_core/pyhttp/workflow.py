"""The oracle's whole program of a workflow task (docs/workflows.md) for every Python library.

The program is the workflow starter, the library's ``send`` helper (it sends a request, sends it
again after the ``Retry-After`` seconds of a ``429`` answer, at most five times, raises on any
other status of 400 or above and returns the parsed JSON answer), then ``send(lambda: <call>)``
for each call in order (``await``-ed in the session's ``async with`` block for an async library),
where ``<call>`` is the adapter's single-call rendering with each ``{{N.path}}`` read from
``answerN`` (:mod:`wapii_core.generation.workflow_source`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wapii_core.generation.workflow_source import AnswerRef, Parts, answer_name, call_sources, is_typed
from wapii_core.pyhttp.pyliteral import py_string

_UNSAFE_IN_FSTRING = set("'\"\\{}\n\r")


def py_answer_value(ref: AnswerRef) -> str:
    """``answer0['data'][0]['gid']``: the referenced value, read from the answer."""
    return answer_name(ref.call) + "".join(f"[{segment}]" if isinstance(segment, int) else f"[{py_string(segment)}]"
                                           for segment in ref.path)


def _fstring_text(text: str) -> str:
    """``text`` inside a single-quoted f-string (repr's escapes, braces doubled)."""
    quoted = repr(text + '"')  # the double quote makes repr choose single quotes
    return quoted[1:-2].replace("{", "{{").replace("}", "}}")


def py_reference(parts: Parts) -> str:
    """The expression for a string that holds references: the value itself for exactly one
    reference, else an f-string that splices each value in as text (a concatenation of ``str()``s
    where a key cannot be written inside an f-string)."""
    if is_typed(parts):
        return py_answer_value(parts[0])  # type: ignore[arg-type]
    refs = [part for part in parts if isinstance(part, AnswerRef)]
    if all(not (set(str(segment)) & _UNSAFE_IN_FSTRING) for ref in refs for segment in ref.path):
        def inner(ref: AnswerRef) -> str:
            return answer_name(ref.call) + "".join(f"[{segment}]" if isinstance(segment, int) else f'["{segment}"]'
                                                   for segment in ref.path)
        return "f'" + "".join(_fstring_text(part) if isinstance(part, str) else "{" + inner(part) + "}"
                              for part in parts) + "'"
    return " + ".join(py_string(part) if isinstance(part, str) else f"str({py_answer_value(part)})" for part in parts)


def render_py_workflow(starter: str, helper: str, calls: list[dict[str, Any]], call_source: Callable[[dict[str, Any]], str],
                       session: str | None = None) -> str:
    """The oracle's program: ``starter``, the library's ``send`` ``helper`` (with its imports) and one
    ``send(lambda: <call>)`` per call, ``call_source(config)`` being the adapter's single-call
    expression (``requests.get(...)``, ``session.get(...)``). ``session``: the ``async with`` header
    of an async library's session; the calls are then awaited in its block. Raises ValueError for a
    reference it cannot write."""
    indent, awaiting = ("    ", "await ") if session is not None else ("", "")
    lines = [f"{indent}{f'{kept} = ' if kept else ''}{awaiting}send(lambda: {source})\n"
             for source, kept in call_sources(calls, call_source, py_string, py_reference)]
    body = (session + "\n" if session is not None else "") + "".join(lines)
    return starter + helper + "\n\n" + body
