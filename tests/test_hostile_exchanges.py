"""Hostile programs against the responder that answers them (``tests/hostile/exchanges``, run with
``requests_py``; a flood in every language family): flooding it with requests or huge bodies ends the
program at a documented bound (a ``runtime_error``, the exchanges kept up to it), and nothing the
program reaches other than HTTP (its own memory, its worker's, the descriptors it holds, forged
protocol lines, an answer written into its own wire channel) gives it the responder's state or an
answer the responder did not give. Nothing leaks from one program's responder to the next one's.

A program's first line says what it must get: ``# expect: ok`` (it ends without error),
``# expect: runtime_error [detail words]`` (that error, its detail holding the words) or ``# expect:
any`` (whatever the sandbox makes of it: a refused read is ``blocked``, a garbled answer pipe
``bad_capture``); every program must in any case learn nothing the responder did not answer it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from wapii_core.base import plugins
from wapii_core.run.conformance import EXCHANGE_BASE, CreateReadResponder
from wapii_core.sandbox.dialogue import MAX_EXCHANGES

CORPUS = Path(__file__).resolve().parent / "hostile" / "exchanges"
PROGRAMS = sorted(CORPUS.glob("*.py"))


class SecretKeeper(CreateReadResponder):
    """Holds an object the program must not learn of: its identifier is drawn for each program."""

    def __init__(self) -> None:
        super().__init__("9")
        self.secret = f"SECRET-{random.randrange(10**8, 10**9)}"
        self.store[self.secret] = {"gid": self.secret, "name": "the crown jewels"}
        self.seen: list[str] = []

    def answer(self, request):
        self.seen.append(f"{request.method} {request.url}")
        return super().answer(request)


@pytest.fixture(scope="module")
def requests_py():
    adapter = plugins.adapters.get("requests_py")()
    yield adapter
    adapter.close()


def _expectation(path: Path) -> tuple[str, list[str]]:
    kind, *words = path.read_text().splitlines()[0].split("expect:", 1)[1].split("--", 1)[0].split()
    return kind, words


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_a_hostile_program_gets_nothing_but_answers(requests_py, path) -> None:
    keeper = SecretKeeper()
    (capture,) = requests_py.execute([path.read_text().replace("{base}", EXCHANGE_BASE)], [keeper])
    kind, words = _expectation(path)
    if kind == "ok":
        assert capture.error is None, capture.detail
    elif kind != "any":
        assert capture.error == kind, (capture.error, capture.detail)
        assert " ".join(words) in (capture.detail or ""), capture.detail
    exchanges = capture.exchanges or []
    assert len(exchanges) <= MAX_EXCHANGES
    assert [f"{x.method} {x.url}" for x in exchanges] == keeper.seen  # the record is what the responder saw
    assert not any(keeper.secret in x.url and x.status == 200 for x in exchanges)
    assert keeper.store[keeper.secret] == {"gid": keeper.secret, "name": "the crown jewels"}
    assert all(len(x.request.body or "") <= 16 << 10 for x in exchanges)  # the record's bodies are bounded


def test_the_flood_keeps_the_exchanges_up_to_the_bound(requests_py) -> None:
    keeper = SecretKeeper()
    (capture,) = requests_py.execute([(CORPUS / "01_flood.py").read_text().replace("{base}", EXCHANGE_BASE)], [keeper])
    assert len(capture.exchanges) == MAX_EXCHANGES
    assert [x.status for x in capture.exchanges] == [201] * MAX_EXCHANGES
    assert len(keeper.store) == MAX_EXCHANGES + 1


FLOODS = {
    "requests_py": "import requests\nwhile True:\n    requests.get('{base}/projects/1')\n",
    "axios_js": "(async () => { for (;;) await axios.get('{base}/projects/1').catch(() => null); })();\n",
    "nethttp_go": "package main\n\nimport \"net/http\"\n\nfunc main() {\n\tfor {\n\t\tr, err := http.Get(\"{base}/projects/1\")\n"
                  "\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t\tr.Body.Close()\n\t}\n}\n",
    "okhttp_java": "import okhttp3.*;\n        OkHttpClient client = new OkHttpClient();\n        for (;;) {\n"
                   "            client.newCall(new Request.Builder().url(\"{base}/projects/1\").build()).execute().close();\n        }\n",
}


@pytest.mark.parametrize("name", sorted(FLOODS))
def test_a_flood_ends_at_the_bound_in_every_language(name) -> None:
    adapter = plugins.adapters.get(name)()
    try:
        keeper = SecretKeeper()
        (capture,) = adapter.execute([FLOODS[name].replace("{base}", EXCHANGE_BASE)], [keeper])
    finally:
        adapter.close()
    assert capture.error == "runtime_error"
    assert f"more than {MAX_EXCHANGES} requests" in (capture.detail or ""), capture.detail
    assert len(capture.exchanges) == MAX_EXCHANGES == len(keeper.seen)
    assert {x.status for x in capture.exchanges} == {404}


def test_nothing_leaks_from_one_program_s_responder_to_the_next(requests_py) -> None:
    create = "import requests\nrequests.post('{base}/projects', json={'data': {'name': 'Apollo'}})\n"
    read = ("import requests\nr = requests.get('{base}/projects/91')\n"
            "assert r.status_code == 404, r.status_code\n")
    first, second = SecretKeeper(), SecretKeeper()
    captures = requests_py.execute([code.replace("{base}", EXCHANGE_BASE) for code in (create, read)], [first, second])
    assert [c.error for c in captures] == [None, None], [c.detail for c in captures]
    assert "91" in first.store and "91" not in second.store
    assert [x.status for x in captures[1].exchanges] == [404]


NODE_FORGER = """
const kit = globalThis.__wapii_kit;
const pending = axios.get('{base}/projects/SECRET-guess');
for (let i = 1; i < 5; i++) {
  kit.answer(JSON.stringify({ seq: i, status: 200, statusText: 'OK', headers: [['content-type', 'application/json']],
    body: '{"data": {"gid": "SECRET-guess", "name": "forged"}}' }));
}
pending.then((r) => axios.post('{base}/projects', { data: { believed: r.data.data.name } }));
"""


def test_a_node_program_that_settles_its_own_answers_deceives_only_itself() -> None:
    """The run's kit is in the program's realm: a program can settle its own pending answer (as it
    could patch its library), but the record and the responder's store hold what the responder did."""
    adapter = plugins.adapters.get("axios_js")()
    try:
        keeper = SecretKeeper()
        (capture,) = adapter.execute([NODE_FORGER.replace("{base}", EXCHANGE_BASE)], [keeper])
    finally:
        adapter.close()
    assert capture.error is None, capture.detail
    assert [(x.method, x.status) for x in capture.exchanges] == [("GET", 404), ("POST", 201)]
    assert keeper.seen == [f"GET {EXCHANGE_BASE}/projects/SECRET-guess", f"POST {EXCHANGE_BASE}/projects"]
    assert "SECRET-guess" not in keeper.store


WRAPPER_BREAKER = """// a workflow answer that closes the scope its program runs in and goes on outside it
const axios = require('axios');
})();
const form = { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
axios.post('{base}/projects', { __proto__: null, ['__proto__']: 'polluted', name: { toString: 1 } }, form)
  .then(() => axios.get('{base}/projects/SECRET-guess'))
  .catch(() => axios.post('{base}/projects', { data: { name: 'after' } }));
(async () => {
"""


def test_a_workflow_program_that_leaves_its_scope_is_answered_like_any_other() -> None:
    """``extract_program`` runs a JavaScript workflow program in a scope of its own; one that closes it
    early runs its code at the top level, where it reaches nothing more: its form body (a
    ``__proto__`` key, an object value) goes URL-encoded as text (which the responder refuses as
    not JSON), and the record holds what the responder answered."""
    adapter = plugins.adapters.get("axios_js")()
    try:
        keeper = SecretKeeper()
        extraction = adapter.extract_program(WRAPPER_BREAKER.replace("{base}", EXCHANGE_BASE))
        (capture,) = adapter.execute([extraction.call], [keeper])
    finally:
        adapter.close()
    exchanges = capture.exchanges or []
    assert [f"{x.method} {x.url}" for x in exchanges] == keeper.seen and exchanges
    from urllib.parse import parse_qs

    assert set(parse_qs(exchanges[0].request.body)) <= {"__proto__", "name"}  # plain text, no structure
    assert [(x.method, x.status) for x in exchanges] == [("POST", 400), ("POST", 201)]  # not a form of JSON
    assert not any(keeper.secret in x.url and x.status == 200 for x in exchanges)
    assert keeper.store[keeper.secret] == {"gid": keeper.secret, "name": "the crown jewels"}
