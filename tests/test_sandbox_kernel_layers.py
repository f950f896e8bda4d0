"""The kernel's layers on their own, in forked processes: Landlock (``sandbox/landlock.py``) and the
seccomp filter (``sandbox/seccomp.py``), each refusing what a snippet or a worker must not do."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import resource
import signal
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wapii_core.sandbox import Program, Supervisor, bwrap, landlock, plan, seccomp

needs_landlock = pytest.mark.skipif(landlock.unavailable() is not None, reason=f"{landlock.unavailable()}")
needs_seccomp = pytest.mark.skipif(seccomp.unavailable() is not None, reason=f"{seccomp.unavailable()}")


def in_child(body: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """What ``body`` returns when run in a forked process (which it may confine for good)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        try:
            result = body()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            result = {"crash": repr(exc)}
        os.write(write, json.dumps(result).encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 1 << 16):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return json.loads(data)


def outcome(action: Callable[[], object]) -> str:
    """``"ok"`` or the errno name an action failed with."""
    try:
        action()
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, str(exc.errno))
    return "ok"


@needs_landlock
def test_a_landlocked_process_reads_beneath_its_paths_only(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "data.txt").write_text("mine")
    secret = tmp_path / "secret.txt"
    secret.write_text("host")
    parent = os.getpid()
    server = socket.create_server(("127.0.0.1", 0))
    ruleset = landlock.prepare(landlock.Policy.of([allowed, *landlock.DEVICES]))

    def body() -> dict[str, Any]:
        ruleset.restrict()
        proc = os.open("/proc/self", os.O_PATH)
        return {
            "own file": outcome(lambda: open(allowed / "data.txt").read()),
            "listing": outcome(lambda: os.listdir(allowed)),
            "other file": outcome(lambda: open(secret).read()),
            "through /proc/self/root": outcome(lambda: os.open(f"root{secret}", os.O_RDONLY, dir_fd=proc)),
            "parent's environment": outcome(lambda: os.open(f"../{parent}/environ", os.O_RDONLY, dir_fd=proc)),
            "write own file": outcome(lambda: open(allowed / "data.txt", "a")),
            "create": outcome(lambda: open(allowed / "new.txt", "x")),
            "write /dev/null": outcome(lambda: open("/dev/null", "w")),
            "read /dev/urandom": outcome(lambda: open("/dev/urandom", "rb").read(4)),
            "signal parent": outcome(lambda: os.kill(parent, 0)),
            "signal self": outcome(lambda: os.kill(os.getpid(), 0)),
            "tcp": outcome(lambda: socket.create_connection(server.getsockname(), timeout=1)),
            "enforced": landlock.enforced(),
        }

    try:
        result = in_child(body)
    finally:
        ruleset.close()
        server.close()
    version = landlock.abi()
    assert result == {
        "own file": "ok", "listing": "ok", "other file": "EACCES", "through /proc/self/root": "EACCES",
        "parent's environment": "EACCES", "write own file": "EACCES", "create": "EACCES",
        "write /dev/null": "EACCES", "read /dev/urandom": "ok", "signal self": "ok",
        "signal parent": "EPERM" if version >= 6 else "ok", "tcp": "EACCES" if version >= 4 else "ok",
        "enforced": True,
    }


def test_landlock_can_be_switched_off_for_testing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(landlock.ENV, "0")
    assert landlock.abi() == 0 and landlock.unavailable() == f"disabled by {landlock.ENV}=0"
    with pytest.raises(landlock.LandlockError):
        landlock.prepare(landlock.Policy.of(["/usr"]))


WORKER = r'''
import json, os, sys
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    try:
        fd = os.open(job["path"], os.O_WRONLY | os.O_CREAT if job.get("write") else os.O_RDONLY, 0o600)
        os.close(fd)
        answer = "ok"
    except OSError as exc:
        answer = exc.errno
    print(json.dumps({"id": job["id"], "answer": answer}), flush=True)
'''


@needs_landlock
def test_without_bubblewrap_the_worker_process_is_landlocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    script = tmp_path / "worker" / "worker.py"
    script.parent.mkdir()
    script.write_text(WORKER)
    script.parent.chmod(0o755)
    script.chmod(0o644)
    python = Path(sys.executable)
    program = Program(argv=[str(python), "-I", str(script)],
                      read_paths=[script.parent, python.resolve(), Path(sys.prefix), Path(sys.base_prefix)])
    started = plan(program)
    assert started.landlock is not None
    assert [layer.name for layer in started.layers][:2] == ["bubblewrap", "landlock (worker)"]
    supervisor = Supervisor("landlocked", lambda: started, size=1, timeout=2.0)
    try:
        answers = supervisor.run([{"path": str(script)}, {"path": "/etc/passwd"}, {"path": str(tmp_path / "out.txt"),
                                                                                   "write": True}])
    finally:
        supervisor.close()
    assert [a.get("answer") for a in answers] == ["ok", errno.EACCES, errno.EACCES]
    assert not (tmp_path / "out.txt").exists()


SYSCALLS: dict[str, tuple[Any, ...]] = {
    # name: (number, arguments): calls added since Linux 5.1 have the same number on every architecture
    "fsopen": (430, b"tmpfs", 0), "fsconfig": (431, 3, 0, None, None, 0), "fsmount": (432, 3, 0, 0),
    "fspick": (433, -100, b"/", 0), "move_mount": (429, -100, b"/a", -100, b"/b", 0),
    "open_tree": (428, -100, b"/tmp", 1), "mount_setattr": (442, -100, b"/", 0, None, 0),
    "open_tree_attr": (467, -100, b"/", 0, None, 0), "pidfd_open": (434, 1, 0), "pidfd_send_signal": (424, 3, 0, None, 0),
    "process_madvise": (440, 3, None, 0, 0, 0), "process_mrelease": (448, 3, 0),
}
LIBC_CALLS: dict[str, Callable[[int], tuple[Any, ...]]] = {
    # name: arguments given the parent's pid, through the C library's wrappers
    "mount": lambda ppid: (b"none", b"/tmp", b"tmpfs", 0, None), "umount2": lambda ppid: (b"/proc", 2),
    "unshare": lambda ppid: (0x00020000,), "prlimit": lambda ppid: (ppid, 0, None, None),
    "setpriority": lambda ppid: (0, ppid, 19), "ptrace": lambda ppid: (16, ppid, None, None),
    "process_vm_readv": lambda ppid: (ppid, None, 0, None, 0, 0), "kill": lambda ppid: (ppid, 0),
    "tgkill": lambda ppid: (ppid, ppid, 0),
}


@needs_seccomp
def test_the_seccomp_filter_refuses_mounts_and_reaching_into_other_processes() -> None:
    parent = os.getpid()

    def body() -> dict[str, Any]:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        seccomp.install()
        result: dict[str, Any] = {}
        for name, (number, *args) in SYSCALLS.items():
            result[name] = (libc.syscall(number, *args), ctypes.get_errno())
        for name, args in LIBC_CALLS.items():
            result[name] = (getattr(libc, name)(*args(parent)), ctypes.get_errno())
        affinity = os.sched_getaffinity(0)
        result["sched_setaffinity"] = outcome(lambda: os.sched_setaffinity(parent, affinity))
        result["kill self"] = outcome(lambda: os.kill(os.getpid(), 0))
        result["prlimit self"] = outcome(lambda: resource.prlimit(0, resource.RLIMIT_CORE))
        result["raise"] = outcome(lambda: signal.raise_signal(signal.SIGWINCH))
        thread = threading.Thread(target=lambda: None)
        thread.start()
        thread.join()
        return result

    result = in_child(body)
    blocked = [-1, seccomp.BLOCKED_ERRNO]
    refused = {name: result.pop(name) for name in [*SYSCALLS, *LIBC_CALLS]}
    assert {name: value for name, value in refused.items() if value != blocked} == {}
    assert result == {"sched_setaffinity": "ENOTRECOVERABLE", "kill self": "ok", "prlimit self": "ok", "raise": "ok"}
