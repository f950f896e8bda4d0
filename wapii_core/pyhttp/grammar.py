"""The grammar of a legal Python HTTP call: ``<method>(url, <keyword>=…, …)`` after an adapter's anchor.

Built on :mod:`wapii_core.grammar` from the spec's endpoints, like the axios grammar: the region
starts after the adapter's anchor (``requests.``, ``    async with session.``) and ends with the
call's closing parenthesis (the grammar then allows only the end token). The URL is one string
literal (``'…'`` or ``"…"``; with references also an f-string whose placeholders are
``{expression}``), path parameters typed, no query string; a URL the judge resolves to a
better-ranked path (:attr:`Endpoint.shadowed_by`, also written percent-escaped or after an
interpolated value) is left out of the endpoints it shadows, so what follows it is that path's.
The keyword arguments come in any order, each at most once: ``params`` (a dict of the operation's query parameters and query credentials;
values may be strings whatever their type, as a query string is text; booleans only where the
library accepts them), ``headers`` (a dict of its header parameters and header credentials, string
values, or, with ``none_headers``, ``None`` for the library's own ``Accept``/``Content-Type``), the
body as ``json=`` or ``data=`` (required when the spec requires a body; not on the library's
bodyless shorthands), and ``timeout`` (where the library takes a number). Required parameters and
credentials make their dict required. Positional ``params``/``data`` arguments and ``files=`` bodies
are not part of the grammar.
"""

from __future__ import annotations

import re

from wapii_core.grammar.endpoints import Api, Endpoint
from wapii_core.grammar.lark import (COMPACT_WHITESPACE, FREE_WHITESPACE, WS, Entry, LarkWriter, alternatives, escape,
                                     literal, regex)
from wapii_core.grammar.urls import UrlTrie, judged_literal_text, unshadowed
from wapii_core.grammar.types import HEADER_STRING, NULL, STRING, Arr, Bool, Int, Num, Obj, OneOf, Prop, Str, VType, one_of
from wapii_core.grammar.values import Dialect, ValueRules, header_literal, path_text
from wapii_core.base.model import Setup
from wapii_core.pyhttp.library import PythonLibrary
_PLACEHOLDER = re.compile(r"{[^{}]*}")
_EXPRESSION = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\(\))*"
_ESCAPE = r"\\(?:x[0-9a-fA-F]{2}|u(?:[0-9a-cA-Ce-fE-F][0-9a-fA-F]{3}|[dD][0-7][0-9a-fA-F]{2})|[^\x00xuUN])"
"""An escape sequence Python accepts and that holds no lone surrogate (which requests cannot
encode): ``\\x`` and ``\\u`` with all their digits, no ``\\U`` or ``\\N{…}``."""
_STRING = r"[rR]?'(?:[^'\\\n\r\x00]|" + _ESCAPE + r")*'|[rR]?\"(?:[^\"\\\n\r\x00]|" + _ESCAPE + r")*\""
_F_STRING = (r"[fF][rR]?'(?:[^'\\\n\r{}\x00]|" + _ESCAPE + r"|\{\{|\}\}|\{" + _EXPRESSION + r"\})*'"
             r"|[fF][rR]?\"(?:[^\"\\\n\r{}\x00]|" + _ESCAPE + r"|\{\{|\}\}|\{" + _EXPRESSION + r"\})*\"")
"""String literals: no NUL byte anywhere (Python refuses source code that holds one); f-string
placeholders hold references only (arbitrary text there would be code, and a syntax error)."""


def _py_escape(text: str, quote: str) -> str:
    """``text`` as written inside a Python string literal delimited by ``quote``."""
    return text.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n").replace("\r", "\\r")


class Python(Dialect):
    """Python literals: strings (f-strings with references), ``True``/``False``/``None``, dict keys quoted."""

    true, false, null = "True", "False", "None"
    keywords = ("True", "False", "None")
    header_string = "|".join([header_literal("'"), header_literal('"')])

    def __init__(self, references: bool = True) -> None:
        self.reference = _EXPRESSION if references else None
        self.string = _STRING + ("|" + _F_STRING if references else "")

    def key(self, name: str) -> str:
        return "|".join(q + escape(_py_escape(name, q)) + q for q in ("'", '"'))

    def any_key(self) -> str:
        return _STRING + r"|-?[0-9]+"

    def string_of(self, values: tuple[str, ...]) -> str:
        return "|".join(q + "(?:" + "|".join(escape(_py_escape(v, q)) for v in values) + ")" + q for q in ("'", '"'))


def _path_value(kind: VType, quote: str, f_string: bool) -> str:
    placeholder = r"\{" + _EXPRESSION + r"\}"
    if isinstance(kind, Int) and kind.enum is None:
        typed = r"-?[0-9]+"
    elif isinstance(kind, Num):
        typed = Python.number
    elif isinstance(kind, (Int, Str)) and kind.enum is not None:
        typed = "|".join(escape(_py_escape(str(v), quote)) for v in kind.enum)
    else:
        return path_text(quote + ("{}" if f_string else ""), placeholder if f_string else None)
    return f"(?:{typed}|{placeholder})" if f_string else f"(?:{typed})"


def _written(text: str, quote: str, f_string: bool) -> str:
    """Fixed ``text`` as written inside a Python string literal (an f-string doubles its braces)."""
    text = _py_escape(text, quote)
    return text.replace("{", "{{").replace("}", "}}") if f_string else text


def _static(text: str, quote: str, f_string: bool) -> str:
    return escape(_written(text, quote, f_string))


class PythonUrl:
    """A URL string literal in Python (:class:`~wapii_core.grammar.urls.UrlSyntax`): ``'…'`` or
    ``"…"``, and with ``references`` an f-string whose placeholders are ``{expression}``; path
    values typed."""

    def __init__(self, references: bool = True) -> None:
        self.forms = tuple((quote, f_string) for f_string in ((False, True) if references else (False,))
                           for quote in ("'", '"'))

    def opening(self, form: tuple[str, bool]) -> str:
        return ("[fF]" if form[1] else "") + escape(form[0])

    def static(self, text: str, form: tuple[str, bool]) -> str:
        return _static(text, *form)

    def value(self, kind: VType, form: tuple[str, bool]) -> str:
        return _path_value(kind, *form)

    def closing(self, form: tuple[str, bool]) -> str:
        return escape(form[0])

    def judged(self, template: str, form: tuple[str, bool]) -> str:
        return judged_literal_text(template, form[0], lambda text: _written(text, *form))


def url_regex(server: str, endpoint: Endpoint, references: bool = True) -> str:
    """One regex for the URL string literal of ``endpoint`` (plain, and f-strings with references)."""
    syntax = PythonUrl(references)
    kinds = dict(endpoint.path_params)
    parts = _PLACEHOLDER.split(endpoint.template)
    names = [m[1:-1] for m in _PLACEHOLDER.findall(endpoint.template)]
    forms = []
    for form in syntax.forms:
        body = syntax.static(server + parts[0], form)
        for name, rest in zip(names, parts[1:]):
            body += syntax.value(kinds.get(name, Str()), form) + syntax.static(rest, form)
        forms.append(syntax.opening(form) + body + syntax.closing(form))
    return "|".join(forms)


def _query(kind: VType, booleans: bool = True) -> VType:
    """A query value: its type, or a string (a query string is text); a boolean only as a string
    when the library refuses booleans."""
    if isinstance(kind, Bool) and not booleans:
        return STRING
    if isinstance(kind, (Str, Int, Num, Bool)):
        return one_of([kind, STRING])
    if isinstance(kind, Arr):
        return Arr(_query(kind.item, booleans))
    if isinstance(kind, OneOf):
        return one_of([_query(k, booleans) for k in kind.options])
    return kind


class PythonCallGrammar:
    """Writes the grammar of one API's calls with one library (``none_headers``: the library leaves
    out a header given as ``None``, so ``Accept``/``Content-Type`` may be ``None``; ``timeout``: a
    number of seconds may be passed as ``timeout=``)."""

    def __init__(self, api: Api, library: PythonLibrary, references: bool = True, compact: bool = False, *,
                 none_headers: bool = False, timeout: bool = True) -> None:
        self.api = api
        self.library = library
        self.references = references
        self.none_headers = none_headers
        self.timeout = timeout
        self.booleans = library.query_text(True) is not None
        self.w = LarkWriter(COMPACT_WHITESPACE if compact else FREE_WHITESPACE)
        self.values = ValueRules(self.w, Python(references))
        self.endpoints: list[tuple[str, str, str]] = []

    def _kwarg(self, names: str) -> str:
        return self.w.shared_terminal(self.w.separated(names, "="), "KW")

    def _kwargs(self, endpoint: Endpoint) -> tuple[str, bool]:
        """The keyword-arguments rule (at least one) and whether one of them is required."""
        entries = []
        if endpoint.query:
            params = Obj(tuple(Prop(a.name, _query(a.type, self.booleans), a.required) for a in endpoint.query))
            entries.append(Entry(self._kwarg("params"), self.values.rule(params), endpoint.required_query))
        if endpoint.headers:
            library_own = ("Accept", "Content-Type") if self.none_headers else ()
            headers = Obj(tuple(Prop(a.name, one_of([HEADER_STRING, NULL]) if a.name in library_own else HEADER_STRING,
                                     a.required)
                                for a in endpoint.headers))
            entries.append(Entry(self._kwarg("headers"), self.values.rule(headers), endpoint.required_headers))
        if endpoint.body is not None and endpoint.method not in self.library.bodyless_shorthands:
            entries.append(Entry(self._kwarg("json|data"), self.values.rule(endpoint.body), endpoint.body_required))
        if self.timeout:
            entries.append(Entry(self._kwarg("timeout"), self.values.rule(Num())))
        return self.w.members(entries, nonempty=True), any(e.required for e in entries)

    def _after_url(self, endpoint: Endpoint) -> tuple[str, str]:
        kwargs, required = self._kwargs(endpoint)
        close = self.w.shared("close", "close", lambda _: f'{WS}? ")"')  # the keywords' trailing comma is theirs
        rest = f"{kwargs} {close}" + ("" if required else ' | ")"')
        rest_rule = self.w.shared(("rest", rest), "rest", lambda _: rest)
        after = f'{WS}? "," {WS}? {rest_rule}' + ("" if required else f' | {WS}? ")"')
        return self.w.shared(("after", after), "after", lambda _: after), rest_rule

    def text(self, setup: Setup, anchor: str) -> str:
        """The grammar for ``setup``; with the ``import`` setup, any text first, up to ``anchor``
        (stripped of its indentation)."""
        by_method: dict[str, list[tuple[Endpoint, str]]] = {}
        syntax = PythonUrl(self.references)
        for endpoint in self.api.endpoints:
            after, rest = self._after_url(endpoint)
            by_method.setdefault(endpoint.method, []).append((endpoint, after))
            literals = unshadowed(url_regex(self.api.server, endpoint, self.references), self.api.server, endpoint, syntax)
            self.endpoints.append((endpoint.method, literals, rest))
        urls = UrlTrie(self.w, self.api.server, syntax, exclude_shadowed=True)
        methods = [f'{literal(m + "(")} {WS}? {urls.rule(leaves)}' for m, leaves in by_method.items()]
        call = self.w.define("call", alternatives(methods))
        return self.w.text(call, free_until=anchor.strip() if setup is Setup.imports else None)
