"""`wapii run --shard I/N` and `wapii merge`: shards of one run, each in its own process, merge into
the run an unsharded command writes; what cannot be merged is refused in one line."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import CONFORMANCE, REPO, WAPIIBENCH, run_cli
from wapii_core.run.shards import parse_shard, shard_keys, shard_of


def one_line_error(done, *needles):
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    err = done.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err


def test_the_partition_is_sha256_of_the_key_and_never_changes():
    # Pinned: these assignments are what every machine and every wapii version must compute.
    assert [shard_of(f"asana_{i}#0", 3) for i in range(8)] == [
        int(hashlib.sha256(f"asana_{i}#0".encode()).hexdigest()[:16], 16) % 3 for i in range(8)]
    assert [shard_of(f"slack_{i}#0", 4) for i in range(12)] == [1, 1, 0, 3, 3, 1, 2, 1, 3, 2, 0, 2]
    assert [shard_of(f"asana_{i}#{d}", 3) for i in range(4) for d in range(2)] == [1, 0, 1, 0, 0, 0, 1, 0]
    keys = [f"t{i}#{d}" for i in range(300) for d in range(3)]
    parts = [shard_keys(keys, parse_shard(f"{i}/5")) for i in range(5)]
    assert sorted(k for part in parts for k in part) == sorted(keys)  # every pair in exactly one shard
    assert all(120 <= len(part) <= 240 for part in parts)  # a hash spreads them
    assert [k for k in keys if k in set(parts[2])] == parts[2]  # dataset order kept
    # In a fresh interpreter with another hash seed: the same assignment.
    code = "from wapii_core.run.shards import shard_of; print([shard_of(f't{i}#1', 7) for i in range(50)])"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": "12345", "PATH": "/usr/bin"}, cwd=REPO, check=True)
    assert json.loads(other.stdout) == [shard_of(f"t{i}#1", 7) for i in range(50)]


@pytest.mark.parametrize("value, needle", [("3/3", "numbered 0 to 2"), ("1/0", "at least 1"), ("x", "expected I/N"),
                                           ("-1/3", "expected I/N"), ("1/3/4", "expected I/N")])
def test_bad_shard_values_are_refused_in_one_line(tmp_path, value, needle):
    done = run_cli("run", "--shard", value, "--out", str(tmp_path / "run"), "--quiet")
    one_line_error(done, "--shard", needle)
    assert not (tmp_path / "run").exists()


def _shards(tmp_path: Path, args: list[str], shards: list[str], name: str = "s") -> list[Path]:
    """The ``shards`` (``I/N``) of ``args`` run at once, each in its own process."""
    dirs = [tmp_path / f"{name}{spec.split('/')[0]}" for spec in shards]
    procs = [subprocess.Popen([sys.executable, "-m", "wapii_core", "run", *args, "--shard", spec, "--out", str(d),
                               "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for spec, d in zip(shards, dirs)]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    return dirs


def _same_run(merged: Path, whole: Path) -> None:
    """The merged directory holds what the unsharded run holds: verdicts, summary and report (the results
    line for line, in the same order, but for the execution time each sample took)."""
    for name in ("summary.json", "report.md"):
        assert (merged / name).read_bytes() == (whole / name).read_bytes(), name

    def results(directory: Path) -> list[dict]:
        lines = [json.loads(line) for line in (directory / "results.jsonl").read_text().split("\n") if line]
        for line in lines:
            line.pop("timings")
        return lines

    assert results(merged) == results(whole)
    gens = lambda d: sorted((d / "generations.jsonl").read_text().splitlines())  # noqa: E731
    assert gens(merged) == gens(whole)
    run, whole_run = json.loads((merged / "run.json").read_text()), json.loads((whole / "run.json").read_text())
    assert "shard" not in run and [m["shard"]["index"] for m in run["merged_from"]] == [0, 1, 2]
    assert {k: v for k, v in run.items() if k not in ("created", "merged_from")} == \
        {k: v for k, v in whole_run.items() if k != "created"}


DEMO = ["--dataset", "demo", "--limit", "9", "--draws", "2"]


@pytest.fixture(scope="module")
def demo_shards(tmp_path_factory):
    """Shards 0-2 of 3 of a demo run, its unsharded run, shard 2/3 of another setup and shard 2/4."""
    base = tmp_path_factory.mktemp("shards")
    procs = [subprocess.Popen([sys.executable, "-m", "wapii_core", "run", *DEMO, "--out", str(base / "whole" / "run"),
                               "--quiet"], stderr=subprocess.PIPE, text=True)]
    dirs = _shards(base, DEMO, ["0/3", "1/3", "2/3"])
    other = _shards(base, [*DEMO, "--setup", "argument"], ["2/3"], name="other")[0]
    four = _shards(base, DEMO, ["2/4"], name="four")[0]
    assert procs[0].wait(timeout=600) == 0, procs[0].stderr.read()
    return base, dirs, base / "whole" / "run", other, four


@pytest.mark.slow  # seven wapii processes
def test_demo_shards_merge_into_the_unsharded_run(demo_shards, tmp_path):
    base, dirs, whole, _, _ = demo_shards
    infos = [json.loads((d / "run.json").read_text()) for d in dirs]
    assert [i["shard"] for i in infos] == [{"index": i, "count": 3} for i in range(3)]
    sizes = [json.loads((d / "summary.json").read_text())["samples"] for d in dirs]
    assert sum(sizes) == 18 == json.loads((whole / "summary.json").read_text())["samples"] and min(sizes) > 0
    merged = tmp_path / "merged" / "run"  # the report names its directory: the same name as the whole run's
    done = run_cli("merge", *map(str, reversed(dirs)), "--out", str(merged), "--quiet")
    assert done.returncode == 0, done.stderr
    _same_run(merged, whole)
    # The merged directory is an ordinary run: the unsharded command finds nothing left to do in it.
    again = run_cli("run", *DEMO, "--out", str(merged), "--quiet")
    assert again.returncode == 0, again.stderr
    assert "already complete (18 samples generated and judged" in again.stderr
    assert (merged / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()


@pytest.mark.slow
def test_merge_refuses_what_is_not_one_whole_finished_run(demo_shards, tmp_path):
    base, shards, whole, other, four = demo_shards
    dirs = [tmp_path / d.name for d in shards]
    for src, dst in zip(shards, dirs):
        shutil.copytree(src, dst)
    out = tmp_path / "merged"
    cases = [
        ([dirs[0], dirs[1]], ["shard 2 of 3 missing", "given: 0, 1"]),
        ([dirs[0], dirs[1], dirs[1], dirs[2]], ["shard 1/3 given twice"]),
        ([dirs[0], dirs[1], other], ["not a shard of the same run", "setup 'full', not 'argument'"]),
        ([dirs[0], dirs[1], four], ["split into 4 shards, not 3"]),
        ([whole], ["not a shard"]),
    ]
    for given, needles in cases:
        one_line_error(run_cli("merge", *map(str, given), "--out", str(out)), *needles)
        assert not out.exists()
    # A shard refuses to be resumed as another shard.
    one_line_error(run_cli("run", *DEMO, "--shard", "2/3", "--out", str(dirs[1]), "--quiet"), "--shard index 1, not 2")
    # An unfinished shard: what an interrupted shard leaves (fewer results, no summary).
    lines = (dirs[2] / "results.jsonl").read_text().splitlines(keepends=True)
    (dirs[2] / "results.jsonl").write_text("".join(lines[:-2]))
    (dirs[2] / "summary.json").unlink()
    one_line_error(run_cli("merge", *map(str, dirs), "--out", str(out)), "shard 2/3", "unfinished",
                   f"2 of {len(lines)} (task, draw) pairs not judged")
    assert not out.exists()
    # Resumed, it merges; a second merge into the same --out is refused.
    assert run_cli("run", *DEMO, "--shard", "2/3", "--out", str(dirs[2]), "--quiet").returncode == 0
    assert run_cli("merge", *map(str, dirs), "--out", str(out), "--quiet").returncode == 0
    one_line_error(run_cli("merge", *map(str, dirs), "--out", str(out)), "not an empty directory")


@pytest.mark.slow
@pytest.mark.skipif(not (CONFORMANCE / "corpus_a").is_dir(), reason="needs ../shared/conformance")
@pytest.mark.parametrize("backend", ["oracle", "replay"])
def test_wapiibench_in_three_shard_processes_merges_to_the_unsharded_run(tmp_path, backend):
    args = ["--dataset", "wapiibench", "--data-dir", str(WAPIIBENCH), "--backend", backend]
    if backend == "replay":
        args += ["--generations", str(CONFORMANCE / "corpus_a")]
    dirs = _shards(tmp_path, args, ["0/3", "1/3", "2/3"])
    whole, merged = tmp_path / "whole" / "run", tmp_path / "merged" / "run"
    done = run_cli("run", *args, "--out", str(whole), "--quiet")
    assert done.returncode == 0, done.stderr
    done = run_cli("merge", *map(str, dirs), "--out", str(merged), "--quiet")
    assert done.returncode == 0, done.stderr
    _same_run(merged, whole)
    verdicts = lambda d: [(r["sample"], r["verdict"]) for r in map(json.loads, (d / "results.jsonl").open())]  # noqa: E731
    assert len(verdicts(merged)) == 395 and verdicts(merged) == verdicts(whole)
    summary = json.loads((merged / "summary.json").read_text())
    assert summary["complete"] and summary["samples"] == 395
    if backend == "replay":  # mistakes, so the merge has something to get wrong
        assert 0.3 < summary["overall"]["Correct implementations (t)"] < 0.7
