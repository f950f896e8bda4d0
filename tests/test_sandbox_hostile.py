"""The hostile corpus (``tests/hostile``), judged from outside the sandbox.

Every hostile program must end as its first line says (an error; or, for a program that sends a
wrong request while trying to be judged on the expected one, anything but that: see
``run_corpus.expectation_met``), be followed by benign programs that are judged as they are
without it, and trip no canary: no file in the watched folder, no connection to the canary server,
no canary string (a secret in this process's environment, the host's /etc/passwd) in any stored
result, no leftover process. This must hold through a real run (JavaScript), with and without
bubblewrap, as root (workers drop to the ``wapii-sbx`` user, created if missing) and as an
ordinary user.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hostile.accounts import ensure_user
from hostile.fixtures import canaries, sandbox_user  # noqa: F401 - fixtures
from hostile.canaries import CORPUS, SECRET_ENV, Canaries, corpus
from hostile.run_corpus import JS_ADAPTERS, JS_CORPORA, JS_ERRORS, NOT_CORRECT, expectation_met, problems, run_js, run_py
from support import REPO, WAPIIBENCH
from wapii_core.sandbox import bwrap

WHY = {
    "js": ["loop", "heap", "arraybuffer", "exit", "passwd", "ssh", "env", "write", "shell", "fork", "socket", "fetch",
           "escape", "pollution", "kill", "forge", "malformed", "contaminate"],
    "py": ["loop", "memory", "exit", "passwd", "ssh", "env", "write", "shell", "fork", "socket", "kill", "monkeypatch",
           "thread", "ctypes", "forge", "dirfd", "parent_environ", "auditor_off", "mount", "prlimit", "priority",
           "affinity", "signal_group", "pidfd", "ptrace", "vm_read", "raise_own_limits"],
}
"""Every behaviour of the issue's "Why", by a word that the names of the programs covering it carry."""

node_missing = shutil.which(os.environ.get("WAPII_NODE") or "node") is None


@pytest.fixture(params=["bubblewrap", "no-bubblewrap"])
def bubblewrap(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs a test with bubblewrap (when it works here) and without it (the remaining layers)."""
    if request.param == "no-bubblewrap":
        monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    return request.param


def test_the_corpus_covers_every_hostile_behaviour(tmp_path: Path) -> None:
    for language, words in [*WHY.items(), ("js_fetch", [w for w in WHY["js"] if w != "contaminate"])]:
        programs = corpus(language, tmp_path, 9, "marker", every=True)
        assert len(programs) >= 15
        names = " ".join(p.name for p in programs)
        assert [w for w in words if w not in names] == []
        assert all(p.expect for p in programs)


def test_python_hostile_programs_are_contained(canaries: Canaries, bubblewrap: str) -> None:
    rows = run_py(canaries.directory, canaries.port, canaries.marker)
    assert problems(rows, "py") == []
    assert canaries.violations([json.dumps(rows)]) == []


@pytest.mark.slow
@pytest.mark.skipif(node_missing, reason="Node.js is not installed")
@pytest.mark.parametrize("adapter", JS_ADAPTERS)
def test_javascript_hostile_programs_are_contained_without_bubblewrap(canaries: Canaries, adapter: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    rows = run_js(canaries.directory, canaries.port, canaries.marker, adapter_name=adapter)
    assert problems(rows, JS_CORPORA[adapter]) == []
    assert canaries.violations([json.dumps(rows)]) == []


def _judged(generations: list[dict[str, str]], directory: Path, samples: list) -> dict[str, dict]:
    """``wapii run --backend replay`` of ``generations`` (one line per sample): results by sample."""
    from wapii_core.run.runner import RunConfig, run

    path = directory / "generations.jsonl"
    directory.mkdir()
    path.write_text("".join(json.dumps(line) + "\n" for line in generations))
    out = directory / "run"
    summary = run(RunConfig(dataset="wapiibench", data_dir=WAPIIBENCH, backend="replay", generations=path,
                            limit=len(samples)), out)
    assert summary.complete and summary.judged == len(samples)
    assert (out / "summary.json").is_file() and (out / "report.md").is_file()
    return {r["sample"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}


@pytest.mark.slow
@pytest.mark.skipif(node_missing or not (WAPIIBENCH / "dataset.json").exists(),
                    reason="needs Node.js and ../shared/wapiibench")
def test_javascript_hostile_programs_in_a_run(canaries: Canaries, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each hostile program replaces one sample's generation; two benign programs follow it on the
    same worker: a wrong one (the oracle's program for the hostile sample's request, under the next
    sample) and the oracle's own program for the sample after. A forging program aims at its own
    sample's expected request and at the next one's. Every hostile program must end as its first
    line says (never ``correct``: a malformed capture is a ``runtime_error`` whose detail starts
    with ``bad_capture``) and every benign one must get the verdict it gets when no hostile program
    ran before it."""
    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset

    monkeypatch.setenv("WAPII_AXIOS_JS_WORKERS", "1")  # each benign program runs right after its hostile one
    monkeypatch.setenv("WAPII_AXIOS_JS_TIMEOUT", "1")
    programs = corpus("js", canaries.directory, canaries.port, canaries.marker)
    samples = load_dataset("wapiibench", WAPIIBENCH).samples[: 3 * len(programs)]
    adapter = plugins.adapters.get("axios_js")()
    lines, alone, expected = [], [], {}
    for program, hostile, wrong, benign in zip(programs, samples[0::3], samples[1::3], samples[2::3]):
        benign_lines = [{"sample": wrong.id, "code": adapter.render(hostile.config, Setup.full, hostile)},
                        {"sample": benign.id, "code": adapter.render(benign.config, Setup.full, benign)}]
        lines += [{"sample": hostile.id, "code": program.aimed_at(hostile.config, wrong.config)}, *benign_lines]
        alone += [{"sample": hostile.id, "code": "// no call here\n"}, *benign_lines]
        expected[hostile.id] = program
    adapter.close()
    after_hostile = _judged(lines, tmp_path / "hostile", samples)
    on_their_own = _judged(alone, tmp_path / "alone", samples)
    assert sum(r["verdict"] == "correct" for r in on_their_own.values()) >= len(programs)  # the benign ones
    configs = {sample.id: sample.config for sample in samples}
    wrong = []
    for sample, result in after_hostile.items():
        program = expected.get(sample)
        if program is None:
            if result["verdict"] != on_their_own[sample]["verdict"]:
                wrong.append(f"benign {sample}: {result['verdict']} {result['error']} {result['error_detail']}, "
                             f"alone {on_their_own[sample]['verdict']}")
            continue
        ok = result["verdict"] != "correct" and expectation_met(
            program.expect, result["error"], result["error_detail"],
            None if result["verdict"] == "nonexecutable" else result["request"], configs[sample])
        if program.expect != NOT_CORRECT:
            ok = ok and result["verdict"] == "nonexecutable" and result["error"] in JS_ERRORS
        if not ok:
            wrong.append(f"{program.name}: {result['verdict']} {result['error']} {result['error_detail']}")
    assert wrong == [], "\n".join(wrong)
    stored = [path.read_text(errors="replace") for path in tmp_path.rglob("*") if path.is_file()]
    assert canaries.violations(stored) == []


def _readable_copy(source: Path, target: Path) -> None:
    shutil.copytree(source, target, symlinks=True)
    for path in [target, *target.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
                       | (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH if path.is_dir() else 0))


@pytest.mark.skipif(os.geteuid() != 0, reason="already an ordinary user: the other hostile tests run as one")
def readable_by_others(path: Path) -> bool:
    """Whether a user who is neither the owner nor in the group can read ``path`` (every directory
    above it searchable)."""
    if not path.stat().st_mode & stat.S_IROTH:
        return False
    return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.resolve().parents)


@pytest.mark.slow
def test_hostile_programs_are_contained_when_an_ordinary_user_runs_wapii(canaries: Canaries, bubblewrap: str) -> None:
    """The whole corpus, run by ``wapii-sbx`` itself: with bubblewrap (unprivileged, in a user
    namespace) and without it (Landlock, seccomp and the rest, sharing the user with the run)."""
    user = ensure_user()
    python = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    setpriv = shutil.which("setpriv")
    if user is None or not python.exists() or setpriv is None:
        pytest.skip(f"needs useradd, setpriv and {python} (the interpreter an ordinary user can run)")
    if not readable_by_others(CORPUS / "run_corpus.py"):
        pytest.skip(f"{REPO} is not readable by other users (a checkout under a private directory)")
    site = next(p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir())
    share = Path(canaries.directory.parent / f"{canaries.directory.name}-share")
    share.mkdir(mode=0o755)
    try:
        env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", SECRET_ENV: canaries.secret,
               "WAPII_CACHE_DIR": str(share / "cache"), **({bwrap.BWRAP_ENV: ""} if bubblewrap == "no-bubblewrap" else {}),
               "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), str(REPO), *[str(REPO / "plugins" / name) for name in JS_ADAPTERS],
                                              site])}
        if not node_missing:
            from wapii_axios_js.runtime import library as axios_library
            from wapii_core.sandbox.node import ensure_runtime, lock_digest
            from wapii_fetch_js.runtime import library as fetch_library

            for library in (axios_library(), fetch_library()):
                _readable_copy(ensure_runtime(library), share / "cache" / library.name / lock_digest(library))
        command = [setpriv, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--",
                   str(python), str(CORPUS / "run_corpus.py"), str(canaries.directory), str(canaries.port),
                   canaries.marker]
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd="/")
        if done.returncode != 0 and ("ModuleNotFoundError" in done.stderr or "ImportError" in done.stderr):
            pytest.skip(f"{python} cannot import this environment's packages: {done.stderr.strip().splitlines()[-1]}")
        assert done.returncode == 0, done.stderr[-2000:]
        rows = json.loads(done.stdout)
        assert problems(rows["py"], "py") == []
        if not node_missing:
            for name in JS_ADAPTERS:
                assert problems(rows[name], JS_CORPORA[name]) == []
        assert canaries.violations([done.stdout, done.stderr]) == []
    finally:
        shutil.rmtree(share, ignore_errors=True)
