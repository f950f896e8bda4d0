"""The HTML leaderboard of thirty runs fits a 1280-pixel browser window: no table is cut off or scrolls."""

from __future__ import annotations

import shutil

import pytest

from support import REPO, run_cli
from test_report import draws_of, write_run

pytestmark = pytest.mark.skipif(not shutil.which("chromium"), reason="needs Debian's chromium")


@pytest.mark.slow
def test_a_leaderboard_of_thirty_runs_fits_1280_pixels(tmp_path):
    from test_report_browser import SCREENSHOTS, render

    runs = []
    for i in range(30):
        size = 10 + 7 * i
        correct = (i * 37) % size
        runs.append(str(write_run(tmp_path / f"m{i:02d}", draws_of(["correct"] * correct + ["wrong"] * (size - correct)),
                                  model=f"org/model-{i:02d}-{'instruct' if i % 2 else 'base'}")))
    page = tmp_path / "board" / "index.html"
    done = run_cli("report", "--leaderboard", *runs, "--out", str(page), "--resamples", "200", cwd=REPO)
    assert done.returncode == 0, done.stderr
    fits = """Array.prototype.map.call(document.querySelectorAll('table.metrics'), function (t) {
        return [t.getBoundingClientRect().right, t.parentElement.clientWidth, t.scrollWidth]; })"""
    seen = render(page, SCREENSHOTS / "leaderboard-1280px.png", tmp_path / "profile", width=1280, then=fits)
    assert seen["errors"] == []
    assert seen["dom"]["width"] <= seen["dom"]["viewport"]
    for right, box, width in seen["then"]:
        assert right <= 1280 and width <= box + 1, (right, box, width)
