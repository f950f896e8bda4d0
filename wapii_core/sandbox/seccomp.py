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
- signals to any process but itself: ``kill``/``tgkill`` with another pid, ``tkill``,
  ``rt_sigqueueinfo``, ``pidfd_*``;
- everything that reaches into other processes or the kernel: ``ptrace``, ``process_vm_*``,
  ``mount``, namespaces, ``bpf``, ``perf_event_open``, ``io_uring_*`` (which bypasses seccomp),
  keyrings, ``userfaultfd``, module loading, reboot, clock changes.

Syscalls of another architecture (e.g. 32-bit ``int 0x80``) kill the process.
"""

from __future__ import annotations

import errno
import os

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
)
"""Refused whatever their arguments (some do not exist on every architecture; those are skipped)."""

CLONE_THREAD = 0x00010000
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


def install() -> None:
    """Installs the filter on this process (and its future threads); irreversible."""
    import pyseccomp as sc

    deny = sc.ERRNO(BLOCKED_ERRNO)
    pid = os.getpid()
    rules = sc.SyscallFilter(sc.ALLOW)
    for name in DENIED:
        try:
            rules.add_rule(deny, name)
        except (OSError, RuntimeError, ValueError):
            continue  # not a syscall of this architecture
    conditional = [(sc.ERRNO(errno.ENOSYS), "clone3"), (deny, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0)),
                   (deny, "kill", sc.Arg(0, sc.NE, pid)), (deny, "tgkill", sc.Arg(0, sc.NE, pid))]
    for name, index in (("open", 1), ("openat", 2)):
        conditional += [(deny, name, sc.Arg(index, sc.MASKED_EQ, flag, flag)) for flag in WRITE_FLAGS]
    for action, name, *args in conditional:
        try:
            rules.add_rule(action, name, *args)
        except (OSError, RuntimeError, ValueError):
            continue  # not a syscall of this architecture (e.g. open on arm64)
    rules.load()
