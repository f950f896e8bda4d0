"""Python call extraction on long, broken programs: the work wapii does in its own process per program.

A small model that loops to its token limit writes a request, one line that is not Python
(an ``else:`` without its ``if``), then a short line thousands of times. Extraction looks for the longest prefix that compiles; it used to
compile once per logical line from the end (quadratic: ~50 s for 144 KB). This prints, side by
side in one run, the time of :func:`wapii_core.pyhttp.extract.extract_python_call` (the linear
search: candidates end before the compiler's error line, tried backwards then by bisection) and of
the former search (one compile per line from the end, reproduced here) on programs of growing size,
up to 600 KB (the former only where it ends in reasonable time; extraction reads the first
``MAX_PROGRAM_CHARS`` = 256 KiB of a program).

    .venv/bin/python benchmarks/bench_extraction.py [--sizes 9000,18000,36000,144000,600000] [--former-max 36000]
"""

from __future__ import annotations

import argparse
import time

from wapii_core.pyhttp import extract
from wapii_core.pyhttp.extract import extract_python_call

HEAD = "import requests\nrequests.get('https://api.example.com/items', params={'q': 1})\nelse:\n"
LOOP = "y = 1\n"


def program(size: int) -> str:
    return HEAD + LOOP * max(0, (size - len(HEAD)) // len(LOOP))


def former_prefix(text: str) -> str:
    """The former search: the longest prefix ending at a logical line that compiles, one compile per line."""
    scan = extract._scan(text)
    lines = extract._Lines(text)
    for row, col in reversed(scan.line_ends):
        prefix = text[:lines.offset(row, col)]
        if not isinstance(extract._compile(prefix), SyntaxError):
            return prefix
    return ""


def timed(function, *args) -> tuple[float, object]:
    start = time.perf_counter()
    value = function(*args)
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="9000,18000,36000,144000,600000")
    parser.add_argument("--former-max", type=int, default=36000, help="largest program the former search is timed on")
    args = parser.parse_args()
    from wapii_requests_py.libraries import REQUESTS

    print(f"{'program':>10}  {'extraction (linear)':>20}  {'former search':>14}  same prefix")
    for size in map(int, args.sizes.split(",")):
        text = program(size)
        seconds, result = timed(extract_python_call, text, REQUESTS)
        assert result.error is None and result.call, result
        if size <= args.former_max:
            former_s, former = timed(former_prefix, text)
            linear = extract._runnable_prefix(text, extract._scan(text))[0]
            former_text, same = f"{former_s:13.2f}s", "yes" if former == linear else "NO"
        else:
            former_text, same = f"{'(skipped)':>14}", "-"
        print(f"{len(text) / 1000:>8.0f}KB  {seconds:>19.2f}s  {former_text}  {same}")


if __name__ == "__main__":
    main()
