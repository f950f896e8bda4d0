"""Finding Node.js and npm, and installing the pinned packages once, atomically."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from wapii_core.errors import MissingToolError
from wapii_axios_js import node_env
from wapii_axios_js.adapter import AxiosAdapter


def executable(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def fake_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An `npm` stand-in that 'installs' by creating node_modules and logs each call."""
    log = tmp_path / "npm-calls.log"
    npm = executable(
        tmp_path / "npm",
        f"#!/bin/sh\necho \"$PWD $*\" >> {log}\nsleep 0.2\nmkdir -p node_modules/axios && echo '{{}}' > node_modules/axios/package.json\n",
    )
    monkeypatch.setenv("WAPII_NPM", str(npm))
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path / "cache"))
    return log


def test_shipped_lock_pins_the_reference_versions() -> None:
    lock = json.loads((node_env.js_dir() / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/axios"]["version"] == "1.21.1"
    assert lock["packages"]["node_modules/axios-mock-adapter"]["version"] == "2.1.0"
    manifest = json.loads((node_env.js_dir() / "package.json").read_text())
    sandbox_stand_ins = {"buffer": "6.0.3", "events": "3.3.0", "path-browserify": "1.0.1", "querystring-es3": "0.2.1",
                         "whatwg-url": "14.2.0"}  # pure-JS modules the sandboxed contexts load (js/bundle.js)
    assert manifest["dependencies"] == {"axios": "1.21.1", "axios-mock-adapter": "2.1.0", **sandbox_stand_ins}


def test_install_is_atomic_and_idempotent(fake_npm: Path, tmp_path: Path) -> None:
    target = node_env.ensure_runtime()
    assert target == tmp_path / "cache" / "axios_js" / node_env.lock_digest()
    assert (target / "node_modules" / "axios" / "package.json").is_file()
    assert (target / "package-lock.json").read_bytes() == (node_env.js_dir() / "package-lock.json").read_bytes()
    assert node_env.ensure_runtime() == target
    calls = fake_npm.read_text().splitlines()
    assert len(calls) == 1
    assert "ci --omit=dev --no-audit --no-fund" in calls[0]
    assert not calls[0].startswith(str(target) + " ")  # installed elsewhere, then renamed into place
    assert [p.name for p in target.parent.iterdir() if not p.name.endswith(".lock")] == [target.name]


def test_concurrent_installs_run_npm_once(fake_npm: Path) -> None:
    results: list[Path] = []
    threads = [threading.Thread(target=lambda: results.append(node_env.ensure_runtime())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1 and len(results) == 4
    assert len(fake_npm.read_text().splitlines()) == 1


def test_incomplete_install_is_redone(fake_npm: Path) -> None:
    target = node_env.runtime_dir()
    (target / "node_modules").mkdir(parents=True)  # e.g. a crash before the marker was written
    node_env.ensure_runtime()
    assert node_env.is_installed(target)
    assert len(fake_npm.read_text().splitlines()) == 1


def test_failing_npm_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAPII_NPM", str(executable(tmp_path / "npm", "#!/bin/sh\necho 'E404 no such package' >&2\nexit 1\n")))
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(Exception, match="E404"):
        node_env.ensure_runtime()
    assert not node_env.is_installed(node_env.runtime_dir())


def test_missing_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WAPII_NODE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(MissingToolError, match="Node.js"):
        node_env.find_node()
    with pytest.raises(MissingToolError, match="Node.js"):
        AxiosAdapter().execute(["axios.get('u');\n"])
    monkeypatch.setenv("WAPII_NODE", str(tmp_path / "no-such-node"))
    with pytest.raises(MissingToolError, match="WAPII_NODE"):
        node_env.find_node()


def test_missing_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WAPII_NPM", raising=False)
    monkeypatch.setenv("WAPII_NODE", str(executable(tmp_path / "node", "#!/bin/sh\nexit 0\n")))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(MissingToolError, match="npm"):
        node_env.find_npm()


def test_worker_environment_is_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NODE_EXTRA_CA_CERTS", "/etc/ssl/certs/ca-certificates.crt")
    monkeypatch.setenv("NODE_OPTIONS", "--max-old-space-size=10")
    env = node_env.worker_env()
    assert "NODE_EXTRA_CA_CERTS" not in env and "NODE_OPTIONS" not in env
    assert env["PATH"] == os.environ["PATH"]
