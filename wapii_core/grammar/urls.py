"""The URL string literals of a whole API as a grammar: a trie over path segments.

Written as one lexeme per URL, a large API keeps every template of a method alive at once in
llguidance's lexer (GitHub: 639 URL lexemes after ``get(``), which makes compiling slow and the
first masks inside a URL cost milliseconds. Here a URL literal is a sequence of lexemes, one per
path segment *with the delimiter that ends it*: the opening quote, the server and the first
segment, then each further segment, each followed by ``/`` or, for the last, the closing quote.
The templates of one method form a trie over these segments: a shared prefix is one rule, a
parameter is a segment whose value is typed, and the trie's leaves continue with what follows
each endpoint's URL. Equal subtrees (as under two methods with the same continuation) share rules.

The language is exactly that of the alternation of whole-URL regexes. No segment lexeme can end
early (the greedy rule of :mod:`.lark`): a static segment holds no ``/`` and its quote only
escaped, a path value holds neither ``/``, a quote nor a backslash, so every segment lexeme ends
at the first unescaped ``/`` or quote and none is a proper prefix of what another goes on to match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Hashable, Protocol

from wapii_core.grammar.endpoints import Endpoint
from wapii_core.grammar.lark import LarkWriter, alternatives, regex
from wapii_core.grammar.types import Str, VType

_PLACEHOLDER = re.compile(r"({[^{}]*})")
Part = tuple[str, object]  # ("static", text) or ("value", VType)


class UrlSyntax(Protocol):
    """How one language writes a URL string literal, per form (a kind of quote, an f-string …)."""

    forms: tuple[Hashable, ...]

    def opening(self, form: Hashable) -> str:
        """A regex for the literal's opening (its prefix and quote)."""

    def static(self, text: str, form: Hashable) -> str:
        """A regex for fixed URL text inside the literal."""

    def value(self, kind: VType, form: Hashable) -> str:
        """A regex for one path parameter's value inside the literal."""

    def closing(self, form: Hashable) -> str:
        """A regex for the literal's closing quote."""


@dataclass
class _Node:
    children: dict[tuple[Part, ...], _Node] = field(default_factory=dict)
    leaves: dict[tuple[Part, ...], list[str]] = field(default_factory=dict)


def _parts(text: str, kinds: dict[str, VType]) -> tuple[Part, ...]:
    parts: list[Part] = []
    for i, piece in enumerate(_PLACEHOLDER.split(text)):
        if i % 2:
            parts.append(("value", kinds.get(piece[1:-1], Str())))
        elif piece:
            parts.append(("static", piece))
    return tuple(parts)


def _segments(server: str, endpoint: Endpoint) -> list[tuple[Part, ...]]:
    """The URL's segments as parts; the first starts with the literal's opening and the server."""
    kinds = dict(endpoint.path_params)
    first, *rest = endpoint.template.split("/")
    return [(("open", None), ("static", server), *_parts(first, kinds)), *(_parts(s, kinds) for s in rest)]


class UrlTrie:
    """Writes, into one :class:`LarkWriter`, rules for "a URL literal of one of these endpoints,
    then that endpoint's continuation" (one rule per call of :meth:`rule`)."""

    def __init__(self, writer: LarkWriter, server: str, syntax: UrlSyntax) -> None:
        self.w = writer
        self.server = server
        self.syntax = syntax

    def rule(self, leaves: list[tuple[Endpoint, str]]) -> str:
        """A rule matching the URL literal of any endpoint of ``leaves`` (in any form of the
        syntax) followed by that endpoint's rule."""
        root = _Node()
        for endpoint, leaf in leaves:
            node = root
            *inner, last = _segments(self.server, endpoint)
            for segment in inner:
                node = node.children.setdefault(segment, _Node())
            node.leaves.setdefault(last, []).append(leaf)
        forms = [self._node(root, form) for form in self.syntax.forms]
        body = alternatives(list(dict.fromkeys(forms)))
        return self.w.shared(("url-trie", body), "urls", lambda _: body)

    def _node(self, node: _Node, form: Hashable) -> str:
        alts = [f"{self._segment(parts, form, False)} {self._node(child, form)}"
                for parts, child in node.children.items()]
        alts += [f"{self._segment(parts, form, True)} {leaf}"
                 for parts, leaves in node.leaves.items() for leaf in dict.fromkeys(leaves)]
        body = alternatives(alts)
        return self.w.shared(("url-node", body), "url", lambda _: body)

    def _segment(self, parts: tuple[Part, ...], form: Hashable, last: bool) -> str:
        """The terminal of one segment and its delimiter (``/``, or the closing quote when ``last``)."""
        pieces: list[str] = []
        static = ""
        for kind, item in parts:
            if kind == "open":
                static += self.syntax.opening(form)
            elif kind == "static":
                static += self.syntax.static(str(item), form)
            else:
                if static:
                    pieces.append(regex(static))
                    static = ""
                pattern = self.syntax.value(item, form)  # type: ignore[arg-type]
                pieces.append(self.w.shared_terminal(pattern, "PV"))
        static += self.syntax.closing(form) if last else self.syntax.static("/", form)
        pieces.append(regex(static))
        body = " ".join(pieces)
        return self.w.shared(("url-segment", body), "SEG", lambda _: body)
