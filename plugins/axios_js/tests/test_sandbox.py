"""What the sandboxed Node worker guarantees a call, beyond the reference's semantics (real Node)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wapii_axios_js.adapter import AxiosAdapter

GOOD = "axios.get('https://x.example/ok');\n"


def header(run_one, expression: str) -> str:
    capture = run_one(f"axios.get('https://x.example/', {{headers: {{h: String({expression})}}}});\n")
    assert capture.error is None, capture
    return capture.request["headers"]["h"]


def test_fs_is_a_private_in_memory_file_system(run_one, tmp_path: Path) -> None:
    target = tmp_path / "written.txt"
    code = (f"fs.writeFileSync('/tmp/a.txt', 'one'); fs.appendFileSync('/tmp/a.txt', '+two');\n"
            f"axios.get('https://x.example/', {{headers: {{h: fs.readFileSync('/tmp/a.txt', 'utf8') + fs.existsSync({str(target)!r})}}}});\n")
    assert run_one(code).request["headers"]["h"] == "one+twofalse"
    assert header(run_one, "fs.existsSync('/tmp/a.txt')") == "false"  # nothing survives the call
    assert run_one(f"fs.writeFileSync({str(target)!r}, 'x'); axios.get('https://x.example/');\n").error == "runtime_error"
    assert not target.exists()


def test_the_environment_is_clean(run_one, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "WAPII_CACHE_DIR" not in header(run_one, "Object.keys(process.env).join()")
    assert set(header(run_one, "Object.keys(process.env).join()").split(",")) <= {"HOME", "LANG", "PATH", "PWD", "TZ"}


def test_the_worker_is_out_of_reach(run_one) -> None:
    assert header(run_one, "typeof this.constructor.constructor('return process')().binding") == "undefined"
    assert header(run_one, "Object.prototype.toString.call(process)") == "[object process]"
    assert run_one("axios.get('https://x.example/', {params: {v: require('vm').runInThisContext('1')}});\n").error \
        == "runtime_error"


def test_dynamic_import_stays_pending_and_the_next_call_runs(adapter: AxiosAdapter) -> None:
    pending, good = adapter.execute(["axios.get('https://x.example/' + (import('fs') && 'x'));\n", GOOD])
    assert pending.request["url"] == "https://x.example/x"
    assert good.request["url"] == "https://x.example/ok"


def test_web_globals_behave_like_nodes(run_one) -> None:
    assert header(run_one, "btoa('user:pass') + ' ' + Buffer.from('user:pass').toString('base64')") == \
        "dXNlcjpwYXNz dXNlcjpwYXNz"
    assert header(run_one, "new URL('https://Example.com/a b?x=1#f').href") == "https://example.com/a%20b?x=1#f"
    assert header(run_one, "new URLSearchParams({a: 'b c', d: 'é'}).toString()") == "a=b+c&d=%C3%A9"
    assert header(run_one, "new TextDecoder().decode(new TextEncoder().encode('é€😀'))") == "é€😀"
    assert header(run_one, "typeof require('crypto').randomUUID()") == "string"


def test_the_isolation_report_names_the_node_layers(adapter: AxiosAdapter) -> None:
    names = [layer.name for layer in adapter.isolation().layers]
    assert names[0] == "bubblewrap" and "privilege drop" in names  # without bubblewrap, Landlock comes between
    assert {"node permission model", "vm context", "rlimits"} <= set(names)
