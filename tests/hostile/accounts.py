"""The unprivileged account the sandbox tests use when they run as root."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess

SANDBOX_USER = "wapii-sbx"


def ensure_user(name: str = SANDBOX_USER) -> pwd.struct_passwd | None:
    """The account ``name``, created (as a system user without a home) if missing; None if impossible."""
    try:
        return pwd.getpwnam(name)
    except KeyError:
        pass
    useradd = shutil.which("useradd") or shutil.which("useradd", path="/usr/sbin:/sbin")
    if os.geteuid() != 0 or useradd is None:
        return None
    done = subprocess.run([useradd, "--system", "--no-create-home", "--home-dir", "/nonexistent",
                           "--shell", "/usr/sbin/nologin", name], capture_output=True, text=True)
    if done.returncode not in (0, 9):  # 9: created meanwhile by someone else
        return None
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None
