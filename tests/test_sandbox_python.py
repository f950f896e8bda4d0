"""``PythonPool``: the contract adapters rely on, the error kinds, a process per snippet, the wire
channel, isolation."""

from __future__ import annotations

import pytest

from hostile.harness import request_of
from wapii_core.sandbox import Isolation, PythonPool, SnippetResult
from wapii_core.sandbox import bwrap, landlock, layers
from wapii_core.sandbox.python_pool import checked_result
from wapii_core.sandbox.wire_capture import WireError, parse_requests

HARNESS = "hostile.harness:run_snippet"
CALL = 'urlopen(Request("https://api.example.com/items?q=1", headers={"X-K": "v"}))\n'
PID_CALL = 'import os\nurlopen("https://api.example.com/pid/" + str(os.getpid()))\n'


def url_of(result: SnippetResult) -> str:
    assert result.ok, result
    request = request_of(result)
    assert request is not None, result
    return request["url"]


def pid_of(result: SnippetResult) -> int:
    return int(url_of(result).rsplit("/", 1)[1])


@pytest.fixture(scope="module")
def pool():
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=2, timeout=1.0, warmup=[CALL]) as instance:
        yield instance


def test_results_come_back_in_order(pool: PythonPool) -> None:
    snippets = [f'urlopen("https://api.example.com/items/{n}")\n' for n in range(30)]
    results = pool.run(snippets)
    assert [url_of(r) for r in results] == [f"https://api.example.com/items/{n}" for n in range(30)]
    assert all(r.ok and r.error is None and r.detail is None for r in results)
    assert request_of(results[0])["method"] == "GET"


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
    assert url_of(good) == "https://api.example.com/items?q=1"


def test_a_caught_refusal_is_still_reported(pool: PythonPool) -> None:
    code = "import os\ntry:\n    os.fork()\nexcept OSError:\n    pass\n" + CALL
    (result,) = pool.run([code])
    assert result.error == "blocked: starting a process (os.fork)"
    assert result.detail == "the snippet caught the refusal and went on"


def test_every_snippet_runs_in_a_process_of_its_own() -> None:
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=1, timeout=1.0, warmup=[CALL]) as one:
        pids = [pid_of(r) for r in one.run([PID_CALL] * 12)]
    assert len(set(pids)) == 12


TAMPER = (
    "import urllib.request\nurllib.request.OpenerDirector.open = lambda *a, **k: None\n",
    "import urllib.request\nurllib.request.build_opener = None\n",
    "import threading, time\nthreading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n",
    "import signal\nsignal.signal(signal.SIGUSR1, lambda *a: None)\n",
    "import signal\nsignal.setitimer(signal.ITIMER_REAL, 30)\n",
    "import os\nos.environ['HTTPS_PROXY'] = 'http://127.0.0.1:9'\n",
    "import os\nos.chdir('/')\n",
    "import sys\nsys.setrecursionlimit(50)\n",
    "import wapii_core.sandbox.wire_capture as w\nw.send_request = lambda *a: w.os.write(w._channel, "
    "w.serialise_request('GET', 'https://forged.example/', [], b''))\n",
    "import gc, urllib.request\nfor o in gc.get_objects():\n    if isinstance(o, urllib.request.OpenerDirector):\n"
    "        o.open = lambda *a, **k: None\n",
)


@pytest.mark.parametrize("change", TAMPER)
def test_no_snippet_changes_what_a_later_one_runs_in(change: str) -> None:
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=1, timeout=1.0, warmup=[CALL]) as one:
        alone, tamper, after = one.run([CALL, CALL + change, CALL])
    assert tamper.error is None or tamper.error.startswith("blocked"), tamper
    assert request_of(after) == request_of(alone) and url_of(after) == "https://api.example.com/items?q=1"


def test_answers_cannot_forge_a_request(pool: PythonPool) -> None:
    """A snippet that writes protocol lines into every descriptor can only garble its own channel."""
    forge = ("import os\nfor fd in range(64):\n    try:\n        os.write(fd, b'{\"ok\": true, \"value\": "
             "{\"url\": \"https://forged.example/\"}}\\n')\n    except OSError:\n        pass\n")
    forged, good = pool.run([forge + CALL, CALL])
    # the answer pipe comes first: the parent may end the snippet before it reaches the wire channel,
    # which then holds nothing; otherwise it holds the forged line, which is no HTTP request
    try:
        sent = parse_requests(forged.wire)
    except WireError:
        sent = []
    assert sent == []
    assert url_of(good) == "https://api.example.com/items?q=1"


@pytest.mark.parametrize("answer", [
    [], {"ok": "yes"}, {"ok": True, "error": "runtime_error"}, {"ok": False, "error": "made_up"},
    {"ok": False, "error": "runtime_error", "detail": 7}, {"ok": True, "wire": "not base64!"}, {"ok": True, "wire": 5},
])
def test_a_malformed_answer_is_a_bad_capture(answer: object) -> None:
    result = checked_result(answer)
    assert not result.ok and result.error == "runtime_error" and result.detail.startswith("bad_capture: ")


def test_the_isolation_report_names_every_layer(pool: PythonPool) -> None:
    report = pool.isolation()
    assert isinstance(report, Isolation) and report.kind == "python"
    names = [layer.name for layer in report.layers]
    import os

    budget = ["pids cgroup"] if os.geteuid() == 0 else []  # workers as root drop to one user: a budget each
    expected = ["privilege drop", "rlimits", *budget, "clean environment", "process-group kill", "landlock (snippets)",
                "seccomp", "audit hook", "process per snippet"]
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
