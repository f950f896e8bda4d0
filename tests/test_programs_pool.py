"""ProgramPool: one executable per job, each in its own sandboxed process, judged by what it wrote to
descriptor 3; with and without bubblewrap."""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

import pytest

from wapii_core.sandbox.programs import ProgramPool
from wapii_core.sandbox.wire_capture import parse_requests

SH = Path(shutil.which("dash") or "/bin/dash").resolve()
LOADER = [Path(p).resolve() for p in glob.glob("/lib64/ld-linux*")]
REQUEST = r"printf 'GET http://x.test/a?b=1 HTTP/1.1\r\nHost: x.test\r\nContent-Length: 0\r\n\r\n' >&3"


@pytest.fixture(params=["bwrap", "no-bwrap"])
def pool(request, tmp_path, monkeypatch):
    if request.param == "no-bwrap":
        monkeypatch.setenv("WAPII_BWRAP", "")
    tmp_path.chmod(0o755)
    for parent in tmp_path.parents:
        if str(parent).startswith("/tmp/"):
            parent.chmod(0o755)
    marker = tmp_path / "marker"
    marker.write_text("x")
    with ProgramPool("test", read_paths=[tmp_path], run_paths=[SH, *LOADER], timeout=1.0, max_output=100) as made:
        yield made


def run(pool: ProgramPool, script: str, *args: str):
    return pool.run([[str(SH), "-c", script, "sh", *args]])[0]


def test_request_sent_down_descriptor_3_is_captured(pool):
    result = run(pool, REQUEST + "; echo done")
    assert result.ok and result.exit_code == 0 and result.output == b"done\n"
    [request] = parse_requests(result.wire)
    assert (request.method, request.target) == ("GET", "http://x.test/a?b=1")


def test_exit_code_and_what_was_sent_before_it(pool):
    result = run(pool, REQUEST + "; exit 3")
    assert (result.ok, result.exit_code, result.error) == (False, 3, "exited")
    assert parse_requests(result.wire)[0].target == "http://x.test/a?b=1"


def test_no_other_executable_no_file_write(pool):
    result = run(pool, "/bin/ls / 2>/dev/null || echo L; (echo hi > /tmp/f) 2>/dev/null || echo W; echo end")
    assert result.output == b"L\nW\nend\n" and result.wire == b""


def test_timeout_kills_everything_the_program_started(pool):
    result = run(pool, "(trap '' HUP TERM; while :; do :; done) & (while :; do :; done)")
    assert result.error == "timeout" and not result.ok
    again = run(pool, REQUEST)  # the worker answers the next job: nothing of the last one holds it
    assert again.ok
    mine = [p for p in os.listdir("/proc") if p.isdigit()]
    leftovers = []
    for pid in mine:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"while :; do :; done" in cmd:
            leftovers.append(pid)
    assert leftovers == []


def test_output_is_bounded_and_each_job_its_own(pool):
    results = pool.run([[str(SH), "-c", "i=0; while [ $i -lt 500 ]; do echo line$i; i=$((i+1)); done"],
                        [str(SH), "-c", "echo $$"], [str(SH), "-c", "echo $$"]])
    assert len(results[0].output) == 100 and results[0].ok
    assert results[1].output != results[2].output  # two processes


def test_bad_argv_is_that_jobs_error(pool):
    [result] = pool.run([["relative/path"]])
    assert result.error == "runtime_error" and "absolute" in result.detail
