"""The JavaScript runtime: finding Node.js and npm, and installing a library's pinned packages once, atomically."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from wapii_core.base.errors import MissingToolError
from wapii_core.base.node_tools import node_tool_env
from wapii_core.base.paths import cache_dir
from wapii_core.sandbox.node import NodeLibrary, RUNTIME_PACKAGES, env as node_env


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


@pytest.fixture
def lib(tmp_path: Path) -> NodeLibrary:
    """A library of the runtime's own packages only, with a hook that sets nothing up."""
    directory = tmp_path / "lib"
    directory.mkdir()
    (directory / "package.json").write_text(json.dumps({"dependencies": {name: "1.0.0" for name in RUNTIME_PACKAGES}}))
    (directory / "package-lock.json").write_text('{"lockfileVersion": 3}\n')
    (directory / "hook.js").write_text("module.exports = () => ({});\n")
    return NodeLibrary(name="some_js", dir=directory, prelude="", warm_up=("fetch('u');",))


def test_a_library_lacking_a_file_or_a_runtime_package_is_refused(lib: NodeLibrary) -> None:
    with pytest.raises(ValueError, match="lacks nope.js"):
        NodeLibrary(name="x", dir=lib.dir, hook="nope.js", prelude="", warm_up=("x",))
    (lib.dir / "package.json").write_text('{"dependencies": {"buffer": "6.0.3"}}')
    with pytest.raises(ValueError, match="does not depend on events, path-browserify"):
        NodeLibrary(name="x", dir=lib.dir, prelude="", warm_up=("x",))


def test_install_is_atomic_and_idempotent(fake_npm: Path, tmp_path: Path, lib: NodeLibrary) -> None:
    target = node_env.ensure_runtime(lib)
    assert target == tmp_path / "cache" / "some_js" / node_env.lock_digest(lib)
    assert (target / "node_modules" / "axios" / "package.json").is_file()
    assert (target / "package-lock.json").read_bytes() == (lib.dir / "package-lock.json").read_bytes()
    assert node_env.ensure_runtime(lib) == target
    calls = fake_npm.read_text().splitlines()
    assert len(calls) == 1
    assert "ci --omit=dev --no-audit --no-fund" in calls[0]
    assert not calls[0].startswith(str(target) + " ")  # installed elsewhere, then renamed into place
    assert [p.name for p in target.parent.iterdir() if not p.name.endswith(".lock")] == [target.name]


def test_concurrent_installs_run_npm_once(fake_npm: Path, lib: NodeLibrary) -> None:
    results: list[Path] = []
    threads = [threading.Thread(target=lambda: results.append(node_env.ensure_runtime(lib))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1 and len(results) == 4
    assert len(fake_npm.read_text().splitlines()) == 1


def test_incomplete_install_is_redone(fake_npm: Path, lib: NodeLibrary) -> None:
    target = cache_dir() / lib.name / node_env.lock_digest(lib)  # where ensure_runtime installs
    (target / "node_modules").mkdir(parents=True)  # e.g. a crash before the marker was written
    node_env.ensure_runtime(lib)
    assert node_env.is_installed(target)
    assert len(fake_npm.read_text().splitlines()) == 1


def test_failing_npm_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lib: NodeLibrary) -> None:
    monkeypatch.setenv("WAPII_NPM", str(executable(tmp_path / "npm", "#!/bin/sh\necho 'E404 no such package' >&2\nexit 1\n")))
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(Exception, match="E404"):
        node_env.ensure_runtime(lib)
    assert not node_env.is_installed(cache_dir() / lib.name / node_env.lock_digest(lib))


def test_missing_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WAPII_NODE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(MissingToolError, match="Node.js"):
        node_env.find_node()
    monkeypatch.setenv("WAPII_NODE", str(tmp_path / "no-such-node"))
    with pytest.raises(MissingToolError, match="WAPII_NODE"):
        node_env.find_node()


def test_missing_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WAPII_NPM", raising=False)
    monkeypatch.setenv("WAPII_NODE", str(executable(tmp_path / "node", "#!/bin/sh\nexit 0\n")))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(MissingToolError, match="npm"):
        node_env.find_npm()


def test_node_environment_is_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NODE_EXTRA_CA_CERTS", "/etc/ssl/certs/ca-certificates.crt")
    monkeypatch.setenv("NODE_OPTIONS", "--max-old-space-size=10")
    env = node_tool_env()  # what Node runs with outside the sandbox (npm ci, the Swagger 2 converter)
    assert "NODE_EXTRA_CA_CERTS" not in env and "NODE_OPTIONS" not in env
    assert env["PATH"] == os.environ["PATH"]
