"""How one sandboxed worker is started: its program wrapped in the layers available here.

A pool describes its worker as a :class:`Program` (command line, the files it reads, its
environment, its limits); :func:`plan` wraps it in bubblewrap and the privilege drop when they work
here and reports every layer (:class:`~.layers.Layer`): bubblewrap, the privilege drop, rlimits, the
clean environment and the process-group kill. The pool adds the layers of its own worker (Node's
permission model, the Python worker's seccomp filter) to the same report.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from . import bwrap
from .layers import Layer
from .limits import Limits, clean_env
from .users import SandboxUser, drop_prefix, readable_by, running_as_root, sandbox_user, setpriv_binary


@dataclass
class Program:
    """What a worker runs: ``argv`` (absolute executable first), the paths it reads, env and limits."""

    argv: list[str]
    read_paths: list[Path]
    env: dict[str, str] = field(default_factory=clean_env)
    limits: Limits = field(default_factory=Limits)


@dataclass
class Plan:
    """The command line and process settings that start a :class:`Program` sandboxed."""

    argv: list[str]
    env: dict[str, str]
    limits: dict[int, int]
    layers: list[Layer]


def _drop_layer(user: SandboxUser | None, drop: list[str] | None, why_not: str) -> Layer:
    if not running_as_root():
        return Layer("privilege drop", True, f"runs as the invoking user (uid {os.getuid()}), not root")
    if drop is not None and user is not None:
        return Layer("privilege drop", True, f"root drops to user {user.name} (uid {user.uid}) before the worker starts")
    return Layer("privilege drop", False, why_not, "the worker runs as root (RLIMIT_NPROC does not apply to root)")


def plan(program: Program) -> Plan:
    """Wraps ``program`` in every layer that works here; the report says which ones are active."""
    root = running_as_root()
    user = sandbox_user() if root else None
    drop = drop_prefix(user) if user is not None and setpriv_binary() else None
    if root and user is None:
        why_not = "no unprivileged sandbox user exists (create wapii-sbx, or set WAPII_SANDBOX_USER)"
    elif root and drop is None:
        why_not = "setpriv (util-linux) is not installed"
    else:
        why_not = ""
    problem = bwrap.probe(root, tuple(drop) if drop else None)
    if problem is None:
        argv = bwrap.bwrap_command(program.argv, program.read_paths, program.env, privileged=root, drop=drop)
        env = {"PATH": program.env.get("PATH", "/usr/bin:/bin")}
        sandbox = Layer("bubblewrap", True, "own network (loopback only), PID, IPC and UTS namespaces; read-only "
                        "view of the worker's own files only; private /tmp; cleared environment")
    else:
        if drop is not None and user is not None:
            unreadable = [p for p in [Path(program.argv[0]), *program.read_paths] if not readable_by(p, user)]
            if unreadable:
                drop = None
                why_not = f"user {user.name} cannot read {unreadable[0]} (without bubblewrap it must)"
        argv = [*(drop or []), *program.argv]
        env = dict(program.env)
        sandbox = Layer("bubblewrap", False, problem, "the host file system (reads), local network services, "
                        "other processes of the same user")
    limits_uid = user.uid if (drop is not None and user is not None) else os.getuid()
    limits = program.limits.resolved(limits_uid)
    layers = [
        sandbox,
        _drop_layer(user, drop, why_not),
        Layer("rlimits", True, ", ".join(f"{_limit_name(kind)}={value}" for kind, value in sorted(limits.items()))),
        Layer("clean environment", True, f"only {', '.join(sorted(program.env))} are set"),
        Layer("process-group kill", True, "a worker past its hard deadline is killed with everything it started"),
    ]
    return Plan(argv=argv, env=env, limits=limits, layers=layers)


def _limit_name(kind: int) -> str:
    import resource

    for name in dir(resource):
        if name.startswith("RLIMIT_") and getattr(resource, name) == kind:
            return name[len("RLIMIT_"):]
    return str(kind)
