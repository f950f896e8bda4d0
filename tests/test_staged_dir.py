"""Directories built whole or not at all, once among processes (wapii_core.base.staged_dir)."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from wapii_core.base.staged_dir import build_once, staged_directory


def _ready(directory: Path) -> bool:
    return (directory / "done").is_file()


def test_a_failed_build_leaves_the_old_directory_and_no_staging(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    (target / "old").write_text("kept")
    with pytest.raises(RuntimeError), staged_directory(target) as staging:
        (staging / "new").write_text("half")
        raise RuntimeError("interrupted")
    assert [p.name for p in tmp_path.iterdir()] == ["out"] and (target / "old").read_text() == "kept"


def test_a_finished_build_replaces_the_old_directory_whole(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    (target / "old").write_text("stale")
    with staged_directory(target, mode=0o755) as staging:
        (staging / "new").write_text("complete")
    assert sorted(p.name for p in target.iterdir()) == ["new"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"] and target.stat().st_mode & 0o777 == 0o755


def test_a_complete_directory_a_racing_builder_put_in_place_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "out"
    with staged_directory(target, ready=_ready) as staging:
        (staging / "done").write_text("ours")
        target.mkdir()  # the other builder finishes first
        (target / "done").write_text("theirs")
    assert (target / "done").read_text() == "theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def _build_slowly(target: str, log: str) -> None:
    def build(staging: Path) -> None:
        with open(log, "a") as handle:
            handle.write("built\n")
        time.sleep(0.3)
        (staging / "done").write_text("x")

    build_once(Path(target), _ready, build)


def test_concurrent_processes_build_once(tmp_path: Path) -> None:
    target, log = tmp_path / "cache" / "thing", tmp_path / "log"
    processes = [multiprocessing.get_context("fork").Process(target=_build_slowly, args=(str(target), str(log)))
                 for _ in range(3)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(30)
    assert [p.exitcode for p in processes] == [0, 0, 0]
    assert log.read_text() == "built\n" and _ready(target)
    assert sorted(p.name for p in target.parent.iterdir()) == [".thing.lock", "thing"]
