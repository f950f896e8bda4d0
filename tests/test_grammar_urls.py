"""The URL trie (wapii_core.grammar.urls): exactly the URLs of each endpoint's regex, then that endpoint's rule."""

from __future__ import annotations

import re

import pytest

from wapii_core.grammar import accepts
from wapii_core.grammar.endpoints import Endpoint
from wapii_core.grammar.javascript import JavaScriptUrl, url_regex as js_url_regex
from wapii_core.grammar.lark import LarkWriter, alternatives, literal
from wapii_core.pyhttp.grammar import PythonUrl, url_regex as py_url_regex
from wapii_core.grammar.types import INTEGER, STRING, Str
from wapii_core.grammar.urls import UrlTrie

SERVER = "https://api.example.com/v1"


def endpoint(method: str, template: str, **kinds) -> Endpoint:
    names = re.findall(r"{([^{}]*)}", template)
    return Endpoint(method, template, tuple((n, kinds.get(n, STRING)) for n in names), (), (), None)


ENDPOINTS = [
    endpoint("get", "/user"),
    endpoint("get", "/user/repos"),
    endpoint("post", "/user"),
    endpoint("get", "/users/{username}"),
    endpoint("get", "/repos/{owner}/{repo}"),
    endpoint("get", "/repos/{owner}/{repo}/pulls"),
    endpoint("get", "/repos/{owner}/{repo}/pulls/{number}", number=INTEGER),
    endpoint("get", "/repos/{owner}/{repo}/{ref}"),  # a value where a sibling is static
    endpoint("get", "/repos/{owner}/{repo}/issues/{id}", id=Str(("open", "closed"))),
    endpoint("get", "/files/{name}.json"),  # a value then fixed text in one segment
    endpoint("delete", "/files/{name}.json"),
    endpoint("get", "/"),
]


def grammar(syntax) -> str:
    """``<method>(`` then a URL, then `` #i`` naming the endpoint the parse went through."""
    w = LarkWriter()
    trie = UrlTrie(w, SERVER, syntax)
    by_method: dict[str, list] = {}
    for i, e in enumerate(ENDPOINTS):
        by_method.setdefault(e.method, []).append((e, w.define(f"leaf{i}", literal(f" #{i}"))))
    return w.text(alternatives([f"{literal(m + '(')} {trie.rule(leaves)}" for m, leaves in by_method.items()]))


VALUES = ["octo", "-3", "pulls", "open", "a.json", "x%2Fy", "a/b", "a'b", "${a.b()}", "{repo}", "a\\b", ""]


def urls() -> list[str]:
    """URL texts (without quotes) from every template with every value, and some that fit none."""
    out = {SERVER, SERVER + "/", SERVER + "/users", SERVER + "/repos/a", SERVER + "//user", "https://other.com/user"}
    for e in ENDPOINTS:
        for value in VALUES:
            out.add(SERVER + re.sub(r"{[^{}]*}", lambda _: value, e.template))
    return sorted(out)


@pytest.mark.parametrize("syntax, url_regex, literals", [
    (JavaScriptUrl(), js_url_regex, ["'{}'", '"{}"', "`{}`", "'{}\""]),
    (JavaScriptUrl(references=False), lambda s, e: js_url_regex(s, e, False), ["'{}'", "`{}`"]),
    (PythonUrl(), py_url_regex, ["'{}'", '"{}"', "f'{}'", 'F"{}"', "f'{}\""]),
    (PythonUrl(references=False), lambda s, e: py_url_regex(s, e, False), ["'{}'", "f'{}'"]),
], ids=["js", "js-literal", "python", "python-literal"])
@pytest.mark.slow
def test_the_trie_allows_exactly_each_endpoints_urls_and_continues_with_that_endpoint(syntax, url_regex, literals):
    text = grammar(syntax)
    checked = 0
    for url in urls():
        for shape in literals:
            written = shape.replace("{}", url)
            for i, e in enumerate(ENDPOINTS):
                expected = re.fullmatch(url_regex(SERVER, e), written) is not None
                call = f"{e.method}({written} #{i}"
                assert accepts(text, call, complete_call=False) is expected, (call, expected)
                checked += expected
    assert checked > 40  # the cases above do reach the endpoints


def test_equal_subtrees_share_rules_and_a_method_has_one_trie():
    text = grammar(JavaScriptUrl())
    # one lexeme per distinct segment, not one per template: "repos/" (whatever the quote), and
    # "repos" closing /user/repos in each of the three quotes
    assert text.count("repos") == 4
    assert re.search(r'^start: "get\(" urls\d+ \| "post\(" urls\d+ \| "delete\(" urls\d+$', text, re.M)
