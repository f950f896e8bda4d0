"""Where a library's workers find Node.js, their sources and their pinned npm packages.

The packages (for axios_js: axios and axios-mock-adapter, the versions the reference pipeline used)
are pinned by the ``package-lock.json`` in the library's directory (:class:`.library.NodeLibrary`)
and installed once per lock into ``<wapii cache>/<library>/<sha256 of the lock>/node_modules``
by :func:`wapii_core.base.node_tools.ensure_packages` (``npm ci`` in a temporary sibling directory
renamed into place when complete, under a file lock).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from wapii_core.base.node_tools import (
    COMPLETE_MARKER,
    ESSENTIAL_ENV,
    ensure_packages,
    find_node,
    find_npm,
    is_installed,
    lock_digest_of,
)
from wapii_core.sandbox.node.library import NodeLibrary

__all__ = ["COMPLETE_MARKER", "ESSENTIAL_ENV", "ensure_packages", "ensure_runtime", "find_node", "find_npm",
           "is_installed", "js_dir", "lock_digest"]


def js_dir() -> Path:
    """The runtime's JavaScript sources (the worker and the realm)."""
    return Path(str(resources.files("wapii_core.sandbox.node") / "js"))


def lock_digest(library: NodeLibrary) -> str:
    """A short sha256 of the library's lock file: the name of its install directory."""
    return lock_digest_of(library.dir)


def ensure_runtime(library: NodeLibrary) -> Path:
    """Install the library's pinned packages if they are not installed yet; returns the runtime directory.

    Idempotent and safe to call from several processes at once.
    """
    return ensure_packages(library.name, library.dir, f"the {library.name} adapter")


