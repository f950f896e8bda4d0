"""Debian packages that an adapter, the sandbox or the test suite needs, installed with apt.

:func:`ensure_packages` installs what is missing where this runs as root on a Debian-like system;
elsewhere it says in one line what to install. A package apt does not know is retried once after
``apt-get update`` (a fresh machine's package lists may never have been fetched). Used by
``wapii setup`` (the adapters' own packages, through :func:`ensure_packages`) and by ``make test``
(``python -m wapii_core.base.debian PACKAGE ...``: the packages only the test suite needs).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from wapii_core.base.errors import MissingToolError

APT_TIMEOUT_S = 900
"""How long one apt-get call may take (a first ``apt-get update`` plus a download of Chromium)."""


def missing_packages(packages: list[str]) -> list[str]:
    """Those of ``packages`` that dpkg does not list as installed (all of them where there is no dpkg)."""
    if not shutil.which("dpkg-query"):
        return list(packages)
    done = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\\n", *packages],
                          capture_output=True, text=True, check=False)
    installed = {line.split()[0] for line in done.stdout.splitlines() if line.endswith(" installed")}
    return [name for name in packages if name not in installed]


def can_install() -> bool:
    """Whether this process can install Debian packages: root, with apt-get."""
    return os.name == "posix" and os.geteuid() == 0 and shutil.which("apt-get") is not None


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        return subprocess.run(["apt-get", *args], capture_output=True, text=True, env=env, timeout=APT_TIMEOUT_S,
                              check=False)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(["apt-get", *args], 1, "", f"apt-get {args[0]} ran longer than {APT_TIMEOUT_S} s")


def _last_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (done.stderr or done.stdout or "").splitlines() if line.strip()]
    return lines[-1] if lines else f"exit status {done.returncode}"


def ensure_packages(packages: list[str], needed_by: str) -> list[str]:
    """Installs those of ``packages`` that are missing; returns what it installed.

    Raises :class:`MissingToolError` (one line naming the packages) where they are missing and cannot be
    installed here: not root, no apt-get, or apt-get failing even after ``apt-get update``.
    """
    missing = missing_packages(packages)
    if not missing:
        return []
    names = " ".join(missing)
    if not can_install():
        raise MissingToolError(f"{needed_by} needs the Debian package(s) {names}: install them "
                               f"(as root: apt-get install {names})")
    command = ("install", "-y", "-q", "--no-install-recommends", *missing)
    done = _apt(*command)
    if done.returncode != 0:
        # A fresh machine's lists may never have been fetched ("Unable to locate package"), or be stale.
        refreshed = _apt("update", "-q")
        if refreshed.returncode != 0:
            raise MissingToolError(f"{needed_by}: apt-get update failed ({_last_line(refreshed)}); "
                                   f"install {names} by hand")
        done = _apt(*command)
    if done.returncode != 0:
        raise MissingToolError(f"{needed_by}: apt-get install {names} failed ({_last_line(done)})")
    return missing


def main(argv: list[str]) -> int:
    """``python -m wapii_core.base.debian [--optional] [--needed-by WHAT] PACKAGE ...``.

    Installs what is missing; one line and exit 2 where it cannot. With ``--optional``, a machine where
    nothing can be installed (not root, no apt-get) is a note and exit 0; a failing apt-get still fails.
    """
    optional = "--optional" in argv
    argv = [arg for arg in argv if arg != "--optional"]
    needed_by = "wapii"
    if argv[:1] == ["--needed-by"] and len(argv) > 1:
        needed_by, argv = argv[1], argv[2:]
    try:
        installed = ensure_packages(argv, needed_by)
    except MissingToolError as exc:
        if optional and not can_install():
            print(f"wapii: note: {exc}", file=sys.stderr)
            return 0
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if installed:
        print(f"wapii: installed {' '.join(installed)} (for {needed_by})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
