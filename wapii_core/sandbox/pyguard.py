"""The in-process guard of a Python snippet process: the audit hook.

:class:`Auditor` is an audit hook (PEP 578) armed while a snippet runs. It names what the sandbox
refuses (the kernel refuses it anyway, see :mod:`.seccomp`), so that a hostile snippet is reported
as ``blocked: <what>`` even when it swallows the error; it refuses outright reads of files outside
the worker's own read roots (the ``/etc/passwd`` of a host without bubblewrap), ``ctypes`` and new
audit hooks. It is a label and a second line, not the boundary: it runs in the snippet's own
process, which can reach it and switch it off, and code that reaches C without an audit event
(``os.open`` with ``dir_fd``, whose event carries no directory) bypasses it; either way the
operation then meets the kernel's layers (Landlock, the seccomp filter, bubblewrap), which refuse
it all the same. Its verdicts are advisory: they name refusals, they do not make them.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from collections.abc import Iterable
from typing import Any

from wapii_core.sandbox import landlock
from wapii_core.sandbox.seccomp import BLOCKED_ERRNO

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
ALWAYS_READABLE = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/proc/self", "/usr/share/zoneinfo")
PROCESS_EVENTS = {"os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen",
                  "pty.spawn"}
FILE_EVENTS = {"os.remove", "os.rename", "os.mkdir", "os.rmdir", "os.chmod", "os.chown", "os.truncate", "os.link",
               "os.symlink", "os.utime", "os.chflags", "os.mkfifo", "os.mknod", "shutil.rmtree", "shutil.copyfile",
               "shutil.move"}
REFUSED_PREFIXES = ("ctypes.", "sys.addaudithook")


def _name(path: Any) -> str:
    return os.fsdecode(path) if isinstance(path, (str, bytes)) else repr(path)


class Blocked(PermissionError):
    """Raised by the audit hook for an operation the sandbox refuses."""

    def __init__(self, what: str) -> None:
        super().__init__(BLOCKED_ERRNO, f"refused by the wapii sandbox: {what}")
        self.what = what


class Auditor:
    """The audit hook of a snippet process; ``read_roots`` are the paths it may read below, except
    below ``hidden`` (the judge's data)."""

    def __init__(self, read_roots: Iterable[str], hidden: Iterable[str] = ()) -> None:
        self.read_roots = tuple(os.path.realpath(root) for root in [*read_roots, *ALWAYS_READABLE])
        self.hidden = tuple(os.path.realpath(path) for path in hidden)
        self.armed = False
        self.blocked: list[str] = []
        self.pid = os.getpid()
        sys.addaudithook(self._hook)

    def arm(self) -> None:
        self.blocked = []
        self.armed = True

    def disarm(self) -> None:
        self.armed = False

    def _readable(self, path: str) -> bool:
        real = os.path.realpath(path)
        if any(real == hidden or real.startswith(hidden.rstrip("/") + "/") for hidden in self.hidden):
            return False
        return any(real == root or real.startswith(root.rstrip("/") + "/") for root in self.read_roots)

    def _flag(self, what: str, refuse: bool = False) -> None:
        self.blocked.append(what)
        if refuse:
            raise Blocked(what)

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.armed:
            return
        if event == "open":
            path, mode, flags = (list(args) + [None, None, 0])[:3]
            if isinstance(path, int):
                return
            if (flags or 0) & WRITE_FLAGS or (isinstance(mode, str) and set(mode) & set("wax+")):
                self._flag(f"writing {_name(path)}")
            elif not self._readable(_name(path)) and (os.path.isabs(_name(path)) or os.path.exists(_name(path))):
                self._flag(f"reading {_name(path)}", refuse=True)  # (a missing relative path: a traceback's source)
        elif event in PROCESS_EVENTS:
            self._flag(f"starting a process ({event})")
        elif event in FILE_EVENTS:
            self._flag(f"changing the file system ({event} {_name(args[0]) if args else ''})".rstrip())
        elif event == "socket.__new__" and len(args) > 1 and args[1] != socket.AF_UNIX:
            self._flag("opening a network socket")
        elif event in ("socket.connect", "socket.bind", "socket.sendto"):
            self._flag(f"network access ({event} {args[1] if len(args) > 1 else ''})".rstrip())
        elif event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr"):
            self._flag(f"network access (resolving {args[0] if args else 'a host name'})")
        elif event in ("os.kill", "os.killpg") and (event == "os.killpg" or (args and args[0] != self.pid)):
            self._flag(f"signalling another process ({event})")
        elif event == "resource.prlimit" and args and args[0] != 0:
            self._flag(f"changing the limits of process {args[0]} (resource.prlimit)")
        elif event.startswith(REFUSED_PREFIXES):
            self._flag(event, refuse=True)


def blocked_errno(exc: BaseException) -> bool:
    """Whether ``exc`` or an exception it chains is a refusal by the sandbox: the seccomp filter's
    errno, or ``EACCES`` in a process confined by Landlock (which refuses with it)."""
    refusals = {BLOCKED_ERRNO, errno.EACCES} if landlock.enforced() else {BLOCKED_ERRNO}
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in refusals:
            return True
        current = current.__cause__ or current.__context__
    return False

