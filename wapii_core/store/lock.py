"""The lock on a run directory: one ``wapii run`` or ``wapii evaluate`` writes it at a time.

:class:`RunLock` holds an exclusive ``flock`` (:mod:`wapii_core.base.file_lock`) on ``<run-dir>/.lock`` (holding the holder's
pid, for the refusal message) from before anything is read until the run ends. A second process
is refused at once with a one-line :class:`~wapii_core.base.errors.WapiiError` naming the directory.
The kernel drops the lock when its holder dies, so a killed run never blocks the next one.

Acquiring also checks the ``--out`` path: an existing file, or a directory that cannot be created
or written, is an :class:`~wapii_core.base.errors.InputError`. Releasing removes the lock file, and the
directories the lock created if nothing else was written into them.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from types import TracebackType

from wapii_core.base.errors import InputError, WapiiError
from wapii_core.base.file_lock import flock

LOCK_FILE = ".lock"


class RunLock:
    """An exclusive lock on one run directory; ``create=False`` requires the directory to exist.

    ``read_only`` (a reader of someone else's directory, ``wapii merge`` of shards) writes nothing into
    the directory: it takes a shared lock on an existing ``.lock`` (refused while a writer holds it),
    and none when there is no ``.lock`` (no process is writing the directory)."""

    def __init__(self, directory: Path, *, create: bool = True, read_only: bool = False) -> None:
        self.directory = Path(directory)
        self.create = create and not read_only
        self.read_only = read_only
        self._fd: int | None = None
        self._held = False
        self._created: list[Path] = []  # directories this lock made, outermost first

    @property
    def path(self) -> Path:
        return self.directory / LOCK_FILE

    def acquire(self) -> "RunLock":
        """Take the lock (creating the directory if allowed), or raise a one-line error."""
        if self._held:
            return self
        self._created = self._make_directory()
        try:
            self._fd = self._lock_shared() if self.read_only else self._lock()
            self._held = True
        except BaseException:
            self._remove_created()
            raise
        return self

    def release(self) -> None:
        """Drop the lock; remove the lock file, and the directories this lock created if they are empty."""
        if not self._held:
            return
        self._held = False
        if self._fd is None:  # a reader that found no lock file
            return
        try:
            if not self.read_only:
                self.path.unlink(missing_ok=True)  # while still held: a waiter that opened it retries (see _lock)
        finally:
            os.close(self._fd)
            self._fd = None
        self._remove_created()

    def __enter__(self) -> "RunLock":
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.release()

    def _make_directory(self) -> list[Path]:
        missing = []
        for path in (self.directory, *self.directory.parents):
            if path.is_dir():
                break
            if path.exists() or path.is_symlink():
                raise InputError(path, "is not a directory (--out names the run directory)")
            missing.append(path)
        if missing and not self.create:
            raise WapiiError(f"{self.directory}: not a run directory (no such directory)")
        created: list[Path] = []
        for path in reversed(missing):
            try:
                path.mkdir()
            except FileExistsError:
                if not path.is_dir():
                    self._remove(created)
                    raise InputError(path, "is not a directory (--out names the run directory)") from None
                continue  # made by someone else meanwhile: not ours to remove
            except OSError as exc:
                self._remove(created)
                raise InputError(self.directory, f"cannot create the run directory: {exc.strerror or exc}") from None
            created.append(path)
        return created

    def _lock(self) -> int:
        while True:
            try:
                fd = _open_lock_file(self.path)
            except FileNotFoundError:
                if not self.create or self._created:
                    raise WapiiError(f"{self.directory}: not a run directory (no such directory)") from None
                self._created = self._make_directory()  # removed by a run that just gave up on it
                continue
            except WapiiError:
                raise
            except OSError as exc:
                raise InputError(self.directory, f"cannot write the run directory: {exc.strerror or exc}") from None
            try:
                got = flock(fd, wait=False)
            except OSError as exc:
                os.close(fd)
                raise InputError(self.directory, f"cannot lock the run directory: {exc.strerror or exc}") from None
            if not got:
                holder = _holder_pid(fd)
                os.close(fd)
                who = f"another wapii process (pid {holder})" if holder else "another wapii process"
                raise WapiiError(f"{self.directory}: {who} is writing this run directory; wait for it to end "
                                 "or use another --out") from None
            try:
                same = os.lstat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if not same:  # its holder removed it between our open and our lock: lock the new one
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            return fd

    def _lock_shared(self) -> int | None:
        """A shared lock on the existing lock file, or None when there is none; nothing is written."""
        try:
            fd = _open_lock_file(self.path, create=False)
        except FileNotFoundError:
            return None
        except WapiiError:
            raise
        except OSError as exc:
            raise InputError(self.path, f"cannot open the lock file: {exc.strerror or exc}") from None
        try:
            got = flock(fd, shared=True, wait=False)
        except OSError:
            got = False
        if not got:
            holder = _holder_pid(fd)
            os.close(fd)
            who = f"another wapii process (pid {holder})" if holder else "another wapii process"
            raise WapiiError(f"{self.directory}: {who} is writing this run directory; wait for it to end") from None
        return fd

    def _remove_created(self) -> None:
        self._remove(self._created)
        self._created = []

    @staticmethod
    def _remove(created: list[Path]) -> None:
        for path in reversed(created):
            try:
                path.rmdir()
            except OSError:
                return  # something was written into it: keep it (and its parents)


def _open_lock_file(path: Path, create: bool = True) -> int:
    """An fd of the lock file: created exclusively, or the existing one (a killed run's) opened without
    following a link, and refused unless it is a regular file of one link (a ``.lock`` that is a link, a
    hard link or a FIFO that someone else's directory holds is never written through)."""
    flags = (os.O_RDWR if create else os.O_RDONLY) | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    while True:
        if create:
            try:
                return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                pass
        try:
            fd = os.open(path, flags)
            break
        except FileNotFoundError:
            if not create:
                raise
            continue  # its holder removed it meanwhile: create it
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise InputError(path, "is a symbolic link, not a lock file wapii wrote (remove it)") from None
            raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        raise InputError(path, "is not a lock file wapii wrote (not a regular file of one link; remove it)")
    return fd


def _holder_pid(fd: int, wait_s: float = 0.5) -> int | None:
    """The pid the lock's holder wrote, waiting up to ``wait_s`` for it: a holder that has just taken
    the lock writes its pid a moment later."""
    import time

    deadline = time.monotonic() + wait_s
    while True:
        pid = _read_pid(fd)
        if pid is not None or time.monotonic() >= deadline:
            return pid
        time.sleep(0.02)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def writer_pid(directory: Path) -> int | None:
    """The pid of the process holding ``directory``'s lock, or None when nobody writes it.

    Readers never take the lock (that would refuse a writer starting at the same moment): the lock
    file exists only while held or after its holder was killed, so it is held when the kernel lists
    a lock on its inode (``/proc/locks``), or, where that cannot be read, when the pid it names is
    alive."""
    path = Path(directory) / LOCK_FILE
    try:
        inode = os.stat(path).st_ino
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    pid = int(text) if text.isdigit() else None
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as handle:
            locks = handle.read()
    except OSError:
        locks = None
    if locks is not None:
        for line in locks.splitlines():
            parts = line.split()
            if len(parts) > 5 and parts[1] == "FLOCK" and parts[5].rsplit(":", 1)[-1] == str(inode):
                return int(parts[4]) if parts[4].isdigit() else pid
        return None
    if pid is None:
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    return pid
