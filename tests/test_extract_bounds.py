"""Python call extraction stays linear and exact on long, broken programs and on unusual line ends."""

from __future__ import annotations

import pytest

from wapii_core.pyhttp import extract
from wapii_core.pyhttp.extract import MAX_PROGRAM_CHARS, extract_python_call

requests_library = pytest.importorskip("wapii_requests_py.libraries").REQUESTS

CALL = "import requests\nrequests.get('https://api.example.com/items', params={'q': 1})\n"
BAD_LINES = ["this is not python\n", "else:\n", "x = 1 +\n", "  indented = 1\n", "return 5\n", "print((\n",
             "if x:\n    y = 1\n  z = 2\n", "def f(:\n", "}\n", "x = 'open\n"]


def one_compile_per_line(text: str) -> str:
    """The definition: the longest prefix ending at a logical line that compiles."""
    scan, lines = extract._scan(text), extract._Lines(text)
    for row, col in reversed(scan.line_ends):
        prefix = text[:lines.offset(row, col)]
        if not isinstance(extract._compile(prefix), SyntaxError):
            return prefix
    return ""


@pytest.mark.parametrize("bad", BAD_LINES)
@pytest.mark.parametrize("after", ["y = 1\n" * 40, "if y:\n    z = 2\n" * 20, ""])
def test_the_runnable_prefix_is_the_longest_that_compiles(bad: str, after: str) -> None:
    text = CALL + "x = 0\n" * 30 + bad + after
    assert extract._runnable_prefix(text, extract._scan(text))[0] == one_compile_per_line(text)


@pytest.mark.slow
def test_a_program_past_the_size_cap_is_read_up_to_it() -> None:
    text = CALL + "y = 1\n" * (MAX_PROGRAM_CHARS // 6) + "requests.post('https://api.example.com/late')\n"
    result = extract_python_call(text, requests_library)
    assert result.error is None and "items" in result.call and "late" not in result.call


def test_a_line_separator_inside_a_string_is_no_line_end() -> None:
    text = "import requests\nx = 'a\u2028b\x0cc'\nrequests.get('https://api.example.com/' + x, headers={'X': 'v\u2028w'})\n"
    result = extract_python_call(text, requests_library)
    assert result.error is None
    assert result.call == "import requests\nrequests.get('https://api.example.com/' + x, headers={'X': 'v\u2028w'})\n"
