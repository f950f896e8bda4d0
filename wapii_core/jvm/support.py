"""What every program's JVM runs with besides the program: wapii's launcher and pass-through TLS
provider, and a class archive that makes a cold JVM start fast.

:func:`support_jar`: ``wapii.Launch`` and ``wapii.PlainTls`` (``java/wapii/*.java``: every program's
``main`` opens with ``wapii.Launch.install()``, which puts the pass-through provider first, so that a
library's ``https://`` request reaches the recorder as the HTTP it wrote), ``wapii.Compile`` (the
long-lived javac of :mod:`.compile`) and the library's warm-up program (``WapiiWarmup``), compiled
into one jar, once per compiler, runtime and library, into the cache.

:func:`class_archive`: the classes a training run of the warm-up loaded, linked and (Java 25 on)
profiled, dumped once by the runtime: an ahead-of-time cache (``-XX:AOTCacheOutput``, Java 25 and
later) or a dynamic AppCDS archive (``-XX:ArchiveClassesAtExit``, older runtimes). Every program's
JVM maps it (:func:`archive_flags`). Both files live in directories of their own, built whole by
:func:`~wapii_core.base.staged_dir.build_once`; the archive's training uses the jar at its final
place (an archive records the class path it was made with).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from wapii_core.base.paths import cache_dir
from wapii_core.jvm.toolchain import Jdk

LAUNCHER = "wapii.Launch"
"""The main class of the warm-up's training run: it installs the pass-through provider and calls the
warm-up's ``main`` (a program's own ``main`` installs it itself)."""
SOURCES = ("Launch.java", "PlainTls.java", "Compile.java")
WARMUP_CLASS = "WapiiWarmup"
AOT_FEATURE = 25
"""The first Java whose ``-XX:AOTCacheOutput`` makes an ahead-of-time cache in one training run."""


@dataclass(frozen=True)
class JavaLibrary:
    """One Java HTTP library as the runner needs it: the jars on the programs' class path and a
    trusted warm-up program (class ``WapiiWarmup``) that exercises it for the class archive."""

    name: str
    jars: tuple[Path, ...] = ()
    warmup: str = ""


def release(jdk: Jdk, runtime: Jdk) -> int:
    """The ``javac --release`` programs are compiled for: the older of compiler and runtime."""
    return min(jdk.feature, runtime.feature)


def wapii_sources() -> dict[str, str]:
    """``{file name: source}`` of the launcher and the provider."""
    folder = resources.files("wapii_core.jvm").joinpath("java", "wapii")
    return {name: folder.joinpath(name).read_text(encoding="utf-8") for name in SOURCES}


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps([str(p) for p in parts]).encode()).hexdigest()[:16]


def _readable(path: Path) -> None:
    for item in [path, *path.rglob("*")]:
        item.chmod(0o755 if item.is_dir() else 0o644)


def support_jar(jdk: Jdk, runtime: Jdk, library: JavaLibrary) -> Path:
    """The jar of the launcher, the provider and ``library``'s warm-up, built once into the cache.
    Raises ``RuntimeError`` (javac's last lines) when they do not compile."""
    from wapii_core.base.staged_dir import build_once

    sources = wapii_sources()
    home = cache_dir() / "jvm" / f"support-{library.name}-{_key(jdk.home, jdk.version, release(jdk, runtime), library.jars, library.warmup, sorted(sources.items()))}"

    def build(staging: Path) -> None:
        with tempfile.TemporaryDirectory(prefix="wapii-support-") as work:
            src, classes = Path(work) / "src", Path(work) / "classes"
            (src / "wapii").mkdir(parents=True)
            files = []
            for name, text in sources.items():
                files.append(src / "wapii" / name)
                files[-1].write_text(text, encoding="utf-8")
            if library.warmup:
                files.append(src / f"{WARMUP_CLASS}.java")
                files[-1].write_text(library.warmup, encoding="utf-8")
            cp = ":".join(map(str, library.jars))
            done = subprocess.run([str(jdk.javac), "--release", str(release(jdk, runtime)), "-proc:none", "-nowarn",
                                   "-encoding", "UTF-8", "-d", str(classes), *(["-cp", cp] if cp else []), *map(str, files)],
                                  capture_output=True, text=True, timeout=300)
            if done.returncode != 0:
                raise RuntimeError(f"wapii's Java support classes do not compile: {done.stderr.strip()[-500:]}")
            subprocess.run([str(jdk.home / "bin" / "jar"), "cf", str(staging / "support.jar"), "-C", str(classes), "."],
                           check=True, capture_output=True, timeout=120)
        _readable(staging)

    return build_once(home, lambda d: (d / "support.jar").is_file(), build) / "support.jar"


def archive_flags(runtime: Jdk, archive: Path | None) -> list[str]:
    """The flags that make a JVM of ``runtime`` map ``archive`` (none without one)."""
    if archive is None:
        return []
    if runtime.feature >= AOT_FEATURE:
        return [f"-XX:AOTCache={archive}"]
    return ["-Xshare:auto", f"-XX:SharedArchiveFile={archive}"]


def _training_flags(runtime: Jdk, archive: Path) -> list[str]:
    if runtime.feature >= AOT_FEATURE:
        return [f"-XX:AOTCacheOutput={archive}"]
    return ["-Xshare:auto", f"-XX:ArchiveClassesAtExit={archive}"]


def class_archive(runtime: Jdk, jar: Path, library: JavaLibrary, flags: tuple[str, ...],
                  train: Callable[[list[str], str], None]) -> Path | None:
    """The class archive of ``library``'s warm-up for this runtime, jar and JVM ``flags``, dumped once
    into the cache: ``train(training flags, class path)`` runs the warm-up (``LAUNCHER WARMUP_CLASS``)
    to its end. None when there is no warm-up or no archive could be made (JVMs then start slower)."""
    from wapii_core.base.staged_dir import build_once

    if not library.warmup:
        return None
    name = "app.aot" if runtime.feature >= AOT_FEATURE else "app.jsa"
    home = cache_dir() / "jvm" / f"archive-{library.name}-{_key(runtime.home, runtime.version, jar, library.jars, flags)}"
    classpath = ":".join([str(jar), *map(str, library.jars)])

    def build(staging: Path) -> None:
        archive = staging / name
        train(_training_flags(runtime, archive), classpath)
        if not archive.is_file():
            raise RuntimeError("the training run wrote no archive")
        _readable(staging)

    try:
        return build_once(home, lambda d: (d / name).is_file(), build) / name
    except Exception:  # noqa: BLE001 - a missing archive only costs start-up time
        return None
