"""Start a process under rlimits without ``preexec_fn``: a command prefix that sets them, then execs.

CPython documents ``Popen(preexec_fn=...)`` as unsafe in a process with threads (the child may
deadlock on a lock another thread held at ``fork``), and the supervisor starts its workers from
such a process. :func:`limits_prefix` returns a prefix that applies the limits in the new process
before it execs the real command, so they hold from the command's first instruction just as
before: util-linux ``prlimit`` when it is installed, else a few lines of Python run by this
interpreter (``-I -S``: no site, no environment). A limit above the current hard limit is lowered
to it, as :func:`~.limits.apply_limits` does.
"""

from __future__ import annotations

import os
import resource
import shutil
import sys

_PRLIMIT_NAMES = {
    resource.RLIMIT_AS: "as",
    resource.RLIMIT_FSIZE: "fsize",
    resource.RLIMIT_NOFILE: "nofile",
    resource.RLIMIT_CORE: "core",
    resource.RLIMIT_NPROC: "nproc",
    resource.RLIMIT_CPU: "cpu",
    resource.RLIMIT_DATA: "data",
    resource.RLIMIT_STACK: "stack",
    resource.RLIMIT_MEMLOCK: "memlock",
}

_SHIM = ("import os, resource, sys\n"
         "n = int(sys.argv[1])\n"
         "for i in range(n):\n"
         "    kind, value = int(sys.argv[2 + 2 * i]), int(sys.argv[3 + 2 * i])\n"
         "    resource.setrlimit(kind, (value, value))\n"
         "argv = sys.argv[2 + 2 * n:]\n"
         "os.execv(argv[0], argv)\n")


def prlimit_binary() -> str | None:
    """util-linux ``prlimit``, when installed."""
    return shutil.which("prlimit", path=os.environ.get("PATH", "") + ":/usr/bin:/bin")


def _clamped(limits: dict[int, int]) -> dict[int, int]:
    out = {}
    for kind, value in limits.items():
        _, hard = resource.getrlimit(kind)
        out[kind] = value if hard == resource.RLIM_INFINITY else min(value, hard)
    return out


def limits_prefix(limits: dict[int, int], *, use_prlimit: bool | None = None) -> list[str]:
    """The argv prefix that runs the rest of a command line (absolute executable first) under
    ``limits`` (``{RLIMIT_*: value}``, soft = hard). Empty when there is nothing to set.

    ``use_prlimit``: None chooses ``prlimit`` when it is installed and knows every limit; False
    forces the Python fallback (tests run both)."""
    wanted = _clamped(limits)
    if not wanted:
        return []
    prlimit = prlimit_binary() if use_prlimit is not False else None
    if prlimit is not None and all(kind in _PRLIMIT_NAMES for kind in wanted):
        return [prlimit, *(f"--{_PRLIMIT_NAMES[kind]}={value}:{value}" for kind, value in sorted(wanted.items())),
                "--"]
    pairs = [str(part) for kind, value in sorted(wanted.items()) for part in (kind, value)]
    return [sys.executable, "-I", "-S", "-c", _SHIM, str(len(wanted)), *pairs]
