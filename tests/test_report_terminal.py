"""`wapii report` in a terminal of 80 and 120 columns: every number intact, labels keep what differs,
and a leaderboard of 30 runs in the terminal and in HTML."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from support import CONFORMANCE, REPO, WAPIIBENCH, run_cli
from test_report import draws_of, write_run
from wapii_core.report.tables import format_interval, format_value

NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])")


def expected_numbers(report: dict, intervals: bool) -> Counter:
    """Every value (and interval bound) the report's tables hold, as the terminal must print it."""
    found: Counter = Counter()
    for table in report["tables"]:
        for row, cells in table["rows"].items():
            for cell in cells:
                found[format_value(row if table.get("kind") != "leaderboard" else "", cell["value"])] += 1
                if intervals and cell["ci"]:
                    low, high = format_interval(tuple(cell["ci"]))[1:-1].split(", ")
                    found[low] += 1
                    found[high] += 1
    found.pop("n/a", None)
    return found


def terminal(args: list[str], columns: int) -> str:
    full = [] if "--format" in args else ["--full"]  # every table: the default is the headline only
    done = run_cli("report", *args, *full, cwd=REPO, env={"COLUMNS": str(columns), "TERM": "dumb"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def numbers_in(text: str) -> Counter:
    tables = "\n".join(line for line in text.splitlines() if line.startswith(("│", "┃", "|")))
    return Counter(NUMBER.findall(tables))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> list[str]:
    """A replay of corpus_a (395 WAPIIBench tasks with mistakes), the demo oracle, and two tiny runs."""
    base = tmp_path_factory.mktemp("runs")
    made = []
    done = run_cli("run", "--dataset", "wapiibench", "--data-dir", str(WAPIIBENCH), "--backend", "replay",
                   "--generations", str(CONFORMANCE / "corpus_a"), "--out", str(base / "corpus_a"), "--quiet",
                   cwd=REPO)
    assert done.returncode == 0, done.stderr
    made.append(str(base / "corpus_a"))
    for name, extra in (("demo", []), ("tiny", ["--limit", "3"]), ("constrained-ish", ["--limit", "5", "--mode",
                                                                                       "strict"])):
        done = run_cli("run", "--out", str(base / name), "--quiet", *extra, cwd=REPO)
        assert done.returncode == 0, done.stderr
        made.append(str(base / name))
    return made


@pytest.mark.slow
@pytest.mark.parametrize("columns", [80, 120])
def test_every_number_survives_the_terminal_width(runs, columns):
    for args, intervals in (([runs[0], "--by-api"], False), ([runs[0], "--by-api", "--intervals"], True),
                            (runs, False), (runs, True)):
        extra = ["--intervals"] if intervals and "--intervals" not in args else []
        shown = terminal([*args, *extra, "--resamples", "300"], columns)
        assert "…" not in shown
        assert max(len(line) for line in shown.splitlines()) <= columns
        report = json.loads(terminal([a for a in args if a != "--intervals"] + ["--format", "json", "--resamples",
                                                                                "300"], columns))
        missing = expected_numbers(report, intervals) - numbers_in(shown)
        assert not missing, (columns, args, missing)
    shown = terminal([*runs, "--resamples", "0"], columns)
    assert "All columns: axios_js · full · unconstrained" in " ".join(shown.split())
    assert "(t): share of all judged samples." in shown and "(e): share of the executable samples" in shown
    assert "The runs cover different tasks" in " ".join(shown.split())
    assert "strict" in shown and "reference" in shown  # the mode differs, so it is in the labels


def thirty_runs(base: Path, real: list[str]) -> list[str]:
    """The real runs plus 26 made-up models of different quality and size."""
    made = list(real)
    for i in range(26):
        size = 10 + 7 * i
        correct = (i * 37) % size
        made.append(str(write_run(base / f"m{i:02d}", draws_of(["correct"] * correct + ["wrong"] * (size - correct)),
                                  model=f"org/model-{i:02d}-{'instruct' if i % 2 else 'base'}")))
    return made


@pytest.mark.slow
def test_a_leaderboard_of_thirty_runs_fits_120_columns_and_html(runs, tmp_path):
    board = thirty_runs(tmp_path, runs)
    assert len(board) == 30
    shown = terminal(["--leaderboard", *board, "--resamples", "200"], 120)
    assert "…" not in shown and max(len(line) for line in shown.splitlines()) <= 120
    report = json.loads(terminal(["--leaderboard", *board, "--format", "json", "--resamples", "200"], 120))
    tables = [t for t in report["tables"] if t["kind"] == "leaderboard"]
    assert sum(len(t["rows"]) for t in tables) == 30
    missing = expected_numbers(report, False) - numbers_in(shown)
    assert not missing, missing
    flat = " ".join(shown.split())
    for i in range(26):
        assert f"org/model-{i:02d}" in flat
    correct = [cells[0]["value"] for cells in tables[0]["rows"].values()]
    assert correct == sorted(correct, reverse=True)
    page = tmp_path / "board.html"
    done = run_cli("report", "--leaderboard", *board, "--out", str(page), "--resamples", "200", cwd=REPO)
    assert done.returncode == 0, done.stderr
    html = page.read_text()
    assert html.count('class="metrics leaderboard"') == len(tables) and html.count("<tr>") >= 30 + len(tables)
    assert (tmp_path / "board-leaderboard-full-completion-correct.png").exists()
