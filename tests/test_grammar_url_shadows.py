"""The URL trie with ``exclude_shadowed`` (wapii_core.grammar.urls): an endpoint's branch holds exactly
its URLs less those a better-ranked template matches as the judge reads them (percent-decoded),
also where the two templates differ in more than one segment (the branch is split), in JavaScript's
and Python's literals; and every adapter's grammar refuses an endpoint's arguments after a URL the
judge resolves to another path."""

from __future__ import annotations

import itertools
import re

import pytest

from support import WAPIIBENCH, adapters_where, grammar_adapter
from wapii_core.base.model import Setup
from wapii_core.grammar import accepts
from wapii_core.grammar.endpoints import Endpoint
from wapii_core.grammar.javascript import JavaScriptUrl, url_regex as js_url_regex
from wapii_core.grammar.lark import LarkWriter, alternatives, literal
from wapii_core.grammar.types import STRING
from wapii_core.grammar.urls import UrlTrie, unshadowed
from wapii_core.pyhttp.grammar import PythonUrl, url_regex as py_url_regex

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
          ":append", "watch", "watc%68", "watch2", "{part}", "{part}:clear"]
"""Path values; ``{part}`` is a placeholder in a Python f-string (an interpolated value), text elsewhere."""


@pytest.mark.slow
@pytest.mark.parametrize("syntax, url_regex, literals", [
    (JavaScriptUrl(), js_url_regex, ["'{}'", "`{}`"]),
    (PythonUrl(), py_url_regex, ["'{}'", "f'{}'"]),
], ids=["js", "python"])
def test_each_branch_holds_its_urls_less_those_a_better_ranked_template_claims(syntax, url_regex, literals):
    """Checked against :func:`unshadowed` (the same exclusion as one regex: what
    :meth:`Constraint.for_completion` matches a starter's URL with)."""
    w = LarkWriter()
    trie = UrlTrie(w, SERVER, syntax, exclude_shadowed=True)
    leaves = [(e, w.define(f"leaf{i}", literal(f" #{i}"))) for i, e in enumerate(ENDPOINTS)]
    text = w.text(alternatives([trie.rule(leaves)]))
    checked = excluded = 0
    for i, e in enumerate(ENDPOINTS):
        names = re.findall(r"{[^{}]*}", e.template)
        for values in itertools.product(VALUES, repeat=len(names)):
            path = e.template
            for name, value in zip(names, values):
                path = path.replace(name, value, 1)
            for form in literals:
                written = form.format(SERVER + path)
                own = re.fullmatch(url_regex(SERVER, e), written) is not None
                expected = re.fullmatch(unshadowed(url_regex(SERVER, e), SERVER, e, syntax), written) is not None
                assert accepts(text, f"{written} #{i}", complete_call=False) is expected, (written, expected)
                checked += expected
                excluded += own and not expected
    assert checked > 100 and excluded > 50


SHEET_URL = re.compile(r"([fF]?)(['\"`])(https://sheets\.googleapis\.com/v4/spreadsheets/[^/'\"`]*/values/)A1"
                       r"((?:\?[^'\"`]*)?)\2")
"""The URL literal of WAPIIBench's ``PUT /values/{range}`` call (``values/A1``, a query where the call
writes one into the URL), in any quote."""
CLAIMED = ["A1:clear", "A1%3Aclear", "A1%3aclear", "A1:%63lear", "A1:append", "A1:B2:clear", "{cell}:clear"]
"""Paths after ``/values/`` that ``{range}:clear`` or ``{range}:append`` claims (``{cell}``: a placeholder,
``${cell}`` in a JavaScript template literal, ``{cell}`` in a Python f-string)."""
KEPT = ["A1", "A1:CLEAR", "A1:clearer", "A1%3AB2", "{cell}", "{cell}:B2"]
"""Paths after ``/values/`` that only ``{range}`` matches: its own."""


def _written(path: str, match: re.Match, python: bool) -> str:
    """The call's URL literal with ``path`` after ``/values/``: a placeholder makes it an f-string
    (Python) or a template literal (JavaScript)."""
    if "{cell}" not in path:
        return f"{match[2]}{match[3]}{path}{match[4]}{match[2]}"
    if python:
        return f"f{match[2]}{match[3]}{path}{match[4]}{match[2]}"
    return f"`{match[3]}{path.replace('{cell}', '${cell}')}{match[4]}`"


@pytest.mark.parametrize("name", adapters_where(constrained=True))
def test_every_adapter_refuses_an_endpoints_arguments_at_a_url_the_judge_resolves_elsewhere(name):
    """``PUT .../values/A1`` with its body and query is legal; moved to ``.../values/A1:clear`` (also
    written ``%3Aclear``, ``:%63lear``, or after an interpolated value) it would be judged as a call of
    ``{range}:clear``, which has no PUT and none of those arguments: every grammar refuses it, and
    keeps the URLs only ``{range}`` matches (matching is case-sensitive)."""
    from wapii_core.datasets.loader import load_wapiibench

    if not (WAPIIBENCH / "dataset.json").is_file():
        pytest.skip("WAPIIBench not found (set WAPII_SHARED)")
    dataset = load_wapiibench(WAPIIBENCH)
    sample = next(s for s in dataset.samples if s.id == "google_sheet_v4/6")
    with grammar_adapter(name) as adapter:
        python = adapter.capabilities.language == "python"
        constraint = adapter.constraint(dataset.specs[sample.api], Setup.full)
        starter = adapter.prompt(sample, Setup.full, dataset).starter
        region = constraint.prefix(starter) + adapter.render(sample.config, Setup.full, sample)[len(starter):]
    match = SHEET_URL.search(region)
    assert match and accepts(constraint.grammar, region), region
    for path in CLAIMED + KEPT:
        call = region[:match.start()] + _written(path, match, python) + region[match.end():]
        assert accepts(constraint.grammar, call) is (path in KEPT), call
