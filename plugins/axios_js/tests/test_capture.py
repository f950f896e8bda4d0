"""The capture kit (``js/realm``): the reference's logged request, and nothing a program can change
about it but the request it sends (real Node, real axios, the real worker)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from wapii_axios_js.adapter import AxiosAdapter
from wapii_axios_js.runtime import library
from wapii_core.kits.node import ensure_runtime, js_dir

DIFFERENTIAL = Path(__file__).parent / "js" / "capture_differential.js"


def test_the_capture_logs_what_the_reference_logged() -> None:
    """Thousands of generated configs (form bodies and query strings full of brackets, escapes and
    built-in names, odd bodies, Dates, Buffers, AxiosHeaders, FormData, BigInts, cycles): the kit
    logs what the reference normalisation and JSON.stringify logged, or throws the same error."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    done = subprocess.run([node, str(DIFFERENTIAL), str(ensure_runtime(library())), str(js_dir() / "realm")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome["cases"] >= 3000
    assert outcome["differences"] == []


URL = "https://api.example.com/items"


@pytest.mark.parametrize(("code", "request_fields"), [
    ("axios.get(URL, { params: { since: new Date(0), bad: new Date('x') } });",
     {"params": {"since": "1970-01-01T00:00:00.000Z", "bad": None}}),
    ("axios.get(URL, { params: { n: new Number(3), s: new String('s'), b: new Boolean(false) } });",
     {"params": {"n": 3, "s": "s", "b": False}}),
    ("axios.post(URL, (() => { const f = new (require('form-data'))(); f.append('file', Buffer.from('hi')); return f; })());",
     {"data": {"file": {"type": "Buffer", "data": [104, 105]}}}),
    ("axios.get(URL, { headers: { 'X-List': ['a', 'b'] } });",
     {"headers": {"Accept": "application/json, text/plain, */*", "X-List": "a, b"}}),
])
def test_built_ins_are_logged_as_their_own_toJSON_gave_them(run_one, code: str, request_fields: dict) -> None:
    capture = run_one(f"const URL = {json.dumps(URL)};\n{code}\n")
    assert capture.error is None, capture
    assert {key: capture.request[key] for key in request_fields} == request_fields


CALL = ("axios.get('https://api.example.com/items/%C3%A9?view=full&flag', "
        "{ headers: { Authorization: 'Bearer t' }, params: { limit: 5, since: new Date(0), tags: ['a', 'b'] }, EXTRA });\n")
"""A call whose capture every patch below tries to change (``EXTRA``: one more config property)."""

PATCHES = {
    "a setter on Array.prototype[0]": "Object.defineProperty(Array.prototype, '0', { configurable: true, set(v) { "
    "Object.defineProperty(this, '0', { value: typeof v === 'string' ? v.replace('items', 'forged') : v, "
    "writable: true, enumerable: true, configurable: true }) } })",
    "Object.prototype.toJSON": "Object.prototype.toJSON = function () { return 'forged' }",
    "Array.prototype.toJSON": "Array.prototype.toJSON = function () { return ['forged'] }",
    "String.prototype.toJSON": "String.prototype.toJSON = function () { return 'forged' }",
    "Date.prototype.toJSON and toISOString":
        "(Date.prototype.toJSON = () => 'forged', Date.prototype.toISOString = () => 'forged')",
    "JSON.stringify": "JSON.stringify = ((s) => (v, ...r) => (v && v.url ? '{\"url\":\"forged\"}' : s(v, ...r)))(JSON.stringify)",
    "decodeURIComponent": "globalThis.decodeURIComponent = () => 'https://forged.example/'",
    "String.prototype.indexOf and slice": "((i, s) => { String.prototype.indexOf = function (...a) { "
    "return String(this).startsWith('https://api.example.com/items/') ? -1 : i.apply(this, a) }; "
    "String.prototype.slice = function (...a) { return String(this).startsWith('view') ? 'forged=1' : s.apply(this, a) } })"
    "(String.prototype.indexOf, String.prototype.slice)",
    "Reflect": "(Reflect.ownKeys = () => [], Reflect.getOwnPropertyDescriptor = () => undefined, "
    "Reflect.getPrototypeOf = () => null)",
    "WeakMap": "(WeakMap.prototype.get = () => undefined, WeakMap.prototype.set = () => undefined)",
    "AxiosHeaders.prototype.toJSON": "Object.defineProperty(axios.AxiosHeaders.prototype, 'toJSON', "
    "{ value: () => ({ Authorization: 'forged' }) })",
    "the config's own toJSON": "toJSON: () => ({ url: 'https://forged.example/' })",
}


def logged(capture):
    """What a capture says the call sent (its execution time left out: it differs from run to run)."""
    return capture.model_copy(update={"execution_s": None})


@pytest.mark.parametrize("name", sorted(PATCHES))
def test_patched_built_ins_do_not_change_what_is_logged(adapter: AxiosAdapter, name: str) -> None:
    patch = PATCHES[name]
    plain = CALL.replace("EXTRA", "maxRedirects: 1")
    if patch.startswith("toJSON"):
        patched = CALL.replace("EXTRA", patch)
    else:  # the patch runs while the arguments are evaluated, before axios sees them
        patched = plain.replace("params: {", f"params: ({patch}, {{", 1).replace("] }, max", "] }), max")
    plain, captured = adapter.execute([plain, patched])
    assert plain.error is None
    assert logged(captured) == logged(plain)


def test_a_patched_regexp_does_not_rename_multipart_fields(adapter: AxiosAdapter) -> None:
    call = ("axios.post('https://api.example.com/files', (() => { const f = new (require('form-data'))(); "
            "f.append('title', 'T'); return f })(), { params: PATCH });\n")
    patch = ("(((exec) => { RegExp.prototype.exec = function (s) { return this.source === 'name=\"(.*?)\"' "
             "? ['x', 'forged'] : exec.call(this, s) } })(RegExp.prototype.exec), {})")
    plain, patched = adapter.execute([call.replace("PATCH", "{}"), call.replace("PATCH", patch)])
    assert plain.error is None and plain.request["data"] == {"title": "T"}
    assert logged(patched) == logged(plain)


def test_kit_surface_offers_nothing_to_take_over(run_one) -> None:
    """The kit's API begins once; no FinalizationRegistry or Atomics.waitAsync; the Proxy stand-in
    behaves as Proxy; a timer handle shows nothing but Node's methods."""
    checks = {
        "begin": "(() => { try { __wapii_kit.begin('{\"keep\":\"first\",\"facts\":{}}'); return 'ran' } catch (e) { return 'refused' } })()",
        "registry": "typeof FinalizationRegistry",
        "waitAsync": "typeof Atomics.waitAsync",
        "proxy": "(() => { const p = new Proxy({ a: 1 }, {}); const r = Proxy.revocable({}, {}); r.revoke(); "
                 "let called = false; try { Proxy({}, {}) } catch (e) { called = e instanceof TypeError } "
                 "return [p.a, typeof Proxy.revocable, 'prototype' in Proxy, called] })()",
        "timer": "(() => { const t = setTimeout(() => {}, 1000); clearTimeout(t); "
                 "return [Object.getOwnPropertyNames(t), Object.getOwnPropertyNames(Object.getPrototypeOf(t)).sort()] })()",
    }
    params = ", ".join(f"{name}: {code}" for name, code in checks.items())
    capture = run_one(f"axios.get('https://api.example.com/items', {{ params: {{ {params} }} }});\n")
    assert capture.error is None, capture
    assert capture.request["params"] == {
        "begin": "refused", "registry": "undefined", "waitAsync": "undefined", "proxy": [1, "function", False, True],
        "timer": [[], ["close", "constructor", "hasRef", "ref", "refresh", "unref"]],
    }
