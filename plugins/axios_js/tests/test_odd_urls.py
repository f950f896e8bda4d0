"""A URL that is not a string: judged as the text axios's mock gave it where that text follows from
the value's data, refused where the program's own code would decide it (real Node, real axios)."""

from __future__ import annotations

import pytest

BASE = "https://api.example.com/items"


@pytest.mark.parametrize(("url", "text"), [
    ("{ method: 'DELETE', headers: { 'X-A': '1' } }", "[object Object]"),
    ("Object.create(null)", "[object Object]"),  # axios copies a null-prototype object into a plain one
    (f"['{BASE}', 'x']", f"{BASE},x"),
    (f"[['{BASE}'], null, undefined, 7]", f"{BASE},,,7"),
    (f"new String('{BASE}')", BASE),
    ("12345", "12345"),
    ("null", "null"),
    ("undefined", "undefined"),
    ("true", "true"),
    ("{ [Symbol.toStringTag]: 'Tag' }", "[object Tag]"),
    ("{ valueOf() { return 'never read' } }", "[object Object]"),  # toString comes first
    ("new Date(0)", "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"),
    # axios copies a list (and a plain object) once, with slice (merge): what its traps answered then is sent
    (f"(() => {{ let n = 0; const a = ['x']; Object.defineProperty(a, '0', {{ get: () => (n++ ? 'later' : '{BASE}') }}); "
     "return a })()", BASE),
    (f"(() => {{ let n = 0; return new Proxy(['x'], {{ get: (t, k) => k === '0' ? (n++ ? 'later' : '{BASE}') : t[k] }}) }})()", BASE),
])
def test_a_url_axios_accepts_is_judged_as_its_text(run_one, url: str, text: str) -> None:
    capture = run_one(f"axios.get({url});\n")
    assert capture.error is None, capture
    assert capture.request["url"] == text


@pytest.mark.parametrize(("url", "reason"), [
    (f"{{ toString() {{ return '{BASE}' }} }}", "the program's own toString gives the text of url"),
    (f"{{ [Symbol.toPrimitive]() {{ return '{BASE}' }} }}", "the program's own Symbol.toPrimitive gives the text of url"),
    ("(() => { let n = 0; return { get [Symbol.toStringTag]() { n += 1; return n > 2 ? 'x' : 'y' } } })()",
     "a getter at url[Symbol.toStringTag]"),
    ("new Proxy(function () {}, {})", "a Proxy at url"),
    (f"[new Proxy({{}}, {{}})]", "a Proxy at url[0]"),
    (f"(() => {{ Object.prototype.toString = () => '{BASE}'; return {{}} }})()",
     "the program's own toString gives the text of url"),
    (f"(() => {{ Array.prototype.join = () => '{BASE}'; return ['x'] }})()",
     "the program's own join gives the text of url"),
    (f"(() => {{ const a = ['x']; Object.defineProperty(a, '0', {{ get: () => '{BASE}' }}); return [a] }})()",
     "a getter at url[0][0]"),
])
def test_a_url_whose_text_the_program_decides_is_a_bad_capture(run_one, url: str, reason: str) -> None:
    capture = run_one(f"axios.get({url});\n")
    assert (capture.request, capture.error, capture.detail) == (None, "runtime_error", f"bad_capture: {reason}")


@pytest.mark.parametrize(("url", "message"), [
    ("Symbol('x')", "Cannot convert a Symbol value to a string"),
    ("{ toString: null, valueOf: null }", "Cannot convert object to primitive value"),
    ("Object(Symbol('x'))", "Cannot convert a Symbol value to a string"),
])
def test_a_url_javascript_cannot_convert_is_the_runtime_error_it_was(run_one, url: str, message: str) -> None:
    capture = run_one(f"axios.get({url});\n")
    assert capture.error == "runtime_error" and message in capture.detail, capture
