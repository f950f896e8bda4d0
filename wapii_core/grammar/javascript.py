"""JavaScript literals in grammars: the dialect of :class:`~wapii_core.grammar.values.ValueRules`
for JavaScript adapters, and the URL string literal of an endpoint (path parameters typed, or
``${…}`` in a template literal), in any of JavaScript's three quotes."""

from __future__ import annotations

import re
from typing import Callable

from wapii_core.grammar.endpoints import Endpoint
from wapii_core.grammar.lark import escape
from wapii_core.grammar.types import Int, Num, Str, VType
from wapii_core.grammar.urls import judged_literal_text
from wapii_core.grammar.values import Dialect, header_literal, path_text

QUOTES = ("'", '"', "`")
IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
PLACEHOLDER = re.compile(r"{[^{}]*}")
EXPRESSION = r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\(\))*"
ESCAPE = r"\\(?:x[0-9a-fA-F]{2}|u(?:[0-9a-cA-Ce-fE-F][0-9a-fA-F]{3}|[dD][0-7][0-9a-fA-F]{2})|[^0-9xu])"
"""An escape sequence every JavaScript mode accepts and that holds no lone surrogate (which
``encodeURIComponent`` refuses): no octal escapes, ``\\x`` and ``\\u`` with all their digits."""
TEMPLATE = r"`(?:[^`\\$]|" + ESCAPE + r"|\$+(?:[^`\\${]|" + ESCAPE + r"))*\$*`"
"""A template literal without placeholders."""
TEMPLATE_WITH_PLACEHOLDERS = (r"`(?:[^`\\$]|" + ESCAPE + r"|\$+(?:\{" + EXPRESSION + r"\}|[^`\\${]|" + ESCAPE
                              + r"))*\$*`")
"""A template literal whose placeholders are references (``${expression}``: arbitrary text
there would be code, and a syntax error)."""


def js_escape(text: str, quote: str) -> str:
    """``text`` as it is written inside a JavaScript string literal delimited by ``quote``."""
    out = text.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n").replace("\r", "\\r")
    return out.replace("${", "\\${") if quote == "`" else out


class JavaScript(Dialect):
    """JavaScript literals: three kinds of strings, bare or quoted keys, and (``references``)
    variables, attributes and calls without arguments as values."""

    quoted = r"'(?:[^'\\\n\r]|" + ESCAPE + r")*'|\"(?:[^\"\\\n\r]|" + ESCAPE + r")*\""
    reference = EXPRESSION
    true, false, null = "true", "false", "null"
    keywords = ("true", "false", "null")

    def __init__(self, references: bool = True) -> None:
        self.reference = EXPRESSION if references else None
        self.string = self.quoted + "|" + (TEMPLATE_WITH_PLACEHOLDERS if references else TEMPLATE)
        literals = [header_literal("'"), header_literal('"'), header_literal("`", "$")]
        # with references, a header may be a template with placeholders (`Bearer ${token}`)
        self.header_string = "|".join(literals + ([TEMPLATE_WITH_PLACEHOLDERS] if references else []))

    def key(self, name: str) -> str:
        quoted = [q + escape(js_escape(name, q)) + q for q in ("'", '"')]
        forms = ([escape(name)] if IDENTIFIER.match(name) else []) + quoted
        return "|".join(forms)

    def any_key(self) -> str:
        return r"[A-Za-z_$][\w$]*|'(?:[^'\\\n\r]|" + ESCAPE + r")*'|\"(?:[^\"\\\n\r]|" + ESCAPE + r")*\"|[0-9]+"

    def string_of(self, values: tuple[str, ...]) -> str:
        return "|".join(q + "(?:" + "|".join(escape(js_escape(v, q)) for v in values) + ")" + q for q in QUOTES)


def path_value(kind: VType, quote: str, references: bool) -> str:
    """A regex for one path parameter's value inside a URL string delimited by ``quote``
    (``references``: a template literal may interpolate ``${expression}``)."""
    interpolation = r"\$\{" + EXPRESSION + r"\}" if references else None
    if isinstance(kind, Int) and kind.enum is None:
        typed = r"-?[0-9]+"
    elif isinstance(kind, Int):
        typed = "|".join(str(v) for v in kind.enum)
    elif isinstance(kind, Num):
        typed = JavaScript.number
    elif isinstance(kind, Str) and kind.enum is not None:
        typed = "|".join(escape(js_escape(v, quote)) for v in kind.enum)
    else:  # strings, and what a URL cannot hold structurally (written as text)
        templated = quote == "`" and interpolation is not None
        return path_text("`$" if quote == "`" else quote, interpolation if templated else None)
    return f"(?:{typed}|{interpolation})" if quote == "`" and interpolation else f"(?:{typed})"


def url_forms(server: str, endpoint: Endpoint, static: Callable[[str], str], value: Callable[[VType, str], str],
               join: str, before_close: Callable[[str], str] | None = None) -> list[str]:
    """The URL string literal of ``endpoint`` in each quote: ``static`` writes a fixed part (quotes
    included), ``value`` a path parameter's value (its type, the quote); pieces joined by ``join``.
    ``before_close(quote)``, when given, is a piece put before the closing quote (which is then a
    piece of its own), e.g. a query string."""
    kinds = dict(endpoint.path_params)
    parts = PLACEHOLDER.split(endpoint.template)
    names = [m[1:-1] for m in PLACEHOLDER.findall(endpoint.template)]
    forms = []
    for quote in QUOTES:
        texts = [js_escape(part, quote) for part in [server + parts[0], *parts[1:]]]
        texts[0] = quote + texts[0]
        if before_close is None:
            texts[-1] = texts[-1] + quote  # the last part may be the first
        pieces = [static(texts[0])]
        for name, text in zip(names, texts[1:]):
            pieces += [value(kinds.get(name, Str()), quote), static(text) if text else ""]
        if before_close is not None:
            pieces += [before_close(quote), static(quote)]
        forms.append(join.join(piece for piece in pieces if piece))
    return forms


def shadowed_urls(server: str, templates: tuple[str, ...], quote: str) -> str:
    """A regex for the URL string literals delimited by ``quote`` (server, path, optional query
    after a ``?``) whose path, as the judge reads it (percent-decoded, the server stripped), one of
    ``templates`` matches: each placeholder one or more characters other than ``/``, ``?`` and
    ``&``, a ``.`` outside placeholders any character (reference mode; strict mode matches less),
    every other character itself. For :attr:`Endpoint.shadowed_by`: the URLs a grammar must not
    accept for an endpoint because the judge resolves them to a better-ranked path."""
    paths = [judged_text(template, quote) for template in templates]
    return (escape(quote + js_escape(server, quote)) + "(?:" + "|".join(paths) + r")(?s:\?.*)?" + escape(quote))


def judged_text(template: str, quote: str) -> str:
    """A regex for text inside a URL string literal delimited by ``quote`` that the judge, reading
    it percent-decoded, matches with ``template`` (a path or a part of one): each placeholder one or
    more characters other than ``/``, ``?`` and ``&``, a ``.`` outside placeholders any character
    (reference mode), every other character itself (:func:`~wapii_core.grammar.urls.judged_literal_text`)."""
    return judged_literal_text(template, quote, lambda text: js_escape(text, quote))


def url_regex(server: str, endpoint: Endpoint, references: bool = True) -> str:
    """One regex for the URL string literal of ``endpoint``, in any of the three quotes."""
    return "|".join(url_forms(server, endpoint, escape, lambda kind, quote: path_value(kind, quote, references), ""))


class JavaScriptUrl:
    """A URL string literal in JavaScript (:class:`~wapii_core.grammar.urls.UrlSyntax`): any of the
    three quotes, path values typed or (``references``) ``${…}`` in a template literal."""

    forms = QUOTES

    def __init__(self, references: bool = True) -> None:
        self.references = references

    def opening(self, form: str) -> str:
        return escape(form)

    def static(self, text: str, form: str) -> str:
        return escape(js_escape(text, form))

    def value(self, kind: VType, form: str) -> str:
        return path_value(kind, form, self.references)

    def closing(self, form: str) -> str:
        return escape(form)

    def judged(self, template: str, form: str) -> str:
        return judged_text(template, form)
