"""Runs that one sample or one bad input cannot break, through the real CLI on real Node and axios.

- a malformed capture is that sample's ``runtime_error`` (``bad_capture: ...``), the run finishes;
- a metric provider that raises is recorded in summary.json and report.md, the run finishes;
- a run directory is locked: of two runs on one ``--out`` one is refused, nothing is doubled;
- a run that fails before producing anything leaves no run.json (its corrected rerun is not blocked);
- scratch directories of killed runs are removed at the next start;
- every bad input is one line ``error: <file>: <problem>``, exit 2, nothing written.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from wapii_core.base.paths import bundled_specs_dir

from support import run_cli, wait_until, without_sandbox_warnings

DEMO = bundled_specs_dir() / "demo"
BOOKS = "https://api.larchwood-library.example/v2/books"
HANG = f"axios.get('{BOOKS}', {{params: {{x: (() => {{ while (true) {{}} }})()}}}});"
"""A call that never returns: the worker's 2 s limit ends it (a runtime_error), long enough to race."""

PLUGIN = '''
import pluggy

from wapii_core.api import Metric

hookimpl = pluggy.HookimplMarker("wapii")


class AlwaysFails:
    values = {}

    def aggregate(self, results, dataset):
        raise RuntimeError("boom")


class FailsOnOne:
    values = {"count": Metric("count", "results taken")}

    def aggregate(self, results, dataset):
        results = list(results)
        if any(r.sample == "larchwood/3" for r in results):
            raise ValueError("cannot take larchwood/3")
        return {"count": len(results)}


class Exploding:
    name = "exploding"
    supports_constraints = False

    def __init__(self, options, context):
        pass

    def generate(self, requests):
        raise RuntimeError("GPU on fire")
        yield

    def describe(self):
        return {}


def unloadable(options, context):  # a backend factory whose model does not load
    raise OSError("weights.bin: truncated")


def twice(data_dir):
    from wapii_core.datasets.loader import load_demo

    dataset = load_demo()
    dataset.samples.append(dataset.samples[0].model_copy())
    return dataset


@hookimpl
def register_metrics(register):
    register("always_fails", AlwaysFails())
    register("fails_on_one", FailsOnOne())


@hookimpl
def register_backends(register):
    register("exploding", Exploding)
    register("unloadable", unloadable)


@hookimpl
def register_datasets(register):
    register("twice", twice)
'''


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory) -> dict[str, str]:
    """The environment of a wapii with a third-party plugin installed (a dist-info and its module)."""
    site = tmp_path_factory.mktemp("site")
    (site / "wapii_flaky.py").write_text(PLUGIN)
    dist = site / "wapii_flaky-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: wapii-flaky\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[wapii]\nflaky = wapii_flaky\n")
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def write_generations(path: Path, programs: dict[int, str], draw: int | None = None) -> Path:
    """A replay file: ``{index: call}`` on the demo's larchwood API, each call after the import line."""
    with open(path, "w") as handle:
        for index, call in programs.items():
            line = {"sample": f"larchwood/{index}", "code": f"import axios from 'axios';\n{call}\n"}
            if draw is not None:
                line["draw"] = draw
            handle.write(json.dumps(line) + "\n")
    return path


def results_of(out: Path) -> dict[str, dict]:
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    keyed = {f"{r['sample']}#{r['draw']}": r for r in lines}
    assert len(keyed) == len(lines), "a result is doubled"
    return keyed


def one_line_error(done: subprocess.CompletedProcess, expected: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr == f"error: {expected}\n", done.stderr


# -- one sample never makes a run unscorable ---------------------------------------------------------

MALFORMED = {
    0: f"axios.get('{BOOKS}', {{path_params: 7}});",
    1: f"axios.get('{BOOKS}', {{headers: {{a: [1, 2]}}}});",  # axios sends the header as '1, 2': judged on that
    2: f"axios.get('{BOOKS}', {{params: [1, 2]}});",  # sent as ?0=1&1=2: judged on that
    3: f"axios.get('{BOOKS}', {{path_params: {{bookId: {{x: 1}}}}}});",
    4: f"axios.get('{BOOKS}', {{toJSON: () => ({{url: 7, method: 'get'}})}});",
    5: f"axios.get('{BOOKS}/bk_1', {{params: {{q: 'ok'}}}});",
}
BAD_CAPTURE = {
    "larchwood/0#0": "path_params",
    "larchwood/3#0": "path_params",
}
"""Each malformed capture and the field its bad_capture detail names (the adapter's schema or the
judge's neutral shape, whichever refuses it first)."""


@pytest.mark.slow
def test_a_malformed_capture_is_that_samples_runtime_error_and_the_run_finishes(tmp_path):
    gens = write_generations(tmp_path / "gens.jsonl", MALFORMED)
    out = tmp_path / "run"
    args = ["run", "--backend", "replay", "--generations", str(gens), "--limit", "6", "--out", str(out), "--quiet"]
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    results = results_of(out)
    for key, field in BAD_CAPTURE.items():
        detail = results[key]["error_detail"]
        assert (results[key]["verdict"], results[key]["error"]) == ("nonexecutable", "runtime_error"), (key, results[key])
        assert detail.startswith("bad_capture: ") and field in detail, (key, detail)
        assert results[key]["request"] is None
    forged = results["larchwood/4#0"]  # a toJSON of its own is never called: judged on the request it sent
    assert forged["error"] is None and forged["request"]["url"].endswith("/books")
    ordinary = results["larchwood/5#0"]
    assert ordinary["error"] is None and ordinary["method"] == "wrong" and ordinary["request"]["params"] == {"q": "ok"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] and summary["overall"]["counts"]["runtime_error"] == \
        sum(r["error"] == "runtime_error" for r in results.values()) >= len(BAD_CAPTURE)
    assert "error" not in summary["metrics"]["spec_validation"]
    assert (out / "report.md").exists()
    assert run_cli(*args).returncode == 0  # and the rerun finds nothing left to do


@pytest.mark.slow
def test_a_failing_metric_provider_is_recorded_and_the_run_finishes(tmp_path, plugin_env):
    out = tmp_path / "run"
    done = run_cli("run", "--limit", "6", "--out", str(out), "--quiet", env=plugin_env)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["metrics"]["always_fails"] == {"error": "RuntimeError: boom"}
    assert summary["metrics"]["fails_on_one"] == {
        "count": 5, "sample_errors": {"larchwood/3#0": "ValueError: cannot take larchwood/3"}}
    assert summary["overall"]["Correct implementations (t)"] == 1.0  # the other providers are untouched
    report = (out / "report.md").read_text()
    assert "## Metric provider failures in run" in report
    assert "- always_fails: failed, no values (RuntimeError: boom)" in report
    assert ("- fails_on_one: failed on larchwood/3#0, left out of its values (ValueError: cannot take "
            "larchwood/3)") in report


# -- the run directory -------------------------------------------------------------------------------

def start_wapii(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """``wapii ARGS`` in its own process group (so that the test can end whatever it leaves)."""
    return subprocess.Popen([sys.executable, "-m", "wapii_core", *args], env={**os.environ, **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def end_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.slow
def test_two_runs_racing_on_one_out_one_is_refused_and_nothing_is_doubled(tmp_path):
    gens = write_generations(tmp_path / "gens.jsonl", {0: HANG, 1: HANG, 2: HANG, 3: MALFORMED[5]})
    out = tmp_path / "run"
    args = ["run", "--backend", "replay", "--generations", str(gens), "--limit", "4", "--out", str(out), "--quiet"]
    racers = [start_wapii(*args), start_wapii(*args)]
    try:
        outcomes = [(p.pid, p.wait(timeout=300), p.stderr.read()) for p in racers]
    finally:
        for p in racers:
            end_group(p)
    (winner, _, won), (_, _, lost) = sorted(outcomes, key=lambda o: o[1])
    assert [rc for _, rc, _ in sorted(outcomes, key=lambda o: o[1])] == [0, 2], outcomes
    assert without_sandbox_warnings(won) == ""
    assert lost == (f"error: {out}: another wapii process (pid {winner}) is writing this run directory; "
                    "wait for it to end or use another --out\n")
    assert len(results_of(out)) == 4
    assert len((out / "generations.jsonl").read_text().splitlines()) == 4
    assert sorted(p.name for p in out.iterdir()) == ["generations.jsonl", "report.md", "results.jsonl", "run.json",
                                                     "summary.json"]


@pytest.mark.slow
def test_evaluate_is_refused_while_a_run_writes_the_directory(tmp_path):
    gens = write_generations(tmp_path / "gens.jsonl", {0: HANG, 1: HANG, 2: HANG, 3: HANG})
    out = tmp_path / "run"
    running = start_wapii("run", "--backend", "replay", "--generations", str(gens), "--limit", "4", "--out", str(out),
                          "--quiet")
    try:
        # generated: it judges now, for several seconds
        wait_until(lambda: (out / "generations.jsonl").exists() or running.poll() is not None, "generations written")
        assert running.poll() is None, running.stderr.read()
        one_line_error(run_cli("evaluate", str(out), "--quiet"),
                       f"{out}: another wapii process (pid {running.pid}) is writing this run directory; wait for "
                       "it to end or use another --out")
        assert running.wait(timeout=300) == 0, running.stderr.read()
    finally:
        end_group(running)
    assert run_cli("evaluate", str(out), "--quiet").returncode == 0


@pytest.mark.slow
def test_a_killed_run_leaves_its_scratch_until_the_next_start_and_resumes(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {"TMPDIR": str(tmp)}
    gens = write_generations(tmp_path / "gens.jsonl", {0: HANG, 1: HANG, 2: HANG, 3: HANG})
    out = tmp_path / "run"
    args = ["run", "--backend", "replay", "--generations", str(gens), "--limit", "4", "--out", str(out), "--quiet"]
    victim = start_wapii(*args, env=env)
    try:
        wait_until(lambda: list(tmp.glob(f"wapii-{victim.pid}-*/wapii-*/*.log")) or victim.poll() is not None,
                   "the run's sandbox workers started")
        assert victim.poll() is None, victim.stderr.read()
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=60)
    finally:
        end_group(victim)
    stale = list(tmp.glob(f"wapii-{victim.pid}-*"))
    assert len(stale) == 1
    # a live process's scratch (this test's own pid, its lock held) must survive the sweep
    import fcntl

    live = tmp / f"wapii-{os.getpid()}-live"
    live.mkdir()
    held = os.open(live / "owner.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        done = run_cli(*args, env=env)  # the next start: removes the stale scratch, resumes the killed run
    finally:
        os.close(held)
    assert done.returncode == 0, done.stderr
    assert not stale[0].exists() and live.exists()
    assert sorted(p.name for p in tmp.iterdir()) == [live.name]  # the run removed its own scratch too
    assert len(results_of(out)) == 4 and json.loads((out / "summary.json").read_text())["complete"]


# -- bad input: one line, exit 2, nothing written ----------------------------------------------------

@pytest.mark.slow
def test_a_generations_file_that_is_not_utf8(tmp_path):
    gens = tmp_path / "gens.jsonl"
    gens.write_bytes(b'{"sample": "larchwood/0", "code": "axios.get(1);"}\n{"sample": "larchwood/1", "code": "\xff"}\n')
    out = tmp_path / "run"
    one_line_error(run_cli("run", "--backend", "replay", "--generations", str(gens), "--out", str(out)),
                   f"{gens}: line 2: not UTF-8 text (invalid start byte at byte 35)")
    assert not out.exists()


@pytest.mark.slow
def test_out_naming_an_existing_file_or_an_impossible_path(tmp_path):
    existing = tmp_path / "notes.txt"
    existing.write_text("mine\n")
    one_line_error(run_cli("run", "--out", str(existing)),
                   f"{existing}: is a file, not a directory; give --out a new or empty directory")
    one_line_error(run_cli("run", "--out", str(existing), "--setup", "full", "--setup", "argument"),
                   f"{existing}: is a file, not a directory; give --out a new or empty directory")
    assert existing.read_text() == "mine\n"
    impossible = Path("/proc/wapii-no-such-dir/run")
    one_line_error(run_cli("run", "--out", str(impossible)),
                   f"{impossible}: cannot create the run directory: No such file or directory")


@pytest.mark.slow
def test_a_ref_cycle_in_a_spec(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DEMO, data)
    spec = data / "specs" / "larchwood.yaml"
    text = spec.read_text()
    bookid = "    bookId:\n      name: bookId\n      in: path\n      required: true\n      schema:\n        type: string\n"
    assert bookid in text
    # bookId points into bookIdAlias, which points back to bookId
    spec.write_text(text.replace(bookid, "    bookId:\n      $ref: '#/components/parameters/bookIdAlias/schema'\n"
                                         "    bookIdAlias:\n      $ref: '#/components/parameters/bookId'\n"))
    out = tmp_path / "run"
    one_line_error(run_cli("run", "--dataset-dir", str(data), "--out", str(out)),
                   f"{spec}: circular $ref '#/components/parameters/bookId'")
    assert not out.exists()


@pytest.mark.slow
def test_a_model_that_does_not_load_leaves_nothing_to_block_the_corrected_rerun(tmp_path):
    broken = tmp_path / "model"
    broken.mkdir()
    (broken / "config.json").write_text("{ not json")
    out = tmp_path / "run"
    done = run_cli("run", "--backend", "hf", "--model", str(broken), "--limit", "2", "--out", str(out))
    assert done.returncode == 2 and done.stderr.startswith(f"error: cannot load model '{broken}': "), done.stderr
    assert done.stderr.count("\n") == 1
    assert not out.exists()
    assert run_cli("run", "--limit", "2", "--out", str(out), "--quiet").returncode == 0


@pytest.mark.slow
def test_a_raising_backend_leaves_nothing_to_block_the_corrected_rerun(tmp_path, plugin_env):
    out = tmp_path / "run"
    one_line_error(run_cli("run", "--backend", "exploding", "--out", str(out), env=plugin_env),
                   "backend 'exploding': failed: RuntimeError: GPU on fire (what it generated so far is kept; "
                   "run the same command again to resume)")
    assert not out.exists()
    one_line_error(run_cli("run", "--backend", "unloadable", "--out", str(out), env=plugin_env),
                   "backend 'unloadable': failed to start: OSError: weights.bin: truncated")
    assert not out.exists()
    assert run_cli("run", "--limit", "2", "--out", str(out), "--quiet", env=plugin_env).returncode == 0


@pytest.mark.slow
def test_a_refused_rerun_names_the_setting_that_differs(tmp_path):
    out = tmp_path / "run"
    assert run_cli("run", "--limit", "2", "--out", str(out), "--quiet").returncode == 0
    one_line_error(run_cli("run", "--limit", "2", "--out", str(out), "--draws", "3"),
                   f"{out}: holds a run with draws (-n) 1, not 3 (use another --out, or --force to replace it)")


@pytest.mark.slow
def test_duplicate_sample_ids_in_a_dataset(tmp_path, plugin_env):
    out = tmp_path / "run"
    one_line_error(run_cli("run", "--dataset", "twice", "--out", str(out), env=plugin_env),
                   f"{DEMO / 'dataset.json'}: sample 26 (larchwood/0): duplicate of sample 0 (same id)")
    assert not out.exists()


@pytest.mark.slow
def test_a_generations_line_whose_draw_is_beyond_n(tmp_path):
    gens = write_generations(tmp_path / "gens.jsonl", {0: f"axios.get('{BOOKS}');"}, draw=1)
    out = tmp_path / "run"
    one_line_error(run_cli("run", "--backend", "replay", "--generations", str(gens), "--out", str(out)),
                   f"{gens}: line 1: draw 1 of larchwood/0 is beyond --draws/-n 1 (draws count from 0)")
    assert not out.exists()


@pytest.mark.slow
def test_replay_judges_each_draw_on_its_own_program(tmp_path):
    gens = tmp_path / "gens.jsonl"
    write_generations(gens, {3: f"axios.get('{BOOKS}/bk_20931', {{headers: {{'X-Api-Key': '<key>'}}}});"}, draw=0)
    with open(gens, "a") as handle:
        handle.write(json.dumps({"sample": "larchwood/3", "draw": 1,
                                 "code": f"import axios from 'axios';\naxios.get('{BOOKS}/nowhere/at/all');\n"}) + "\n")
    out = tmp_path / "run"
    done = run_cli("run", "--backend", "replay", "--generations", str(gens), "--api", "larchwood", "--draws", "2",
                   "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr  # the run's tasks are the samples the file holds: larchwood/3
    results = results_of(out)
    assert sorted(results) == ["larchwood/3#0", "larchwood/3#1"]
    assert results["larchwood/3#0"]["url"] == "correct" and results["larchwood/3#1"]["url"] == "illegal"


@pytest.mark.slow
def test_a_program_that_breaks_the_extractor_is_that_samples_runtime_error(tmp_path):
    gens = tmp_path / "gens.jsonl"
    deep = "import requests\nrequests.get(" + "-" * 200_000 + "1)\n"  # more nesting than Python's parser takes
    fine = f"import requests\nrequests.get('{BOOKS}')\n"
    gens.write_text("".join(json.dumps({"sample": f"larchwood/{i}", "code": code}) + "\n"
                            for i, code in enumerate([deep, fine])))
    out = tmp_path / "run"
    done = run_cli("run", "--adapter", "requests_py", "--backend", "replay", "--generations", str(gens),
                   "--limit", "2", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    results = results_of(out)
    assert results["larchwood/0#0"]["error"] == "runtime_error"
    assert results["larchwood/0#0"]["error_detail"].startswith("extraction failed: ")
    assert results["larchwood/1#0"]["error"] is None and results["larchwood/1#0"]["url"] == "correct"
