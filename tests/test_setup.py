"""`wapii setup` and the Debian packages adapters declare: each adapter set up on its own; its
packages installed with apt where missing, apt's lists refreshed when apt does not know a package (a
fresh machine), one line where nothing can be installed.

apt-get and dpkg-query are replaced by scripts on ``PATH`` that log their calls and act like apt on a
machine whose package lists were never fetched: the real ones would change this machine.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from wapii_core.base import debian
from wapii_core.base.errors import MissingToolError

FAKE_APT = r"""#!/bin/sh
echo "apt-get $*" >> "$LOG"
case "$1" in
  update) [ -n "$UPDATE_FAILS" ] && { echo "E: The repository is not signed." >&2; exit 100; }
          touch "$STATE/lists"; exit 0 ;;
  install) [ -f "$STATE/lists" ] || { echo "E: Unable to locate package ${@: -1}" >&2; exit 100; }
           for p in "$@"; do touch "$STATE/pkg-$p"; done; exit 0 ;;
esac
exit 1
"""
FAKE_DPKG_QUERY = r"""#!/bin/sh
for p in "$@"; do
  case "$p" in -*) continue ;; esac
  if [ -f "$STATE/pkg-$p" ]; then echo "$p installed"; else echo "dpkg-query: no packages found matching $p" >&2; fi
done
"""


@pytest.fixture
def fake_apt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir, state = tmp_path / "bin", tmp_path / "state"
    bin_dir.mkdir()
    state.mkdir()
    for name, text in (("apt-get", FAKE_APT.replace("${@: -1}", "$2")), ("dpkg-query", FAKE_DPKG_QUERY)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(stat.S_IRWXU)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STATE", str(state))
    monkeypatch.setenv("LOG", str(tmp_path / "calls.log"))
    monkeypatch.setattr(debian, "can_install", lambda: True)
    return tmp_path


def calls(fake: Path) -> list[str]:
    log = fake / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def test_lists_are_fetched_when_apt_does_not_know_the_package_then_it_is_installed(fake_apt: Path) -> None:
    assert debian.ensure_packages(["libokhttp-java"], "okhttp_java") == ["libokhttp-java"]
    assert [line.split()[1] for line in calls(fake_apt)] == ["install", "update", "install"]
    assert "--no-install-recommends" in calls(fake_apt)[-1]


def test_an_installed_package_runs_no_apt(fake_apt: Path) -> None:
    (fake_apt / "state" / "pkg-libokhttp-java").touch()
    assert debian.ensure_packages(["libokhttp-java"], "okhttp_java") == []
    assert calls(fake_apt) == []


def test_a_failing_update_is_one_line_naming_the_packages(fake_apt: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UPDATE_FAILS", "1")
    with pytest.raises(MissingToolError) as caught:
        debian.ensure_packages(["libokhttp-java"], "okhttp_java")
    message = str(caught.value)
    assert "\n" not in message and "libokhttp-java" in message and "not signed" in message


def test_where_nothing_can_be_installed_the_line_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(debian, "can_install", lambda: False)
    monkeypatch.setattr(debian, "missing_packages", lambda packages: list(packages))
    with pytest.raises(MissingToolError, match=r"okhttp_java needs the Debian package\(s\) libokhttp-java: .*apt-get "
                                               r"install libokhttp-java"):
        debian.ensure_packages(["libokhttp-java"], "okhttp_java")
    assert debian.main(["--optional", "--needed-by", "tests", "libokhttp-java"]) == 0
    assert debian.main(["--needed-by", "tests", "libokhttp-java"]) == 2


def test_setup_sets_up_each_adapter_on_its_own(tmp_path: Path) -> None:
    """A Java adapter without a JDK is one line naming what to install; the adapter beside it is
    still set up; the exit status says that not everything asked for is ready."""
    from support import run_cli

    empty_jdk = tmp_path / "jdk"
    empty_jdk.mkdir()
    done = run_cli("setup", "--adapter", "httpclient_java", "--adapter", "requests_py",
                   env={"JAVA_HOME": str(empty_jdk)})
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == ["requests_py: ready"]
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and "Traceback" not in done.stderr
    assert lines[0].startswith("httpclient_java: not ready: ") and "install a JDK" in lines[0]
    assert lines[1] == "wapii setup: not ready: httpclient_java (the others are ready)"


def test_setup_of_an_unknown_adapter_is_bad_input_and_sets_up_nothing() -> None:
    from support import run_cli

    done = run_cli("setup", "--adapter", "requests_py", "--adapter", "nope")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: unknown adapter 'nope'") and len(done.stderr.splitlines()) == 1
