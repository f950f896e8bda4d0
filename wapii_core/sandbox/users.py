"""The privilege drop: when wapii runs as root, sandboxed workers run as an unprivileged user.

The user is ``$WAPII_SANDBOX_USER`` if set, else ``wapii-sbx`` if it exists, else ``nobody``. The
drop is done by util-linux's ``setpriv`` right before the worker's program is executed (inside
bubblewrap, after its mounts are set up, or directly when bubblewrap is unavailable): real and
effective ids, no supplementary groups, no capabilities, no way back (``no_new_privs``).
Without bubblewrap the dropped user must be able to read the worker's files itself
(:func:`readable_by`); a worker whose files it cannot read runs without the drop, and says so,
keeping uid 0 but none of root's capabilities (:func:`no_capabilities_prefix`).
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

USER_ENV = "WAPII_SANDBOX_USER"
DEFAULT_USERS = ("wapii-sbx", "nobody")


@dataclass(frozen=True)
class SandboxUser:
    """The unprivileged account workers run as when wapii runs as root."""

    name: str
    uid: int
    gid: int


def running_as_root() -> bool:
    return os.geteuid() == 0


def sandbox_user() -> SandboxUser | None:
    """The account to drop to (only when running as root); None when no candidate exists."""
    if not running_as_root():
        return None
    names = [os.environ[USER_ENV]] if os.environ.get(USER_ENV) else list(DEFAULT_USERS)
    for name in names:
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        if entry.pw_uid != 0:
            return SandboxUser(name, entry.pw_uid, entry.pw_gid)
    return None


def setpriv_binary() -> str | None:
    return shutil.which("setpriv", path=os.environ.get("PATH", "") + ":/usr/bin:/bin")


def drop_prefix(user: SandboxUser) -> list[str]:
    """The command prefix that runs the rest of the command line as ``user``, with nothing kept."""
    setpriv = setpriv_binary()
    assert setpriv is not None, "check setpriv_binary() first"
    return [setpriv, f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups", "--inh-caps=-all",
            "--bounding-set=-all", "--no-new-privs", "--"]


def no_capabilities_prefix() -> list[str]:
    """The command prefix that keeps the user but gives up every capability, for good: what root can
    still do when no sandbox user can run the worker (it then cannot raise its own hard rlimits,
    trace, mount or bypass file permissions; files owned by root remain its own)."""
    setpriv = setpriv_binary()
    assert setpriv is not None, "check setpriv_binary() first"
    return [setpriv, "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]


def readable_by(path: Path, user: SandboxUser) -> bool:
    """Whether ``user`` (without supplementary groups) can reach and read ``path``."""
    def allowed(mode: int, owner: int, group: int, need_owner: int, need_group: int, need_other: int) -> bool:
        if owner == user.uid:
            return mode & need_owner == need_owner
        if group == user.gid:
            return mode & need_group == need_group
        return mode & need_other == need_other

    try:
        resolved = path.resolve(strict=True)
        for ancestor in reversed(resolved.parents):
            info = ancestor.stat()
            if not allowed(info.st_mode, info.st_uid, info.st_gid, stat.S_IXUSR, stat.S_IXGRP, stat.S_IXOTH):
                return False
        info = resolved.stat()
    except OSError:
        return False
    if stat.S_ISDIR(info.st_mode):
        return allowed(info.st_mode, info.st_uid, info.st_gid, stat.S_IXUSR | stat.S_IRUSR,
                       stat.S_IXGRP | stat.S_IRGRP, stat.S_IXOTH | stat.S_IROTH)
    return allowed(info.st_mode, info.st_uid, info.st_gid, stat.S_IRUSR, stat.S_IRGRP, stat.S_IROTH)
