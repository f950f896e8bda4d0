#!/usr/bin/env python3
"""Byte-compiles wapii, its plugins and every package they depend on (torch excepted), into the
packages' ``__pycache__`` directories.

``scripts/bootstrap`` installs with ``pip --no-compile`` (compiling torch costs about 30 s of CPU),
and where ``PYTHONDONTWRITEBYTECODE`` is set Python never writes the cache on first use either: every
``wapii`` process then compiles each module it imports from source, about half a second of CPU per
command. This script writes the cache once; a module changed later is compiled again in memory,
as Python does with any stale cache. torch is left out: only a run of the hf backend imports it,
and that run takes seconds anyway.

    .venv/bin/python scripts/compile_bytecode.py
"""

from __future__ import annotations

import compileall
import importlib.metadata as md
import re
import sys
from pathlib import Path

SKIP = {"torch"}
"""Distributions left to compile on first use (their whole tree is large, few of their modules are imported)."""


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def distributions() -> list[md.Distribution]:
    """wapii, the installed wapii plugins and their dependencies, each once (markers of extras not followed)."""
    from packaging.requirements import Requirement

    seen: dict[str, md.Distribution] = {}
    todo = ["wapii", *(d.metadata["Name"] for d in md.distributions() if _key(d.metadata["Name"] or "").startswith("wapii"))]
    while todo:
        name = todo.pop()
        if _key(name) in seen or _key(name) in SKIP:
            continue
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue
        seen[_key(name)] = dist
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return list(seen.values())


def sources(dist: md.Distribution) -> list[Path]:
    """The ``.py`` files ``dist``'s record lists (an editable install lists only its finder: its
    sources, wapii's and the plugins', are compiled from the checkout)."""
    files = [Path(dist.locate_file(f)) for f in dist.files or [] if f.suffix == ".py"]
    return [f for f in files if f.is_file() and "__editable__" not in f.name]


def main() -> int:
    """Compiles everything it can; a file that does not compile (a template shipped as ``.py``) is
    skipped, as Python would skip writing its cache."""
    sys.dont_write_bytecode = False
    root = Path(__file__).resolve().parent.parent
    compileall.compile_dir(root / "wapii_core", quiet=2, workers=0)
    for package in sorted((root / "plugins").glob("*/wapii_*")):
        compileall.compile_dir(package, quiet=2, workers=0)
    for dist in distributions():
        for path in sources(dist):
            compileall.compile_file(path, quiet=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
