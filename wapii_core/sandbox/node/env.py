"""Finding Node.js and npm, and installing the pinned npm packages of a library's workers.

The packages (for axios_js: axios and axios-mock-adapter, the versions the reference pipeline used)
are pinned by the ``package-lock.json`` in the library's directory (:class:`.library.NodeLibrary`)
and installed once per lock into ``<wapii cache>/<library>/<sha256 of the lock>/node_modules``
with ``npm ci``. The install happens
in a temporary sibling directory that is renamed into place when complete, under a file lock, so
that concurrent processes neither install twice nor see a half-installed tree.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from wapii_core.base.errors import MissingToolError, WapiiError
from wapii_core.base.paths import cache_dir
from wapii_core.sandbox.node.library import PACKAGE_FILES, NodeLibrary

COMPLETE_MARKER = ".wapii-complete"
ESSENTIAL_ENV = ("PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP", "LANG", "LC_ALL", "TZ")
"""The only variables a worker inherits: others (e.g. NODE_OPTIONS, NODE_EXTRA_CA_CERTS, which costs
~250 ms per Node start) would change how, or how fast, Node runs the snippets."""


def js_dir() -> Path:
    """The runtime's JavaScript sources (the worker and the realm)."""
    return Path(str(resources.files("wapii_core.sandbox.node") / "js"))


def find_node() -> str:
    """The ``node`` binary: ``$WAPII_NODE`` if set, else the first on ``PATH``."""
    explicit = os.environ.get("WAPII_NODE")
    if explicit:
        if not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
            raise MissingToolError(f"WAPII_NODE={explicit} is not an executable file")
        return explicit
    found = shutil.which("node")
    if found is None:
        raise MissingToolError(
            "wapii's JavaScript adapters need Node.js (18 or newer; the benchmark used 20): install it "
            "from https://nodejs.org or your package manager, or set WAPII_NODE to the node binary"
        )
    return found


def find_npm() -> str:
    """The ``npm`` binary: ``$WAPII_NPM``, else the one beside ``node``, else the first on ``PATH``."""
    explicit = os.environ.get("WAPII_NPM")
    if explicit:
        return explicit
    beside_node = Path(find_node()).with_name("npm")
    if beside_node.is_file():
        return str(beside_node)
    found = shutil.which("npm")
    if found is None:
        raise MissingToolError(
            "wapii's JavaScript adapters need npm to install their npm packages once: install "
            "npm (it comes with Node.js) or set WAPII_NPM to the npm binary"
        )
    return found


def worker_env() -> dict[str, str]:
    """The clean environment workers run with: only the essentials of this process's environment."""
    return {name: os.environ[name] for name in ESSENTIAL_ENV if name in os.environ}


def lock_digest(library: NodeLibrary) -> str:
    """A short sha256 of the library's lock file: the name of its install directory."""
    return hashlib.sha256((library.dir / "package-lock.json").read_bytes()).hexdigest()[:16]


def runtime_dir(library: NodeLibrary) -> Path:
    """Where the packages of the library's lock are (or will be) installed."""
    return cache_dir() / library.name / lock_digest(library)


def is_installed(directory: Path) -> bool:
    return (directory / COMPLETE_MARKER).is_file()


@contextlib.contextmanager
def _install_lock(path: Path) -> Iterator[None]:
    """An exclusive lock between processes (``fcntl``); without it, the final rename still decides."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _npm_ci(npm: str, directory: Path, name: str) -> None:
    command = [npm, "ci", "--omit=dev", "--no-audit", "--no-fund", "--ignore-scripts"]
    try:
        done = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired as exc:
        raise WapiiError(f"`npm ci` for the {name} adapter did not finish in {exc.timeout:.0f} s") from exc
    if done.returncode != 0:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        raise WapiiError(f"`npm ci` for the {name} adapter failed (exit {done.returncode}) in {directory}: {tail}")


def ensure_runtime(library: NodeLibrary) -> Path:
    """Install the library's pinned packages if they are not installed yet; returns the runtime directory.

    Idempotent and safe to call from several processes at once.
    """
    target = runtime_dir(library)
    if is_installed(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with _install_lock(target.parent / f".{target.name}.lock"):
        if is_installed(target):
            return target
        npm = find_npm()
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
        staging.chmod(0o755)  # sandboxed workers may run as another user (wapii_core.sandbox.users)
        try:
            for name in PACKAGE_FILES:
                shutil.copyfile(library.dir / name, staging / name)
            _npm_ci(npm, staging, library.name)
            (staging / COMPLETE_MARKER).write_text(f"installed by wapii for {library.name}\n")
            if target.exists():  # a stale, incomplete install
                shutil.rmtree(target, ignore_errors=True)
            try:
                os.rename(staging, target)
            except OSError:
                if not is_installed(target):  # lost a race against a process without the lock
                    raise
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
    return target

