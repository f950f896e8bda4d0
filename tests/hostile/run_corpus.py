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

from hostile.canaries import corpus
from hostile.harness import request_of
from wapii_core.sandbox.wire_capture import WireError

JS_ERRORS = ("runtime_error", "no_request")


def benign_js(n: int) -> tuple[str, dict[str, Any]]:
    code = f"const axios = require('axios');\naxios.get('https://api.example.com/items/{n}', {{ headers: {{ 'X-N': '{n}' }}, params: {{ q: {n} }} }});\n"
    request = {"url": f"https://api.example.com/items/{n}", "method": "get",
               "headers": {"Accept": "application/json, text/plain, */*", "X-N": str(n)}, "params": {"q": n}}
    return code, request


def benign_py(n: int) -> tuple[str, dict[str, Any]]:
    code = f'urlopen(Request("https://api.example.com/items/{n}?q={n}", headers={{"X-N": "{n}"}}))\n'
    agent = f"Python-urllib/{sys.version_info.major}.{sys.version_info.minor}"
    request = {"url": f"https://api.example.com/items/{n}?q={n}", "method": "GET",
               "headers": {"Host": "api.example.com", "User-agent": agent, "X-n": str(n)}, "data": None}
    return code, request


def run_js(canary_dir: Path, port: int, marker: str, timeout: float = 1.0) -> list[dict[str, Any]]:
    """Every JavaScript program through extraction and one sandboxed Node worker, in order."""
    from wapii_axios_js.adapter import AxiosAdapter

    rows: list[dict[str, Any]] = []
    calls: list[str] = []
    with AxiosAdapter(workers=1, timeout_s=timeout) as adapter:
        for n, program in enumerate(corpus("js", canary_dir, port, marker)):
            code, request = benign_js(n)
            for kind, text, expect in (("hostile", program.code, program.expect), ("benign", code, request)):
                extraction = adapter.extract(text)
                assert extraction.call is not None, (program.name, extraction)
                calls.append(extraction.call)
                rows.append({"name": program.name, "kind": kind, "expect": expect})
        for row, capture in zip(rows, adapter.execute(calls)):
            row.update(error=capture.error, detail=capture.detail, request=capture.request)
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


def problems(rows: list[dict[str, Any]], language: str) -> list[str]:
    """Hostile programs that did not end in the expected error; benign ones not judged correctly."""
    found = []
    for row in rows:
        where = f"{language} {row['name']} ({row['kind']})"
        if row["kind"] == "benign":
            if row["error"] is not None or row["request"] != row["expect"]:
                found.append(f"{where}: {row['error']} {row['detail']} {row['request']}")
            continue
        expect, error = row["expect"], row["error"] or ""
        ok = any(error.startswith("blocked: ") if kind == "blocked" else error == kind for kind in expect.split("|"))
        if not ok or not row["detail"] or row["request"] is not None:
            found.append(f"{where}: expected {expect}, got {error!r} ({row['detail']})")
    return found


if __name__ == "__main__":
    directory, port_text, mark = sys.argv[1:4]
    out = {"js": run_js(Path(directory), int(port_text), mark), "py": run_py(Path(directory), int(port_text), mark)}
    json.dump(out, sys.stdout)
