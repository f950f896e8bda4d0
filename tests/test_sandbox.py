"""The isolation layers one by one: rlimits, the privilege drop, bubblewrap, the layer report."""

from __future__ import annotations

import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from wapii_core.sandbox import Isolation, IsolationError, Layer, Limits, Program, enforce, plan, set_require_isolation
from wapii_core.sandbox import bwrap, landlock, layers, users
from wapii_core.sandbox.limits import ESSENTIAL_ENV, GiB, MiB, apply_limits, clean_env, tasks_of


def run_planned(program: Program, stdin: str = "") -> subprocess.CompletedProcess:
    started = plan(program)
    return subprocess.run(started.command(), input=stdin, capture_output=True, text=True, env=started.env, timeout=60)


def python_program(code: str, limits: Limits | None = None) -> Program:
    roots = {Path(sys.executable).resolve(), Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)}
    return Program(argv=[sys.executable, "-I", "-S", "-c", code], read_paths=sorted(roots, key=str),
                   limits=limits or Limits())


needs_bwrap = pytest.mark.skipif(bwrap.probe(users.running_as_root(), tuple(users.drop_prefix(users.sandbox_user()))
                                             if users.sandbox_user() and users.setpriv_binary() else None) is not None,
                                 reason="bubblewrap does not work here")


# --- limits ---------------------------------------------------------------------------------------

def test_limits_resolve_per_user() -> None:
    limits = Limits(address_space=GiB, file_size=MiB, open_files=64, core=0, processes_headroom=10)
    as_root = limits.resolved(0)
    assert as_root == {resource.RLIMIT_AS: GiB, resource.RLIMIT_FSIZE: MiB, resource.RLIMIT_NOFILE: 64,
                       resource.RLIMIT_CORE: 0}  # RLIMIT_NPROC does not apply to root
    uid = os.getuid() or 65534
    assert limits.resolved(uid)[resource.RLIMIT_NPROC] == tasks_of(uid) + 10
    assert Limits(address_space=None, file_size=None, open_files=None, core=None, processes_headroom=None).resolved(5) == {}


def test_tasks_are_counted_per_user() -> None:
    assert tasks_of(os.getuid()) >= 1
    assert tasks_of(4_000_000) == 0


def test_address_space_limit_stops_a_memory_bomb() -> None:
    code = "b = bytearray(1 << 30)\nprint('allocated')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: Limits(address_space=512 * MiB).apply())
    assert done.returncode != 0 and "MemoryError" in done.stderr


def test_file_size_limit_caps_writes(tmp_path: Path) -> None:
    target = tmp_path / "big"
    code = f"import signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); open({str(target)!r}, 'wb').write(b'x' * 100000)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: apply_limits({resource.RLIMIT_FSIZE: 1000}))
    assert done.returncode != 0 and "File too large" in done.stderr
    assert target.stat().st_size <= 1000


def test_the_clean_environment_keeps_nothing_of_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAPII_TEST_SECRET_ENV", "s3cret")
    env = clean_env({"EXTRA": "1"})
    assert env == {**ESSENTIAL_ENV, "EXTRA": "1"}
    assert "s3cret" not in run_planned(python_program("import os; print(dict(os.environ))")).stdout


# --- privilege drop -------------------------------------------------------------------------------

@pytest.fixture
def open_dir():
    """A folder anyone may enter (pytest's own tmp_path sits below a 0700 folder)."""
    path = Path(tempfile.mkdtemp(dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_readable_by_follows_permission_bits(open_dir: Path) -> None:
    stranger = users.SandboxUser("stranger", 4_000_001, 4_000_001)
    tmp_path = open_dir
    public, private, locked = tmp_path / "public", tmp_path / "private", tmp_path / "locked"
    public.write_text("x")
    public.chmod(0o644)
    private.write_text("x")
    private.chmod(0o600)
    locked.mkdir(mode=0o700)
    (locked / "inner").write_text("x")
    assert users.readable_by(public, stranger)
    assert not users.readable_by(private, stranger)
    assert not users.readable_by(locked / "inner", stranger)
    assert not users.readable_by(tmp_path / "missing", stranger)
    owner = users.SandboxUser("owner", os.getuid(), os.getgid())
    assert users.readable_by(private, owner)


def test_the_sandbox_user_can_be_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    if not users.running_as_root():
        assert users.sandbox_user() is None  # nothing to drop
        return
    monkeypatch.setenv(users.USER_ENV, "nobody")
    assert users.sandbox_user().name == "nobody"
    monkeypatch.setenv(users.USER_ENV, "root")
    assert users.sandbox_user() is None  # never "drop" to root
    monkeypatch.setenv(users.USER_ENV, "no-such-user-here")
    assert users.sandbox_user() is None


def test_workers_of_root_run_as_the_sandbox_user() -> None:
    result = run_planned(python_program("import os; print(os.getresuid())"))
    uids = result.stdout.strip()
    if not users.running_as_root():
        assert uids == str((os.getuid(),) * 3)
        return
    drop = next(layer for layer in plan(python_program("")).layers if layer.name == "privilege drop")
    if not (users.sandbox_user() and drop.active):
        pytest.skip(f"no privilege drop here: {drop.detail}")
    assert uids == str((users.sandbox_user().uid,) * 3)


# --- bubblewrap -----------------------------------------------------------------------------------

def test_mounts_recreate_links_and_open_parents(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    args = bwrap.mount_args([tmp_path / "a" / "b", tmp_path / "a" / "b" / "c", tmp_path / "missing"])
    pairs = list(zip(args, args[1:]))
    assert ("--ro-bind", str(tmp_path / "a" / "b")) in pairs
    assert str(tmp_path / "missing") not in args
    assert args.count(str(tmp_path / "a" / "b" / "c")) == 0  # inside an earlier bind
    assert ("--dir", str(tmp_path / "a")) in pairs and ("--perms", "0755") in pairs
    if Path("/lib").is_symlink():
        assert ("--symlink", os.readlink("/lib")) in pairs
    assert args.index("--tmpfs") < args.index(str(tmp_path / "a" / "b"))  # /tmp binds survive the tmpfs


@needs_bwrap
def test_inside_bubblewrap_nothing_of_the_host_is_reachable() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    code = f"""
import os, socket
print("passwd", os.path.exists("/etc/passwd"), "home", os.path.exists("/home") or os.path.exists("/root/.bashrc"))
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2); print("connected")
except OSError as e:
    print("refused", e.errno)
print("pids", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
try:
    open("/usr/wapii-write-test", "w"); print("wrote")
except OSError as e:
    print("readonly", e.errno)
print("hostname", socket.gethostname())
"""
    out = run_planned(python_program(code)).stdout
    server.close()
    assert "passwd False home False" in out
    assert "refused" in out and "connected" not in out
    assert "pids [1, 2]" in out or "pids [2]" in out or "pids [1]" in out
    assert "readonly" in out and "wrote" not in out
    assert "hostname sandbox" in out


def test_without_bubblewrap_the_report_says_what_is_exposed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(bwrap.BWRAP_ENV, "")  # as if bubblewrap were not installed
    report = plan(python_program("pass")).layers
    assert report[0].name == "bubblewrap" and not report[0].active
    assert "not installed" in report[0].detail
    assert report[1].name == "landlock (worker)" and report[1].active == (landlock.unavailable() is None)
    if report[1].active:  # Landlock takes over the file system: what only bubblewrap isolates is named
        assert "file metadata" in report[0].exposes and "namespaces" in report[0].exposes
    else:
        assert "file system" in report[0].exposes
    out = run_planned(python_program("print('ran')")).stdout
    assert out.strip() == "ran"


@pytest.mark.skipif(landlock.unavailable() is not None, reason=f"{landlock.unavailable()}")
def test_without_bubblewrap_landlock_confines_the_worker(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    target = tmp_path / "written.txt"
    code = f"""
import os
for path in ("/etc/passwd", {str(tmp_path)!r}):
    try:
        open(path).read() if path.endswith("passwd") else os.listdir(path); print("read", path)
    except OSError as e:
        print("refused", path, e.errno)
try:
    open({str(target)!r}, "w"); print("wrote")
except OSError as e:
    print("refused write", e.errno)
"""
    out = run_planned(python_program(code)).stdout
    assert f"refused /etc/passwd 13\nrefused {tmp_path} 13\nrefused write 13" in out
    assert not target.exists()


# --- the layer report -----------------------------------------------------------------------------

@pytest.fixture
def fresh_warnings(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(layers, "_warned", set())
    monkeypatch.setattr(layers, "_required", None)
    monkeypatch.delenv(layers.REQUIRE_ENV, raising=False)
    yield
    monkeypatch.setattr(layers, "_required", None)


def test_a_missing_layer_is_warned_about_once(fresh_warnings, capsys: pytest.CaptureFixture) -> None:
    isolation = Isolation("python", [Layer("bubblewrap", False, "not installed", "the host file system"),
                                     Layer("rlimits", True, "AS=1")])
    enforce(isolation)
    enforce(isolation)
    err = capsys.readouterr().err
    assert err.count("warning:") == 1
    assert "without bubblewrap (not installed)" in err and "not isolated: the host file system" in err
    assert "--require-isolation" in err


def test_required_isolation_refuses(fresh_warnings, monkeypatch: pytest.MonkeyPatch) -> None:
    isolation = Isolation("node", [Layer("bubblewrap", False, "not installed", "everything")])
    set_require_isolation(True)
    assert os.environ[layers.REQUIRE_ENV] == "1"
    with pytest.raises(IsolationError, match="required .* bubblewrap: not installed"):
        enforce(isolation)
    set_require_isolation(False)
    monkeypatch.setattr(layers, "_required", None)
    monkeypatch.setenv(layers.REQUIRE_ENV, "yes")
    with pytest.raises(IsolationError):
        enforce(isolation)
    enforce(Isolation("node", [Layer("bubblewrap", True, "on")]))  # nothing missing: nothing to refuse
