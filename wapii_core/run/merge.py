"""``wapii merge``: the N shard directories of one run (:mod:`wapii_core.run.shards`) joined into one.

Everything is checked before anything is written: every directory is a finished shard, all are
shards of the same run (the same identity settings as ``run.json`` records them, the same number of
shards, the same metric providers, the same dataset), and every shard from 0 to N-1 is there exactly
once. The merged directory then holds what an unsharded run of the same command holds:
``generations.jsonl`` and ``results.jsonl`` in the order an unsharded run stores them (dataset
order, draws in turn), and ``summary.json`` and ``report.md`` computed from them by the same code
(:func:`wapii_core.run.aggregate.finish`): for a deterministic backend, byte for byte the unsharded
run's. Its ``run.json`` is the shards' without ``shard``, plus ``merged_from`` (each shard's
directory, creation time and versions), so ``wapii evaluate`` and ``wapii report`` treat it like
any run. Nothing in it refers to a machine's response cache: the generations are in the directory.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from wapii_core.base.errors import WapiiError
from wapii_core.base.model import Generation, SampleResult
from wapii_core.run.shards import MAX_SHARDS, Shard, shard_keys
from wapii_core.store.lock import RunLock
from wapii_core.store.record import RunRecord, Summary, load_run, load_summary
from wapii_core.store.rundir import (GENERATIONS_FILE, RESULTS_FILE, RUN_FILES, SUMMARY_FILE, RunStore, _difference,
                                     read_jsonl)


@dataclass
class ShardDir:
    """One shard directory as read for merging."""

    directory: Path
    run: RunRecord
    shard: Shard

    @property
    def label(self) -> str:
        return f"shard {self.shard} ({self.directory})"


def read_shard(directory: Path) -> ShardDir:
    """The shard ``directory`` holds, or a one-line error when it is no shard directory."""
    run = load_run(directory)
    if not run.shard:
        raise WapiiError(f"{directory}: not a shard (its run.json records no shard; `wapii run --shard I/N` "
                         "writes shards)")
    try:
        shard = Shard.model_validate(run.shard)  # the bounds --shard enforces (a forged count of 10**12 too)
    except ValueError:
        raise WapiiError(f"{directory}/run.json: malformed shard {run.shard!r} (index 0 to count-1, count 1 to "
                         f"{MAX_SHARDS})") from None
    return ShardDir(directory, run, shard)


def check_same_run(shards: list[ShardDir]) -> None:
    """Refuse shards of different runs (naming the first setting that differs) or of different splits."""
    first = shards[0]
    for other in shards[1:]:
        if other.shard.count != first.shard.count:
            raise WapiiError(f"{other.directory}: not a shard of the same run as {first.directory}: split into "
                             f"{other.shard.count} shards, not {first.shard.count}")
        difference = _difference({**first.run.data(), "shard": None}, {**other.run.data(), "shard": None})
        if difference:
            raise WapiiError(f"{other.directory}: not a shard of the same run as {first.directory}: "
                             f"{first.directory} has {difference}")


def check_complete_set(shards: list[ShardDir]) -> None:
    """Refuse a shard given twice and a missing shard."""
    seen: dict[int, ShardDir] = {}
    for one in shards:
        if one.shard.index in seen:
            raise WapiiError(f"shard {one.shard} given twice: {seen[one.shard.index].directory} and {one.directory}")
        seen[one.shard.index] = one
    count = shards[0].shard.count
    missing = [i for i in range(count) if i not in seen]
    if missing:
        given = ", ".join(str(i) for i in sorted(seen))
        raise WapiiError(f"shard{'s' if len(missing) > 1 else ''} {', '.join(str(i) for i in missing)} of {count} "
                         f"missing (given: {given}); merge needs every shard 0 to {count - 1}")


def _shard_records(one: ShardDir, keys: list[str]) -> tuple[dict[str, Generation], dict[str, SampleResult]]:
    """The shard's generations and results for its ``keys``; a one-line error when it is unfinished or
    holds pairs that are not its own."""
    generations = {g.key: g for g in read_jsonl(one.directory / GENERATIONS_FILE, Generation)}
    results = {r.key: r for r in read_jsonl(one.directory / RESULTS_FILE, SampleResult)}
    wanted = set(keys)
    stray = sorted(set(results) - wanted)
    if stray:
        raise WapiiError(f"{one.label}: holds results of pairs outside the shard ({stray[0]}, ...): not a shard of "
                         "this run")
    unjudged = [k for k in keys if k not in results or k not in generations]
    if unjudged or not (one.directory / SUMMARY_FILE).exists():
        what = (f"{len(unjudged)} of {len(keys)} (task, draw) pairs not judged" if unjudged
                else f"no {SUMMARY_FILE}")
        raise WapiiError(f"{one.label} is unfinished: {what} (run its `wapii run ... --shard {one.shard}` again "
                         "to finish it)")
    return generations, results


def _metric_names(shards: list[ShardDir]) -> list[str]:
    """The metric providers the shards applied (the same for all, else a one-line error)."""
    names = {one.directory: list(load_summary(one.directory).metric_kinds) for one in shards}
    first = shards[0]
    for one in shards[1:]:
        if names[one.directory] != names[first.directory]:
            raise WapiiError(f"{one.directory}: not a shard of the same run as {first.directory}: metric providers "
                             f"{', '.join(names[one.directory])}, not {', '.join(names[first.directory])}")
    return names[first.directory]


def _check_out(out: Path, shards: list[ShardDir]) -> None:
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise WapiiError(f"--out {out}: already exists and is not an empty directory (merge writes a new run "
                         "directory)")
    if any(out.resolve() == one.directory.resolve() for one in shards):
        raise WapiiError(f"--out {out}: is one of the shards")


VERDICT_FIELDS = {"verdict", "error", "url", "method", "endpoint", "arguments"}
"""What ``--verify`` compares of a stored result and its re-judging."""


def verify_verdicts(one: ShardDir, config: Any, generations: dict[str, Generation],
                    results: dict[str, SampleResult]) -> None:
    """Re-judge the shard's generations and refuse it, in one line, when a stored verdict differs."""
    from wapii_core.base.text import shortened
    from wapii_core.run.runner import rejudged

    fresh = rejudged(config, [generations[k] for k in results if k in generations], one.run.task_set)
    for result in fresh:
        stored = results[result.key].model_dump(include=VERDICT_FIELDS)
        now = result.model_dump(include=VERDICT_FIELDS)
        if stored != now:
            field = next(f for f in sorted(VERDICT_FIELDS) if stored.get(f) != now.get(f))
            raise WapiiError(f"{one.label}: the stored verdicts of {result.key!r} differ from its re-judging "
                             f"({field}: {shortened(repr(stored.get(field)), 120)} stored, "
                             f"{shortened(repr(now.get(field)), 120)} re-judged): not merged")


def merge(directories: list[Path], out: Path, data_dir: Path | None = None,
          note: Callable[[str], None] = lambda text: None, verify: bool = False) -> Summary:
    """Merge the shard ``directories`` of one run into the new run directory ``out``; its summary.

    ``data_dir`` says where the dataset is when it is not where the shards found it (another machine);
    ``verify`` re-judges every shard's generations and refuses a shard whose stored verdicts differ."""
    from contextlib import ExitStack

    from wapii_core.run.plan import config_of, load_dataset, select_samples
    from wapii_core.run.tasks import recorded_tasks

    if not directories:
        raise WapiiError("merge needs the shard directories of one run")
    shards = [read_shard(Path(d)) for d in directories]
    check_same_run(shards)
    check_complete_set(shards)
    shards.sort(key=lambda one: one.shard.index)
    _check_out(out, shards)
    info = shards[0].run
    config = config_of(info, data_dir).model_copy(update={"shard": None})
    dataset = load_dataset(config.dataset, config.data_dir, config.dataset_dir)
    if dataset.sha256 != info.dataset_sha256:
        raise WapiiError(f"{shards[0].directory}: the shards were made on another version of dataset {dataset.name!r} "
                         f"(sha256 {info.dataset_sha256}, found {dataset.sha256}); --data-dir names the one "
                         "they used")
    samples = recorded_tasks(select_samples(dataset, config), info.task_set)
    keys = [f"{s.id}#{d}" for s in samples for d in range(config.draws)]
    generations: dict[str, Generation] = {}
    results: dict[str, SampleResult] = {}
    with ExitStack() as stack:
        for one in shards:  # no shard is still being written while it is read
            stack.enter_context(RunLock(one.directory, create=False, read_only=True))  # writes nothing there
            gens, res = _shard_records(one, shard_keys(keys, one.shard))
            if verify:
                verify_verdicts(one, config, gens, res)
            generations.update(gens)
            results.update(res)
        names = _metric_names(shards)
        versions = {str(one.run.versions) for one in shards}
        if len(versions) > 1:
            note("note: the shards ran different wapii versions (run.json's merged_from lists each)")
        run = info.model_copy(update={
            "shard": None,
            "merged_from": [{"directory": str(one.directory.resolve()), "shard": one.shard.model_dump(),
                             "created": one.run.created, "versions": one.run.versions,
                             "git_commit": one.run.git_commit} for one in shards]})
        return _write(out, run, keys, generations, results, dataset, samples, names)


def _write(out: Path, run: RunRecord, keys: list[str], generations: dict[str, Generation],
           results: dict[str, SampleResult], dataset: Any, samples: list[Any], names: list[str]) -> Summary:
    """Write the merged run directory (removed again when writing fails part-way)."""
    from wapii_core.run.aggregate import finish

    existed = out.exists()
    lock = RunLock(out).acquire()
    store = None
    try:
        store = RunStore.open(out, run, lock=lock)
        for key in keys:
            store.add_generation(generations[key])
        for key in keys:
            store.add_result(results[key])
        summary = finish(store, dataset, samples, keys, names)
        store.close()
    except BaseException:
        if store is not None:
            store.close()
        for name in RUN_FILES:
            (out / name).unlink(missing_ok=True)
        lock.release()
        if not existed:
            shutil.rmtree(out, ignore_errors=True)
        raise
    lock.release()
    return summary
