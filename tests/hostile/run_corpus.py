"""Runs the hostile corpus, each hostile program followed by a benign one, and checks the verdicts.

Used in-process by the tests and, to check the sandbox as an ordinary user, as a script run under
that user (``python run_corpus.py <canary dir> <port> <marker>``, JSON on stdout); the canaries
themselves are always judged by the process that created them (``canaries.py``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hostile.canaries import FORGE_DEFAULT, corpus
from hostile.harness import request_of
from wapii_core.sandbox.wire_capture import WireError

JS_ERRORS = ("runtime_error", "no_request")
BAD_CAPTURE = "bad_capture"
"""The detail prefix of a capture the adapter refuses (error ``runtime_error``)."""
NOT_CORRECT = "not_correct"
"""The expectation of a program that sends a wrong request while trying to be judged on another one:
an error, or the request it sent (never the one it aimed at)."""


JS_ADAPTERS = ("axios_js", "fetch_js")
"""Every JavaScript adapter: the corpus runs against the runtime through each of them."""
JS_CORPORA = {"axios_js": "js", "fetch_js": "js_fetch"}
"""The corpus of each: the same attacks on the runtime, written with the adapter's library, and
the attempts at forging its capture."""


def benign_js(n: int, adapter: str = "axios_js") -> tuple[str, dict[str, Any]]:
    """A benign program and the normalised request it sends."""
    url = f"https://api.example.com/items/{n}"
    if adapter == "fetch_js":
        code = f"fetch('{url}?q={n}', {{ headers: {{ 'X-N': '{n}' }} }});\n"
        return code, {"url": url, "sent_url": url, "method": "get", "headers": {"X-N": str(n)},
                      "params": {"q": str(n)}, "sent_params": {"q": str(n)}}
    code = f"const axios = require('axios');\naxios.get('{url}', {{ headers: {{ 'X-N': '{n}' }}, params: {{ q: {n} }} }});\n"
    request = {"url": url, "method": "get", "headers": {"Accept": "application/json, text/plain, */*", "X-N": str(n)},
               "params": {"q": n}}
    return code, request


def benign_py(n: int) -> tuple[str, dict[str, Any]]:
    code = f'urlopen(Request("https://api.example.com/items/{n}?q={n}", headers={{"X-N": "{n}"}}))\n'
    agent = f"Python-urllib/{sys.version_info.major}.{sys.version_info.minor}"
    request = {"url": f"https://api.example.com/items/{n}?q={n}", "method": "GET",
               "headers": {"Host": "api.example.com", "User-agent": agent, "X-n": str(n)}, "data": None}
    return code, request


def run_js(canary_dir: Path, port: int, marker: str, timeout: float = 1.0,
           adapter_name: str = "axios_js") -> list[dict[str, Any]]:
    """Every JavaScript program of the adapter's corpus through extraction and one sandboxed Node
    worker, in order; requests as the adapter normalises them."""
    from wapii_core.base import plugins

    rows: list[dict[str, Any]] = []
    calls: list[str] = []
    adapter = plugins.adapters.get(adapter_name)(workers=1, timeout_s=timeout)
    try:
        for n, program in enumerate(corpus(JS_CORPORA[adapter_name], canary_dir, port, marker)):
            code, request = benign_js(n, adapter_name)
            for kind, text, expect in (("hostile", program.aimed_at(), program.expect), ("benign", code, request)):
                extraction = adapter.extract(text)
                assert extraction.call is not None, (program.name, extraction)
                calls.append(extraction.call)
                rows.append({"name": program.name, "kind": kind, "expect": expect, "forge": program.forge})
        for row, capture in zip(rows, adapter.execute(calls)):
            request = None if capture.request is None else adapter.normalise(capture.request)
            row.update(error=capture.error, detail=capture.detail, request=request)
    finally:
        adapter.close()
    return rows


def run_py(canary_dir: Path, port: int, marker: str, timeout: float = 1.0) -> list[dict[str, Any]]:
    """Every Python program through one sandboxed Python worker, in order."""
    from wapii_core.sandbox import PythonPool

    rows: list[dict[str, Any]] = []
    snippets: list[str] = []
    for n, program in enumerate(corpus("py", canary_dir, port, marker)):
        code, request = benign_py(n)
        snippets += [program.code, code]
        rows += [{"name": program.name, "kind": "hostile", "expect": program.expect},
                 {"name": program.name, "kind": "benign", "expect": request}]
    with PythonPool(preload=["urllib.request"], harness="hostile.harness:run_snippet", workers=1, timeout=timeout,
                    warmup=[benign_py(0)[0]]) as pool:
        for row, result in zip(rows, pool.run(snippets)):
            error, detail, request = result.error, result.detail, None
            if error is None:
                try:
                    request = request_of(result)
                except WireError as exc:
                    error, detail = "runtime_error", f"bad_capture: {exc}"
                if error is None and request is None:  # as the adapters judge it
                    error, detail = "no_request", "the snippet sent nothing down its wire channel"
            row.update(error=error, detail=detail, request=request)
    return rows


def same_request(captured: dict[str, Any], forged: dict[str, Any]) -> bool:
    """Whether a captured request is the forged one in every judged field (the headers axios adds
    itself, ``Accept`` and ``Content-Type``, aside)."""
    def judged(config: dict[str, Any]) -> dict[str, Any]:
        headers = {k: v for k, v in (config.get("headers") or {}).items() if k not in ("Accept", "Content-Type")}
        return {**{k: config.get(k) for k in ("url", "method", "params", "data", "path_params")}, "headers": headers}

    return judged(captured) == judged(forged)


def expectation_met(expect: str, error: str | None, detail: str | None, request: dict[str, Any] | None,
                    forged: dict[str, Any]) -> bool:
    """Whether a hostile program's outcome is the one its first line states: an error kind (with a
    detail and no request), ``blocked`` (a ``blocked: <what>`` error), ``bad_capture`` (a
    ``runtime_error`` whose detail starts with ``bad_capture``) or ``not_correct`` (an error, or a
    request other than ``forged``, the one it aimed at); alternatives are joined by ``|``."""
    if "|" in expect:
        return any(expectation_met(one, error, detail, request, forged) for one in expect.split("|"))
    if expect == NOT_CORRECT:
        return error in JS_ERRORS if request is None else error is None and not same_request(request, forged)
    if request is not None or not detail:
        return False
    if expect == BAD_CAPTURE:
        return error == "runtime_error" and detail.startswith(BAD_CAPTURE)
    return (error or "").startswith("blocked: ") if expect == "blocked" else error == expect


def problems(rows: list[dict[str, Any]], language: str) -> list[str]:
    """Hostile programs that did not end as expected; benign ones not judged correctly."""
    found = []
    for row in rows:
        where = f"{language} {row['name']} ({row['kind']})"
        if row["kind"] == "benign":
            if row["error"] is not None or row["request"] != row["expect"]:
                found.append(f"{where}: {row['error']} {row['detail']} {row['request']}")
            continue
        expect, error = row["expect"], row["error"] or ""
        if not expectation_met(expect, row["error"], row["detail"], row["request"], row.get("forge", FORGE_DEFAULT)):
            found.append(f"{where}: expected {expect}, got {error!r} ({row['detail']})")
    return found


if __name__ == "__main__":
    directory, port_text, mark = sys.argv[1:4]
    out = {**{name: run_js(Path(directory), int(port_text), mark, adapter_name=name) for name in JS_ADAPTERS},
           "py": run_py(Path(directory), int(port_text), mark)}
    json.dump(out, sys.stdout)
