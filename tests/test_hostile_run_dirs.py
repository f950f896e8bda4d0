"""Run directories handed over by someone else (a colleague's shards, a downloaded run) are read with
bounds: a forged shard count, a run file that is a device, a FIFO, a huge file or a link out of the
directory, a ``.lock`` that is a link to another file, and stored verdicts its programs do not earn.

Each is refused in one line with exit code 2, quickly, writing nothing outside ``--out``; the file
behind a ``.lock`` link is unchanged.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from support import run_cli, run_cli_in_process
from wapii_core.run.shards import MAX_SHARDS, Shard

LIMIT = 4


def one_line_error(done, *needles: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr[-2000:])
    err = done.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err
    return err


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Shards 0 and 1 of 2 of an oracle run of the demo's first tasks."""
    from wapii_core.run.runner import RunConfig, run

    base = tmp_path_factory.mktemp("shards")
    dirs = [base / f"s{i}" for i in range(2)]
    for i, directory in enumerate(dirs):
        run(RunConfig(dataset="demo", limit=LIMIT, shard=Shard(index=i, count=2)), directory)
    return dirs


def copies(shards: list[Path], tmp_path: Path) -> list[Path]:
    out = [tmp_path / d.name for d in shards]
    for src, dst in zip(shards, out):
        shutil.copytree(src, dst)
    return out


def test_the_shard_model_holds_the_bounds_of_the_option() -> None:
    for bad in [{"index": 0, "count": 10**12}, {"index": 2, "count": 2}, {"index": -1, "count": 2},
                {"index": 0, "count": MAX_SHARDS + 1}, {"index": "0", "count": 2}]:
        with pytest.raises(ValueError):
            Shard.model_validate(bad)
    assert Shard.model_validate({"index": 1, "count": MAX_SHARDS}).count == MAX_SHARDS


@pytest.mark.parametrize("forged", [{"shard": {"index": 0, "count": 10**12}}, {"draws": 10**12}])
def test_forged_counts_are_refused_at_once(shards: list[Path], tmp_path: Path, forged: dict) -> None:
    dirs = copies(shards, tmp_path)
    for directory in dirs:
        record = json.loads((directory / "run.json").read_text())
        record.update(forged)
        (directory / "run.json").write_text(json.dumps(record))
    out = tmp_path / "merged"
    needle = next(iter(forged))
    one_line_error(run_cli("merge", *map(str, dirs), "--out", str(out), timeout=120), "run.json", needle)
    assert not out.exists()
    one_line_error(run_cli("evaluate", str(dirs[0]), "-q", timeout=120), "run.json", needle)


@pytest.mark.parametrize("name", ["results.jsonl", "generations.jsonl", "run.json"])
@pytest.mark.parametrize("kind", ["device", "fifo", "outside", "huge"])
def test_run_files_that_are_devices_pipes_links_out_or_huge_are_refused(shards: list[Path], tmp_path: Path,
                                                                        name: str, kind: str) -> None:
    dirs = copies(shards, tmp_path)
    target = dirs[1] / name
    target.unlink()
    if kind == "device":
        target.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "outside":
        secret = tmp_path / "elsewhere.jsonl"
        shutil.copy(shards[1] / name, secret)
        target.symlink_to(secret)
    else:
        with open(target, "wb") as handle:  # sparse: no disk used, larger than any cap
            handle.truncate(8 * 2**30)
    out = tmp_path / "merged"
    one_line_error(run_cli("merge", *map(str, dirs), "--out", str(out), timeout=120), str(target))
    assert not out.exists()
    readers = [["show", str(dirs[1]), "larchwood/0"], ["evaluate", str(dirs[1]), "--quiet"]]
    if name != "generations.jsonl":  # a report reads no generation
        readers.append(["report", str(dirs[1]), "--resamples", "10"])
    for command in readers:
        one_line_error(run_cli_in_process(*command), str(target))


def test_a_link_to_a_file_of_the_same_directory_is_read(shards: list[Path], tmp_path: Path) -> None:
    dirs = copies(shards, tmp_path)
    (dirs[0] / "results.jsonl").rename(dirs[0] / "kept.jsonl")
    (dirs[0] / "results.jsonl").symlink_to("kept.jsonl")
    assert run_cli_in_process("report", str(dirs[0]), "--resamples", "0").returncode == 0


@pytest.mark.parametrize("command", ["merge", "evaluate"])
def test_a_lock_that_is_a_link_leaves_its_target_unchanged(shards: list[Path], tmp_path: Path, command: str) -> None:
    dirs = copies(shards, tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    (dirs[1] / ".lock").symlink_to(victim)
    out = tmp_path / "merged"
    args = ["merge", *map(str, dirs), "--out", str(out)] if command == "merge" else ["evaluate", str(dirs[1]), "-q"]
    one_line_error(run_cli_in_process(*args), ".lock", "symbolic link")
    assert victim.read_text() == "the user's own file\n" and (dirs[1] / ".lock").is_symlink()
    assert not out.exists()


@pytest.mark.slow  # judges a shard twice
def test_merge_verify_refuses_verdicts_the_programs_do_not_earn(shards: list[Path], tmp_path: Path) -> None:
    dirs = copies(shards, tmp_path)
    generations = [json.loads(line) for line in (dirs[1] / "generations.jsonl").read_text().splitlines()]
    generations[0]["code"] = "// no call at all\n"  # its stored result still says correct
    (dirs[1] / "generations.jsonl").write_text("".join(json.dumps(g) + "\n" for g in generations))
    out = tmp_path / "merged"
    one_line_error(run_cli_in_process("merge", *map(str, dirs), "--out", str(out), "--verify", "-q"),
                   "shard 1/2", f"{generations[0]['sample']}#{generations[0]['draw']}", "differ from its re-judging")
    assert not out.exists()
    honest = copies(shards, tmp_path / "honest")
    done = run_cli_in_process("merge", *map(str, honest), "--out", str(out), "--verify", "-q")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_dataset_a_run_names_that_is_a_pipe_or_a_device_is_refused(shards: list[Path], tmp_path: Path,
                                                                       kind: str) -> None:
    from support import REPO

    dirs = copies(shards, tmp_path)
    dataset = tmp_path / "dataset"
    shutil.copytree(REPO / "specs" / "demo", dataset)
    (dataset / "dataset.json").unlink()
    if kind == "fifo":
        os.mkfifo(dataset / "dataset.json")
    else:
        (dataset / "dataset.json").symlink_to("/dev/zero")
    record = json.loads((dirs[0] / "run.json").read_text())
    record.update(dataset="dataset", dataset_dir=str(dataset))
    (dirs[0] / "run.json").write_text(json.dumps(record))
    one_line_error(run_cli("evaluate", str(dirs[0]), "-q", timeout=120), "dataset.json", "not a regular file")
    sample = json.loads((dirs[0] / "results.jsonl").read_text().splitlines()[0])["sample"]
    shown = run_cli("show", str(dirs[0]), sample, timeout=120)  # the task is optional: shown without it
    assert shown.returncode == 0 and "the dataset is not available" in shown.stdout, shown.stderr


def test_merge_writes_nothing_into_the_shards(shards: list[Path], tmp_path: Path) -> None:
    dirs = copies(shards, tmp_path)
    before = [(d.stat().st_mtime_ns, sorted(p.name for p in d.iterdir())) for d in dirs]
    done = run_cli_in_process("merge", *map(str, dirs), "--out", str(tmp_path / "merged"), "-q")
    assert done.returncode == 0, done.stderr
    assert [(d.stat().st_mtime_ns, sorted(p.name for p in d.iterdir())) for d in dirs] == before


def test_merge_waits_for_no_writer_of_a_shard(shards: list[Path], tmp_path: Path) -> None:
    from wapii_core.store.lock import RunLock

    dirs = copies(shards, tmp_path)
    with RunLock(dirs[1], create=False):  # a run still writing shard 1
        one_line_error(run_cli_in_process("merge", *map(str, dirs), "--out", str(tmp_path / "merged")),
                       str(dirs[1]), "is writing this run directory")
    assert not (tmp_path / "merged").exists()
