"""Failures that say so: each preflight failure is one line, exit 2, and no run directory; a run
whose generations failed exits 3 naming the cause; a refused connection is not retried like a 429."""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from fake_openai import Fault, OpenAIServer, Reply
from support import run_cli
from wapii_core.api import BackendOptions, GenerationRequest, Prompt, Sample, WapiiError
from wapii_openai_models.backend import OpenAIBackend
from wapii_openai_models.preflight import check_server


def openai_run(out: Path, model: str, *options: str, env: dict[str, str] | None = None):
    args = ["run", "--dataset", "demo", "--backend", "openai", "--model", model, "--out", str(out)]
    for option in options:
        args += [option] if option.startswith("-") else ["-O", option]
    return run_cli(*args, env=env)


def one_line_refusal(done, *fragments: str, resumed: bool = False) -> None:
    """Exit 2 and one error line (after the line saying what a resumed run kept, when ``resumed``)."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert done.stdout == "" and len(lines) == 1 + resumed, done.stderr
    assert lines[-1].startswith("error: backend openai: ")
    if resumed:
        assert lines[0].startswith("resuming ") and "kept 5 of 26 generations" in lines[0]
    for fragment in fragments:
        assert fragment in done.stderr, done.stderr


def dead_url() -> str:
    dead = OpenAIServer()
    url = dead.base_url
    dead.stop()  # nothing listens on its port any more
    return url


def without(name: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop(name, None)
    return env


@pytest.mark.slow
def test_a_hosted_api_without_its_key_is_refused_before_any_network_access(tmp_path):
    out = tmp_path / "run"
    # any request would go to a proxy that refuses connections, and say "cannot reach"
    done = run_cli("run", "--backend", "openai", "--model", "gpt-4o-mini", "--out", str(out), "-q",
                   env={**without("OPENAI_API_KEY"), "HTTPS_PROXY": "http://127.0.0.1:9"})
    one_line_refusal(done, "https://api.openai.com/v1 needs an API key", "$OPENAI_API_KEY is not set")
    assert not out.exists() and "cannot reach" not in done.stderr


@pytest.mark.slow
def test_a_server_that_wants_a_key_and_gets_none_or_a_wrong_one(tmp_path, model_name):
    with OpenAIServer(api_key="sk-right", models=[model_name]) as guarded:
        out = tmp_path / "run"
        env = without("WAPII_TEST_KEY")
        none = openai_run(out, model_name, f"base_url={guarded.base_url}", "api_key_env=WAPII_TEST_KEY", env=env)
        one_line_refusal(none, "needs an API key (HTTP 401)", "$WAPII_TEST_KEY is not set")
        wrong = openai_run(out, model_name, f"base_url={guarded.base_url}", "api_key_env=WAPII_TEST_KEY",
                           env={**env, "WAPII_TEST_KEY": "sk-wrong"})
        one_line_refusal(wrong, "refused the API key in $WAPII_TEST_KEY (HTTP 401")
        assert "sk-wrong" not in wrong.stderr
        assert not out.exists() and guarded.requests == 0


@pytest.mark.slow
def test_an_unreachable_server_is_refused_at_once(tmp_path, model_name):
    out = tmp_path / "run"
    url = dead_url()
    done = openai_run(out, model_name, f"base_url={url}")
    one_line_refusal(done, f"cannot reach {url}", "Connection refused")
    assert not out.exists()


@pytest.mark.slow
def test_an_unknown_host_is_refused_at_once(tmp_path, model_name):
    out = tmp_path / "run"
    done = openai_run(out, model_name, "base_url=http://wapii-no-such-host.invalid/v1")
    one_line_refusal(done, "cannot reach http://wapii-no-such-host.invalid/v1")
    assert not out.exists()


@pytest.mark.slow
def test_a_model_the_server_does_not_serve_is_refused(tmp_path):
    with OpenAIServer(models=["acme/coder-7b"]) as server:
        out = tmp_path / "run"
        done = openai_run(out, "acme/coder-7B", f"base_url={server.base_url}")
        one_line_refusal(done, "does not serve model 'acme/coder-7B' (it lists: acme/coder-7b;",
                         "-O preflight=false")
        assert not out.exists() and server.requests == 0
        skipped = openai_run(out, "acme/coder-7B", f"base_url={server.base_url}", "preflight=false", "retries=0")
        assert skipped.returncode == 3 and "does not exist" in skipped.stderr  # the server's own 404, per request


@pytest.mark.slow
def test_a_run_served_by_the_cache_needs_no_server(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        url = server.base_url
        assert openai_run(tmp_path / "first", model_name, f"base_url={url}").returncode == 0
    done = openai_run(tmp_path / "again", model_name, f"base_url={url}", "-q")
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_a_resumed_run_is_checked_too_and_keeps_its_directory(tmp_path, model_name):
    answered = {"n": 0}

    def answer_five_then_break(call):
        answered["n"] += 1
        if answered["n"] == 5:
            server.fail_always(Fault("server_error", status=503))
        return Reply("get('https://api.example.test/x');\n```\n")

    with OpenAIServer(answer_five_then_break, models=[model_name]) as server:
        out = tmp_path / "run"
        first = openai_run(out, model_name, f"base_url={server.base_url}", "retries=0", "concurrency=1")
        url = server.base_url
    assert first.returncode == 3
    done = openai_run(out, model_name, f"base_url={url}")
    one_line_refusal(done, f"cannot reach {url}", resumed=True)
    assert (out / "run.json").exists() and len((out / "generations.jsonl").read_text().splitlines()) == 26


@pytest.mark.slow
def test_generations_failing_mid_run_exit_3_naming_the_cause_and_the_count(tmp_path, model_name):
    answered = {"n": 0}

    def answer_ten_then_break(call):
        answered["n"] += 1
        if answered["n"] == 10:
            server.fail_always(Fault("server_error", status=503))
        return Reply("get('https://api.example.test/x');\n```\n")

    with OpenAIServer(answer_ten_then_break, models=[model_name]) as server:
        for quiet in (False, True):
            out = tmp_path / f"run-{quiet}"
            answered["n"] = 0
            server.fail_always(None)
            done = openai_run(out, model_name, f"base_url={server.base_url}", "retries=1", "concurrency=1",
                              "no_cache=true", *(["-q"] if quiet else []))
            assert done.returncode == 3, done.stderr
            last = done.stderr.strip().splitlines()[-1]
            assert last.startswith(f"error: {out}: 16 of 26 generations failed (16x ")
            assert "HTTP 503" in last and "run the same command again to retry them" in last


def one_request() -> list[GenerationRequest]:
    sample = Sample(api="demo", index=0, task="t", config={"url": "u", "method": "get", "headers": {}})
    return [GenerationRequest(sample=sample, prompt=Prompt(text="x\naxios.", starter="axios."))]


def test_a_refused_connection_is_not_retried_like_a_rate_limit(model_name):
    backend = OpenAIBackend(BackendOptions(model=model_name, extra={
        "base_url": dead_url(), "retries": "5", "backoff": "2", "no_cache": "true"}))
    client, _ = backend._ensure_started()
    waits: list[float] = []
    client.sleep = waits.append  # each wait between attempts, recorded instead of slept
    try:
        (gen,) = list(backend.generate(one_request()))
    finally:
        backend.close()
    assert waits == []  # not one backoff: a refused connection does not heal by waiting
    assert "cannot connect" in gen.error and "not retried" in gen.error


@pytest.mark.slow
@pytest.mark.parametrize("concurrency", [100])
def test_concurrency_means_requests_in_flight_at_the_server(tmp_path, model_name, concurrency):
    with OpenAIServer(latency=1.0, models=[model_name]) as server:
        done = run_cli("run", "--dataset", "demo", "--backend", "openai", "--model", model_name, "-q", "-n", "5",
                       "--out", str(tmp_path / "run"), "-O", f"base_url={server.base_url}",
                       "-O", f"concurrency={concurrency}", "-O", "adaptive=false")  # no ramp-up: all at once
        assert done.returncode == 0, done.stderr
        assert server.answered == 130 and server.peak_in_flight == concurrency


class _Canned(BaseHTTPRequestHandler):
    """Answers every request with the server's canned status and body (a URL that is no OpenAI API)."""

    protocol_version = "HTTP/1.1"

    def _answer(self) -> None:
        status, body = self.server.canned  # type: ignore[attr-defined]
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet in tests
        pass


@contextmanager
def canned_server(status: int, body: bytes):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Canned)
    httpd.canned = (status, body)  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.parametrize("status, body, says", [
    (404, b"", "answered HTTP 404: (empty body)"),
    (404, b"404 page not found\nsee https://example.test/help", "answered HTTP 404: 404 page not found ("),
    (503, b'{"error": "loading"}', 'answered HTTP 503: {"error": "loading"}'),
    (200, b"<html>\n<body>a web page</body>", "did not answer with a model list: <html> ("),
])
def test_a_server_whose_model_list_is_not_one_is_refused_with_the_status_and_first_line(status, body, says):
    with canned_server(status, body) as url:
        with pytest.raises(WapiiError) as refused:
            check_server(url, "m", None, "OPENAI_API_KEY")
    message = str(refused.value)
    assert says in message and "\n" not in message and "-O preflight=false" in message


@pytest.mark.slow
def test_a_url_that_answers_404_to_everything_is_refused_before_any_generation(tmp_path, model_name):
    with canned_server(404, b"") as url:
        out = tmp_path / "run"
        done = openai_run(out, model_name, f"base_url={url}")
    one_line_refusal(done, f"GET {url}/models answered HTTP 404: (empty body)")
    assert not out.exists()
