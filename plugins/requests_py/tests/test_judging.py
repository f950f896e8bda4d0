"""Programs judged end to end by each Python adapter: extraction, sandboxed capture, normalisation, verdicts.

The task (demo ``larchwood/0``): GET /books with ``X-Api-Key: <key>`` and the query
``author=Okafor, genre=mystery, available=true, limit=10``.
"""

from __future__ import annotations

BOOKS_URL = "https://api.larchwood-library.example/v2/books"

HEADERS = "headers={'X-Api-Key': '<key>'}"
PARAMS = "params={'author': 'Okafor', 'genre': 'mystery', 'available': 'true', 'limit': 10}"


def program(arguments: str = f"{PARAMS}, {HEADERS}", url: str = BOOKS_URL, method: str = "get", after: str = "") -> str:
    return f"# find books\nimport {{lib}}\n\n{{lib}}.{method}('{url}', {arguments})\n{after}"


def test_correct_call(judged) -> None:
    result = judged(program(after="print(response.json())\n"))  # what follows the request never runs
    assert result.verdict == "correct", result.arguments
    assert result.request["params"]["limit"] == 10 and result.request["sent_params"]["limit"] == "10"
    assert result.request["headers"] == {"X-Api-Key": "<key>"}  # the library's own headers are dropped


def test_wrong_endpoint(judged) -> None:
    wrong_method = judged(program(method="post"))
    assert (wrong_method.method, wrong_method.verdict) == ("wrong", "wrong")  # POST /books exists
    unknown_path = judged(program(url=BOOKS_URL.replace("/books", "/novels")))
    assert (unknown_path.url, unknown_path.verdict) == ("illegal", "illegal")


def test_extra_illegal_argument(judged) -> None:
    result = judged(program(f"{PARAMS[:-1]}, 'colour': 'red'}}, {HEADERS}"))
    assert result.arguments["params"]["colour"] == "illegal"
    assert result.verdict == "illegal"


def test_missing_argument(judged) -> None:
    result = judged(program(f"params={{'author': 'Okafor', 'genre': 'mystery', 'available': 'true'}}, {HEADERS}"))
    assert result.arguments["params"]["limit"] == "missing"
    assert result.verdict == "wrong"


def test_wrong_value(judged) -> None:
    result = judged(program(PARAMS.replace("Okafor", "Achebe") + f", {HEADERS}"))
    assert result.arguments["params"]["author"] == "incorrect_value"
    assert result.verdict == "wrong"


def test_query_string_inside_the_url(judged) -> None:
    url = f"{BOOKS_URL}?author=Okafor&genre=mystery&available=true&limit=10"
    code = program(HEADERS, url=url)
    assert judged(code).verdict == "correct"
    reference = judged(code, mode="reference")  # written into the URL, 10 is the string '10' (as for axios)
    assert reference.arguments["params"]["limit"] == "incorrect_value"
    assert reference.arguments["params"]["available"] == "incorrect_value"


def test_form_body_where_json_is_expected(judged) -> None:
    body = "{'pages': 412, 'subtitle': 'A Coastal History'}"
    call = "{lib}.patch('https://api.larchwood-library.example/v2/books/bk_77310', headers={'Authorization': 'Bearer <token>'}, "
    assert judged(f"import {{lib}}\n{call}json={body})\n", sample="larchwood/4").verdict == "correct"
    form = judged(f"import {{lib}}\n{call}data={body})\n", sample="larchwood/4")
    assert form.request["data"] == {"pages": "412", "subtitle": "A Coastal History"}
    assert set(form.arguments["data"].values()) == {"incorrect_value"} and form.verdict == "wrong"


def test_json_body_where_a_form_is_expected(judged) -> None:
    call = ("{lib}.post('https://api.larchwood-library.example/v2/loans/ln_6620/return', "
            "headers={'Authorization': 'Bearer <token>'}, ")
    assert judged(f"import {{lib}}\n{call}data={{'condition': 'worn'}})\n", sample="larchwood/15").verdict == "correct"
    as_json = judged(f"import {{lib}}\n{call}json={{'condition': 'worn'}})\n", sample="larchwood/15")
    assert as_json.arguments["data"]["condition"] == "incorrect_value"


def test_python_true_in_the_query(judged, adapter) -> None:
    code = program(PARAMS.replace("'true'", "True") + f", {HEADERS}")
    wire, reference = judged(code), judged(code, mode="reference")
    assert reference.verdict == "correct"  # as written, True is the expected true
    if adapter.library.module == "requests":  # requests sends available=True
        assert wire.request["sent_params"]["available"] == "True"
        assert wire.arguments["params"]["available"] == "incorrect_value"
    else:  # httpx sends available=true
        assert wire.request["sent_params"]["available"] == "true" and wire.verdict == "correct"


def test_client_or_session_with_base_url_and_headers(judged, adapter) -> None:
    if adapter.library.module == "requests":
        code = ("import requests\nsession = requests.Session()\nsession.headers['X-Api-Key'] = '<key>'\n"
                f"session.get('{BOOKS_URL}', {PARAMS})\n")
    else:
        code = ("import httpx\nwith httpx.Client(base_url='https://api.larchwood-library.example/v2', "
                f"{HEADERS}) as client:\n    client.get('/books', {PARAMS})\n")
    assert judged(code).verdict == "correct"


def test_truncated_call(judged) -> None:
    result = judged(f"import {{lib}}\n\n{{lib}}.get('{BOOKS_URL}', params={{'author': 'Oka")
    assert (result.verdict, result.error) == ("nonexecutable", "incomplete_request")


def test_no_call(judged) -> None:
    result = judged("import {lib}\n\nprint('I cannot do that.')\n")
    assert (result.verdict, result.error) == ("nonexecutable", "no_request")
    never_called = judged(f"import {{lib}}\n\ndef find():\n    {{lib}}.get('{BOOKS_URL}')\n")
    assert never_called.error == "no_request"


def test_runtime_exception(judged) -> None:
    result = judged(program(f"{PARAMS}, headers={{'X-Api-Key': KEY}}"))  # KEY is undefined
    assert (result.verdict, result.error) == ("nonexecutable", "runtime_error")
    assert "NameError" in result.error_detail
    exits = judged("import sys\nimport {lib}\n{lib}.__name__\nsys.exit(3)\n")
    assert exits.error == "runtime_error"


def test_infinite_loop_times_out_and_the_next_call_still_runs(judged) -> None:
    result = judged(program(f"params={{'n': [i for i in iter(int, 1)]}}"))
    assert (result.verdict, result.error) == ("nonexecutable", "runtime_error")
    assert "timeout" in result.error_detail
    assert judged(program()).verdict == "correct"


def test_syntax_error_in_the_call(judged) -> None:
    result = judged(f"import {{lib}}\n{{lib}}.get('{BOOKS_URL}', params=)\nprint('done')\n")
    assert result.error == "runtime_error" and "SyntaxError" in result.error_detail
