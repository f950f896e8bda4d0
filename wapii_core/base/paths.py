"""Where wapii keeps its per-user files."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """The per-user cache root: ``$WAPII_CACHE_DIR``, else ``$XDG_CACHE_HOME/wapii``, else ``~/.cache/wapii``."""
    explicit = os.environ.get("WAPII_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "wapii"


def default_data_dir(dataset: str) -> Path:
    """The directory a downloaded dataset lives in unless ``--data-dir``/``WAPII_DATA_DIR`` says otherwise."""
    return cache_dir() / "datasets" / dataset


def bundled_specs_dir() -> Path:
    """The project's own OpenAPI specs and datasets (``specs/`` in the source tree)."""
    return Path(__file__).resolve().parent / "specs"
