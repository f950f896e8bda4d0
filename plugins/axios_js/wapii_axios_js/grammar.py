"""The grammar of a legal axios call for one API: ``axios.<method>(url[, data][, config])``.

Built on :mod:`wapii_core.grammar` from the spec's endpoints. The constrained region starts just
after ``axios.`` and ends with the call's terminator (``;``, ``.then(``, ``.catch(`` or
``.finally(`` after the closing parenthesis, as the reference's rules did); the grammar then
allows only the end token. Per setup:

- ``full``: method, URL and arguments; the ``argument`` setup uses the same grammar, with the
  starter's ``<method>('<url>',`` fed to it first (:meth:`Constraint.prefix`);
- ``import``: any text up to the first ``axios.``, then the call.

The call: the method as function name, then the URL as one string literal (any quote; path
parameters typed, or ``${…}`` in a template literal; no query string: query parameters go in
``params``; a URL the judge resolves to a better-ranked path, :attr:`Endpoint.shadowed_by`, is left
out of the endpoints it shadows: ``.../values/A1:clear`` takes ``{range}:clear``'s POST, never
``{range}``'s PUT); ``post``/``put``/``patch`` take the body next (an object of the schema's properties;
``{}``, ``null`` or ``undefined`` where the operation has no body; ``null`` or ``undefined`` where
it is optional; or a variable), every method then an optional config object with ``headers`` and
``params`` (and ``data`` for a body on the other methods). A config is required when it must carry
a required parameter or credential, and may not be ``{}`` for an endpoint that declares no
parameters at all (the reference's rule). Options: ``references=False`` (literal values only),
``compact=True`` (little whitespace). No lexeme contains what the extractor cuts a call at
(:data:`CUT_MARKERS`: ``;``, ``.then``, a newline before ``axios.`` …). :meth:`~wapii_core.grammar.Constraint.for_completion` gives a
grammar that starts where a completion starts, for servers that cannot be fed the starter.
"""

from __future__ import annotations

from pathlib import Path

from wapii_core.api import Setup
from wapii_core.kits.grammar import (
    Api, COMPACT_WHITESPACE, Constraint, Endpoint, Entry, FREE_WHITESPACE, LarkWriter, Obj, Prop, SpecIndex, UrlTrie,
    ValueRules, WS, adapter_constraint, alternatives, as_header, escape, literal, load_api, unshadowed,
)
from wapii_core.kits.node import JavaScript, JavaScriptUrl, url_regex

from .extract import CUT_OFFS

VERSION = 16
"""Bumped whenever the grammar written for a spec changes (cached grammars are then rebuilt)."""
ANCHOR = "axios."
BODY_METHODS = ("post", "put", "patch")
_TERMINATOR = '(";" | ".then(" | ".catch(" | ".finally(")'
CUT_MARKERS = "|".join(escape(marker) for marker, _ in CUT_OFFS)
"""What ends a call for the extractor (the reference's rules cut at the first ``;``, ``.then``, …
even inside a string): no value, URL or variable may contain one, or the call would be cut short."""


class AxiosGrammar:
    """Writes the grammar of one API's calls."""

    def __init__(self, api: Api, references: bool = True, compact: bool = False) -> None:
        self.api = api
        self.references = references
        self.w = LarkWriter(COMPACT_WHITESPACE if compact else FREE_WHITESPACE, forbidden=CUT_MARKERS)
        self.values = ValueRules(self.w, JavaScript(references))

    def _or_reference(self, body: str) -> str:
        return f"{body} | {self.values.reference()}" if self.references else body

    def _config(self, endpoint: Endpoint) -> tuple[str, bool]:
        """The config rule of ``endpoint`` and whether the config is required."""
        entries = []
        if endpoint.headers:
            headers = Obj(tuple(Prop(a.name, as_header(a.type), a.required) for a in endpoint.headers))
            entries.append(Entry(self.values.key("headers"), self.values.rule(headers), endpoint.required_headers))
        if endpoint.query:
            params = Obj(tuple(Prop(a.name, a.type, a.required) for a in endpoint.query))
            entries.append(Entry(self.values.key("params"), self.values.rule(params), endpoint.required_query))
        if endpoint.body is not None and endpoint.method not in BODY_METHODS:
            entries.append(Entry(self.values.key("data"), self.values.rule(endpoint.body), endpoint.body_required))
        declared = any(a.name not in ("Accept", "Content-Type") for a in endpoint.headers) or bool(endpoint.query)
        inner = self.w.members(entries, nonempty=not declared)
        rule = self.w.shared(("config", inner), "config",
                             lambda _: self._or_reference(f'"{{" {WS}? {inner} {WS}? "}}"'))
        return rule, any(e.required for e in entries)

    def _data(self, endpoint: Endpoint) -> str:
        if endpoint.body is None:
            return self.w.shared("no-body", "nobody",
                                 lambda _: self._or_reference(f'"{{" {WS}? "}}" | "null" | "undefined"'))
        rule = self.values.rule(endpoint.body)
        if endpoint.body_required:
            return rule
        return self.w.shared(("optional-body", rule), "body", lambda _: f'{rule} | "null" | "undefined"')

    def _after_url(self, endpoint: Endpoint) -> tuple[str, str]:
        """Rules for what follows the URL literal (the arguments, ``)``, the terminator): all of it,
        and what follows the comma after the URL (where the argument setup's starter ends)."""
        config, config_required = self._config(endpoint)
        tail = self.w.shared("tail", "tail", lambda _: f'")" {WS}? {_TERMINATOR}')
        close = self.w.shared("close", "close", lambda _: f'{WS}? ("," {WS}?)? {tail}')
        with_config = f'{WS}? "," {WS}? {config}'
        if endpoint.method in BODY_METHODS:
            rest = f"{self._data(endpoint)} " + (with_config if config_required else f"({with_config})?") + f" {close}"
        else:
            rest = f"{config} {close}" + ("" if config_required else f" | {tail}")
        rest_rule = self.w.shared(("rest", rest), "rest", lambda _: rest)
        optional = endpoint.method not in BODY_METHODS and not config_required
        after = f'{WS}? "," {WS}? {rest_rule}' + (f" | {WS}? {tail}" if optional else "")
        return self.w.shared(("after", after), "after", lambda _: after), rest_rule

    def call(self) -> str:
        """The rule for ``<method>(url, …)`` + terminator, over every endpoint of the API (the URLs
        of each method a trie over path segments: :class:`~wapii_core.grammar.urls.UrlTrie`);
        records (method, URL regex, rest rule) per endpoint in :attr:`endpoints`."""
        by_method: dict[str, list[tuple[Endpoint, str]]] = {}
        self.endpoints: list[tuple[str, str, str]] = []
        syntax = JavaScriptUrl(self.references)
        for endpoint in self.api.endpoints:
            after, rest = self._after_url(endpoint)
            by_method.setdefault(endpoint.method, []).append((endpoint, after))
            literals = unshadowed(url_regex(self.api.server, endpoint, self.references), self.api.server, endpoint, syntax)
            self.endpoints.append((endpoint.method, literals, rest))
        urls = UrlTrie(self.w, self.api.server, syntax, exclude_shadowed=True)
        methods = [f'{literal(m + "(")} {WS}? {urls.rule(leaves)}' for m, leaves in by_method.items()]
        return self.w.define("call", alternatives(methods))

    def text(self, setup: Setup) -> str:
        return self.w.text(self.call(), free_until=ANCHOR if setup is Setup.imports else None)


def build_constraint(index: SpecIndex, setup: Setup, references: bool = True, compact: bool = False) -> Constraint:
    """The constraint for one spec and setup (not cached: see :func:`constraint`)."""
    api = load_api(index)
    grammar = AxiosGrammar(api, references, compact)
    return Constraint(grammar.text(setup), ANCHOR, "axios_js", api.notes, tuple(grammar.endpoints))


def constraint(spec: Path | str | SpecIndex, setup: Setup, *, references: bool = True,
               compact: bool = False) -> Constraint:
    """The constraint for one spec and setup, cached per spec sha256 (see :func:`wapii_core.kits.grammar.adapter_constraint`).

    ``references=False`` leaves variables out: every value is a literal. The benchmark runs the
    call on its own (what precedes ``axios.`` is dropped), so a variable can only fail there.
    ``compact``: little whitespace between lexemes (:data:`~wapii_core.grammar.lark.COMPACT_WHITESPACE`).
    """
    return adapter_constraint("axios_js", VERSION, spec, setup, build_constraint, references=references,
                              compact=compact)
