"""What a Python worker may read: the directories of the code it runs, minus what the judge reads.

A snippet process may import what its worker imports, and the standard library, and nothing else:
not the working directory, not ``''``, not ``PYTHONPATH`` or other arbitrary ``sys.path`` entries
(``python -m wapii_core`` puts the working directory first on ``sys.path``), and not the answer key.
The judge's data can live inside packages a worker runs code from (the demo dataset ships inside
``wapii_core``, a plugin may ship its own dataset inside its package, in a wheel or an editable
install alike), so :func:`code_view` returns the read roots together with the *hidden* directories
beneath them: every directory holding a ``dataset.json`` inside the package of a distribution that
plugs into wapii (entry-point group ``wapii``, the core included), and the core's bundled specs.

:func:`allow_list` turns roots and hidden paths into the allow-list Landlock needs (Landlock grants
beneath paths and cannot subtract): a root with a hidden path beneath it is replaced by its
entries, recursively, leaving out the branch that leads to the hidden path. bubblewrap mounts an
empty tmpfs over every hidden directory instead (:func:`.bwrap.mount_args`).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import sysconfig
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

DATASET_MARKER = "dataset.json"
ENTRY_POINT_GROUP = "wapii"


@dataclass(frozen=True)
class CodeView:
    """``roots``: paths a worker reads beneath; ``hidden``: directories beneath them it must not read;
    ``import_dirs``: the directories that hold the imported packages outside the interpreter's own
    (an editable install, a ``PYTHONPATH`` entry): on the worker's ``sys.path``, listed but not read."""

    roots: tuple[Path, ...]
    hidden: tuple[Path, ...]
    import_dirs: tuple[Path, ...] = ()


def _top_level(name: str) -> str:
    return name.split(":", 1)[0].split(".", 1)[0]


def module_locations(names: Iterable[str]) -> list[Path]:
    """Where the top-level packages (or single-file modules) of ``names`` live."""
    paths: list[Path] = []
    for name in dict.fromkeys(_top_level(n) for n in names):
        spec = importlib.util.find_spec(name)
        if spec is None:
            raise ImportError(f"no module named {name!r} (needed by the Python sandbox)")
        if spec.submodule_search_locations:
            paths += [Path(p).resolve() for p in spec.submodule_search_locations]
        elif spec.origin and os.path.isabs(spec.origin):
            paths.append(Path(spec.origin).resolve())
    return paths


def interpreter_paths() -> list[Path]:
    """The interpreter's own code: its executable and shared library, the standard library (``lib-dynload`` included) and
    the site directories of this environment (where installed distributions live)."""
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    shared = [Path(libdir) / name for name in (sysconfig.get_config_var("INSTSONAME"),
                                               sysconfig.get_config_var("LDLIBRARY")) if libdir and name]
    paths = [Path(sys.executable).resolve(), *shared, *(Path(sysconfig.get_path(name)) for name in names)]
    return [p for p in dict.fromkeys(p.resolve() for p in paths) if p.exists()]


def judge_data_dirs() -> list[Path]:
    """Directories of data the judge reads that live inside installed code: the core's bundled specs
    and every directory holding a ``dataset.json`` inside the packages of wapii's plugins."""
    from importlib.metadata import entry_points

    from wapii_core.base.paths import bundled_specs_dir

    hidden = {bundled_specs_dir().resolve()}
    modules = {_top_level(ep.value) for ep in entry_points(group=ENTRY_POINT_GROUP)} | {"wapii_core"}
    for module in sorted(modules):
        try:
            locations = module_locations([module])
        except (ImportError, ValueError):
            continue
        for location in locations:
            if not location.is_dir():
                continue
            for directory, subdirs, files in os.walk(location):
                if DATASET_MARKER in files:
                    hidden.add(Path(directory).resolve())
                    subdirs.clear()
                subdirs[:] = [d for d in subdirs if d not in ("__pycache__", "node_modules")]
    return sorted(hidden)


def code_view(modules: Iterable[str]) -> CodeView:
    """The read roots of a worker importing ``modules`` (and what those import from the environment),
    and the judge's data beneath them."""
    interpreter, located = interpreter_paths(), module_locations(modules)
    roots = sorted(dict.fromkeys([*interpreter, *located]), key=str)
    hidden = [h for h in judge_data_dirs() if any(h == r or r in h.parents for r in roots)]
    parents = [p.parent for p in located if not any(p.parent == r or r in p.parent.parents for r in interpreter)]
    return CodeView(tuple(roots), tuple(hidden), tuple(dict.fromkeys(parents)))


def hides(path: Path, hidden: Iterable[Path]) -> bool:
    """Whether ``path`` is one of ``hidden`` or beneath one."""
    return any(path == h or h in path.parents for h in hidden)


def allow_list(roots: Iterable[Path], hidden: Iterable[Path]) -> list[Path]:
    """``roots`` with every hidden path carved out: a root holding a hidden path is replaced by its
    entries (recursively), the hidden branch left out."""
    hidden = [Path(h) for h in hidden]
    out: list[Path] = []

    def add(path: Path) -> None:
        inside = [h for h in hidden if h == path or path in h.parents]
        if not inside:
            out.append(path)
            return
        if path in inside or not path.is_dir() or path.is_symlink():
            return
        for entry in sorted(path.iterdir()):
            # a link is never a rule of its own: Landlock would allow its target, wherever that is
            # (the root it sits in allowed only what lies beneath the root)
            if not entry.is_symlink() and not hides(entry.resolve(), hidden):
                add(entry)

    for root in roots:
        add(Path(root))
    return out
