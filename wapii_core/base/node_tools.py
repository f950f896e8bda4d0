"""Finding Node.js and npm, and installing pinned npm packages into the cache once, atomically.

Library-neutral: the JavaScript adapters' sandboxed workers (:mod:`wapii_core.sandbox.node.env`)
and the Swagger 2.0 converter (:mod:`wapii_core.openapi.swagger2`) both install what a ``package.json`` and
its ``package-lock.json`` pin with :func:`ensure_packages`: ``npm ci`` into
``<wapii cache>/<name>/<sha256 of the lock>``, built once among processes
(:func:`wapii_core.base.staged_dir.build_once`), so that concurrent processes neither install twice
nor see a half-installed tree.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from wapii_core.base.errors import MissingToolError, WapiiError
from wapii_core.base.paths import cache_dir
from wapii_core.base.staged_dir import build_once

PACKAGE_FILES = ("package.json", "package-lock.json")
COMPLETE_MARKER = ".wapii-complete"
ESSENTIAL_ENV = ("PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP", "LANG", "LC_ALL", "TZ")
"""The only variables a worker inherits: others (e.g. NODE_OPTIONS, NODE_EXTRA_CA_CERTS, which costs
~250 ms per Node start) would change how, or how fast, Node runs the snippets."""


def node_tool_env() -> dict[str, str]:
    """The environment Node and npm run with outside the sandbox (``npm ci``, the Swagger 2.0 converter):
    only the essentials (:data:`ESSENTIAL_ENV`) of this process's. A sandboxed worker's environment is
    :func:`wapii_core.sandbox.limits.clean_env`'s, fixed values that owe nothing to this process's."""
    return {name: os.environ[name] for name in ESSENTIAL_ENV if name in os.environ}


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
            "wapii needs Node.js (18 or newer; the benchmark used 20) for its JavaScript adapters and to read "
            "Swagger 2.0 specs: install it "
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


def lock_digest_of(source: Path) -> str:
    """A short sha256 of ``source``'s lock file: the name of its install directory."""
    return hashlib.sha256((source / "package-lock.json").read_bytes()).hexdigest()[:16]


def is_installed(directory: Path) -> bool:
    return (directory / COMPLETE_MARKER).is_file()


def _npm_ci(npm: str, directory: Path, name: str) -> None:
    command = [npm, "ci", "--omit=dev", "--no-audit", "--no-fund", "--ignore-scripts"]
    try:
        done = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired as exc:
        raise WapiiError(f"`npm ci` for {name} did not finish in {exc.timeout:.0f} s") from exc
    if done.returncode != 0:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        raise WapiiError(f"`npm ci` for {name} failed (exit {done.returncode}) in {directory}: {tail}")


def ensure_packages(name: str, source: Path, purpose: str) -> Path:
    """Install the npm packages pinned by ``source``'s ``package.json`` and ``package-lock.json`` into
    ``<wapii cache>/<name>/<sha256 of the lock>`` unless they are there; returns that directory.

    ``purpose`` names who needs them in errors. Idempotent and safe to call from several processes at once.
    """
    target = cache_dir() / name / lock_digest_of(source)

    def install(staging: Path) -> None:  # staging is 0755: sandboxed workers may run as another user
        npm = find_npm()
        for file in PACKAGE_FILES:
            shutil.copyfile(source / file, staging / file)
        _npm_ci(npm, staging, purpose)
        (staging / COMPLETE_MARKER).write_text(f"installed by wapii for {purpose}\n")

    return build_once(target, is_installed, install)
