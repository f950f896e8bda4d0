"""Sandboxed execution in the Node worker pool: outcomes, isolation, recovery (real Node and axios)."""

from __future__ import annotations


import pytest
from support import returns

from wapii_axios_js.adapter import AxiosAdapter

GOOD = "axios.get('https://api.example.com/items', {headers: {Authorization: 'Bearer <token>'}, params: {limit: 5}});\n"
GOOD_REQUEST = {
    "url": "https://api.example.com/items",
    "method": "get",
    "headers": {"Accept": "application/json, text/plain, */*", "Authorization": "Bearer <token>"},
    "params": {"limit": 5},
}

RUNTIME_ERRORS = {
    "syntax error": "axios..get('https://x.example/');\n",
    "exception": "axios.get(undefinedVariable);\n",
    "sync infinite loop": "while (true) {}\n",
    "infinite loop in a context promise callback": "Promise.resolve().then(() => { while (true) {} });\n",
    "infinite loop in the request's then": "axios.get('https://x.example/').then(() => { while (true) {} });\n",
    "infinite loop in axios's own callback": "axios.get('https://x.example/', {transformResponse: [() => { for (;;) {} }]});\n",
    "timer that never stops": "setInterval(() => {}, 5);\n",
    "process.exit(1)": "process.exit(1);\n",
    "exit code set": "axios.get('https://x.example/'); process.exitCode = 3;\n",
    "async throw": "(async () => { throw new Error('boom'); })();\n",
    "rejection after the request": "axios.get('https://x.example/'); Promise.reject(new Error('late'));\n",
    "throw after the request": "axios.get('https://x.example/'); null.x;\n",
    "exception in a timer": "setTimeout(() => { throw new Error('t'); }, 1);\n",
    "malformed percent escape": "axios.get('https://x.example/%E0%A4%A');\n",
    "broken JSON body": "axios.post('https://x.example/', '{not json');\n",
    "top-level await": "axios.get('https://x.example/', {params: await Promise.resolve({})});\n",
    "undici FormData": "axios.post('https://x.example/', (() => { const f = new FormData(); f.append('a', 'b'); return f; })());\n",
    "blocked module": "axios.get('https://x.example/', {params: {x: require('child_process').execSync('id')}});\n",
}


@pytest.mark.parametrize("name", sorted(RUNTIME_ERRORS))
def test_runtime_error_and_the_next_call_still_runs(adapter: AxiosAdapter, name: str) -> None:
    bad, good = adapter.execute([RUNTIME_ERRORS[name], GOOD])
    assert bad.error == "runtime_error", bad
    assert bad.request is None
    assert bad.detail
    assert good.error is None and good.request == GOOD_REQUEST


def test_a_batch_of_hostile_calls_completes(adapter: AxiosAdapter) -> None:
    calls = [code for pair in zip(RUNTIME_ERRORS.values(), [GOOD] * len(RUNTIME_ERRORS)) for code in pair]
    captures = adapter.execute(calls)
    assert [c.error for c in captures[0::2]] == ["runtime_error"] * len(RUNTIME_ERRORS)
    assert all(c.request == GOOD_REQUEST for c in captures[1::2])


def test_timeouts_are_bounded(adapter: AxiosAdapter) -> None:
    """A call that never ends is stopped at its timeout: the batch returns, the call is a timeout and
    the call after it runs."""
    endless, good = returns(adapter.execute, ["while (true) {}\n", GOOD])
    assert endless.error == "runtime_error" and "timeout" in endless.detail
    assert good.error is None and good.request == GOOD_REQUEST


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("axios.defaults.headers.common['X'] = 1;\n", "ran"),
        ("new Promise(() => {});\n", "ran"),  # Node exits 0 with a promise that never settles
        ("(async () => { await new Promise(() => {}); axios.get('https://x.example/'); })();\n", "ran"),
        ("process.exit();\n", "process.exit(0)"),  # the reference's node exited 0 without a log
        ("process.exit(0); axios.get('https://x.example/');\n", "process.exit(0)"),
    ],
)
def test_no_request(run_one, code: str, why: str) -> None:
    capture = run_one(code)
    assert capture.error == "no_request"
    assert why in capture.detail


def test_requests_from_timers_and_microtasks_are_awaited(run_one) -> None:
    for code in (
        "setTimeout(() => axios.get('https://x.example/late'), 30);\n",
        "setImmediate(() => axios.get('https://x.example/late'));\n",
        "process.nextTick(() => axios.get('https://x.example/late'));\n",
        "queueMicrotask(() => axios.get('https://x.example/late'));\n",
        "(async () => { await null; await axios.get('https://x.example/first'); axios.get('https://x.example/late'); })();\n",
    ):
        assert run_one(code).request["url"] == "https://x.example/late", code


def test_several_requests_keep_the_last_by_default(adapter: AxiosAdapter) -> None:
    code = "axios.get('https://x.example/1'); axios.get('https://x.example/2');\n"
    (capture,) = adapter.execute([code])
    assert capture.request["url"] == "https://x.example/2"
    assert "2 requests" in capture.detail
    with AxiosAdapter(workers=1, keep_request="first") as first:
        assert first.execute([code])[0].request["url"] == "https://x.example/1"


def test_no_state_leaks_between_calls(adapter: AxiosAdapter) -> None:
    leak = [
        "axios.defaults.headers.common['X-Leak'] = '1'; axios.interceptors.request.use((c) => { c.url = 'leaked'; return c; });\n",
        "globalThis.axiosLeak = 1; Object.prototype.leak = 1;\n",
        "axios.post('https://x.example/', '__proto__[polluted]=1');\n",  # decoding writes into Object.prototype
        "axios.Axios.prototype.get = () => 0;\n",
    ]
    probe = "axios.get('https://x.example/' + typeof axiosLeak + typeof ({}).leak + typeof ({}).polluted);\n"
    captures = adapter.execute([*leak, probe, probe, probe])
    for capture in captures[len(leak):]:
        assert capture.request["url"] == "https://x.example/undefinedundefinedundefined"
        assert "X-Leak" not in capture.request["headers"]


def test_no_network(adapter: AxiosAdapter) -> None:
    for code in (
        "axios.get('http://127.0.0.1:9/', {adapter: 'http'});\n",
        "axios.get('http://127.0.0.1:9/', {adapter: 'fetch'});\n",
        "require('net').connect(9, '127.0.0.1');\n",
        "require('dns').lookup('example.com', () => {});\n",
    ):
        (capture,) = adapter.execute([code])
        assert capture.error == "runtime_error", code


def test_reference_globals_are_available(run_one) -> None:
    code = (
        "axios.get('https://x.example/', {headers: {h: [typeof require, typeof module, typeof exports, __filename, "
        "typeof fs, typeof MockAdapter, typeof mock, typeof Buffer, typeof URLSearchParams, typeof setTimeout, "
        "typeof btoa, typeof process.env, this === globalThis].join()}});\n"
    )
    assert run_one(code).request["headers"]["h"] == "function,object,object,[stdin],object,function,object,function,function,function,function,object,true"


def test_mock_prelude_names_are_declared(run_one) -> None:
    # the reference declared axios, MockAdapter, fs and mock before the call: redeclaring is an error
    assert run_one("axios.get('https://x.example/');\nconst mock = 1;\n").error == "runtime_error"
    assert run_one("axios.get('https://x.example/');\nreturn;\n").error == "runtime_error"  # a script, not a function


def test_require_axios_is_the_mocked_instance(run_one) -> None:
    assert run_one("require('axios').get('https://x.example/r');\n").request["url"] == "https://x.example/r"
    assert run_one("axios.default.get('https://x.example/d');\n").request["url"] == "https://x.example/d"
    assert run_one("axios({url: 'https://x.example/f', method: 'PUT'});\n").request["method"] == "put"


def test_empty_batch(adapter: AxiosAdapter) -> None:
    assert adapter.execute([]) == []


def test_close_and_reuse() -> None:
    with AxiosAdapter(workers=1) as own:
        assert own.execute([GOOD])[0].request == GOOD_REQUEST
        own.close()
        assert own.execute([GOOD])[0].request == GOOD_REQUEST
