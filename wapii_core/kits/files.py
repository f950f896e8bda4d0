"""The files kit: caches and files a plugin keeps.

Where wapii keeps caches, the bundled specs, writing a file atomically, and building a directory
once even when several processes ask at the same time.

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.files import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # Files and caches.
    "cache_dir": "wapii_core.base.paths",
    "bundled_specs_dir": "wapii_core.base.paths",
    "write_atomic": "wapii_core.base.atomic",
    "build_once": "wapii_core.base.staged_dir",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.files has no {name!r}")
