"""``wapii show``'s diff shows only differences: keys in one order on both sides, and what the judge
keeps for its own use (``sent_url``, ``sent_params``) left out; in wire mode the requests as the
judge compared them, so an oracle run judged correct in wire mode prints no ``-``/``+`` line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from support import run_cli

from wapii_core.report.sample_story import SampleStory, print_story, request_diff
from wapii_core.store.record import load_run, read_results, sample_lines


def _changed(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("-", "+")) and not line.startswith(("---", "+++"))]


def test_key_order_alone_is_no_difference() -> None:
    expected = {"url": "https://x.example/a", "method": "get", "headers": {"Accept": "a", "X-Key": "k"}}
    captured = {"method": "get", "headers": {"X-Key": "k", "Accept": "a"}, "url": "https://x.example/a",
                "sent_url": "https://x.example/a", "sent_params": {}}
    text = request_diff(expected, captured).plain
    assert not _changed(text) and "is the expected request" in text
    captured["headers"]["Accept"] = "b"
    assert _changed(request_diff(expected, captured).plain) == ['-    "Accept": "a",', '+    "Accept": "b",']


def test_a_sent_url_that_says_more_than_the_url_stays() -> None:
    expected = {"url": "https://x.example/a/b", "method": "get"}
    captured = {"url": "https://x.example/a/b", "sent_url": "https://x.example/a%2Fb", "method": "get"}
    assert _changed(request_diff(expected, captured).plain) == ['+  "sent_url": "https://x.example/a%2Fb",']


@pytest.mark.slow
@pytest.mark.parametrize("adapter", ["fetch_js", "requests_py"])
def test_show_of_every_sample_of_an_oracle_run_in_wire_mode_prints_no_change(adapter: str, tmp_path: Path) -> None:
    out = tmp_path / adapter
    done = run_cli("run", "--adapter", adapter, "--mode", "wire", "--out", str(out), "-q")
    assert done.returncode == 0, done.stderr
    results = read_results(out)
    assert len(results) == 26 and {r.verdict for r in results} == {"correct"} and {r.mode for r in results} == {"wire"}
    assert any("sent_url" in (r.request or {}) for r in results)  # what used to show as a green + line
    record = load_run(out)
    noisy = {}
    for result in results:
        generation, line = sample_lines(out, result.sample)
        console = Console(file=io.StringIO(), width=200)
        print_story(SampleStory(str(out), record, result.sample, 0, None, generation, line), console=console)
        text = console.file.getvalue()
        diff = text[text.index("Expected vs captured"):text.index("Verdicts")]
        if _changed(diff):
            noisy[result.sample] = _changed(diff)
    assert not noisy, noisy
    shown = run_cli("show", str(out), results[0].sample)  # and so does the command
    assert shown.returncode == 0 and "the captured request is the expected request" in shown.stdout
