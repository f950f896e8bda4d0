"""What every adapter's oracle needs to write a workflow's program (docs/workflows.md): the
``{{N.path}}`` references of a call as values the program reads from its answers.

A call of a workflow (a request config whose ``{{sN...}}`` references the core already replaced by
literal values) may hold ``{{N.path}}`` in any string value: the url, header values, param values,
data values at any depth. An adapter renders each call with its single-call renderer after
:func:`with_tokens` put a token string in place of every string that holds a reference; in the
source it wrote, each token's string literal is then replaced by the expression that reads the
value from answer ``N`` (:func:`substitute`), typed where the string is exactly one reference,
spliced as text otherwise. A token its renderer did not write as a whole literal (inside a longer
string) is an error, never a program that sends the token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wapii_core.base.references import Reference

TOKEN_PREFIX = "__wapii_reference_"


@dataclass(frozen=True)
class AnswerRef:
    """The value at ``path`` (keys, and list indexes for segments of digits) of answer ``call``."""

    call: int
    path: tuple[str | int, ...]


Parts = list["str | AnswerRef"]
"""A string that holds references: its literal texts and references, in order."""


def reference_parts(text: str) -> Parts:
    """``text`` split into literal texts and :class:`AnswerRef` (no empty texts), as
    :meth:`~wapii_core.base.references.Reference.parts` reads it; a setup call's reference
    (``{{sN...}}``, which the core replaces before rendering) is a ValueError."""
    parts: Parts = []
    for part in Reference.parts(text):
        if isinstance(part, str):
            parts.append(part)
        elif part.setup:
            raise ValueError(f"{part} names a setup call's answer, which the program cannot read: "
                             "replace it with its value before rendering")
        else:
            parts.append(AnswerRef(part.call, tuple(int(seg) if seg.isdigit() else seg for seg in part.path.split("."))))
    return parts


def is_typed(parts: Parts) -> bool:
    """Whether the string was exactly one reference (the value keeps its JSON type)."""
    return len(parts) == 1 and isinstance(parts[0], AnswerRef)


def with_tokens(call: dict[str, Any], index: int) -> tuple[dict[str, Any], dict[str, Parts]]:
    """``call`` (the ``index``-th of its workflow) with each string that holds a reference replaced by
    a token, and each token's parts. A header value is text on the wire whatever the value's type (a
    library may refuse a number there), so a header that is exactly one reference is spliced as
    text too (its parts end with an empty text). Raises ValueError for a reference to this call or a later one,
    or a call that already holds a token's text."""
    tokens: dict[str, Parts] = {}

    def walk(value: Any, text: bool = False) -> Any:
        if isinstance(value, str):
            if TOKEN_PREFIX in value:
                raise ValueError(f"call {index} holds the reserved text {TOKEN_PREFIX!r}")
            parts = reference_parts(value)
            refs = [part for part in parts if isinstance(part, AnswerRef)]
            if not refs:
                return value
            late = [ref.call for ref in refs if ref.call >= index]
            if late:
                raise ValueError(f"call {index} refers to the answer of call {late[0]}, which comes later")
            token = f"{TOKEN_PREFIX}{len(tokens)}__"
            tokens[token] = [*parts, ""] if text and is_typed(parts) else parts
            return token
        if isinstance(value, list):
            return [walk(item, text) for item in value]
        if isinstance(value, dict):
            return {key: walk(item, text) for key, item in value.items()}
        return value

    tokenised = {key: (walk(value, text=key == "headers") if key in ("url", "headers", "params", "data") else value)
                 for key, value in call.items()}
    return tokenised, tokens


def substitute(source: str, tokens: dict[str, Parts], literal: Callable[[str], str],
               expression: Callable[[Parts], str]) -> str:
    """``source`` with each token's string literal (as ``literal`` writes it) replaced by ``expression``
    of its parts. Raises ValueError where a token is not written as a whole literal."""
    for token, parts in tokens.items():
        written = literal(token)
        if written not in source:
            raise ValueError(f"cannot render the reference {render_parts(parts)!r}: the call does not write it as a whole string")
        source = source.replace(written, expression(parts))
    if TOKEN_PREFIX in source:
        raise ValueError("cannot render a reference inside a longer text of the call")
    return source


def render_parts(parts: Parts) -> str:
    """The reference text back (for messages)."""
    return "".join(part if isinstance(part, str) else
                   "{{" + f"{part.call}." + ".".join(str(seg) for seg in part.path) + "}}" for part in parts)


def referenced_answers(calls: list[dict[str, Any]]) -> set[int]:
    """The indexes of the calls whose answers a later call reads."""
    return {ref.call for ref in Reference.all_in(calls) if not ref.setup}


def call_sources(calls: list[dict[str, Any]], call_source: Callable[[dict[str, Any]], str],
                 literal: Callable[[str], str], expression: Callable[[Parts], str]) -> list[tuple[str, str | None]]:
    """Each call's source (``call_source`` of its config, each reference written by ``expression``, strings
    by ``literal``) with the variable its answer is kept in, or None when no later call reads it. Raises
    ValueError for a reference it cannot write."""
    used = referenced_answers(calls)
    sources = []
    for index, call in enumerate(calls):
        config, tokens = with_tokens(call, index)
        sources.append((substitute(call_source(config), tokens, literal, expression),
                        answer_name(index) if index in used else None))
    return sources


def answer_name(index: int) -> str:
    """The program's variable for the answer to call ``index``."""
    return f"answer{index}"
