"""What a new user meets in the first hour: no lost files, honest options, tables that fit, settings
that survive. The commands run in-process (the CLI's own error handling included)."""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from wapii_core.base.errors import WapiiError


@dataclass
class Done:
    code: int
    stdout: str
    stderr: str


@functools.cache
def _app() -> typer.Typer:
    """The ``wapii`` app with every built-in command, as ``main`` builds it."""
    from wapii_core.cli import app

    return app


def wapii(*args, cwd: Path | None = None, width: int = 80) -> Done:
    """``wapii ARGS`` in this process, as ``main`` ends it: a WapiiError is one line and its exit code."""
    old = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        result = CliRunner().invoke(_app(), [str(a) for a in args], env={"COLUMNS": str(width), "LINES": "24"})
    finally:
        os.chdir(old)
    if isinstance(result.exception, WapiiError):
        return Done(result.exception.exit_code, result.stdout, result.stderr + f"error: {result.exception}\n")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Done(result.exit_code, result.stdout, result.stderr)


def refused(done: Done, *needles: str) -> None:
    assert done.code == 2, (done.code, done.stdout, done.stderr)
    err = done.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    for needle in needles:
        assert needle in err, err


# 1. --out never replaces a file wapii did not write

def test_run_refuses_a_directory_that_holds_the_users_files(tmp_path):
    mine = tmp_path / "mydir"
    mine.mkdir()
    (mine / "report.md").write_text("NOTES\n")
    refused(wapii("run", "--limit", "2", "--out", mine, "--quiet"), str(mine), "report.md", "new or empty directory")
    assert (mine / "report.md").read_text() == "NOTES\n"
    assert sorted(p.name for p in mine.iterdir()) == ["report.md"]
    refused(wapii("run", "--limit", "2", "--out", mine, "--quiet", "--force"), "not a run directory")
    assert (mine / "report.md").read_text() == "NOTES\n"


def test_run_into_a_new_or_its_own_directory_still_works(tmp_path):
    out = tmp_path / "run"
    assert wapii("run", "--limit", "2", "--out", out, "--quiet").code == 0
    (out / "my-notes.txt").write_text("kept")
    assert wapii("run", "--limit", "2", "--out", out, "--quiet").code == 0  # a run directory resumes
    assert (out / "my-notes.txt").read_text() == "kept"
    several = tmp_path / "several"
    assert wapii("run", "--limit", "1", "-s", "full", "-s", "argument", "--out", several, "--quiet").code == 0
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "data.csv").write_text("1,2\n")
    refused(wapii("run", "--limit", "1", "-s", "full", "-s", "argument", "--out", tmp_path / "busy", "--quiet"),
            "data.csv")


def test_report_is_never_written_over_a_runs_own_files(tmp_path):
    out = tmp_path / "run"
    assert wapii("run", "--limit", "2", "--out", out, "--quiet").code == 0
    before = (out / "report.md").read_text()
    refused(wapii("report", out, "--out", out, "--format", "md", "--resamples", "0"), "report.md", "run's own")
    refused(wapii("report", out, "--out", out / "summary.json", "--resamples", "0"), "summary.json")
    assert (out / "report.md").read_text() == before
    done = wapii("report", out, "--out", out / "combined.md", "--resamples", "0")
    assert done.code == 0 and (out / "combined.md").exists()


def test_compare_refuses_a_directory_that_holds_the_users_files(tmp_path):
    mine = tmp_path / "cmp"
    mine.mkdir()
    (mine / "compare.md").write_text("NOTES\n")
    refused(wapii("compare", "-a", "axios_js", "--limit", "1", "--out", mine, "--quiet", "--resamples", "0"),
            "compare.md")
    assert (mine / "compare.md").read_text() == "NOTES\n"


# 5. Settings that survive: run.json records absolute paths and the metric providers; evaluate honours them

def test_evaluate_from_elsewhere_honours_the_recorded_paths_and_metrics(tmp_path):
    from support import SHARED

    out = tmp_path / "run"
    done = wapii("run", "--dataset", "wapiibench", "--data-dir", "wapiibench", "--api", "slack", "--limit", "2",
                 "--metric", "pass_at_k", "--out", out, "--quiet", cwd=SHARED)
    assert done.code == 0, done.stderr
    run = json.loads((out / "run.json").read_text())
    assert run["data_dir"] == str(SHARED / "wapiibench") and Path(run["dataset_source"]).is_absolute()
    assert run["metrics"] == ["pass_at_k"] and run["default_metrics"] is True
    before = json.loads((out / "summary.json").read_text())
    assert "pass_at_k" in before["metrics"]
    (out / "summary.json").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = wapii("evaluate", out.resolve(), "--quiet", cwd=elsewhere)
    assert done.code == 0, done.stderr
    assert json.loads((out / "summary.json").read_text()) == before


def test_evaluate_keeps_a_run_made_without_the_default_metrics_so(tmp_path):
    out = tmp_path / "run"
    assert wapii("run", "--limit", "2", "--no-default-metrics", "--metric", "pass_at_k", "--out", out,
                 "--quiet").code == 0
    before = json.loads((out / "summary.json").read_text())
    assert "overall" not in before and set(before["metric_kinds"]) == {"pass_at_k"}
    assert wapii("evaluate", out, "--quiet").code == 0
    assert json.loads((out / "summary.json").read_text()) == before


# 8. Options a backend does not use are refused, naming who ignores them

def test_the_oracle_refuses_a_model_and_backend_options(tmp_path):
    out = tmp_path / "run"
    refused(wapii("run", "--backend", "oracle", "--model", "gpt-4", "--limit", "1", "--out", out, "--quiet"),
            "backend 'oracle' ignores --model gpt-4")
    refused(wapii("run", "-O", "temperature=0.5", "--limit", "1", "--out", out, "--quiet"),
            "backend 'oracle' ignores -O temperature=0.5")
    refused(wapii("run", "--backend", "oracle", "--model", "gpt-4", "--limit", "1", "--quiet", cwd=tmp_path),
            "ignores --model")
    assert not out.exists() and not (tmp_path / "runs").exists()


def test_generations_without_replay_are_refused(tmp_path):
    stored = tmp_path / "gens.jsonl"
    stored.write_text(json.dumps({"sample": "larchwood/0", "code": "x"}) + "\n")
    refused(wapii("run", "-g", stored, "--limit", "1", "--out", tmp_path / "run", "--quiet"),
            "--generations is read by the replay backend only", "backend 'oracle' ignores it")
    refused(wapii("compare", "-a", "axios_js", "-g", stored, "--limit", "1", "--out", tmp_path / "cmp", "--quiet"),
            "backend 'oracle' ignores it")


def test_a_replay_of_bare_completions_gets_a_hint(tmp_path):
    from wapii_core.run.runner import load_dataset

    samples = load_dataset("demo", None).samples[:3]
    stored = tmp_path / "gens.jsonl"
    # What a model completes after the starter code, without the starter itself.
    stored.write_text("".join(json.dumps({"sample": s.id, "code": "get('/x');\n"}) + "\n" for s in samples))
    done = wapii("run", "--backend", "replay", "-g", stored, "--limit", "3", "--out", tmp_path / "run")
    assert done.code == 0, done.stderr
    assert "'code' must be the whole program" in done.stderr


# 2. report compares libraries only when asked, only runs that differ in the adapter alone

@pytest.fixture(scope="module")
def library_runs(tmp_path_factory):
    """The oracle over the demo: axios_js and fetch_js (wire mode), and one more axios_js run on fewer tasks."""
    root = tmp_path_factory.mktemp("libraries")
    for name, extra in (("axios", ["-a", "axios_js"]), ("fetch", ["-a", "fetch_js"]),
                        ("axios_again", ["-a", "axios_js", "--limit", "3"])):
        done = wapii("run", *extra, "--mode", "wire", "--out", root / name, "--quiet")
        assert done.code == 0, done.stderr
    return root


def test_report_compares_libraries_only_when_asked(library_runs):
    axios, fetch = library_runs / "axios", library_runs / "fetch"
    plain = wapii("report", axios, fetch, "--format", "md", "--resamples", "0")
    assert plain.code == 0 and "one library solved" not in plain.stdout
    terminal = wapii("report", axios, fetch, "--resamples", "0")
    assert "solved by" not in terminal.stdout and "compare.md" not in terminal.stdout
    asked = wapii("report", axios, fetch, "--format", "md", "--resamples", "0", "--libraries")
    assert asked.code == 0 and "## Tasks one library solved and another did not" in asked.stdout
    on_terminal = wapii("report", axios, fetch, "--resamples", "0", "--libraries")
    assert "full: every library solved the same tasks" in on_terminal.stdout
    assert "(0): none" not in on_terminal.stdout and "compare.md" not in on_terminal.stdout
    as_json = json.loads(wapii("report", axios, fetch, "-f", "json", "--resamples", "0", "--libraries").stdout)
    assert {(d["solved_by"], d["not_by"]) for d in as_json["differences"]} == {("axios_js", "fetch_js"),
                                                                               ("fetch_js", "axios_js")}


def test_report_says_why_runs_cannot_be_compared_library_by_library(library_runs, tmp_path):
    axios, fetch, again = library_runs / "axios", library_runs / "fetch", library_runs / "axios_again"
    refused(wapii("report", axios, again, "--libraries", "--resamples", "0"), "--libraries:", "one adapter")
    refused(wapii("report", axios, fetch, again, "--libraries", "--resamples", "0"), "differ in --limit")
    other = tmp_path / "argument"
    assert wapii("run", "-a", "fetch_js", "--mode", "reference", "--out", other, "--quiet").code == 0
    refused(wapii("report", axios, other, "--libraries", "--resamples", "0"), "differ in comparison mode")


# 3. The terminal ends every run and report with a headline that fits 80x24

def fits_80_by_24(text: str) -> None:
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, text


def test_a_run_and_its_report_end_with_a_headline_that_fits_80_by_24(tmp_path):
    out, other = tmp_path / "run", tmp_path / "other"
    done = wapii("run", "--limit", "10", "--out", "run", cwd=tmp_path)  # a short path: the output names it
    assert done.code == 0, done.stderr
    fits_80_by_24(done.stdout)
    assert "Correct implementations (t)" in done.stdout and "Mean argument recall" not in done.stdout
    assert "WAPIIBench" not in done.stdout and "--full, or report.md in the run directory" in done.stdout
    assert wapii("run", "--limit", "10", "--setting", "rag", "--out", other, "--quiet").code == 0
    report = wapii("report", out, other, "--resamples", "0")
    fits_80_by_24(report.stdout)
    assert "unconstrained" in report.stdout and "rag" in report.stdout and "--full" in report.stdout
    full = wapii("report", out, other, "--resamples", "0", "--full")
    assert "Mean argument recall (t)" in full.stdout and "(e): share of the executable samples" in full.stdout
    assert "WAPIIBench" not in full.stdout  # the spec-validation note names WAPIIBench's baseline for its runs only
    assert "an oracle run shows the dataset's own baseline" in " ".join(full.stdout.split())


def test_column_headers_keep_their_words_whole_when_there_is_room(library_runs, tmp_path):
    """9: ``unconstrained`` and ``requests_py`` are not broken into ``unconstraine``/``d``, ``requests_``/``py``."""
    other = tmp_path / "rag"
    assert wapii("run", "-a", "axios_js", "--mode", "wire", "--setting", "rag", "--out", other, "--quiet").code == 0
    shown = wapii("report", library_runs / "axios", other, "--resamples", "0").stdout
    assert "unconstrained" in shown and "unconstraine " not in shown
    python = tmp_path / "requests"
    assert wapii("run", "-a", "requests_py", "--mode", "wire", "--out", python, "--quiet").code == 0
    shown = wapii("report", library_runs / "axios", python, "--resamples", "0", "--full").stdout
    assert "requests_py" in shown


# 4. Quiet set-up: SPDX licence strings (no setuptools deprecation warnings), pip's output kept in a log

def test_every_pyproject_states_its_licence_as_an_spdx_string():
    import tomllib

    from support import REPO

    files = [REPO / "pyproject.toml", *sorted((REPO / "plugins").glob("*/pyproject.toml"))]
    assert len(files) >= 7
    for path in files:
        data = tomllib.loads(path.read_text())
        assert data["project"]["license"] == "Apache-2.0", path
        assert data["build-system"]["requires"] == ["setuptools>=77"], path  # the first to read SPDX strings
    bootstrap = (REPO / "scripts" / "bootstrap").read_text()
    assert "--no-build-isolation" in bootstrap and '>>"$LOG" 2>&1' in bootstrap
    assert "--quiet" not in (REPO / "Makefile").read_text().split("\nrun:")[1].split("\n\n")[0]


# 6. compare takes run's options; no differences: one line, not a line per pair

@pytest.mark.slow
def test_compare_takes_runs_options_and_says_no_differences_in_one_line(tmp_path):
    import shutil

    from support import REPO

    mine = tmp_path / "mine"
    shutil.copytree(REPO / "specs" / "demo", mine)
    out = tmp_path / "cmp"
    args = ["compare", "-a", "axios_js", "-a", "requests_py", "-a", "httpx_py", "--dataset-dir", mine,
            "--limit", "3", "--setting", "rag", "--metric", "pass_at_k", "--require-isolation", "--out", out,
            "--resamples", "0"]
    done = wapii(*args)
    if done.code == 2 and "isolation" in done.stderr:
        pytest.skip("the sandbox's layers are not all active here")
    assert done.code == 0, done.stderr
    run = json.loads((out / "axios_js-full" / "run.json").read_text())
    assert (run["dataset"], run["dataset_dir"], run["setting"], run["metrics"]) == ("mine", str(mine), "rag",
                                                                                   ["pass_at_k"])
    assert done.stdout.count("every library solved the same tasks") == 1 and "none" not in done.stdout
    again = wapii(*args, "--force")
    assert again.code == 0, again.stderr


# 7. The oracle warns loudly (exit 1) below 100 %; 9. `wapii plugins` is a readable table

def test_an_oracle_run_below_100_percent_warns_and_exits_1(tmp_path, monkeypatch):
    from wapii_core.base.model import Generation
    from wapii_core.generation.backends import OracleBackend

    rendered = OracleBackend.generate

    def broken(self, requests):  # what a broken adapter's render makes of every other task
        for n, gen in enumerate(rendered(self, requests)):
            yield gen if n % 2 else Generation(sample=gen.sample, draw=gen.draw, code="const x = 1;\n")
    monkeypatch.setattr(OracleBackend, "generate", broken)
    done = wapii("run", "--limit", "4", "--out", tmp_path / "run")
    assert done.code == 1
    assert "WARNING: the oracle scored 50.0 % correct" in done.stderr and "wapii datasets check" in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(f"{tmp_path / 'run'}: WARNING")


def test_plugins_prints_a_table_and_json_on_request():
    shown = wapii("plugins", width=100)
    assert shown.code == 0 and not shown.stdout.lstrip().startswith("[")
    assert "│ adapter │ axios_js" in shown.stdout and "wapii-axios-js" in shown.stdout
    listed = json.loads(wapii("plugins", "--json").stdout)
    assert {p["name"] for p in listed} >= {"core", "axios_js"}


# 9. Did you mean: every enumerated value and every registered name

@pytest.mark.parametrize("args, suggestion", [
    (["--setting", "constraind"], "unknown setting 'constraind' (did you mean 'constrained'?)"),
    (["--mode", "wir"], "unknown comparison mode 'wir' (did you mean 'wire'?)"),
    (["--backend", "oracel"], "(did you mean 'oracle'?)"),
    (["--setup", "ful"], "unknown setup 'ful' (did you mean 'full'?)"),
    (["--backend", "hf", "--model", "smollm2-135"],
     "--model smollm2-135: unknown model (did you mean 'smollm2-135m'?)"),
])
def test_mistyped_names_get_a_suggestion(tmp_path, args, suggestion):
    refused(wapii("run", *args, "--limit", "1", "--out", tmp_path / "run", "--quiet"), suggestion)
    assert not (tmp_path / "run").exists()


def test_compare_suggests_a_setup_too(tmp_path):
    refused(wapii("compare", "-a", "axios_js", "--setup", "argumnet", "--out", tmp_path / "c"),
            "(did you mean 'argument'?)")


# 9. Smaller: a finished run says it is complete; malformed JSON lines read well; a spec without servers

def test_rerunning_a_finished_run_says_it_is_complete(tmp_path):
    out = tmp_path / "run"
    assert wapii("run", "--limit", "3", "--out", out, "--quiet").code == 0
    again = wapii("run", "--limit", "3", "--out", out, "--quiet")
    assert again.code == 0 and again.stderr.strip() == f"{out}: already complete (3 samples generated and judged; " \
                                                       "--force starts over)"
    (out / "results.jsonl").write_text("".join((out / "results.jsonl").read_text().splitlines(True)[:1]))
    resumed = wapii("run", "--limit", "3", "--out", out, "--quiet")
    assert resumed.stderr.startswith(f"resuming {out}: kept 3 of 3 generations and 1 results")


def test_a_malformed_replay_line_is_told_without_stutter(tmp_path):
    stored = tmp_path / "gens.jsonl"
    stored.write_text('{"sample": "larchwood/0", "code": "abc\n')
    done = wapii("run", "--backend", "replay", "-g", stored, "--limit", "1", "--out", tmp_path / "run", "--quiet")
    refused(done, "gens.jsonl: line 1, column 39: malformed JSON: Invalid control character at")
    assert "at at" not in done.stderr


def test_a_spec_without_servers_is_told_what_is_missing(tmp_path):
    from wapii_core.base.errors import InputError
    from wapii_core.openapi.spec_file import read_spec

    spec = tmp_path / "api.yaml"
    spec.write_text("openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {/x: {get: {responses: {'200': "
                    "{description: ok}}}}}\n")
    with pytest.raises(InputError) as error:
        read_spec(spec)
    assert "not an OpenAPI 3 document" not in str(error.value)
    assert "no 'servers' entry with a 'url': wapii needs the API's base URL" in str(error.value)


# 9. --sample N --seed S: N tasks stratified by API, kept in run.json

def test_sample_draws_tasks_across_the_apis_reproducibly(tmp_path):
    from support import WAPIIBENCH

    def drawn(out, *extra):
        done = wapii("run", "--dataset", "wapiibench", "--data-dir", WAPIIBENCH, "--sample", "8", *extra,
                     "--out", out, "--quiet")
        assert done.code == 0, done.stderr
        return [json.loads(line)["sample"] for line in (out / "results.jsonl").read_text().splitlines()]

    first = drawn(tmp_path / "a", "--seed", "1")
    assert len(first) == 8
    assert sorted({s.rpartition("/")[0] for s in first}) == ["asana", "google_calendar_v3", "google_sheet_v4",
                                                             "slack"]
    from collections import Counter  # in proportion to the APIs' 167, 37, 17 and 174 tasks

    assert Counter(s.rpartition("/")[0] for s in first) == {"asana": 3, "google_calendar_v3": 1,
                                                            "google_sheet_v4": 1, "slack": 3}
    assert drawn(tmp_path / "b", "--seed", "1") == first
    assert drawn(tmp_path / "c", "--seed", "2") != first
    run = json.loads((tmp_path / "a" / "run.json").read_text())
    assert (run["sample"], run["sample_seed"]) == (8, 1)
    (tmp_path / "a" / "summary.json").unlink()
    assert wapii("evaluate", tmp_path / "a", "--quiet").code == 0
    assert json.loads((tmp_path / "a" / "summary.json").read_text())["samples"] == 8
    refused(wapii("run", "--sample", "3", "--limit", "3", "--out", tmp_path / "d", "--quiet"), "not both")
    refused(wapii("run", "--dataset", "wapiibench", "--data-dir", WAPIIBENCH, "--sample", "8", "--seed", "5",
                  "--out", tmp_path / "a", "--quiet"), "--seed 1, not 5")


def test_backends_lists_a_backends_options_with_their_meaning():
    shown = wapii("backends", "hf", "--options", width=120)
    assert shown.code == 0, shown.stderr
    rows = {line.split("│")[1].strip(): line for line in shown.stdout.splitlines() if line.startswith("│ ")
            and line.split("│")[1].strip()}
    assert {"max_new_tokens", "batch_size", "threads", "temperature", "device"} <= set(rows)
    assert "tokens a completion may have at most" in rows["max_new_tokens"] and "250" in rows["max_new_tokens"]
    assert "CPU threads for torch" in rows["threads"]
    assert "takes no -O options" in wapii("backends", "oracle", "--options").stdout
    refused(wapii("backends", "orcle", "--options"), "(did you mean 'oracle'?)")
    listed = wapii("backends", width=120).stdout
    assert all(name in listed for name in ("hf", "openai", "oracle", "replay"))


def test_fetch_keeps_a_complete_verified_copy_without_the_network(tmp_path, capsys):
    import shutil

    from support import WAPIIBENCH
    from wapii_core.datasets.fetch import fetch_wapiibench

    copy = tmp_path / "wapiibench"
    shutil.copytree(WAPIIBENCH, copy)
    before = {p: p.stat().st_mtime_ns for p in copy.rglob("*")}
    assert fetch_wapiibench(copy, "http://127.0.0.1:9", progress=False, timeout=2) == copy  # nothing listens there
    assert {p: p.stat().st_mtime_ns for p in copy.rglob("*")} == before
    assert "already complete" in capsys.readouterr().err
    (copy / "specs" / "slack.yaml").write_text("openapi: 3.0.0\n")  # no longer the pinned file: fetched again
    with pytest.raises(WapiiError, match="127.0.0.1:9"):
        fetch_wapiibench(copy, "http://127.0.0.1:9", progress=False, timeout=2)


def test_the_privilege_drop_warning_gives_the_fix(monkeypatch):
    import sys

    from wapii_core.sandbox import Limits, Program, plan, users

    if not users.running_as_root():
        pytest.skip("the privilege drop only applies to root")
    monkeypatch.setenv(users.USER_ENV, "no-such-user-here")
    roots = sorted({Path(sys.executable).resolve(), Path(sys.prefix), Path(sys.base_prefix)}, key=str)
    planned = plan(Program(argv=[sys.executable, "-I", "-S", "-c", ""], read_paths=roots, limits=Limits()))
    drop = next(layer for layer in planned.layers if layer.name == "privilege drop")
    assert not drop.active
    assert "fix: create one (`useradd --system --no-create-home wapii-sbx`)" in drop.detail
    assert "WAPII_SANDBOX_USER" in drop.detail


def test_html_pages_are_titled_after_their_runs(library_runs):
    page = wapii("report", library_runs / "axios", library_runs / "fetch", "--format", "html", "--resamples", "0")
    assert page.code == 0, page.stderr
    assert "<title>wapii report: demo · oracle · full · unconstrained · 2 runs</title>" in page.stdout
    board = wapii("report", library_runs / "axios", "--leaderboard", "--format", "html", "--resamples", "0")
    assert "<title>wapii leaderboard: demo · oracle · axios_js · full · unconstrained</title>" in board.stdout
