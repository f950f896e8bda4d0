"""The run directory: run.json, append-only JSONL files, atomic summaries, resume.

Layout of ``<run-dir>/`` (each file's model: :mod:`wapii_core.store.record`):
- ``run.json``: what the run is (dataset + sha256, adapter, backend, model, setup, versions);
- ``generations.jsonl``: one :class:`Generation` per sample and draw, appended and flushed as produced;
- ``results.jsonl``: one :class:`SampleResult` per generation that was judged;
- ``summary.json`` and ``report.md``: written atomically at the end.

Re-opening a directory with the same run identity resumes it: finished lines are kept, a line cut
off by a crash is dropped, and nothing is generated or judged twice. A store holds the directory's
:class:`~wapii_core.store.lock.RunLock` while it is open, and writes ``run.json`` only with the first
thing it stores: a run that fails before producing anything (a model that does not load, a backend
that raises) leaves no ``run.json`` behind to block its corrected rerun.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel

from wapii_core.base.atomic import write_atomic
from wapii_core.base.errors import WapiiError
from wapii_core.store.lock import RunLock
from wapii_core.store.run_files import open_for_append, read_jsonl
from wapii_core.base.model import Generation, SampleResult
from wapii_core.store.record import (GENERATIONS_FILE, REPORT_FILE, RESULTS_FILE, RUN_FILE, SUMMARY_FILE, RunRecord,
                                     load_run, load_summary)

__all__ = ["GENERATIONS_FILE", "REPORT_FILE", "RESULTS_FILE", "RUN_FILE", "SUMMARY_FILE", "RunStore", "load_run",
           "load_summary", "read_jsonl", "write_atomic", "write_json", "ordered"]

IDENTITY_KEYS = ("dataset", "dataset_sha256", "adapter", "backend", "model", "setup", "setting", "mode", "draws",
                 "answers", "limit", "apis", "sample", "sample_seed", "shard", "backend_params")
"""What must match for a directory to be resumed rather than refused (in the order a refusal names
the first that differs: the user's own options before the backend's derived parameters)."""

_IDENTITY_NAMES = {"dataset_sha256": "dataset sha256", "backend_params": "backend parameter", "mode": "comparison mode",
                   "draws": "draws (-n)", "answers": "--answers",
                   "limit": "--limit", "apis": "--api", "sample": "--sample",
                   "sample_seed": "--seed", "shard": "--shard"}

RUN_FILES = (RUN_FILE, GENERATIONS_FILE, RESULTS_FILE, SUMMARY_FILE, REPORT_FILE, "batches.json")
"""The files a run directory holds (``--force`` removes them, and a backend's ``batch/`` folder, to
start over; nothing else in the directory is touched)."""
"""How a refusal names an identity key (the others by their own name)."""


def write_json(path: Path, data: Any) -> None:
    write_atomic(path, json.dumps(data, indent=2, sort_keys=False) + "\n")


class JsonlAppender:
    """Appends one JSON line per item and flushes it, so a crash loses at most the line being written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle = os.fdopen(open_for_append(path), "a", encoding="utf-8")  # never through a link

    def append(self, item: BaseModel) -> None:
        self._handle.write(item.model_dump_json() + "\n")
        self._handle.flush()

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()


class RunStore:
    """One run directory, opened for a given run description (``run.json`` contents)."""

    def __init__(self, directory: Path, run: RunRecord, lock: RunLock | None = None) -> None:
        self.directory = directory
        self.run = run
        self.generations: dict[str, Generation] = {}
        self.results: dict[str, SampleResult] = {}
        self._gen_out: JsonlAppender | None = None
        self._res_out: JsonlAppender | None = None
        self._run_written = False
        self._own_lock = lock

    @classmethod
    def open(cls, directory: Path, run: RunRecord, lock: RunLock | None = None,
             fresh: bool = False) -> "RunStore":
        """Lock the directory (unless ``lock``, already held, is given), creating it if needed, and read
        what it holds; refuse it when its ``run.json`` describes another run. ``fresh`` (``--force``)
        removes what the directory holds first, so the run starts over."""
        own = RunLock(directory).acquire() if lock is None else None
        try:
            run_file = directory / RUN_FILE
            if fresh:
                for name in RUN_FILES:
                    (directory / name).unlink(missing_ok=True)
                shutil.rmtree(directory / "batch", ignore_errors=True)  # the openai backend's batch files
            if run_file.exists():
                previous = load_run(directory).data()
                difference = _difference(previous, run.data())
                if difference:
                    raise WapiiError(f"{directory}: holds a run with {difference} (use another --out, or --force "
                                     "to replace it)")
                run = RunRecord.model_validate({**previous, **{k: v for k, v in run.data().items()
                                                               if k not in IDENTITY_KEYS}})
            store = cls(directory, run, own)
            for gen in read_jsonl(directory / GENERATIONS_FILE, Generation, repair=True):
                store.generations[gen.key] = gen  # a later line (a retry) supersedes an earlier one
            for res in read_jsonl(directory / RESULTS_FILE, SampleResult, repair=True):
                store.results[res.key] = res
        except BaseException:
            if own is not None:
                own.release()
            raise
        return store

    def write_run(self) -> None:
        """Write ``run.json`` (once; the first stored line or the summary does it)."""
        if not self._run_written:
            write_json(self.directory / RUN_FILE, self.run.data())
            self._run_written = True

    def add_generation(self, gen: Generation) -> None:
        self.write_run()
        if self._gen_out is None:
            self._gen_out = JsonlAppender(self.directory / GENERATIONS_FILE)
        self._gen_out.append(gen)
        self.generations[gen.key] = gen

    def add_result(self, result: SampleResult) -> None:
        self.write_run()
        if self._res_out is None:
            self._res_out = JsonlAppender(self.directory / RESULTS_FILE)
        self._res_out.append(result)
        self.results[result.key] = result

    def reset_results(self) -> None:
        """Forget every stored result (``wapii evaluate`` re-judges all generations)."""
        self.write_run()
        if self._res_out is not None:
            self._res_out.close()
            self._res_out = None
        write_atomic(self.directory / RESULTS_FILE, "")
        self.results.clear()

    def finished_generations(self) -> dict[str, Generation]:
        return {k: g for k, g in self.generations.items() if g.error is None}

    def failed_generations(self) -> list[Generation]:
        return [g for g in self.generations.values() if g.error is not None]

    def close(self) -> None:
        """Flush and close the files; release the lock if the store took it itself."""
        try:
            for out in (self._gen_out, self._res_out):
                if out is not None:
                    out.close()
            self._gen_out = self._res_out = None
        finally:
            if self._own_lock is not None:
                self._own_lock.release()
                self._own_lock = None


def _difference(previous: dict[str, Any], run: dict[str, Any]) -> str | None:
    """The first identity setting that differs, as a refusal says it: ``setup 'argument', not 'full'``."""
    for key in IDENTITY_KEYS:
        old, new = previous.get(key), run.get(key)
        if old == new:
            continue
        name = _IDENTITY_NAMES.get(key, key)
        if isinstance(old, dict) and isinstance(new, dict):
            inner = next(k for k in sorted({*old, *new}, key=str) if old.get(k, _UNSET) != new.get(k, _UNSET))
            return f"{name} {inner} {_show(old.get(inner, _UNSET))}, not {_show(new.get(inner, _UNSET))}"
        return f"{name} {_show(old)}, not {_show(new)}"
    return None


_UNSET = object()


def _show(value: Any) -> str:
    if value is _UNSET or value is None:
        return "unset"
    if isinstance(value, dict) and set(value) == {"index", "count"}:  # a shard
        return f"{value['index']}/{value['count']}"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def ordered(items: Iterable[SampleResult], order: list[str]) -> list[SampleResult]:
    """Results in dataset order (``order`` holds generation keys)."""
    rank = {key: i for i, key in enumerate(order)}
    return sorted(items, key=lambda r: rank.get(r.key, len(rank)))
