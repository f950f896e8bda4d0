"""The bubblewrap launcher: a worker in its own namespaces, seeing only what it needs, read-only.

A sandboxed worker runs under ``bwrap`` with every namespace unshared (its own network with only a
loopback device, so the host's 127.0.0.1 is unreachable; its own PID namespace, so a fork bomb dies
with the sandbox and nothing outlives the worker; IPC, UTS, cgroup), ``--die-with-parent``,
``--new-session``, no capabilities and a cleared environment. Its file system holds ``/usr`` and the
system library links, the dynamic-linker cache, the paths the worker declared (read-only, at their
own paths), a fresh ``/proc`` and ``/dev``, and a small private tmpfs at ``/tmp`` (the working
directory): no ``/home``, no ``/root``, no ``/etc/passwd``, nothing writable that outlives it.

Unprivileged (the usual case), bubblewrap uses a user namespace and also forbids nested ones. As
root it mounts without a user namespace, keeps only the capabilities that ``setpriv`` needs to drop
to the sandbox user (:mod:`.users`) and hands over to it before the worker's program starts.
Starting a sandbox costs ~10-20 ms: it is done per worker, not per snippet.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

BWRAP_ENV = "WAPII_BWRAP"
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/ld.so.cache",
                "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives")
"""Host paths every sandbox sees (read-only; top-level symlinks such as ``/lib -> usr/lib`` are recreated)."""
TMP_SIZE = 64 << 20
"""Bytes of the sandbox's private ``/tmp``."""


def bwrap_binary() -> str | None:
    """``$WAPII_BWRAP`` (empty: pretend bubblewrap is absent), else ``bwrap`` on PATH or in /usr/bin."""
    explicit = os.environ.get(BWRAP_ENV)
    if explicit is not None:
        return explicit or None
    return shutil.which("bwrap") or shutil.which("bwrap", path="/usr/bin:/bin")


def _covered(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def mount_args(read_paths: Iterable[Path], hidden: Iterable[Path] = ()) -> list[str]:
    """Arguments that build the sandbox's file system (system paths, tmpfs, ``read_paths`` read-only,
    an empty read-only tmpfs over each ``hidden`` directory beneath them)."""
    args = ["--proc", "/proc", "--dev", "/dev", "--size", str(TMP_SIZE), "--perms", "1777", "--tmpfs", "/tmp",
            "--perms", "0755", "--dir", "/etc"]
    system: list[Path] = []
    for name in SYSTEM_PATHS:
        path = Path(name)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), name]
        elif path.exists():
            args += ["--ro-bind", name, name]
            system.append(path)
    bound: list[Path] = list(system)
    created: set[Path] = {Path("/"), Path("/tmp"), Path("/proc"), Path("/dev"), Path("/etc")}
    for path in sorted({Path(os.path.abspath(p)) for p in read_paths}, key=lambda p: (len(p.parts), str(p))):
        if not path.exists() or _covered(path, bound):
            continue
        for ancestor in reversed(path.parents):
            if ancestor not in created and not _covered(ancestor, bound):
                args += ["--perms", "0755", "--dir", str(ancestor)]
                created.add(ancestor)
        args += ["--ro-bind", str(path), str(path)]
        bound.append(path)
    for path in sorted({Path(os.path.abspath(p)) for p in hidden}):
        if path.is_dir() and _covered(path, bound):
            args += ["--perms", "0555", "--size", "4096", "--tmpfs", str(path)]
    return args


def namespace_args(privileged: bool, keep_setuid: bool) -> list[str]:
    """Namespaces, session, capabilities: as an ordinary user or, ``privileged``, as root."""
    common = ["--die-with-parent", "--new-session", "--hostname", "sandbox", "--cap-drop", "ALL"]
    if not privileged:
        return ["--unshare-all", "--unshare-user", "--disable-userns", *common]
    keep = ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"] if keep_setuid else []
    return ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try", *common, *keep]


def bwrap_command(command: list[str], read_paths: Iterable[Path], env: dict[str, str], *,
                  privileged: bool, drop: list[str] | None, hidden: Iterable[Path] = ()) -> list[str]:
    """The full command line running ``command`` (after ``drop``, the privilege drop, if any) sandboxed."""
    binary = bwrap_binary()
    assert binary is not None, "check probe() first"
    setenv = [arg for name, value in sorted(env.items()) for arg in ("--setenv", name, value)]
    return [binary, *namespace_args(privileged, drop is not None), "--clearenv", *setenv,
            *mount_args(read_paths, hidden), "--chdir", "/tmp", "--", *(drop or []), *command]


def probe(privileged: bool, drop: tuple[str, ...] | None) -> str | None:
    """None when bubblewrap works here in this mode, else why not (cached per process and binary)."""
    binary = bwrap_binary()
    if binary is None:
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    return _probe(binary, privileged, drop)


@functools.lru_cache(maxsize=None)
def _probe(binary: str, privileged: bool, drop: tuple[str, ...] | None) -> str | None:
    true = shutil.which("true", path="/usr/bin:/bin") or "/bin/true"
    command = bwrap_command([true], [], {}, privileged=privileged, drop=list(drop) if drop else None)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap does not run here: {exc}"
    if done.returncode != 0:
        tail = " ".join(done.stderr.strip().splitlines()[-2:])
        return f"bubblewrap does not run here (exit {done.returncode}: {tail})"
    return None
