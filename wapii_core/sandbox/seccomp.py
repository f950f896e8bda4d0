"""The seccomp filter of the Python worker's snippet processes (needs PyPI ``pyseccomp`` and libseccomp).

Installed by each forked child of the Python worker before it runs any snippet, the filter makes
the kernel refuse, with the distinctive errno :data:`BLOCKED_ERRNO`:

- new programs and processes: ``execve``, ``execveat``, ``fork``, ``vfork``, ``clone`` without
  ``CLONE_THREAD`` (threads stay possible), ``clone3`` (answered ``ENOSYS`` so that the C library
  falls back to ``clone``);
- network and other sockets: ``socket`` (``socketpair``, which asyncio needs, stays);
- writing to the file system: ``open``/``openat`` with a write, create, truncate or append flag,
  ``creat``, ``openat2``, renames, links, unlinks, ``mkdir``, ``rmdir``, ``mknod``, ``chmod``,
  ``chown``, ``truncate``, ``utime``s, extended attributes;
- signals to any process but itself: ``kill``/``tgkill`` with another pid (0 and -1 included),
  ``tkill``, ``rt_sigqueueinfo``, ``pidfd_*``, and a descriptor's owner or I/O signal
  (``fcntl`` ``F_SETOWN``, ``F_SETSIG``, ``F_SETOWN_EX``; ``ioctl`` ``FIOSETOWN``, ``SIOCSPGRP``),
  through which the kernel would signal a process of the snippet's choosing;
- changing another process: ``prlimit64`` with a pid (``setrlimit`` on itself, ``prlimit64`` with
  pid 0, stays), ``setpriority``, ``sched_setaffinity`` and the other scheduler setters,
  ``ioprio_set``, ``migrate_pages``, ``move_pages``, ``process_madvise``, ``process_mrelease``;
- everything that reaches into other processes or the kernel: ``ptrace``, ``process_vm_*``,
  ``kcmp``, mounts old and new (``mount``, ``umount2``, ``pivot_root``, ``fsopen``, ``fsconfig``,
  ``fsmount``, ``fspick``, ``move_mount``, ``open_tree``, ``open_tree_attr``, ``mount_setattr``),
  namespaces (``unshare``, ``setns``, ``clone`` with a ``CLONE_NEW*`` flag), System V IPC and POSIX
  message queues (``shmget``, ``shmat``, ``msgget``, ``semget``, ``mq_open``, ...: a segment or queue
  outlives the snippet, and its memory with it), ``bpf``,
  ``perf_event_open``, ``io_uring_*`` (which bypasses seccomp), keyrings, ``userfaultfd``, module
  loading, reboot, clock, host name and I/O-port changes, the kernel log.

Syscalls of another architecture (e.g. 32-bit ``int 0x80``) kill the process. A system call
newer than the installed libseccomp is denied by its number (:data:`GENERIC_NUMBERS`).
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

BLOCKED_ERRNO = errno.ENOTRECOVERABLE
"""The errno a refused syscall fails with: rare enough to tell a sandbox refusal from other errors."""

DENIED = (
    "execve", "execveat", "fork", "vfork", "creat", "openat2", "rename", "renameat", "renameat2", "link", "linkat",
    "symlink", "symlinkat", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "mknod", "mknodat", "chmod", "fchmod",
    "fchmodat", "chown", "fchown", "fchownat", "lchown", "truncate", "ftruncate", "utime", "utimes", "utimensat",
    "futimesat", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr", "socket",
    "tkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "ptrace",
    "process_vm_readv", "process_vm_writev", "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "bpf",
    "perf_event_open", "io_uring_setup", "io_uring_enter", "io_uring_register", "keyctl", "add_key", "request_key",
    "userfaultfd", "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot",
    "swapon", "swapoff", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "acct", "quotactl",
    "name_to_handle_at", "open_by_handle_at", "fanotify_init", "personality", "setsid", "setpgid",
    # the new mount API (a root process could mount over host directories without bubblewrap)
    "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "open_tree_attr", "mount_setattr",
    "umount",
    # other processes' scheduling, memory and identity (no PID namespace without bubblewrap)
    "setpriority", "sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr", "ioprio_set",
    "migrate_pages", "move_pages", "process_madvise", "process_mrelease", "kcmp",
    # more writes and host-wide settings
    "setxattrat", "removexattrat", "file_setattr", "sethostname", "setdomainname", "iopl", "ioperm", "syslog",
    # System V IPC and POSIX message queues: objects that outlive the process (a shared-memory segment
    # keeps its memory after the snippet exits, on the host without bubblewrap) and reach others' by id
    "shmget", "shmat", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semctl",
    "ipc", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
)
"""Refused whatever their arguments (some do not exist on every architecture; those are skipped)."""

GENERIC_NUMBERS = {
    "pidfd_send_signal": 424, "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "pidfd_open": 434, "clone3": 435, "pidfd_getfd": 438, "process_madvise": 440,
    "mount_setattr": 442, "process_mrelease": 448, "setxattrat": 463, "removexattrat": 466, "open_tree_attr": 467,
    "file_setattr": 469,
}
"""Numbers of system calls added since Linux 5.1, the same on every architecture but alpha: a name
an older libseccomp cannot resolve is denied by its number."""

CLONE_THREAD = 0x00010000
CLONE_NEW = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET: refused on threads too."""
SIGNAL_OWNER_FCNTL = (8, 10, 15)
"""F_SETOWN, F_SETSIG, F_SETOWN_EX: making a descriptor's I/O send a chosen signal to another process."""
SIGNAL_OWNER_IOCTL = (0x8901, 0x8902)
"""FIOSETOWN, SIOCSPGRP: the same through ioctl."""
WRITE_FLAGS = (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC, os.O_APPEND)


def unavailable() -> str | None:
    """None when the filter can be installed here, else why not."""
    try:
        import pyseccomp  # noqa: F401
    except ImportError:
        return "the PyPI package pyseccomp is not installed"
    except (OSError, RuntimeError) as exc:  # pyseccomp raises when libseccomp is missing
        return f"libseccomp is not available ({exc})"
    return None


PID_PLACEHOLDER = 0x7FFFFFF1
"""Stands for the snippet process's own pid in the compiled filter (no pid is this large)."""

_compiled: bytes | None = None


def _build(pid: int):  # -> pyseccomp.SyscallFilter
    import pyseccomp as sc

    deny = sc.ERRNO(BLOCKED_ERRNO)
    rules = sc.SyscallFilter(sc.ALLOW)
    for name in DENIED:
        for syscall in _numbered(sc, name):
            try:
                rules.add_rule(deny, syscall)
            except (OSError, RuntimeError, ValueError):
                continue  # not a syscall of this architecture
    conditional = [(sc.ERRNO(errno.ENOSYS), "clone3"), (deny, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0)),
                   (deny, "kill", sc.Arg(0, sc.NE, pid)), (deny, "tgkill", sc.Arg(0, sc.NE, pid)),
                   (deny, "prlimit64", sc.Arg(0, sc.NE, 0))]
    conditional += [(deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag)) for flag in CLONE_NEW]
    conditional += [(deny, "fcntl", sc.Arg(1, sc.EQ, command)) for command in SIGNAL_OWNER_FCNTL]
    conditional += [(deny, "ioctl", sc.Arg(1, sc.EQ, request)) for request in SIGNAL_OWNER_IOCTL]
    for name, index in (("open", 1), ("openat", 2)):
        conditional += [(deny, name, sc.Arg(index, sc.MASKED_EQ, flag, flag)) for flag in WRITE_FLAGS]
    for action, name, *args in conditional:
        for syscall in _numbered(sc, name):
            try:
                rules.add_rule(action, syscall, *args)
            except (OSError, RuntimeError, ValueError):
                continue  # not a syscall of this architecture (e.g. open on arm64)
    return rules


def compile_filter() -> bytes:
    """The filter as classic BPF, with :data:`PID_PLACEHOLDER` where the process's own pid goes;
    compiled once per process (libseccomp takes milliseconds), together with everything
    :func:`install` needs, so that a forked child only writes its pid and loads it."""
    global _compiled
    if _compiled is None:
        with os.fdopen(os.memfd_create("wapii-seccomp"), "w+b") as out:  # no file system: workers may write none
            _build(PID_PLACEHOLDER).export_bpf(out)
            out.seek(0)
            _compiled = out.read()
        _prepared.extend(_prepare(_compiled))
    return _compiled


def _pid_offsets(program: bytes) -> list[int]:
    """Where, in ``program``, the ``k`` of a jump comparing with :data:`PID_PLACEHOLDER` is."""
    offsets = []
    for offset in range(0, len(program), 8):
        code, _jt, _jf, k = struct.unpack_from("=HBBI", program, offset)
        if k == PID_PLACEHOLDER and code & 0x07 == 0x05:  # a jump (BPF_JMP) comparing with the placeholder
            offsets.append(offset + 4)
    return offsets


def _prepare(program: bytes) -> tuple[ctypes.Array, _SockFprog, list[int], ctypes.CDLL]:
    buffer = ctypes.create_string_buffer(program, len(program))
    return buffer, _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p)), _pid_offsets(program), _libc()


_prepared: list = []


def install() -> None:
    """Installs the filter on this process (and its future threads); irreversible."""
    compile_filter()
    buffer, fprog, offsets, libc = _prepared
    pid = os.getpid()
    for offset in offsets:  # the buffer is this process's copy: a forked child writes its own
        struct.pack_into("=I", buffer, offset, pid)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")


_LIBC: list[ctypes.CDLL] = []


def _libc() -> ctypes.CDLL:
    if not _LIBC:
        _LIBC.append(ctypes.CDLL(None, use_errno=True))
    return _LIBC[0]


PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _numbered(sc: object, name: str) -> list[str | int]:
    """``[name]`` when libseccomp knows it, its generic number when it is newer than libseccomp, else []."""
    try:
        known = sc.resolve_syscall(sc.Arch.NATIVE, name) >= 0  # type: ignore[attr-defined]
    except (OSError, RuntimeError, ValueError):
        known = False
    if known:
        return [name]
    return [GENERIC_NUMBERS[name]] if name in GENERIC_NUMBERS else []
