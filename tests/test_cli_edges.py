"""The command line's rough edges, each through the real ``wapii`` entry point: run identity and names,
resume and interruption messages, report output targets, file modes, help texts and name errors.

Most run the command line in this process (``wapii(...)``: ``support.run_cli_in_process``); Ctrl-C, SIGTERM and a
terminal's output need a process of their own (``python -m wapii_core``)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import REPO, WAPIIBENCH, CliResult
from support import run_cli_in_process as wapii
from wapii_core.cli.run import default_run_dir
from wapii_core.base.model import Setup


def run_demo(out: Path, *args: str) -> CliResult:
    return wapii("run", "--out", str(out), "--quiet", *args, cwd=REPO)


def one_line_error(done: CliResult) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in done.stderr, done.stderr
    return lines[0]


@pytest.mark.slow
def test_a_finished_run_is_never_rewritten_by_a_different_command(tmp_path):
    out = tmp_path / "run"
    assert run_demo(out).returncode == 0
    before = {name: (out / name).read_bytes() for name in ("run.json", "summary.json", "results.jsonl")}
    assert "--limit unset, not 5" in one_line_error(run_demo(out, "--limit", "5"))
    assert "comparison mode 'reference', not 'wire'" in one_line_error(run_demo(out, "--mode", "wire"))
    assert "draws (-n) 1, not 2" in one_line_error(run_demo(out, "-n", "2"))
    assert "--api unset, not ['larchwood']" in one_line_error(run_demo(out, "--api", "larchwood"))
    assert {name: (out / name).read_bytes() for name in before} == before
    (out / "batches.json").write_text("{}")  # a backend's state of the old run: gone with it
    (out / "notes.txt").write_text("mine")  # anything else is left alone
    forced = run_demo(out, "--limit", "5", "--force")
    assert forced.returncode == 0, forced.stderr
    assert not (out / "batches.json").exists() and (out / "notes.txt").read_text() == "mine"
    assert json.loads((out / "run.json").read_text())["limit"] == 5
    assert json.loads((out / "summary.json").read_text())["samples"] == 5


def test_default_run_names_carry_every_setting_that_changes_the_measurement():
    plain = default_run_dir("demo", "axios_js", "oracle", None, Setup.full)
    assert plain == Path("runs/demo-axios_js-oracle-full")
    names = {default_run_dir("demo", "axios_js", "oracle", None, Setup.full, mode="wire"),
             default_run_dir("demo", "axios_js", "oracle", None, Setup.full, draws=3),
             default_run_dir("demo", "axios_js", "oracle", None, Setup.full, limit=20),
             default_run_dir("demo", "axios_js", "oracle", None, Setup.full, apis=["larchwood"]),
             default_run_dir("demo", "axios_js", "oracle", None, Setup.full, setting="rag"), plain}
    assert len(names) == 6
    assert default_run_dir("wapiibench", "axios_js", "hf", "Qwen/Qwen2.5-Coder-1.5B", Setup.argument, "constrained",
                       "wire", 3, 20, ["slack", "asana"]) == \
        Path("runs/wapiibench-axios_js-hf-Qwen_Qwen2.5_Coder_1.5B-argument-constrained-wire-n3-asana+slack-limit20")


@pytest.mark.slow
def test_a_dataset_directory_run_is_named_after_its_directory(tmp_path):
    import shutil

    mine = tmp_path / "my_api"
    shutil.copytree(REPO / "specs" / "demo", mine)
    done = wapii("run", "--dataset-dir", str(mine), "--limit", "2", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    run = json.loads((tmp_path / "runs" / "my_api-axios_js-oracle-full-limit2" / "run.json").read_text())
    assert run["dataset"] == "my_api" and run["dataset_dir"] == str(mine.resolve())
    evaluated = wapii("evaluate", str(tmp_path / "runs" / "my_api-axios_js-oracle-full-limit2"), "--quiet",
                        cwd=tmp_path)
    assert evaluated.returncode == 0, evaluated.stderr


@pytest.mark.slow
def test_a_resumed_run_says_what_it_kept(tmp_path):
    out = tmp_path / "run"
    assert run_demo(out, "--limit", "4").returncode == 0
    again = run_demo(out, "--limit", "4")
    assert again.returncode == 0
    assert again.stderr.strip() == f"{out}: already complete (4 samples generated and judged; --force starts over)"


@pytest.mark.slow
def test_run_files_and_reports_are_readable_by_others(tmp_path):
    out = tmp_path / "run"
    old = os.umask(0o022)
    try:
        assert run_demo(out, "--limit", "2").returncode == 0
        report = tmp_path / "r.md"
        assert wapii("report", str(out), "--out", str(report), "--resamples", "0", cwd=REPO).returncode == 0
    finally:
        os.umask(old)
    for path in (out / "run.json", out / "summary.json", out / "report.md", out / "results.jsonl", report):
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path


PROGRAM_TIMEOUT = {"WAPII_AXIOS_JS_TIMEOUT": "0.5"}
"""The slow run's per-program timeout: long enough that the signal lands while its programs run,
short enough that the run is slow for seconds, not half a minute."""


def looping_generations(path: Path) -> None:
    """Every demo task answered by a program that loops until its timeout (a slow run)."""
    from wapii_core.run.runner import load_dataset

    lines = [json.dumps({"sample": s.id, "code": "import axios from 'axios';\n"
                                                 "axios.get('x', {params: (() => { while (true) {} })()});\n"})
             for s in load_dataset("demo", None).samples]
    path.write_text("\n".join(lines) + "\n")


def start_slow_run(tmp_path: Path, tty: bool = False) -> tuple[subprocess.Popen, Path, int | None]:
    generations = tmp_path / "loop.jsonl"
    looping_generations(generations)
    out = tmp_path / "slow"
    command = [sys.executable, "-m", "wapii_core", "run", "--backend", "replay", "-g", str(generations),
               "--out", str(out)]
    if tty:
        main, secondary = pty.openpty()
        process = subprocess.Popen(command, cwd=REPO, stdin=secondary, stdout=secondary, stderr=secondary,
                                   env={**os.environ, **PROGRAM_TIMEOUT, "TERM": "xterm-256color", "COLUMNS": "100"})
        os.close(secondary)
        return process, out, main
    process = subprocess.Popen(command + ["--quiet"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, **PROGRAM_TIMEOUT})
    return process, out, None


def wait_until_executing(out: Path, timeout: float = 120) -> None:
    """Until the run has stored all 26 generations and is executing their programs (each loops until
    its 0.5 s timeout, so execution lasts about 7 s on two workers; the signal lands inside it), not
    after the run has judged and is about to exit."""
    deadline = time.monotonic() + timeout
    generations = out / "generations.jsonl"
    while time.monotonic() < deadline:
        if generations.exists() and len(generations.read_text().splitlines()) >= 26:
            time.sleep(1.0)
            return
        time.sleep(0.2)
    raise TimeoutError("the run stored no generations")


@pytest.mark.slow
def test_ctrl_c_says_how_to_resume_and_the_rerun_resumes(tmp_path):
    process, out, _ = start_slow_run(tmp_path)
    wait_until_executing(out)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert stderr.strip().splitlines()[-1] == ("interrupted: finished samples are kept; rerun the same command to "
                                               "resume")
    results = out / "results.jsonl"
    kept = sum(1 for _ in results.open()) if results.exists() else 0
    again, out, _ = start_slow_run(tmp_path)
    assert again.stderr is not None
    first = again.stderr.readline()  # printed once the run has opened its directory again
    assert re.match(rf"resuming {re.escape(str(out))}: kept 26 of 26 generations and {kept} results", first)
    again.send_signal(signal.SIGTERM)
    _, stderr = again.communicate(timeout=60)
    assert again.returncode == 128 + signal.SIGTERM
    assert stderr.strip().splitlines()[-1].startswith("terminated: finished samples are kept; rerun")


def read_all(fd: int, process: subprocess.Popen, timeout: float = 60) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        elif process.poll() is not None:
            break
    return data


@pytest.mark.slow
def test_sigterm_on_a_terminal_restores_the_cursor(tmp_path):
    process, out, main = start_slow_run(tmp_path, tty=True)
    assert main is not None
    wait_until_executing(out)
    process.send_signal(signal.SIGTERM)
    output = read_all(main, process)
    process.wait(timeout=60)
    os.close(main)
    assert process.returncode == 128 + signal.SIGTERM
    assert b"\x1b[?25l" in output  # the progress display hid the cursor...
    assert output.rindex(b"\x1b[?25h") > output.rindex(b"\x1b[?25l")  # ...and showed it again
    assert b"terminated: finished samples are kept" in output


@pytest.mark.slow
def test_report_output_targets(tmp_path):
    out = tmp_path / "run"
    assert run_demo(out, "--limit", "3").returncode == 0
    inferred = tmp_path / "r.md"
    assert wapii("report", str(out), "--out", str(inferred), "--resamples", "0", cwd=REPO).returncode == 0
    assert inferred.read_text().startswith("# wapii report")
    assert "cannot tell the format" in one_line_error(wapii("report", str(out), "--out", str(tmp_path / "r.pdf"),
                                                              cwd=REPO))
    assert "the name says html, --format says md" in one_line_error(
        wapii("report", str(out), "--out", str(tmp_path / "r.html"), "--format", "md", cwd=REPO))
    assert not (tmp_path / "r.html").exists()
    assert "give --by-api or --leaderboard, not both" in one_line_error(
        wapii("report", str(out), "--by-api", "--leaderboard", cwd=REPO))
    folder = tmp_path / "site"
    folder.mkdir()
    assert "is a directory" in one_line_error(wapii("report", str(out), "--out", str(folder), cwd=REPO))
    done = wapii("report", str(out), "--out", str(folder), "--format", "html", "--resamples", "0", cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert (folder / "report.html").read_text().startswith("<!DOCTYPE html>")
    text = tmp_path / "table.txt"
    assert wapii("report", str(out), "--out", str(text), "--resamples", "0", cwd=REPO).returncode == 0
    assert "Correct implementations (t)" in text.read_text()


@pytest.mark.slow
def test_html_is_not_dumped_onto_a_terminal(tmp_path):
    out = tmp_path / "run"
    assert run_demo(out, "--limit", "2").returncode == 0
    main, secondary = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "wapii_core", "report", str(out), "--format", "html",
                                "--resamples", "0"], cwd=REPO, stdout=secondary, stderr=secondary)
    os.close(secondary)
    output = read_all(main, process)
    process.wait(timeout=60)
    os.close(main)
    assert process.returncode == 2 and b"<html" not in output
    assert b"give --out report.html" in output


@pytest.mark.slow
def test_a_replay_missing_draws_of_its_tasks_reports_them_grouped_as_failed_generations(tmp_path):
    """The task set is the samples the file holds; a draw it lacks for one of them is a failed generation."""
    generations = tmp_path / "two.jsonl"
    from wapii_core.run.runner import load_dataset

    samples = load_dataset("demo", None).samples
    generations.write_text("".join(json.dumps({"sample": s.id, "code": "import axios from 'axios';\n"}) + "\n"
                                   for s in samples[:2]))
    out = tmp_path / "partial"
    done = wapii("run", "--backend", "replay", "-g", str(generations), "-n", "2", "--out", str(out), "--quiet",
                   cwd=REPO)
    assert done.returncode == 3
    report = (out / "report.md").read_text()
    failures = report[report.index("## Failed generations"):].strip().splitlines()[2:]
    assert len(failures) == 1 and failures[0].startswith("- 2 × ")
    assert "is incomplete: 2 of 4 samples judged" in report and f"2 of {len(samples)} tasks" in report


def help_of(*command: str) -> str:
    done = wapii(*command, "--help", cwd=REPO, env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return done.stdout


COMMANDS = [("run",), ("evaluate",), ("report",), ("compare",), ("plugins",), ("backends",), ("setup",), ("doctor",),
            ("datasets",), ("datasets", "list"), ("datasets", "show"), ("datasets", "fetch"), ("datasets", "check"),
            ("datasets", "generate"), ("view",)]


@pytest.mark.slow
def test_help_texts_are_plain_and_every_option_is_explained():
    from wapii_core.cli import build_command

    for command in COMMANDS:
        text = help_of(*command)
        assert not re.search(r"<(bool|str|int|path|list\[)", text), (command, text)
        usage = next(line for line in text.splitlines() if "Usage:" in line)
        assert "{" not in usage and re.search(r"Usage: wapii ", usage), (command, usage)

    def walk(command, path):
        for param in command.params:
            if param.param_type_name == "option" and not getattr(param, "hidden", False):
                assert param.help, f"{path} {param.opts} has no help"
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(build_command(), "wapii")
    datasets = help_of("datasets")
    assert "check" in datasets and "generate" in datasets


def test_version():
    done = wapii("--version", cwd=REPO)
    assert done.returncode == 0 and re.fullmatch(r"wapii \d+\.\d+\.\d+\S*\n", done.stdout)


def test_datasets_list_takes_a_data_dir_and_shows_no_pseudo_dataset():
    done = wapii("datasets", "list", "--data-dir", str(WAPIIBENCH), cwd=REPO)
    assert done.returncode == 0, done.stderr
    names = [line.split()[0] for line in done.stdout.splitlines() if line and not line.startswith(" ")]
    assert names == ["demo", "wapiibench", "wapiibench-context", "workflows"]
    assert "wapiibench   available" in done.stdout
    assert "workflows    available" in done.stdout


def test_unknown_names_list_the_valid_ones_and_suggest_the_closest():
    line = one_line_error(wapii("run", "--dataset", "wapiibench", "--data-dir", str(WAPIIBENCH), "--api", "asnaa",
                                  "--quiet", cwd=REPO))
    assert line == ("error: dataset 'wapiibench' has no API asnaa (did you mean 'asana'?) (its APIs: asana, "
                    "google_calendar_v3, google_sheet_v4, slack)")
    line = one_line_error(wapii("run", "--adapter", "axio_js", "--quiet", cwd=REPO))
    assert line.startswith("error: unknown adapter 'axio_js' (did you mean 'axios_js'?) (known: ")


def test_generating_a_dataset_for_ones_own_api_without_wapiibench_says_what_to_run(tmp_path):
    done = wapii("datasets", "generate", "--spec", str(REPO / "specs" / "demo" / "specs" / "larchwood.yaml"),
                   "--backend", "oracle", "--model", "x", "--out", str(tmp_path / "mine"), cwd=REPO,
                   env={"WAPII_CACHE_DIR": str(tmp_path / "cache"), "WAPII_DATA_DIR": str(tmp_path / "nothing"),
                        "XDG_CACHE_HOME": str(tmp_path / "cache")})
    line = one_line_error(done)
    assert "uses WAPIIBench's dataset-generation prompt" in line
    assert "run `wapii datasets fetch wapiibench` once (or pass --prompts DIR holding those two files)" in line
    assert not (tmp_path / "mine").exists()


def test_commands_run_one_after_another_in_one_process_leave_nothing_behind(tmp_path):
    """The entry point is reusable: the commands are registered once, and what a command line sets
    (``--require-isolation``, signal handlers, the environment) does not outlive it."""
    from wapii_core.cli import build_command
    from wapii_core.sandbox import isolation_required

    command, names = build_command(), list(build_command().commands)
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    environment = dict(os.environ)
    refused = wapii("run", "--require-isolation", "--limit", "1", "--quiet", "--out", str(tmp_path / "r"),
                    env={"WAPII_BWRAP": ""})
    assert refused.returncode == 2 and "required (--require-isolation)" in one_line_error(refused)
    assert not isolation_required() and dict(os.environ) == environment
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
    assert wapii("--version").returncode == 0
    assert build_command() is command and list(command.commands) == names
