"""Where an ``--out`` may write: never over a file that wapii did not write.

A run directory is recognised by its ``run.json``; a directory without one may hold only what an
unfinished wapii run leaves (its lock, a half-written temporary file). Anything else in it is the
user's, so ``wapii run``, ``wapii compare`` and ``wapii report`` refuse such a directory in one line
rather than replace ``report.md`` or ``summary.json`` there (``--force`` does not change that: it
starts a run over, it does not adopt a directory). A report is never written over a run's own files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from wapii_core.base.errors import WapiiError
from wapii_core.store.lock import LOCK_FILE
from wapii_core.store.rundir import RUN_FILE, RUN_FILES

COMPARE_FILES = ("compare.md", "compare.json")
"""What ``wapii compare`` writes next to its run directories."""


UNFINISHED = ("batches.json", "batch")
"""What a run killed while a provider-side batch was pending leaves before its ``run.json``: the
batches it paid for (``batches.json``) and their files (``batch/``), which the same command resumes."""


def _leftover(name: str) -> bool:
    """An entry an unfinished wapii run may leave: its lock, a temporary file of an atomic write, or
    the record of a pending batch (:data:`UNFINISHED`)."""
    return (name == LOCK_FILE or name in UNFINISHED
            or any(name.startswith(f".{own}.") for own in RUN_FILES + COMPARE_FILES))


def is_run_dir(directory: Path) -> bool:
    return (directory / RUN_FILE).is_file()


def _refuse(directory: Path, foreign: list[str], what: str) -> None:
    shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
    raise WapiiError(f"{directory}: not empty and not {what} (it holds {shown}); wapii never writes over files it "
                     "did not write: give --out a new or empty directory")


def _foreign(directory: Path, allowed: Callable[[Path], bool]) -> list[str]:
    return sorted(entry.name for entry in directory.iterdir() if not _leftover(entry.name) and not allowed(entry))


def _usable(directory: Path) -> bool:
    """A directory a run may be written into: absent, a run directory, or holding only leftovers."""
    if not directory.exists():
        return True
    if not directory.is_dir():
        return False
    return is_run_dir(directory) or not _foreign(directory, lambda entry: False)


def check_run_out(directory: Path) -> None:
    """Refuse ``directory`` as a run's ``--out`` unless it is absent, empty, a run directory, or what
    an unfinished run left."""
    directory = Path(directory)
    if not directory.exists():
        return
    if not directory.is_dir():
        raise WapiiError(f"{directory}: is a file, not a directory; give --out a new or empty directory")
    if is_run_dir(directory):
        return
    foreign = _foreign(directory, lambda entry: False)
    if foreign:
        _refuse(directory, foreign, "a run directory")


def check_parent_out(directory: Path, children: Iterable[str], files: Iterable[str] = ()) -> None:
    """Refuse ``directory`` as the ``--out`` of several runs (one sub-directory per name in ``children``,
    plus ``files`` wapii writes next to them) when it holds anything else, or a child that is neither a
    run directory nor empty."""
    directory = Path(directory)
    if not directory.exists():
        return
    if not directory.is_dir():
        raise WapiiError(f"{directory}: is a file, not a directory; give --out a new or empty directory")
    names, own_files = set(children), set(files)
    has_runs = any(is_run_dir(entry) for entry in directory.iterdir() if entry.is_dir())

    def allowed(entry: Path) -> bool:
        if entry.name in own_files:
            return has_runs and entry.is_file()
        return entry.name in names and _usable(entry)

    foreign = _foreign(directory, allowed)
    if foreign:
        _refuse(directory, foreign, "the output of such runs")


BUNDLE_SIGNATURE = b'wapii.put("meta",'
"""How the ``data/meta.js`` of a viewer bundle starts (``wapii view --bundle`` writes it)."""


def is_bundle(directory: Path) -> bool:
    """Whether ``directory`` holds a viewer bundle wapii wrote: its ``data/meta.js``, a regular file (not
    a link) that starts with :data:`BUNDLE_SIGNATURE`."""
    import os

    meta = Path(directory) / "data" / "meta.js"
    if meta.is_symlink() or (meta.parent.is_symlink()) or not meta.is_file():
        return False
    try:
        fd = os.open(meta, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        return os.pread(fd, len(BUNDLE_SIGNATURE), 0) == BUNDLE_SIGNATURE
    finally:
        os.close(fd)


def check_bundle_out(directory: Path) -> None:
    """Refuse ``directory`` as ``wapii view --bundle``'s unless it is absent, empty, or a bundle wapii
    wrote (whose ``index.html``, ``assets/`` and ``data/`` are replaced; the rest is left alone)."""
    directory = Path(directory)
    if not directory.exists() and not directory.is_symlink():
        return
    if not directory.is_dir():
        raise WapiiError(f"{directory}: --bundle must name a directory (a file is there)")
    if is_bundle(directory):
        return
    foreign = _foreign(directory, lambda entry: False)
    if foreign:
        _refuse(directory, foreign, "a viewer bundle")


def check_report_out(path: Path) -> None:
    """Refuse writing a report to ``path`` when it is one of a run directory's own files."""
    path = Path(path)
    if path.name in RUN_FILES and is_run_dir(path.parent):
        raise WapiiError(f"{path}: is the run's own {path.name} (wapii run writes it); give the report another "
                         f"file name, e.g. --out {path.with_name('combined-' + path.name)}")
