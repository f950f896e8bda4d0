"""How one sandboxed worker is started: its program wrapped in the layers available here.

A pool describes its worker as a :class:`Program` (command line, the files it reads, its
environment, its limits); :func:`plan` wraps it in bubblewrap and the privilege drop when they work
here and reports every layer (:class:`~.layers.Layer`): bubblewrap, the privilege drop, rlimits, the
clean environment and the process-group kill. Where bubblewrap is missing, the worker is confined
by Landlock instead (:mod:`.landlock`, applied by an exec prefix before the worker runs, like the rlimits): it
reads and runs only its own files and the system's (what bubblewrap would have shown it), writes
no file but ``/dev/null``, opens no TCP connection and signals no process outside its sandbox.
The pool adds the layers of its own worker (Node's permission model, the Python worker's seccomp
filter and its snippet processes' own Landlock domain) to the same report.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dataclasses import replace

from wapii_core.sandbox import bwrap, landlock, pids, userns
from wapii_core.sandbox.code_view import allow_list
from wapii_core.sandbox.layers import Layer
from wapii_core.sandbox.limits import Limits, clean_env
from wapii_core.sandbox.users import (SandboxUser, drop_prefix, no_capabilities_prefix, readable_by, running_as_root,
                                      sandbox_user, setpriv_binary)


@dataclass
class Program:
    """What a worker runs: ``argv`` (absolute executable first), the paths it reads, env and limits;
    ``hidden``: directories beneath ``read_paths`` it must not see (the judge's data); ``list_paths``:
    directories it lists (names only) without reading their files (where its imports are found);
    ``ports``: loopback TCP ports it may bind and connect to where Landlock confines it instead of
    bubblewrap (whose network namespace holds nothing else)."""

    argv: list[str]
    read_paths: list[Path]
    env: dict[str, str] = field(default_factory=clean_env)
    limits: Limits = field(default_factory=Limits)
    hidden: list[Path] = field(default_factory=list)
    list_paths: list[Path] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)


@dataclass
class Plan:
    """The command line and process settings that start a :class:`Program` sandboxed (``landlock``:
    the policy the started process is confined by before its program runs, if any)."""

    argv: list[str]
    env: dict[str, str]
    limits: dict[int, int]
    layers: list[Layer]
    landlock: landlock.Policy | None = None
    pids_cgroup: bool = False
    user_namespace: list[str] = field(default_factory=list)
    """The prefix that starts the worker in a user namespace of its own before Landlock confines it
    (:mod:`.userns`; empty where the namespace is made elsewhere in ``argv``, or not at all)."""

    def command(self) -> list[str]:
        """The argv that starts the program confined: Landlock (when the plan has a policy), then the
        rlimits, each applied by an exec prefix in the new process before the program runs (no
        ``preexec_fn``: the process that starts workers has threads)."""
        from wapii_core.sandbox.rlimit_exec import limits_prefix

        confine = landlock.exec_prefix(self.landlock) if self.landlock is not None else []
        budget = pids.exec_prefix() if self.pids_cgroup else []  # first: it writes the cgroup file system
        return budget + self.user_namespace + confine + limits_prefix(self.limits) + self.argv


def _drop_layer(user: SandboxUser | None, drop: list[str] | None, why_not: str, uncapable: bool = False) -> Layer:
    if not running_as_root():
        return Layer("privilege drop", True, f"runs as the invoking user (uid {os.getuid()}), not root")
    if drop is not None and user is not None:
        return Layer("privilege drop", True, f"root drops to user {user.name} (uid {user.uid}) before the worker starts")
    if uncapable:
        return Layer("privilege drop", False, f"{why_not}; the worker keeps uid 0 but gives up every capability",
                     "the worker runs as uid 0 without capabilities: files owned by root count as its own where the "
                     "other layers let it reach them, and RLIMIT_NPROC does not apply to uid 0")
    return Layer("privilege drop", False, why_not, "the worker runs as root (RLIMIT_NPROC does not apply to root)")


def plan(program: Program) -> Plan:
    """Wraps ``program`` in every layer that works here; the report says which ones are active."""
    root = running_as_root()
    user = sandbox_user() if root else None
    drop = drop_prefix(user) if user is not None and setpriv_binary() else None
    if root and user is None:
        why_not = ("no unprivileged sandbox user exists; fix: create one (`useradd --system --no-create-home "
                   "wapii-sbx`) or set WAPII_SANDBOX_USER to an unprivileged account")
    elif root and drop is None:
        why_not = "setpriv is not installed; fix: install util-linux (`apt-get install util-linux`)"
    else:
        why_not = ""
    problem = bwrap.probe(root, tuple(drop) if drop else None)
    uncapable = False
    no_cgroup = pids.unavailable() if root else "cgroups are created as root only"
    budget = program.limits.processes_headroom
    no_userns = _userns_unavailable(root, drop, no_cgroup, budget, problem is None)
    own_ns = userns.exec_prefix(budget) if no_userns is None and budget is not None else []
    if problem is None:
        # as root the namespace follows the privilege drop inside bubblewrap; otherwise it wraps bubblewrap,
        # which forbids the namespaces it holds to make namespaces of their own (--disable-userns)
        inner, outer = (own_ns, []) if root else ([], own_ns)
        argv = outer + bwrap.bwrap_command([*inner, *program.argv], program.read_paths, program.env,
                                           privileged=root, drop=drop, hidden=program.hidden)
        env = {"PATH": program.env.get("PATH", "/usr/bin:/bin")}
        sandbox = Layer("bubblewrap", True, "own network (loopback only), PID, IPC and UTS namespaces; read-only "
                        "view of the worker's own files only; private /tmp; cleared environment")
    else:
        if drop is not None and user is not None:
            unreadable = [p for p in [Path(program.argv[0]), *program.read_paths] if not readable_by(p, user)]
            if unreadable:
                drop = None
                why_not = (f"user {user.name} cannot read {unreadable[0]} (without bubblewrap it must); fix: let it "
                           f"read the checkout (`chmod -R o+rX` on it and o+x on its parent directories), or make "
                           "bubblewrap work (`wapii doctor` says why it does not)")
        uncapable = root and drop is None and setpriv_binary() is not None
        prefix = drop or (no_capabilities_prefix() if uncapable else [])
        argv = [*prefix, *program.argv]  # not root here: the namespace is made before Landlock (Plan.command)
        env = dict(program.env)
        confine, confined = _worker_landlock(program, prefix)
        sandbox = Layer("bubblewrap", False, problem, _without_bubblewrap(confined is not None))
    limits_uid = user.uid if (drop is not None and user is not None) else os.getuid()
    own_budget = replace(program.limits, processes_headroom=None) if no_cgroup is None or own_ns else program.limits
    limits = own_budget.resolved(limits_uid)
    layers = [
        sandbox,
        _drop_layer(user, drop, why_not, uncapable),
        Layer("rlimits", True, ", ".join(f"{_limit_name(kind)}={value}" for kind, value in sorted(limits.items()))),
        *[Layer("pids cgroup", no_cgroup is None,
              f"each worker and what it starts hold at most {pids.WORKER_PIDS} processes and threads, counted per "
              "worker" if no_cgroup is None else no_cgroup,
              "RLIMIT_NPROC counts the tasks of every worker of the sandbox user together: one sample's threads "
              "can hold them all, and another worker then cannot start a snippet")][:1 if root else 0],
        *[Layer("user namespace budget", bool(own_ns),
                f"each worker runs in a user namespace of its own where RLIMIT_NPROC={budget} counts only its own "
                "processes and threads" if own_ns else str(no_userns),
                "RLIMIT_NPROC counts the tasks of every worker of the user together: one sample's threads can hold "
                "them all, and another worker then cannot start a snippet")][:1 if no_userns != _NOT_NEEDED else 0],
        Layer("clean environment", True, f"only {', '.join(sorted(program.env))} are set"),
        Layer("process-group kill", True, "a worker past its hard deadline is killed with everything it started"),
    ]
    if problem is not None:
        layers.insert(1, confine)
    return Plan(argv=argv, env=env, limits=limits, layers=layers, landlock=confined if problem is not None else None,
                pids_cgroup=no_cgroup is None, user_namespace=own_ns if problem is not None else [])


_NOT_NEEDED = "not needed"


def _userns_unavailable(root: bool, drop: list[str] | None, no_cgroup: str | None, budget: int | None,
                        bubblewrap: bool) -> str | None:
    """Why workers get no user namespace budget here (:data:`_NOT_NEEDED` where a pids cgroup gives
    each its own budget, or where RLIMIT_NPROC does not apply: the worker runs as root), or None."""
    if no_cgroup is None or (root and drop is None):
        return _NOT_NEEDED
    if budget is None:
        return "no process budget is set (processes_headroom=None)"
    if root and not bubblewrap:
        return ("as root without bubblewrap the privilege drop follows Landlock, which does not let the sandbox user "
                f"map its namespace; fix: make the pids cgroup available ({no_cgroup})")
    return userns.unavailable(drop)


def worker_policy(program: Program, drop: list[str] | None) -> landlock.Policy:
    """What a worker without bubblewrap may reach: read and run its own files, the privilege drop's
    binary and the system's files (bubblewrap's view), read the usual devices, write ``/dev/null``."""
    own = [program.argv[0], *(drop[:1] if drop else []), *allow_list(program.read_paths, program.hidden)]
    return landlock.Policy.of([*own, *bwrap.SYSTEM_PATHS, *landlock.DEVICES], write=["/dev/null"], execute=True,
                              list=program.list_paths, connect=program.ports, bind=program.ports)


def _worker_landlock(program: Program, drop: list[str] | None) -> tuple[Layer, landlock.Policy | None]:
    problem = landlock.unavailable()
    if problem is not None:
        return Layer("landlock (worker)", False, problem, "the host's files readable by the worker's user, TCP "
                     "services on the host, signals to the host's processes (for the worker process itself; the "
                     "Python snippet processes are further confined)"), None
    detail = (f"{landlock.covers(landlock.abi())}; the worker reads and runs only its own files and the system's "
              "(/usr, /lib, the dynamic linker's configuration) and writes only /dev/null")
    return Layer("landlock (worker)", True, detail), worker_policy(program, drop)


def _without_bubblewrap(landlocked: bool) -> str:
    """What only bubblewrap isolates, given whether Landlock confines the worker instead."""
    if landlocked:
        return ("the host's PID, network and IPC namespaces: file metadata (names, sizes, times) anywhere, "
                "UDP and path-named Unix sockets of the host, System V IPC, the host name")
    return "the host file system (reads), local network services, other processes of the same user"


def _limit_name(kind: int) -> str:
    import resource

    for name in dir(resource):
        if name.startswith("RLIMIT_") and getattr(resource, name) == kind:
            return name[len("RLIMIT_"):]
    return str(kind)
