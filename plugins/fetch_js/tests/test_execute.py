"""What fetch_js records: what Node's own fetch sends, byte for byte (real Node, real sandbox), its
errors, and nothing a program can change about the record but the request it sends."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REAL_FETCH = Path(__file__).parent / "js" / "real_fetch.js"

CALLS = [
    "fetch(BASE + '/a b/é?x=1 2&y=é&z#frag')",
    "fetch(BASE + '/p', { method: 'post', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t', 'X-Two': 'a' }, body: JSON.stringify({ a: 1, b: [true, null] }) })",
    "fetch(BASE + '/p', { method: 'PUT', body: new URLSearchParams({ a: 'b c', d: 'é', n: 5 }) })",
    "fetch(BASE + '/p?' + new URLSearchParams([['t', 'a'], ['t', 'b'], ['on', true]]), { method: 'delete', headers: [['x-a', '1'], ['X-A', '2']] })",
    "fetch(BASE + '/p', { method: 'post' })",
    "fetch(BASE + '/p', { method: 'post', body: { a: 1 } })",
    "fetch(BASE + '/p', { method: 'POST', body: new Uint8Array([0, 255, 10]) })",
    "fetch(BASE + '/p', { method: 'OPTIONS', headers: new Headers({ Accept: 'application/json', 'user-agent': 'me', 'X-Pad': ' v \\t' }) })",
    "fetch(new Request(BASE + '/r', { method: 'PUT', headers: { 'X-R': '1' }, body: 'text' }))",
    "fetch(BASE + '/p', { method: 'POST', body: (() => { const f = new FormData(); f.append('a', 'b\\nc'); f.append('n\"m', 1); return f; })() })",
    "fetch(BASE + '/p', { method: 'POST', body: (() => { const f = new FormData(); f.append('a', '1'); f.append('b', 'x\\r\\ny\\rz'); "
    "f.append('a', '2'); f.set('a', 'é\\ud800'); f.append('c', { toString: () => 'obj' }); f.delete('b'); return f; })() })",
    "fetch(BASE + '/p', { method: 'POST', body: new URLSearchParams('?b=%zz%41+c&&a=%E2%82&=v&k&é=%F0%9F%98%80') })",
    "fetch(BASE + '/p', { method: 'POST', body: (() => { const p = new URLSearchParams({ z: '1', a: 'x y', m: '~*-._!\\'()' }); "
    "p.append('a', 'second'); p.sort(); p.set('m', '\\ud800'); p.delete('z'); return p; })() })",
    "fetch(BASE + '/p', { method: 'PATCH', body: new URLSearchParams(new URLSearchParams([['a', '1'], ['b', '&=']])) })",
    "fetch(BASE + '/p', { method: 'POST', body: new URL('https://x.example/?q=1&r=a+b').searchParams })",
    "fetch(BASE + '/p', { method: 'POST', body: new (require('url').URLSearchParams)({ a: 'b c', d: 'é' }) })",
    "fetch(BASE + '/p', { referrer: '' })",
]
ERRORS = [
    ("fetch(BASE + '/p', { method: 'get', body: 'x' })", "TypeError: Request with GET/HEAD method cannot have body."),
    ("fetch(BASE + '/p', { method: 'TRACE' })", "TypeError: 'TRACE' HTTP method is unsupported."),
    ("fetch(BASE + '/p', { method: 'bad method' })", "TypeError: 'bad method' is not a valid HTTP method."),
    ("fetch('/relative')", "TypeError: Failed to parse URL from /relative"),
    ("fetch(BASE + '/p', { headers: { 'a b': 'c' } })", 'TypeError: Headers.append: "a b" is an invalid header name.'),
    ("fetch(BASE + '/p', { referrer: '::' })", 'TypeError: Referrer "::" is not a valid URL.'),
    ("fetch(new Request(BASE + '/p', { referrer: '/relative' }))", 'TypeError: Referrer "/relative" is not a valid URL.'),
    ("fetch(new Request(BASE + '/p', { referrer: 'http://[' }), { referrer: 'https://fine.example/' })",
     'TypeError: Referrer "http://[" is not a valid URL.'),
]
BOUNDARY = re.compile(r"----formdata-undici-0\d{11}")


def sent_by_real_fetch(calls: list[str]) -> list[dict]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    done = subprocess.run([node, str(REAL_FETCH)], input=json.dumps(calls), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def as_sent(request: dict) -> dict:
    """A record as a request on the wire (what the local server of ``real_fetch.js`` saw)."""
    url = re.sub(r"^https?://[^/]+", "", request["url"])
    return {"method": request["method"], "target": url, "headers": [list(pair) for pair in request["headers"]],
            "body": request.get("body", "")}


def test_the_record_is_what_nodes_own_fetch_sends(adapter) -> None:
    real = sent_by_real_fetch(CALLS)
    ours = adapter.execute([call.replace("BASE", "'https://api.example.com'") + ";" for call in CALLS])
    for call, wire, capture in zip(CALLS, real, ours):
        assert capture.error is None, (call, capture.detail)
        wire_headers = [pair for pair in wire["headers"] if pair[0].lower() not in ("host", "connection")]
        expected = {**wire, "headers": wire_headers}
        got = as_sent(capture.request)
        assert BOUNDARY.sub("B", json.dumps(got)) == BOUNDARY.sub("B", json.dumps(expected)), call


def test_fetch_refuses_what_nodes_fetch_refuses(run_one) -> None:
    real = sent_by_real_fetch([call for call, _ in ERRORS])
    for (call, message), wire in zip(ERRORS, real):
        assert wire == {"error": message}
        capture = run_one(f"{call.replace('BASE', repr('https://api.example.com'))};")
        assert (capture.error, capture.detail) == ("runtime_error", f"unhandled rejection: {message}")


def test_a_request_is_sent_after_the_call_returns(run_one) -> None:
    assert run_one("fetch('https://api.example.com/a'); process.exit(0);").error == "no_request"
    assert run_one("fetch('https://api.example.com/a').then((r) => r.json()).then((d) => { if (d === null) throw 1; });").error is None


PATCHES = {
    "String.prototype.toUpperCase": "String.prototype.toUpperCase = () => 'GET'",
    "String.prototype.toLowerCase": "String.prototype.toLowerCase = () => 'x'",
    "Array.prototype.push and [Symbol.iterator]": "Array.prototype.push = function () { return 0 }; "
                                                  "Array.prototype[Symbol.iterator] = function* () {}",
    "String.fromCharCode and charCodeAt": "String.fromCharCode = () => 'forged'; String.prototype.charCodeAt = () => 65",
    "RegExp.prototype.exec and String.prototype.replace": "RegExp.prototype.exec = () => null; "
                                                         "String.prototype.replace = () => 'https://forged.example/'",
    "JSON and Object.keys": "JSON.stringify = () => '{}'; Object.keys = () => []",
    "Promise.prototype.then": "Promise.prototype.then = function () { return this }",
    "a setter on Array.prototype[0]": "Object.defineProperty(Array.prototype, '0', { set() { Object.defineProperty(this, '0', "
                                      "{ value: { __proto__: null, name: 'X-K', lower: 'x-k', value: 'forged' } }) } })",
}
CALL = ("fetch('https://api.example.com/items?q=1', { method: 'post', headers: { 'X-K': 'v' }, "
        "body: '{\"a\":1}' });")


@pytest.mark.parametrize("patch", PATCHES.values(), ids=list(PATCHES))
def test_patched_built_ins_do_not_change_the_record(run_one, patch: str) -> None:
    plain = run_one(CALL)
    patched = run_one(f"{patch};\n{CALL}")
    assert plain.error is None and patched.error is None, patched.detail
    assert patched.request == plain.request


FORM_PATCHES = {
    "URLSearchParams and FormData methods": "for (const C of [URLSearchParams, require('url').URLSearchParams, FormData]) "
                                            "for (const k of Reflect.ownKeys(C.prototype)) if (k !== 'constructor' "
                                            "&& k !== 'toString' && k !== Symbol.iterator) "
                                            "try { C.prototype[k] = function* () { yield ['forged', '1'] } } catch (e) {}",
    "Array.prototype methods": "for (const k of ['entries', 'map', 'join', 'push', 'forEach', 'reduce', 'filter', 'slice']) "
                               "Array.prototype[k] = function () { return 'forged' }; "
                               "Array.prototype[Symbol.iterator] = function* () { yield ['forged', '1'] }",
    "String methods": "for (const k of ['replace', 'replaceAll', 'split', 'charCodeAt', 'codePointAt', 'toString', "
                      "'normalize', 'toWellFormed']) String.prototype[k] = function () { return 'forged' }; "
                      "String.prototype[Symbol.iterator] = function* () { yield 'f' }; String.fromCharCode = () => 'f'",
    "encoders": "encodeURIComponent = () => 'forged'; escape = encodeURIComponent; "
                "TextEncoder.prototype.encode = () => new Uint8Array([102])",
    "String itself": "globalThis.String = () => 'forged'",
}
FORM_BODIES = {
    "URLSearchParams": "new URLSearchParams({ a: 'b c', n: 5, 'é': '&=' })",
    "URLSearchParams from text": "new URLSearchParams('?a=b+c&%C3%A9=%26%3D')",
    "a URL's searchParams": "new URL('https://x.example/?a=b+c&%C3%A9=%26%3D').searchParams",
    "FormData": "(() => { const f = new FormData(); f.append('a', 'b\\nc'); f.append('n\"m', 'é'); return f; })()",
}
BOUNDARY_DIGITS = re.compile(r"(?<=----formdata-undici-0)\d{11}")


def test_headers_kept_by_the_hook_ignore_patched_array_methods(run_one) -> None:
    capture = run_one("fetch('https://api.example.com/h', { headers: ((h) => { Array.prototype.splice = () => []; "
                      "Array.prototype.sort = function () { return this }; h.delete('x-gone'); "
                      "if ([...h.keys()].join() !== 'a,b') throw new Error([...h.keys()].join()); return h })"
                      "(new Headers([['B', '1'], ['X-Gone', '2'], ['a', '3']])) });")
    assert capture.error is None, capture.detail
    assert [name for name, _ in capture.request["headers"]][:2] == ["B", "a"]


@pytest.mark.parametrize("body", FORM_BODIES.values(), ids=list(FORM_BODIES))
@pytest.mark.parametrize("patch", FORM_PATCHES.values(), ids=list(FORM_PATCHES))
def test_patched_built_ins_do_not_change_a_recorded_form(adapter, patch: str, body: str) -> None:
    """A form built before the program patches the built-ins its serialiser would use is recorded
    as the same bytes (what Node's fetch sends, see above) as without the patches."""
    call = f"fetch('https://api.example.com/f', {{ method: 'POST', body: ((b) => {{ {patch}; return b }})({body}) }});"
    plain, patched = adapter.execute([f"fetch('https://api.example.com/f', {{ method: 'POST', body: {body} }});", call])
    assert plain.error is None and patched.error is None, patched.detail
    assert json.loads(BOUNDARY_DIGITS.sub("0", json.dumps(patched.request))) == \
        json.loads(BOUNDARY_DIGITS.sub("0", json.dumps(plain.request)))


@pytest.mark.parametrize("body", FORM_BODIES.values(), ids=list(FORM_BODIES))
@pytest.mark.parametrize("where", ["the body", "its class"])
def test_a_form_whose_serialiser_the_program_replaced_is_a_bad_capture(run_one, body: str, where: str) -> None:
    """fetch sends ``body.toString()`` of a URLSearchParams and what iterating a FormData yields:
    one whose method the program replaced sends what that returns, which a record written from the
    form's entries would not show (a form holding the expected entries, sending others)."""
    method = "Symbol.iterator" if "FormData" in body else "'toString'"
    target = "b" if where == "the body" else "Object.getPrototypeOf(b)"
    replace = f"{target}[{method}] = function* () {{ yield ['sent', 'other'] }}"
    capture = run_one(f"fetch('https://api.example.com/f', {{ method: 'POST', body: ((b) => {{ {replace}; return b }})"
                      f"({body}) }});")
    assert capture.error == "runtime_error" and capture.detail.startswith("bad_capture"), capture


def test_a_foreign_form_whose_entries_are_not_plain_data_is_a_bad_capture(run_one) -> None:
    """A URL's searchParams (the realm's whatwg-url) is read as the list it holds, never through
    the program's code: a list the program replaced with anything but [name, value] strings, or
    with a Proxy, is refused."""
    swap = ("const s = Object.getOwnPropertySymbols(p).find((k) => k.description === 'impl'); "
            "p[s]._list = [['a', { toString: () => 'forged' }]];")
    proxy = ("const s = Object.getOwnPropertySymbols(p).find((k) => k.description === 'impl'); "
             "p[s]._list = new Proxy([['a', '1']], { getOwnPropertyDescriptor: () => { throw new Error('trap ran') } });")
    for patch in (swap, proxy):
        capture = run_one(f"fetch('https://api.example.com/f', {{ method: 'POST', body: ((p) => {{ {patch} return p }})"
                          "(new URL('https://x.example/?a=1').searchParams) });")
        assert capture.error == "runtime_error" and capture.detail.startswith("bad_capture"), capture


def test_typed_query_hints_choose_only_between_what_was_sent(adapter) -> None:
    (capture,) = adapter.execute(["const p = new URLSearchParams({ limit: 50, on: true, other: 7 }); "
                                  "fetch('https://api.example.com/x?' + p + '&on=1&q=50');"])
    config = adapter.normalise(capture.request)
    assert config["params"] == {"limit": 50, "on": ["true", "1"], "other": 7, "q": "50"}  # 'on' was sent as true and 1
    assert config["sent_params"] == {"limit": "50", "on": ["true", "1"], "other": "7", "q": "50"}


REFUSED = [
    "fetch(BASE + '/p', { mode: 'bogus' })",
    "fetch(BASE + '/p', { mode: 'navigate' })",
    "fetch(BASE + '/p', { redirect: 'x' })",
    "fetch(BASE + '/p', { credentials: 'all' })",
    "fetch(BASE + '/p', { cache: 'only-if-cached' })",
    "fetch(BASE + '/p', { window: {} })",
    "fetch(BASE + '/p', { signal: {} })",
    "fetch(BASE + '/p', { method: 'POST', body: 'abc', headers: { 'Transfer-Encoding': 'chunked' } })",
    "fetch(BASE + '/p', { headers: { Connection: 'upgrade' } })",
    "fetch(BASE + '/p', { headers: { Upgrade: 'websocket' } })",
    "fetch(BASE + '/p', { headers: { Expect: '100-continue' } })",
    "fetch(BASE + '/p', { headers: { 'Keep-Alive': 'timeout=5' } })",
    "fetch(BASE + '/p', { method: 'POST', body: 'abc', headers: { 'Content-Length': '10' } })",
]
"""Calls Node's fetch rejects before anything is sent: RequestInit members its WebIDL conversion or
the Request constructor refuse, headers undici's dispatcher refuses."""


def test_what_nodes_fetch_refuses_before_sending_is_a_runtime_error(run_one) -> None:
    real = sent_by_real_fetch(REFUSED)
    problems = []
    for call, wire in zip(REFUSED, real):
        if "error" not in wire:
            problems.append(f"{call}: Node's fetch sent it (the list is wrong)")
        capture = run_one(f"{call.replace('BASE', repr('https://api.example.com'))};")
        if capture.error != "runtime_error":
            problems.append(f"{call}: {capture.error} {capture.request}")
    assert problems == []


def test_what_nodes_fetch_accepts_is_sent_as_it_is(run_one) -> None:
    accepted = ["fetch(BASE + '/p', { mode: 'cors', redirect: 'manual', signal: new AbortController().signal, "
                "window: null, headers: { Connection: 'keep-alive' } })",
                "fetch(BASE + '/p', { method: 'POST', body: 'abc', headers: { 'Content-Length': '3' } })"]
    for call, wire in zip(accepted, sent_by_real_fetch(accepted)):
        assert "error" not in wire, (call, wire)
        capture = run_one(f"{call.replace('BASE', repr('https://api.example.com'))};")
        assert capture.error is None, (call, capture.detail)


def test_a_method_fetch_does_not_upper_case_is_judged_as_sent(run_one) -> None:
    from wapii_core.kits.wire import wire_view
    from wapii_fetch_js.normalise import normalise_record

    capture = run_one("fetch('https://api.example.com/p', { method: 'patch' });")
    assert capture.error is None and capture.request["method"] == "patch"  # sent as written: a server answers 400
    config = normalise_record(capture.request)
    assert config["sent_method"] == "patch" and wire_view(config)["method"] != "patch"
    upper = normalise_record(run_one("fetch('https://api.example.com/p', { method: 'PATCH' });").request)
    assert "sent_method" not in upper and wire_view(upper)["method"] == "patch"
    normalised = normalise_record(run_one("fetch('https://api.example.com/p', { method: 'delete' });").request)
    assert "sent_method" not in normalised and wire_view(normalised)["method"] == "delete"  # fetch upper-cases DELETE


def test_typed_query_hints_come_only_from_a_query_that_was_written(run_one) -> None:
    unused = run_one("String(new URLSearchParams({ limit: 50, on: true })); "
                     "fetch('https://api.example.com/p?limit=50&on=1');")
    assert unused.error is None and unused.request["hints"] == {}
    used = run_one("const q = new URLSearchParams(new URLSearchParams({ limit: 50, on: true }));\n"
                   "fetch('https://api.example.com/p?' + q);")
    assert used.error is None and used.request["hints"] == {"limit": 50, "on": True}
