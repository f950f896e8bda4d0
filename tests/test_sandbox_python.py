"""``PythonPool``: the contract adapters rely on, the error kinds, fork reuse and taint, isolation."""

from __future__ import annotations

import pytest

from wapii_core.sandbox import Isolation, PythonPool, SnippetResult
from wapii_core.sandbox import bwrap, landlock, layers

HARNESS = "hostile.harness:run_snippet"
CALL = 'urlopen(Request("https://api.example.com/items?q=1", headers={"X-K": "v"}))\n'
PID_CALL = 'import os\nurlopen("https://api.example.com/pid/" + str(os.getpid()))\n'


def pid_of(result: SnippetResult) -> int:
    assert result.ok, result
    return int(result.value["url"].rsplit("/", 1)[1])


@pytest.fixture(scope="module")
def pool():
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=2, timeout=1.0, warmup=[CALL]) as instance:
        yield instance


def test_results_come_back_in_order(pool: PythonPool) -> None:
    snippets = [f'urlopen("https://api.example.com/items/{n}")\n' for n in range(30)]
    results = pool.run(snippets)
    assert [r.value["url"] for r in results] == [f"https://api.example.com/items/{n}" for n in range(30)]
    assert all(r.ok and r.error is None and r.detail is None for r in results)
    assert results[0].value["method"] == "GET"


@pytest.mark.parametrize(("code", "error", "detail"), [
    ("x = 1\n", "no_request", "without opening a request"),
    ("raise ValueError('boom')\n", "runtime_error", "ValueError: boom"),
    ("urlopen(", "runtime_error", "SyntaxError"),
    ("import sys\nsys.exit(3)\n", "exited", "sys.exit(3)"),
    ("import os\nos._exit(4)\n", "exited", "exit code 4"),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "worker_died", "SIGSEGV"),
    ("while True:\n    pass\n", "timeout", "timeout after 1 s"),
    ("import subprocess\nsubprocess.run(['true'])\n", "blocked: starting a process (subprocess.Popen)", None),
    ("open('/etc/ld.so.cache', 'rb').read()\n", "blocked: reading /etc/ld.so.cache", None),
    ("import socket\nsocket.socket()\n", "blocked: opening a network socket", None),
    ("import socket\nsocket.getaddrinfo('example.com', 443)\n", "blocked: network access (resolving example.com)", None),
])
def test_error_kinds(pool: PythonPool, code: str, error: str, detail: str | None) -> None:
    bad, good = pool.run([code, CALL])
    assert not bad.ok and bad.value is None
    assert bad.error == error
    if detail:
        assert detail in bad.detail
    assert good.ok and good.value["url"] == "https://api.example.com/items?q=1"


def test_a_caught_refusal_is_still_reported(pool: PythonPool) -> None:
    code = "import os\ntry:\n    os.fork()\nexcept OSError:\n    pass\n" + CALL
    (result,) = pool.run([code])
    assert result.error == "blocked: starting a process (os.fork)"
    assert result.detail == "the snippet caught the refusal and went on"


def test_clean_snippets_reuse_one_process() -> None:
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=1, timeout=1.0, warmup=[CALL],
                    max_jobs=5) as one:
        pids = [pid_of(r) for r in one.run([PID_CALL] * 12)]
    assert pids[:5] == [pids[0]] * 5  # one forked process serves up to max_jobs snippets
    assert len(set(pids)) == 3


def test_a_snippet_that_changes_shared_state_gets_a_fresh_process_after_it() -> None:
    tamper = [CALL + change for change in (
        "import urllib.request\nurllib.request.OpenerDirector.open = lambda *a, **k: None\n",
        "import urllib.request\nurllib.request.build_opener = None\n",
        "import threading, time\nthreading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n",
        "import signal\nsignal.signal(signal.SIGUSR1, lambda *a: None)\n",
        "import signal\nsignal.setitimer(signal.ITIMER_REAL, 30)\n",
        "import os\nos.environ['HTTPS_PROXY'] = 'http://127.0.0.1:9'\n",
        "import os\nos.chdir('/')\n",
        "import sys\nsys.setrecursionlimit(50)\n",
    )]
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=1, timeout=1.0, warmup=[CALL]) as one:
        for code in tamper:
            before, after, again = one.run([PID_CALL, code, PID_CALL])
            assert after.ok, (code, after)
            assert pid_of(again) != pid_of(before), code


def test_answers_cannot_be_forged(pool: PythonPool) -> None:
    forge = ("import os\nfor fd in range(64):\n    try:\n        os.write(fd, b'{\"nonce\": \"x\", \"ok\": true}\\n')\n"
             "    except OSError:\n        pass\n")
    forged, good = pool.run([forge + CALL, CALL])
    assert forged.error == "runtime_error" and forged.detail == "the snippet forged its answer"
    assert good.ok


def test_the_isolation_report_names_every_layer(pool: PythonPool) -> None:
    report = pool.isolation()
    assert isinstance(report, Isolation) and report.kind == "python"
    names = [layer.name for layer in report.layers]
    expected = ["privilege drop", "rlimits", "clean environment", "process-group kill", "landlock (snippets)",
                "seccomp", "audit hook", "fork per taint"]
    if report.layers[0].active:
        assert names == ["bubblewrap", *expected]
    else:  # without bubblewrap, Landlock confines the worker too
        assert names == ["bubblewrap", "landlock (worker)", *expected]
    assert report.as_dict()["layers"][0]["name"] == "bubblewrap"


def test_without_bubblewrap_the_pool_warns_once_and_still_contains(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv(bwrap.BWRAP_ENV, "")  # as if bubblewrap were not installed
    monkeypatch.setattr(layers, "_warned", set())
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=1, timeout=1.0) as bare:
        results = bare.run(["open('/etc/passwd').read()\n", "import socket\nsocket.create_connection(('127.0.0.1', 9))\n",
                            CALL])
        bare.run([CALL])
    assert results[0].error == "blocked: reading /etc/passwd"
    assert results[1].error == "blocked: network access (resolving 127.0.0.1)"
    assert results[2].ok
    err = capsys.readouterr().err
    exposed = "the host file system" if landlock.unavailable() else "the host's PID, network and IPC namespaces"
    assert err.count("python sandbox without bubblewrap") == 1 and f"not isolated: {exposed}" in err


def test_required_isolation_refuses_without_bubblewrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    monkeypatch.setenv(layers.REQUIRE_ENV, "1")
    monkeypatch.setattr(layers, "_required", None)
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=1) as refused:
        with pytest.raises(layers.IsolationError, match="bubblewrap"):
            refused.run([CALL])
