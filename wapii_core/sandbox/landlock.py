"""Landlock (Linux >= 5.13): a kernel-enforced allow-list of files a process may reach, which it cannot lift.

A :class:`Policy` names the paths a sandboxed process may read beneath (directories: their files and
listings; files: that file), whether it may also execute files there, and the few files it may
write (``/dev/null``). :func:`prepare` turns it into a Landlock ruleset (a file descriptor) once, in
a trusted process; :meth:`Ruleset.restrict` then confines the calling thread and every process it
later forks or executes, which is cheap enough to run right after each ``fork`` (two system calls).
Once restricted, a process and its descendants can only narrow their access further.

Besides what the policy grants, a restricted process (as far as the kernel's Landlock ABI allows):

- writes, truncates, creates, removes, renames and links nothing (ABI 1-3) and issues no
  ``ioctl`` on devices it opens afterwards (ABI 5);
- binds and connects no TCP socket (ABI 4);
- signals no process and connects to no abstract Unix socket outside its own Landlock domain
  (ABI 6): a snippet process cannot signal the worker that forked it, or anything else on the host;
- cannot ``ptrace`` a process outside its domain, nor change mounts (every ABI).

The kernel checks the file a path resolves to, wherever the path starts: ``openat`` relative to a
directory descriptor (``/proc/self`` -> ``root/etc/shadow``), ``..``, symbolic and ``/proc`` magic
links all end at the same check. Descriptors opened before the restriction keep their access.

Landlock is a stackable LSM: unavailable when the kernel lacks it or does not enable it (the
``lsm=`` boot list), and on other operating systems; :func:`unavailable` says why.
``WAPII_LANDLOCK=0`` makes wapii behave as if it were unavailable (to test that mode).

This module only uses the standard library, through ``ctypes`` (the three system calls have the
same numbers on every Linux architecture but alpha); it is imported by trusted code only and holds no state a
snippet could use to lift a restriction.
"""

from __future__ import annotations

import ctypes
import functools
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass

ENV = "WAPII_LANDLOCK"
"""``0`` / ``off``: act as if Landlock were unavailable here."""

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH, RULE_NET_PORT = 1, 2
PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
"""Every file-system access right each ABI version knows (version 4 and 6+ added none)."""
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
"""The rights that apply to a file (a rule on a file may grant only these)."""
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
"""Device files every sandboxed process may read."""


_state = {"enforced": False}
"""Whether this process restricted itself (mutated in place)."""


def enforced() -> bool:
    """Whether this process restricted itself through :meth:`Ruleset.restrict` (then a refused file
    access fails with ``EACCES``)."""
    return _state["enforced"]


class LandlockError(OSError):
    """A Landlock system call failed."""


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


@functools.lru_cache(maxsize=None)
class _NetPortAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("port", ctypes.c_uint64)]


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _call(number: int, *args: object) -> int:
    result = _libc().syscall(ctypes.c_long(number), *args)
    if result < 0:
        code = ctypes.get_errno()
        raise LandlockError(code, f"Landlock system call {number} failed: {os.strerror(code)}")
    return int(result)


@functools.lru_cache(maxsize=None)
def kernel_abi() -> int:
    """The kernel's Landlock ABI version; 0 when it has none (or it is disabled)."""
    if not hasattr(os, "O_PATH"):
        return 0  # not Linux
    try:
        return _call(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    except (LandlockError, AttributeError):
        return 0


def _disabled() -> bool:
    return os.environ.get(ENV, "").strip().lower() in ("0", "off", "false", "no")


def abi() -> int:
    """The ABI version wapii uses: the kernel's, or 0 when unavailable or disabled by ``WAPII_LANDLOCK=0``."""
    return 0 if _disabled() else kernel_abi()


def unavailable() -> str | None:
    """None when Landlock can restrict processes here, else why not."""
    if _disabled():
        return f"disabled by {ENV}={os.environ[ENV]}"
    if kernel_abi() == 0:
        return "the kernel has no Landlock (Linux >= 5.13 with landlock in its lsm= list)"
    return None


def covers(version: int) -> str:
    """What a restriction under ABI ``version`` enforces beyond file access (for the layer reports)."""
    parts = ["file reads beneath the allowed paths only, no file writes"]
    parts.append("no TCP bind or connect" if version >= 4 else "TCP not restricted (ABI < 4)")
    parts.append("no signals or abstract Unix sockets outside the sandbox" if version >= 6
                 else "signals not scoped (ABI < 6)")
    return f"Landlock ABI {version}: " + ", ".join(parts)


@dataclass(frozen=True)
class Policy:
    """What a restricted process may reach: read (and, with ``execute``, run) beneath ``read``; write
    the files in ``write``; list (names only, no file contents) the directories beneath ``list``;
    read and run the files beneath ``run`` (whatever ``execute`` says); read, write, create and remove
    anything beneath ``own`` (a compiler's work directory); connect (ABI >= 4) to the TCP ports in
    ``connect`` and bind those in ``bind``; nothing else. Paths that do not exist are skipped."""

    read: tuple[str, ...]
    write: tuple[str, ...] = ()
    execute: bool = False
    list: tuple[str, ...] = ()
    run: tuple[str, ...] = ()
    connect: tuple[int, ...] = ()
    bind: tuple[int, ...] = ()
    own: tuple[str, ...] = ()

    @classmethod
    def of(cls, read: Iterable[str | os.PathLike[str]], write: Iterable[str | os.PathLike[str]] = (),
           execute: bool = False, list: Iterable[str | os.PathLike[str]] = (),  # noqa: A002
           run: Iterable[str | os.PathLike[str]] = (), connect: Iterable[int] = (), bind: Iterable[int] = (),
           own: Iterable[str | os.PathLike[str]] = ()) -> Policy:
        """The policy for these paths (strings or path objects; duplicates dropped, order kept)."""
        return cls(tuple(dict.fromkeys(map(os.fspath, read))), tuple(dict.fromkeys(map(os.fspath, write))), execute,
                   tuple(dict.fromkeys(map(os.fspath, list))), tuple(dict.fromkeys(map(os.fspath, run))),
                   tuple(dict.fromkeys(int(port) for port in connect)), tuple(dict.fromkeys(int(port) for port in bind)),
                   tuple(dict.fromkeys(map(os.fspath, own))))


class Ruleset:
    """A prepared Landlock ruleset (its file descriptor); :meth:`restrict` applies it to the caller.

    Prepare it in a trusted process and restrict after ``fork``: the forked process inherits the
    descriptor. It is closed on exec (``O_CLOEXEC``), by :meth:`restrict`, and by :meth:`close`.
    """

    def __init__(self, fd: int, version: int) -> None:
        self.fd: int | None = fd
        self.version = version

    def restrict(self) -> None:
        """Confines this thread and its future children for good (sets ``no_new_privs``, which Landlock
        needs without ``CAP_SYS_ADMIN``) and closes the descriptor; raises :class:`LandlockError`."""
        if self.fd is None:
            raise LandlockError(0, "the Landlock ruleset was already used or closed")
        fd, self.fd = self.fd, None
        try:
            if _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                code = ctypes.get_errno()
                raise LandlockError(code, f"prctl(PR_SET_NO_NEW_PRIVS) failed: {os.strerror(code)}")
            _call(SYS_RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0))
            _state["enforced"] = True
        finally:
            os.close(fd)

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)

    def __del__(self) -> None:
        try:
            self.close()
        except OSError:
            pass


def prepare(policy: Policy, version: int | None = None) -> Ruleset:
    """The ruleset enforcing ``policy`` with everything ABI ``version`` (default: this kernel's) handles."""
    version = abi() if version is None else version
    if version < 1:
        raise LandlockError(0, unavailable() or "Landlock is unavailable")
    fs = FS_BY_ABI[max(v for v in FS_BY_ABI if v <= version)]
    net = NET_BIND_TCP | NET_CONNECT_TCP if version >= 4 else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0
    attr = _RulesetAttr(fs, net, scoped)
    size = 24 if version >= 6 else 16 if version >= 4 else 8
    fd = _call(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    os.set_inheritable(fd, False)
    ruleset = Ruleset(fd, version)
    try:
        read = READ_FILE | READ_DIR | (EXECUTE if policy.execute else 0)
        for paths, access in ((policy.read, read), (policy.write, READ_FILE | WRITE_FILE), (policy.list, READ_DIR),
                              (policy.run, READ_FILE | READ_DIR | EXECUTE), (policy.own, fs)):
            for path in paths:
                _allow(fd, path, access & fs)
        ports = {port: 0 for port in (*policy.connect, *policy.bind)}
        for port in policy.connect:
            ports[port] |= NET_CONNECT_TCP
        for port in policy.bind:
            ports[port] |= NET_BIND_TCP
        for port, access in ports.items() if net else ():
            rule = _NetPortAttr(access, port)
            _call(SYS_ADD_RULE, ctypes.c_int(fd), ctypes.c_int(RULE_NET_PORT), ctypes.byref(rule), ctypes.c_uint32(0))
    except BaseException:
        ruleset.close()
        raise
    return ruleset


def _allow(ruleset_fd: int, path: str, access: int) -> None:
    try:
        target = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    try:
        if not stat.S_ISDIR(os.fstat(target).st_mode):
            access &= FILE_RIGHTS
        rule = _PathBeneathAttr(access, target)
        _call(SYS_ADD_RULE, ctypes.c_int(ruleset_fd), ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(rule),
              ctypes.c_uint32(0))
    finally:
        os.close(target)


def exec_prefix(policy: Policy) -> list[str]:
    """The argv prefix that starts the rest of a command line confined by ``policy``: this module run
    as a script (standard library only, no ``site``) restricts itself, then execs the command (a
    Landlock domain survives ``exec``). No ``preexec_fn``: the supervisor that starts workers has
    threads."""
    import json
    import sys

    spec = json.dumps({"read": [*policy.read], "write": [*policy.write], "execute": policy.execute,
                       "list": [*policy.list], "run": [*policy.run], "connect": [*policy.connect],
                       "bind": [*policy.bind], "own": [*policy.own]})
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), spec, "--"]


def _exec_confined(argv: list[str]) -> None:  # pragma: no cover - replaces the process
    import json

    spec, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: landlock.py POLICY_JSON -- COMMAND...")
    prepare(Policy.of(**json.loads(spec))).restrict()
    os.execv(command[0], command)


if __name__ == "__main__":  # pragma: no cover - see exec_prefix
    import sys

    _exec_confined(sys.argv[1:])
