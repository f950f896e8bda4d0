"""What every JavaScript adapter does alike for workflow tasks (docs/workflows.md): the whole program
a model wrote, as the sandbox runs it (:func:`extract_js_program`), and the oracle's whole program
(:func:`render_js_workflow`).

The oracle's program is the workflow starter, the library's ``send`` helper (it sends a request,
sends it again after the ``Retry-After`` seconds of a ``429`` answer, at most five times, throws
on any other status of 400 or above and gives the parsed JSON answer), and an ``async function
main()`` that awaits ``send(() => <call>)`` for each call in order, where ``<call>`` is the
adapter's single-call rendering with each ``{{N.path}}`` read from ``answerN``
(:mod:`wapii_core.generation.workflow_source`). ``main()``'s rejection fails the run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from wapii_core.base.model import Extraction
from wapii_core.generation.js_extract import STOP_SUFFIXES
from wapii_core.generation.js_literal import js_string
from wapii_core.generation.workflow_source import AnswerRef, Parts, answer_name, call_sources, is_typed

FENCE = "```"
PROGRAM_OPEN = "(async () => {\n"
PROGRAM_CLOSE = "})();\n"
"""What a program is wrapped in to run: a scope of its own, so that its ``const axios = require('axios')``
does not collide with the runtime's prelude (which binds the library as the one-call programs see it),
and top-level ``await`` works as in a module. What it throws or rejects with fails the run."""
_IMPORT = re.compile(r"""^([ \t]*)import[ \t]+(?:(?P<default>[A-Za-z_$][\w$]*)|\*[ \t]+as[ \t]+(?P<namespace>[A-Za-z_$][\w$]*)|\{(?P<names>[^}]*)\})[ \t]+from[ \t]+(?P<module>'[^'\n]*'|"[^"\n]*")[ \t]*;?""", re.MULTILINE)
"""A static ``import`` of a module at the start of a line: default, namespace or named (``a as b``)."""
_IDENTIFIER_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$"


def _accessor(segment: str | int) -> str:
    if isinstance(segment, int):
        return f"[{segment}]"
    if segment and segment[0] in _IDENTIFIER_START and all(c.isalnum() or c in "_$" for c in segment) \
            and segment.isascii():
        return f".{segment}"
    return f"[{js_string(segment)}]"


def js_answer_value(ref: AnswerRef) -> str:
    """``answer1.data.gid``, ``answer0.data[0].gid``: the referenced value, read from the answer."""
    return answer_name(ref.call) + "".join(_accessor(segment) for segment in ref.path)


def _template_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${").replace("\r", "\\r")


def js_reference(parts: Parts) -> str:
    """The expression for a string that holds references: the value itself for exactly one
    reference, else a template literal that splices each value in as text."""
    if is_typed(parts):
        return js_answer_value(parts[0])  # type: ignore[arg-type]
    return "`" + "".join(_template_text(part) if isinstance(part, str) else "${" + js_answer_value(part) + "}"
                         for part in parts) + "`"


def render_js_workflow(starter: str, helper: str, calls: list[dict[str, Any]], call_source: Callable[[dict[str, Any]], str]) -> str:
    """The oracle's program: ``starter``, the library's ``send`` ``helper`` and a ``main()`` that sends
    each of ``calls`` in order, ``call_source(config)`` being the adapter's single-call expression
    (``axios.get(...)``, ``fetch(...)``). Raises ValueError for a reference it cannot write."""
    lines = [f"  {f'const {kept} = ' if kept else ''}await send(() => {source});\n"
             for source, kept in call_sources(calls, call_source, js_string, js_reference)]
    return starter + "\n" + helper + "\nasync function main() {\n" + "".join(lines) + "}\n\nmain();\n"


def _as_require(found: re.Match[str]) -> str:
    if found.group("names") is not None:
        names = [re.sub(r"\s+as\s+", ": ", name.strip()) for name in found.group("names").split(",") if name.strip()]
        target = "{ " + ", ".join(names) + " }"
    else:
        target = found.group("default") or found.group("namespace")
    return f"{found.group(1)}const {target} = require({found.group('module')});"


def requires_for_imports(code: str) -> str:
    """``code`` with each static ``import … from '…'`` at the start of a line written as the
    ``require`` it stands for (a script, which the sandbox runs, cannot hold ``import``): a model
    that writes the module form of the starter's import gets the same library."""
    return _IMPORT.sub(_as_require, code)


def extract_js_program(code: str, call_start: str) -> Extraction:
    """The whole program of ``code`` (starter code + completion) as the sandbox runs it: up to the
    first line that opens with three back-ticks (the model closing its code block; prose after it
    is not run), in a scope of its own (:data:`PROGRAM_OPEN`), each static ``import`` written as a
    ``require`` (:func:`requires_for_imports`), or why there is none (a constrained generation's stop marker; no use of the
    library at all: ``no_request``)."""
    for suffix, error in STOP_SUFFIXES:
        if code.endswith(suffix):
            return Extraction(error=error)
    lines = code.split("\n")
    for number, line in enumerate(lines):
        if line.lstrip().startswith(FENCE):
            code = "\n".join(lines[:number]) + "\n"
            break
    if call_start not in code:
        return Extraction(error="no_request")
    body = requires_for_imports(code if code.endswith("\n") else code + "\n")
    return Extraction(call=PROGRAM_OPEN + body + PROGRAM_CLOSE, span=(0, len(code)))
