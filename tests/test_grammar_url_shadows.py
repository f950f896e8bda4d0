"""The URL trie with ``exclude_shadowed`` (wapii_core.grammar.urls): an endpoint's branch holds exactly
its URLs less those a better-ranked template matches as the judge reads them (percent-decoded),
also where the two templates differ in more than one segment (the branch is split)."""

from __future__ import annotations

import itertools
import re

import pytest

from wapii_core.grammar import accepts
from wapii_core.grammar.endpoints import Endpoint
from wapii_core.grammar.javascript import JavaScriptUrl, shadowed_urls, url_regex
from wapii_core.grammar.lark import LarkWriter, alternatives, literal
from wapii_core.grammar.types import STRING
from wapii_core.grammar.urls import UrlTrie

SERVER = "https://api.example.com"


def endpoint(template: str, *shadowed_by: str) -> Endpoint:
    names = re.findall(r"{([^{}]*)}", template)
    return Endpoint("get", template, tuple((n, STRING) for n in names), (), (), None, shadowed_by=shadowed_by)


ENDPOINTS = [
    endpoint("/r/{owner}/issues/{number}/labels/{name}", "/r/{owner}/issues/comments/{id}/reactions"),
    endpoint("/r/{owner}/issues/comments/{id}/reactions"),
    endpoint("/values/{range}", "/values/{range}:clear", "/values/{range}:append"),
    endpoint("/values/{range}:clear"),
    endpoint("/acl/{rule}", "/acl/watch"),
    endpoint("/acl/watch"),
    endpoint("/gone/{id}", "/gone/{other}"),  # wholly shadowed: no URL left
]
VALUES = ["a", "comments", "%63omments", "Comments", "reactions", "reaction", "x:clear", "x%3Aclear", "x%3aclear",
          ":append", "watch", "watc%68", "watch2"]


@pytest.mark.slow
def test_each_branch_holds_its_urls_less_those_a_better_ranked_template_claims():
    w = LarkWriter()
    trie = UrlTrie(w, SERVER, JavaScriptUrl(), exclude_shadowed=True)
    leaves = [(e, w.define(f"leaf{i}", literal(f" #{i}"))) for i, e in enumerate(ENDPOINTS)]
    text = w.text(alternatives([trie.rule(leaves)]))
    checked = excluded = 0
    for i, e in enumerate(ENDPOINTS):
        names = re.findall(r"{[^{}]*}", e.template)
        for values in itertools.product(VALUES, repeat=len(names)):
            path = e.template
            for name, value in zip(names, values):
                path = path.replace(name, value, 1)
            for quote in ("'", "`"):
                written = f"{quote}{SERVER}{path}{quote}"
                shadowed = bool(e.shadowed_by) and re.fullmatch(shadowed_urls(SERVER, e.shadowed_by, quote), written)
                expected = re.fullmatch(url_regex(SERVER, e), written) is not None and not shadowed
                assert accepts(text, f"{written} #{i}", complete_call=False) is expected, (written, expected)
                checked += expected
                excluded += bool(shadowed)
    assert checked > 100 and excluded > 50
