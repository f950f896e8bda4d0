"""The URL string literals of a whole API as a grammar: a trie over path segments.

Written as one lexeme per URL, a large API keeps every template of a method alive at once in
llguidance's lexer (GitHub: 639 URL lexemes after ``get(``), which makes compiling slow and the
first masks inside a URL cost milliseconds. Here a URL literal is a sequence of lexemes, one per
path segment *with the delimiter that ends it*: the opening quote, the server and the first
segment, then each further segment, each followed by ``/`` or, for the last, the closing quote.
The templates of one method form a trie over these segments: a shared prefix is one rule, a
parameter is a segment whose value is typed, and the trie's leaves continue with what follows
each endpoint's URL. Equal subtrees (as under two methods with the same continuation) share rules.

With ``exclude_shadowed``, an endpoint's branch leaves out the URLs the judge resolves to a
better-ranked path (:attr:`Endpoint.shadowed_by`): its URLs less those of each shadowing template,
as a disjoint union of branches (:func:`_branches`), each segment where they differ one lexeme
with an intersection (``& …``) or a complement (``& ~…``) of what the shadowing segment matches.
A path value cannot hold ``/`` (nor ``%2F``), so a template matches a URL only segment by segment.

The language is exactly that of the alternation of whole-URL regexes. No segment lexeme can end
early (the greedy rule of :mod:`.lark`): a static segment holds no ``/`` and its quote only
escaped, a path value holds neither ``/``, a quote nor a backslash, so every segment lexeme ends
at the first unescaped ``/`` or quote and none is a proper prefix of what another goes on to match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Hashable, Protocol

from wapii_core.grammar.endpoints import Endpoint
from wapii_core.grammar.lark import LarkWriter, alternatives, escape, regex
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

    def judged(self, template: str, form: Hashable) -> str:
        """A regex for text inside the literal that the judge, percent-decoding it, reads as
        matching ``template`` (a path template or a segment of one: placeholders and fixed text);
        used only to leave shadowed URLs out (``exclude_shadowed``, :func:`unshadowed`). Most
        syntaxes write it with :func:`judged_literal_text`."""


_HEX = "0123456789ABCDEF"
_DECODED_VALUE = r"%(?:[013-9A-Fa-f][0-9A-Fa-f]|2[0-57-9A-Ea-e]|3[0-9A-Ea-e])"
"""A ``%`` escape that decodes to a character a placeholder matches (any but ``/``, ``?`` and ``&``)."""


def _escaped(char: str) -> str:
    """A regex for ``char`` written as itself or as the ``%`` escapes of its UTF-8 bytes (either case)."""
    escapes = "".join(f"%{b >> 4:X}[{_HEX[b & 15]}{_HEX[b & 15].lower()}]" for b in char.encode("utf-8"))
    return f"(?:{escape(char)}|{escapes})"


def judged_literal_text(template: str, quote: str, write: Callable[[str], str]) -> str:
    """A regex for text inside a URL string literal delimited by ``quote`` that the judge, reading
    it percent-decoded, matches with ``template`` (a path or a part of one): each placeholder one or
    more characters other than ``/``, ``?`` and ``&`` (no backslash: path values hold no escape
    sequence), a ``.`` outside placeholders any character (reference mode), every other character
    itself; ``write(text)`` is how the language writes fixed text inside such a literal (its escapes)."""
    value = rf"(?:[^/?&%\\\n{escape(quote)}]|{_DECODED_VALUE})+"
    anything = rf"(?:[^?%\\\n{escape(quote)}]|%[0-9A-Fa-f]{{2}})"
    parts = _PLACEHOLDER.split(template)[::2]
    return value.join("".join(anything if c == "." else _escaped(c) for c in write(part)) for part in parts)


def shadowed_literals(server: str, templates: tuple[str, ...], syntax: UrlSyntax) -> str:
    """A regex for the URL string literals of ``syntax`` (any form; no query) whose path, as the judge
    reads it (percent-decoded, ``server`` stripped), one of ``templates`` matches."""
    literals = []
    for form in syntax.forms:
        paths = "|".join(syntax.judged(template, form) for template in templates)
        literals.append(f"{syntax.opening(form)}{syntax.static(server, form)}(?:{paths}){syntax.closing(form)}")
    return "|".join(literals)


def unshadowed(pattern: str, server: str, endpoint: Endpoint, syntax: UrlSyntax) -> str:
    """``pattern`` (a Python regex for ``endpoint``'s URL literals, matched whole) less the literals
    the judge resolves to a template of :attr:`Endpoint.shadowed_by`: what a grammar's URL trie with
    ``exclude_shadowed`` leaves to the endpoint, for :meth:`Constraint.for_completion`."""
    if not endpoint.shadowed_by:
        return pattern
    return f"(?!(?:{shadowed_literals(server, endpoint.shadowed_by, syntax)})\\Z)(?:{pattern})"


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


def _segments(server: str, endpoint: Endpoint, branch: tuple[tuple[Part, ...], ...] = ()
               ) -> list[tuple[Part, ...]]:
    """The URL's segments as parts; the first starts with the literal's opening and the server;
    ``branch``: per segment, ("only" | "except", shadowing segment) parts that restrict it."""
    kinds = dict(endpoint.path_params)
    first, *rest = endpoint.template.split("/")
    segments = [(("open", None), ("static", server), *_parts(first, kinds)), *(_parts(s, kinds) for s in rest)]
    return [segment + restriction for segment, restriction in zip(segments, branch or [()] * len(segments))]


def _judge_pattern(segment: str) -> str:
    """A Python regex for a template segment as the judge matches it (reference mode, metrics.md §4):
    a placeholder one or more characters but ``/?&``, a ``.`` any character, the rest itself."""
    return "[^/?&]+".join(".".join(re.escape(p) for p in part.split(".")) for part in _PLACEHOLDER.split(segment)[::2])


def _covers(shadow: str, segment: str) -> bool | None:
    """Whether every text of the template segment ``segment`` matches ``shadow`` (True), none does
    (False), or some may (None)."""
    if _PLACEHOLDER.sub("{}", shadow) == _PLACEHOLDER.sub("{}", segment) or (
            segment and _PLACEHOLDER.fullmatch(shadow)):
        return True
    if not _PLACEHOLDER.search(segment):
        return re.fullmatch(_judge_pattern(shadow), segment) is not None
    return None


def _differing(branch: tuple[tuple[Part, ...], ...], shadow: list[str], differing: list[int]) -> list[int] | None:
    """The segments of ``differing`` where ``branch``'s restrictions leave it open whether the
    shadow's segment matches; None when a restriction rules the shadow out (the branch holds none
    of its URLs: without this, branches multiply with every shadow)."""
    left = []
    for i in differing:
        only = [str(text) for kind, text in branch[i] if kind == "only"]
        if shadow[i] in (str(text) for kind, text in branch[i] if kind == "except"):
            return None
        if shadow[i] in only:
            continue
        fixed = not _PLACEHOLDER.search(shadow[i]) and "." not in shadow[i]
        if fixed and any(not _PLACEHOLDER.search(o) and "." not in o for o in only):
            return None  # two different fixed texts
        left.append(i)
    return left


def _branches(endpoint: Endpoint) -> list[tuple[tuple[Part, ...], ...]]:
    """``endpoint``'s URLs less those a template of :attr:`Endpoint.shadowed_by` matches, as disjoint
    branches: per branch, per segment, the restriction parts (("only", s) / ("except", s)). A URL
    less ``T`` where they differ in segments ``d1 … dm``: for each ``k``, ``T`` matches ``d1 … d(k-1)``
    and not ``dk`` (none left when ``T`` covers every segment: the endpoint is never resolved to)."""
    segments = endpoint.template.split("/")
    branches: list[tuple[tuple[Part, ...], ...]] = [tuple(() for _ in segments)]
    for shadow in endpoint.shadowed_by:
        parts = shadow.split("/")
        if len(parts) != len(segments):  # a value holds no "/": the judge's match goes segment by segment
            continue
        covered = [_covers(p, s) for p, s in zip(parts, segments)]
        if False in covered:
            continue
        differing = [i for i, c in enumerate(covered) if c is None]
        split = []
        for branch in branches:
            left = _differing(branch, parts, differing)
            if left is None:  # the branch already holds none of the shadow's URLs
                split.append(branch)
                continue
            for k, i in enumerate(left):
                restricted = list(branch)
                for j in left[:k]:
                    restricted[j] += (("only", parts[j]),)
                restricted[i] += (("except", parts[i]),)
                split.append(tuple(restricted))
        branches = split
    return branches


class UrlTrie:
    """Writes, into one :class:`LarkWriter`, rules for "a URL literal of one of these endpoints,
    then that endpoint's continuation" (one rule per call of :meth:`rule`)."""

    def __init__(self, writer: LarkWriter, server: str, syntax: UrlSyntax, exclude_shadowed: bool = False) -> None:
        self.w = writer
        self.server = server
        self.syntax = syntax
        self.exclude_shadowed = exclude_shadowed

    def rule(self, leaves: list[tuple[Endpoint, str]]) -> str:
        """A rule matching the URL literal of any endpoint of ``leaves`` (in any form of the
        syntax) followed by that endpoint's rule."""
        root = _Node()
        for endpoint, leaf in leaves:
            branches = _branches(endpoint) if self.exclude_shadowed and endpoint.shadowed_by else [()]
            for branch in branches:
                node = root
                *inner, last = _segments(self.server, endpoint, branch)
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
        restrictions = [(kind, str(item)) for kind, item in parts if kind in ("only", "except")]
        if restrictions:
            return self._restricted(parts, form, last, restrictions)
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

    def _restricted(self, parts: tuple[Part, ...], form: Hashable, last: bool,
                    restrictions: list[tuple[str, str]]) -> str:
        """One lexeme for a segment that a shadowing template's segment must (``only``) or must not
        (``except``) match: the segment's regex intersected with theirs (opening, server and
        delimiter included)."""
        opened = parts[0][0] == "open"
        head = self.syntax.opening(form) + self.syntax.static(self.server, form) if opened else ""
        whole = ""
        for kind, item in parts[2:] if opened else parts:
            if kind == "static":
                whole += self.syntax.static(str(item), form)
            elif kind == "value":
                whole += f"(?:{self.syntax.value(item, form)})"  # type: ignore[arg-type]
        tail = self.syntax.closing(form) if last else self.syntax.static("/", form)
        body = regex(f"{head}{whole}{tail}") + "".join(
            f" & {'' if kind == 'only' else '~'}{regex(f'{head}(?:{self.syntax.judged(text, form)}){tail}')}"
            for kind, text in restrictions)
        return self.w.shared(("url-segment", body), "SEG", lambda _: body)
