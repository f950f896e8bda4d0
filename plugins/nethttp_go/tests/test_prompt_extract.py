"""The prompt's starter per setup, and the extraction of a Go program's first request."""

from __future__ import annotations

import pytest

from wapii_core.api import Sample, Setup
from wapii_nethttp_go.extract import extract_go_program
from wapii_nethttp_go.prompt import starter_code

SAMPLE = Sample(api="asana", index=0, task="Get the attachments.",
                config={"url": "https://app.asana.com/api/1.0/attachments", "method": "get", "headers": {}})


def test_starters_in_the_papers_style() -> None:
    head = '// Get the attachments.\npackage main\n\nimport "net/http"\n'
    assert starter_code(SAMPLE, Setup.imports) == head
    assert starter_code(SAMPLE, Setup.full) == head + "\nfunc main() {\n\treq, err := http.NewRequest("
    assert starter_code(SAMPLE, Setup.argument).endswith(
        'http.NewRequest("GET", "https://app.asana.com/api/1.0/attachments"')


COMPLETE = """package main

import "net/http"

func main() {
	req, err := http.NewRequest("GET", "https://a.test/x", nil)
	if err != nil {
		panic(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
}
"""


def test_a_whole_program_is_the_call_cut_at_the_fence() -> None:
    extraction = extract_go_program(COMPLETE + "```\nThis program sends `client.Do(x)`.")
    assert extraction.call == COMPLETE
    assert COMPLETE[slice(*extraction.span)].strip() == "resp, err := http.DefaultClient.Do(req)"


def test_a_program_cut_off_after_its_request_is_closed_and_its_variables_used() -> None:
    cut = COMPLETE[: COMPLETE.index("defer") - 1] .replace("\tif err != nil {\n\t\tpanic(err)\n\t}\n", "", 1)
    cut = cut[: cut.rindex("if err")] + "if err != nil {\n\t\tpan"
    extraction = extract_go_program(cut)
    assert extraction.error is None
    assert extraction.call.endswith("resp, err := http.DefaultClient.Do(req)\n\t_ = resp\n\t_ = err\n}\n")


@pytest.mark.parametrize("code, error", [
    ('package main\n\nimport "net/http"\n\nfunc main() {\n\t_ = http.MethodGet\n}\n', "no_request"),
    ('package main\n\nimport "net/http"\n\nfunc main() {\n\treq, _ := http.NewRequest("GET", "https://a', "incomplete_request"),
    ('package main\n\nimport "net/http"\n\nfunc main() {\n\thttp.Get("https://a.test/" + ', "incomplete_request"),
    ('package main\n\nfunc main() {\n\t// client.Do(req)\n\ts := "http.Get(x)"\n\t_ = s\n}\n', "no_request"),
    ('package main\n\nfunc main() {\n\tq := url.Values{}\n\tq.Get("x")\n\treq.Header.Get("y")\n}\n', "no_request"),
])
def test_no_request_and_incomplete_request(code: str, error: str) -> None:
    assert extract_go_program(code).error == error


def test_senders_on_a_client_variable_count() -> None:
    code = ('package main\n\nimport "net/http"\n\nfunc main() {\n\tc := &http.Client{}\n'
            '\tc.Post("https://a.test/", "text/plain", nil)\n}\n')
    assert extract_go_program(code).error is None
