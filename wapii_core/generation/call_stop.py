"""Stopping a completion once its call is complete, before the stop string comes (every model
backend that sees the answer as it is generated: ``hf`` token by token, ``openai`` event by event
when streaming, so both cut the same answer at the same place).

A model that has written its API call often goes on (a ``.then`` handler, a second example, prose)
until the token limit. Only the first call is judged, so once the adapter cuts out a call that
cannot change any more, the rest is wasted time. For an adapter whose capabilities say
``single_call`` (``axios_js``) the cut is the reference's (metrics.md §2): from the first ``axios.`` to the first cut-off marker in priority
order. The row stops when

- the text generated so far ends a statement (its last non-blank character is ``;`` or a newline),
- the adapter cuts a call out of starter + text, and
- that call's brackets balance outside string literals (so a ``;`` inside a string, or a call
  still open on the next line, does not count).

A later, higher-priority marker (``.then`` after the call already ended with ``);``) could still
move the reference's cut; the benchmark runs in docs/results.md compare every verdict with and without
this rule. Adapters whose extraction keeps the statements after the call (the Python adapters)
are left alone: later statements there change what runs.
"""

from __future__ import annotations

from typing import Any, Callable

_OPEN, _CLOSE = "([{", ")]}"
_QUOTES = "'\"`"


def brackets_balance(code: str) -> bool:
    """Whether every ``( [ {`` in ``code`` is closed in order and every string literal ends
    (quotes ``'``, ``"`` and backquotes, with backslash escapes)."""
    stack: list[str] = []
    quote: str | None = None
    escaped = False
    for char in code:
        if quote is not None:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
        elif char in _QUOTES:
            quote = char
        elif char in _OPEN:
            stack.append(_CLOSE[_OPEN.index(char)])
        elif char in _CLOSE:
            if not stack or stack.pop() != char:
                return False
    return quote is None and not stack


def call_complete_predicate(adapter: Any, starter: str, setup: Any = None) -> Callable[[str], bool] | None:
    """For one request: ``text -> whether starter + text holds a complete call`` (see the module
    docstring), or None when the adapter's extraction depends on what follows the call, or in the
    ``workflow`` setup (``setup``: the run's), whose program goes on after its first call."""
    capabilities = getattr(adapter, "capabilities", None)
    if capabilities is None or not capabilities.single_call or getattr(setup, "value", setup) == "workflow":
        return None

    def complete(text: str) -> bool:
        if not text.rstrip(" \t").endswith((";", "\n")):
            return False
        call = adapter.extract(starter + text).call
        return call is not None and brackets_balance(call)

    return complete
