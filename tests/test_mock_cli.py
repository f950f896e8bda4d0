"""``wapii mock`` on the demo spec, over real HTTP with curl: create, read, list and delete behave as
docs/mock.md says; bad input is a one-line error with exit code 2."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mock_support import DEMO
from support import REPO, run_cli_in_process

TOKEN = ["-H", "Authorization: Bearer <token>", "-H", "X-Api-Key: <key>"]


def _curl(*args: str) -> tuple[int, object]:
    done = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    body, _, status = done.stdout.rpartition("\n")
    return int(status), json.loads(body) if body else None


@pytest.fixture()
def server():
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    process = subprocess.Popen([sys.executable, "-m", "wapii_core", "mock", str(DEMO), "--port", "0", "--seed", "5"],
                               cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()  # the server prints where it listens once it does
        assert first.startswith("serving the mock of"), first + process.stderr.read()
        url = first.split(" at ")[1].split(" ")[0]
        yield url, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)


def test_a_create_read_list_delete_sequence_over_http(server) -> None:
    url, process = server
    assert url.endswith("/v2")
    status, book = _curl("-X", "POST", f"{url}/books", *TOKEN, "-H", "Content-Type: application/json",
                         "-d", json.dumps({"title": "Dune", "contributors": [{"name": "Frank Herbert"}]}))
    assert status == 201 and book["title"] == "Dune"
    status, read = _curl(f"{url}/books/{book['id']}", *TOKEN)
    assert status == 200 and read == book
    status, listed = _curl(f"{url}/books?limit=10", *TOKEN)
    assert status == 200 and [b["id"] for b in listed["books"]] == [book["id"]] and listed["total"] == 1
    status, _ = _curl("-X", "DELETE", f"{url}/books/{book['id']}?reason=lost", *TOKEN)
    assert status == 204
    status, missing = _curl(f"{url}/books/{book['id']}", *TOKEN)
    assert status == 404 and missing["detail"] == f"no book {book['id']!r}"
    status, _ = _curl(f"{url}/books", "-H", "Authorization: Bearer <token>")  # the catalogue key is missing
    assert status == 401
    status, listed = _curl(url.rsplit("/v2", 1)[0] + "/books", *TOKEN)  # without the server's path too
    assert status == 200 and listed["books"] == []
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0
    assert "POST /v2/books -> 201 create books" in out and out.rstrip().endswith("stopped")


@pytest.mark.parametrize("args, message", [
    (["no-such-spec.yaml"], "error: no-such-spec.yaml: no such spec file or dataset directory"),
    (["demo", "--api", "nope"], "error: dataset 'demo' has no API 'nope' (larchwood)"),
])
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    done = run_cli_in_process("mock", *args, cwd=REPO)
    assert done.returncode == 2
    assert done.stderr.strip() == message


def test_a_bad_fault_plan_is_one_line(tmp_path: Path) -> None:
    plan = tmp_path / "faults.json"
    plan.write_text(json.dumps({"faults": [{"status": 200}]}))
    done = run_cli_in_process("mock", str(DEMO), "--faults", str(plan), cwd=REPO)
    assert done.returncode == 2
    assert done.stderr.strip().startswith(f"error: {plan}: fault plan: faults.0.status: Input should be greater")
    assert len(done.stderr.strip().splitlines()) == 1
