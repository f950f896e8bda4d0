"""The grammar of a legal fetch call for one API: ``fetch(url[, options])``.

Built on the core's grammar building blocks (``wapii_core.api``) from the spec's endpoints. The
constrained region starts just after ``fetch(`` and ends with the call's terminator (``;``,
``.then(``, ``.catch(`` or ``.finally(`` after the closing parenthesis); the grammar then allows
only the end token. Per setup:

- ``full``: URL and options; the ``argument`` setup uses the same grammar, with the starter's
  ``'<url>'`` fed to it first (:meth:`Constraint.prefix`);
- ``import``: any text up to the first ``fetch(``, then the call.

The URL: one string literal (any quote; path parameters typed, or ``${…}`` in a template literal)
with an optional query string of the endpoint's query parameters (``?name=value&…``), or the
literal ending in ``?`` followed by ``+ new URLSearchParams({…})`` (an object of the endpoint's
query parameters, typed), or the literal without a query followed by ``+ '?name=value&…'`` or
``+ '?' + new URLSearchParams({…})`` (the form the ``argument`` setup's starter, ``'<url>'``, leaves).
An endpoint's URL literal leaves out the URLs that the judge resolves to a better-ranked path
(:attr:`Endpoint.shadowed_by`: ``.../values/A1:B2:clear`` is ``{range}:clear``'s, not ``{range}``'s,
spelled ``%3Aclear`` or not), so the method and arguments that follow a URL, the starter's included,
are those of an endpoint of the path the judge resolves it to. The options: an object with ``method`` (the endpoint's method in upper
case, or in lower case where fetch normalises it: :data:`NORMALISED_METHODS`; required unless it is GET), ``headers`` (the endpoint's header parameters and credentials)
and, for an endpoint with a request body, ``body``: ``JSON.stringify(…)`` or
``new URLSearchParams(…)`` of the body's schema (or a variable; a FormData is not expressed: it is
built in statements, which the extractor cuts a call at); required when the endpoint needs a
method, a header or a body (a body none of whose properties is required may be left out). Options: ``references=False`` (literal values only), ``compact=True``
(little whitespace). No lexeme contains what the extractor cuts a call at (:data:`CUT_MARKERS`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from wapii_core.api import Setup
from wapii_core.kits.grammar import (
    Api, Bool, COMPACT_WHITESPACE, Constraint, Endpoint, Entry, FREE_WHITESPACE, Int, LarkWriter, Null, Num, Obj,
    OneOf, PATH_ESCAPE, Prop, SpecIndex, Str, UrlTrie, VType, ValueRules, WS, adapter_constraint, alternatives,
    escape, literal, load_api, unshadowed,
)
from wapii_core.kits.node import (
    EXPRESSION, JavaScript, JavaScriptUrl, QUOTES, js_escape, judged_text, path_value, url_forms,
)

from .extract import CUT_OFFS

VERSION = 10
NORMALISED_METHODS = frozenset({"delete", "get", "head", "options", "post", "put"})
"""The methods fetch upper-cases as the Fetch standard says; any other (``'patch'``) is sent as written,
which no server takes for PATCH, so the grammar offers it in upper case alone."""
"""Bumped whenever the grammar written for a spec changes (cached grammars are then rebuilt)."""
ANCHOR = "fetch("
_TERMINATOR = '(";" | ".then(" | ".catch(" | ".finally(")'
CUT_MARKERS = "|".join(escape(marker) for marker, _ in CUT_OFFS)
"""What ends a call for the extractor (the first ``;``, ``.then``, … even inside a string): no value,
URL or variable may contain one, or the call would be cut short."""


CUT_WORDS = ("then", "catch", "finally")
"""What the extractor cuts a call at after a dot (``.then`` …): a URL literal's values may not hold it."""
_ESCAPED_ASCII = "%[0-7][0-9A-Fa-f]"


def _class(chars: set[str]) -> str:
    return "[" + "".join(escape(c) if c.isalnum() else f"\\x{ord(c):02x}" for c in sorted(chars)) + "]"


def _text_without_cuts(allowed: set[str], nonempty: bool, extra: str | None = None, path: bool = False) -> str:
    """A regex for text over ``allowed`` (``%``-escapes of ASCII and ``extra`` units too) that holds
    neither ``;``, a backtick nor a newline (never in ``allowed``) nor :data:`CUT_WORDS` after a dot:
    what the extractor would cut a call at. A plain regex, unlike an excluded one (``& ~…``): the URL
    literals are one lexeme each, too many for llguidance's lexer to build complements of.
    ``path``: a path value, whose escapes are only :data:`PATH_ESCAPE` and which is not ``.`` or
    ``..`` (what the judge or a URL parser reads as structure: :func:`wapii_core.kits.grammar.path_text`)."""
    chars = allowed - {".", ";", "`", "\n", "\r"}
    unit = [_class(chars), PATH_ESCAPE if path else _ESCAPED_ASCII] + ([extra] if extra else [])
    prefixes = sorted({word[:k] for word in CUT_WORDS for k in range(len(word))})
    bare = "\\.(?:" + "|".join(escape(p) for p in prefixes if p) + ")?"
    starts = {word[0] for word in CUT_WORDS}
    deviations = [_class(chars - starts)] + [escape(word[:k]) + _class(chars - {word[k]})
                                              for word in CUT_WORDS for k in range(1, len(word))]
    dotted = "\\.(?:" + "|".join(deviations) + ")"
    single = f"(?:{'|'.join(unit)}|(?:{bare})*{dotted})"
    if nonempty and path:  # only dots and cut-word prefixes after them: not "." or ".."
        suffixed = "\\.(?:" + "|".join(escape(p) for p in prefixes if p) + ")"
        return f"(?:{single}+(?:{bare})*|(?:{bare})*{suffixed}(?:{bare})*|\\.{{3,}})"
    if nonempty:
        return f"(?:{single}+(?:{bare})*|(?:{bare})+)"
    return f"(?:{single}*(?:{bare})*)"


def _visible(banned: str) -> set[str]:
    return {chr(c) for c in range(0x21, 0x7F)} - set(banned)


@lru_cache(maxsize=None)
def _query_value(quote: str) -> str:
    """A query value written into a URL string delimited by ``quote`` (may be empty)."""
    return _text_without_cuts(_visible("&#%\\" + quote + ("$" if quote == "`" else "")), nonempty=False)


@lru_cache(maxsize=None)
def _path_text(quote: str, references: bool) -> str:
    """A string path parameter's value written into a URL string delimited by ``quote``
    (``references``: a template literal may interpolate ``${expression}``)."""
    interpolation = "\\$\\{" + EXPRESSION + "\\}" if references and quote == "`" else None
    return _text_without_cuts(_visible("/?&#%\\" + quote + ("$" if quote == "`" else "")), True, interpolation, path=True)


def _header_type(kind: VType) -> VType:
    """``kind`` for a header value fetch accepts: text of Latin-1 characters only (a WebIDL
    ByteString: fetch rejects anything else), so every free string is a header string (printable ASCII)."""
    if isinstance(kind, OneOf):
        return OneOf(tuple(_header_type(option) for option in kind.options))
    if isinstance(kind, (Int, Num, Bool, Null)) or isinstance(kind, Str) and kind.enum is not None:
        return kind
    return Str(header=True)


class _FetchUrl:
    """A URL string literal for fetch (:class:`~wapii_core.api.UrlSyntax`) in one quote, closed by it
    or (``opened``) ending in the ``?`` that starts a query."""

    def __init__(self, grammar: FetchGrammar, quote: str, opened: bool) -> None:
        self.grammar = grammar
        self.quote = quote
        self.opened = opened
        self.forms = ((quote, opened),)

    def opening(self, form: object) -> str:
        return escape(self.quote)

    def static(self, text: str, form: object) -> str:
        return escape(js_escape(text, self.quote))

    def value(self, kind: VType, form: object) -> str:
        return self.grammar._path_value(kind, self.quote)

    def closing(self, form: object) -> str:
        return "\\?" if self.opened else escape(self.quote)

    def judged(self, template: str, form: object) -> str:
        return judged_text(template, self.quote)


class FetchGrammar:
    """Writes the grammar of one API's fetch calls."""

    def __init__(self, api: Api, references: bool = True, compact: bool = False) -> None:
        self.api = api
        self.references = references
        self.js = JavaScript(references)
        self.w = LarkWriter(COMPACT_WHITESPACE if compact else FREE_WHITESPACE, forbidden=CUT_MARKERS)
        self.values = ValueRules(self.w, self.js)
        self.appended: dict[tuple[str, str], str] = {}
        """Per endpoint, the rule for a query appended to the closed URL literal (``+ '?…'``)."""

    def _or_reference(self, body: str) -> str:
        return f"{body} | {self.values.reference()}" if self.references else body

    def _path_value(self, kind: VType, quote: str) -> str:
        if isinstance(kind, Str) and kind.enum is None or not isinstance(kind, (Int, Num, Str)):
            return _path_text(quote, self.references)
        return path_value(kind, quote, self.references)

    def _pairs(self, endpoint: Endpoint, quote: str) -> str:
        """A regex for ``name=value(&name=value)*`` of the endpoint's query parameters, inside a
        ``quote`` literal."""
        names = "|".join(escape(js_escape(a.name, quote)) for a in endpoint.query)
        pair = f"(?:{names})={_query_value(quote)}"
        return f"{pair}(?:&{pair})*"

    def _queries(self, endpoint: Endpoint, after: str) -> tuple[str, dict[str, str]]:
        """What may follow ``endpoint``'s closed URL literal (an appended query, then ``after``), and per
        quote what may follow the literal's ``?`` (its query string, or the closing quote and
        ``+ new URLSearchParams({...})`` of the query parameters)."""
        params = self.values.rule(Obj(tuple(Prop(a.name, a.type, False) for a in endpoint.query)))
        built = f'"new URLSearchParams(" {WS}? {params} {WS}? ")"'
        question = self.w.shared_terminal("|".join(f"{q}\\?{q}" for q in QUOTES), "QMARK")
        queries = self.w.shared_terminal("|".join(f"{q}\\?{self._pairs(endpoint, q)}{q}" for q in QUOTES), "QUERY")
        appended = f'{WS}? "+" {WS}? ({queries} | {question} {WS}? "+" {WS}? {built})'
        self.appended[(endpoint.template, endpoint.method)] = appended
        closed = f"({appended})? {after}"
        opened = {}
        for quote in QUOTES:
            rest = self.w.shared_terminal(self._pairs(endpoint, quote) + escape(quote), "QREST")
            body = f'{rest} {closed} | {literal(quote)} {WS}? "+" {WS}? {built} {after}'
            opened[quote] = self.w.shared(("opened", body), "opened", lambda _, body=body: body)
        return self.w.shared(("closed", closed), "closed", lambda _: closed), opened

    def _body(self, endpoint: Endpoint) -> str:
        value = self.values.rule(endpoint.body)
        return self.w.shared(("body", value), "body", lambda _: self._or_reference(
            f'"JSON.stringify(" {WS}? {value} {WS}? ")" | "new URLSearchParams(" {WS}? {value} {WS}? ")"'))

    def _options(self, endpoint: Endpoint) -> tuple[str, bool]:
        """The options rule of ``endpoint`` and whether the options are required."""
        method = endpoint.method.lower()
        spellings = (method.upper(), method) if method in NORMALISED_METHODS else (method.upper(),)
        method_value = self.w.shared_terminal(self.js.string_of(spellings), "METHOD")
        entries = [Entry(self.values.key("method"), method_value, method != "get")]
        if endpoint.headers:
            headers = Obj(tuple(Prop(a.name, _header_type(a.type), a.required) for a in endpoint.headers))
            entries.append(Entry(self.values.key("headers"), self.values.rule(headers), endpoint.required_headers))
        if endpoint.body is not None and method not in ("get", "head"):
            # a required body none of whose properties is required may be left out (fetch sends none)
            needed = endpoint.body_required and not (isinstance(endpoint.body, Obj)
                                                     and not any(p.required for p in endpoint.body.props))
            entries.append(Entry(self.values.key("body"), self._body(endpoint), needed))
        inner = self.w.members(entries)
        rule = self.w.shared(("options", inner), "options", lambda _: self._or_reference(f'"{{" {WS}? {inner} {WS}? "}}"'))
        return rule, any(entry.required for entry in entries)

    def _after_url(self, endpoint: Endpoint) -> str:
        options, required = self._options(endpoint)
        tail = self.w.shared("tail", "tail", lambda _: f'")" {WS}? {_TERMINATOR}')
        close = self.w.shared("close", "close", lambda _: f'{WS}? ("," {WS}?)? {tail}')
        after = f'{WS}? "," {WS}? {options} {close}' + ("" if required else f" | {close}")
        return self.w.shared(("after", after), "after", lambda _: after)

    def call(self) -> str:
        """The rule for ``url[, options])`` + terminator, over every endpoint of the API: per quote,
        the URL literals as a trie over path segments (:class:`~wapii_core.kits.grammar.UrlTrie`, the URLs the
        judge resolves to a better-ranked path left out of each endpoint's branch), once closed and
        once ending in ``?``; records ("", closed URL literal regex, rule for what follows it) per
        endpoint in :attr:`endpoints` (what a completion after the ``argument`` starter ``fetch('<url>'``
        may hold)."""
        closed: list[tuple[Endpoint, str]] = []
        opened: dict[str, list[tuple[Endpoint, str]]] = {quote: [] for quote in QUOTES}
        self.endpoints: list[tuple[str, str, str]] = []
        urls = JavaScriptUrl(self.references)  # the closed literal in any quote: what a starter holds
        for endpoint in self.api.endpoints:
            after = self._after_url(endpoint)
            rest = after
            if endpoint.query:
                rest, queries = self._queries(endpoint, after)
                for quote, rule in queries.items():
                    opened[quote].append((endpoint, rule))
            closed.append((endpoint, rest))
            literals = "|".join(url_forms(self.api.server, endpoint, escape, self._path_value, ""))
            self.endpoints.append(("", unshadowed(literals, self.api.server, endpoint, urls), rest))
        tries = [UrlTrie(self.w, self.api.server, _FetchUrl(self, quote, False), exclude_shadowed=True).rule(closed)
                 for quote in QUOTES]
        tries += [UrlTrie(self.w, self.api.server, _FetchUrl(self, quote, True), exclude_shadowed=True).rule(leaves)
                  for quote, leaves in opened.items() if leaves]
        return self.w.define("call", alternatives(tries))

    def text(self, setup: Setup) -> str:
        return self.w.text(self.call(), free_until=ANCHOR if setup is Setup.imports else None)


def build_constraint(index: SpecIndex, setup: Setup, references: bool = True, compact: bool = False) -> Constraint:
    """The constraint for one spec and setup (not cached: see :func:`constraint`)."""
    api = load_api(index)
    grammar = FetchGrammar(api, references, compact)
    return Constraint(grammar.text(setup), ANCHOR, "fetch_js", api.notes, tuple(grammar.endpoints))


def constraint(spec: Path | str | SpecIndex, setup: Setup, *, references: bool = True,
               compact: bool = False) -> Constraint:
    """The constraint for one spec and setup, cached per spec sha256 (see ``wapii_core.kits.grammar.adapter_constraint``).

    ``references=False`` leaves variables out: every value is a literal (the benchmark runs the
    call on its own, so a variable can only fail there). ``compact``: little whitespace between lexemes.
    """
    return adapter_constraint("fetch_js", VERSION, spec, setup, build_constraint, references=references,
                              compact=compact)
