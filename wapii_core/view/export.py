"""``wapii export``: one joined record per sample of a run directory, as JSON lines.

A run keeps a sample's story in two files (``generations.jsonl``: prompt, program, generation timings;
``results.jsonl``: verdicts, captured request, reasons, execution time) and its task in the dataset.
An export line joins them, one line per sample and draw in dataset order, with these keys (stable;
``null`` where the run does not hold the value):

- ``run``, ``sample``, ``draw``, ``api``, ``task``;
- ``state``: ``judged``, ``pending`` (generated, not judged yet: a run still written or cut off) or
  ``generation_failed`` (``generation_error`` says why);
- ``prompt``, ``program`` (the full program), ``raw_output`` (what the model wrote), ``finish_reason``;
- ``expected`` (the request the sample expects) and ``expected_from`` (``run``: as the run stored it,
  ``dataset``: from the dataset, the run did not store it);
- ``captured`` (the request the program made, as judged), ``call`` (the judged call),
  ``exchanges`` (what the program exchanged with the mock: the record's recorded exchanges where it
  holds them, else the captured request alone as ``[{"request": ...}]``, empty when none was captured);
- ``verdict``, ``error``, ``error_detail``, ``mode``, ``url``, ``method``, ``endpoint``,
  ``resolved_endpoint``, ``arguments``, ``reasons``;
- ``timings``: ``latency_s``, ``tokens_in``, ``tokens_out`` (the generation) and ``execution_s``.

``pandas.read_json(path, lines=True)`` reads it in one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from wapii_core.base.errors import WapiiError

FORMATS = ("jsonl",)

TIMING_KEYS = ("latency_s", "tokens_in", "tokens_out", "execution_s")


def export_records(directory: Path) -> Iterator[dict[str, Any]]:
    """The joined records of one run directory (see the module), in dataset order."""
    from wapii_core.store.record import is_live, latest, load_run, read_generations, read_results
    from wapii_core.view.runs import dataset_of

    directory = Path(directory)
    run = load_run(directory)
    live = is_live(directory)
    generations = latest(read_generations(directory, live=live))
    results = latest(read_results(directory, live=live))
    dataset = dataset_of(run)
    tasks = {s.id: s for s in dataset.samples} if dataset is not None else {}
    rank = {sample_id: n for n, sample_id in enumerate(tasks)}
    keys = sorted({*generations, *results}, key=lambda k: (rank.get(k.rsplit("#", 1)[0], len(rank)),
                                                          k.rsplit("#", 1)[0], int(k.rsplit("#", 1)[1])))
    for key in keys:
        generation, result = generations.get(key), results.get(key)
        sample_id = (result or generation).sample
        yield _record(directory.name, sample_id, (result or generation).draw, tasks.get(sample_id),
                      generation.model_dump(mode="json") if generation else {},
                      result.model_dump(mode="json") if result else None)


def _record(run: str, sample_id: str, draw: int, task: Any, generation: dict[str, Any],
            result: dict[str, Any] | None) -> dict[str, Any]:
    judged = result or {}
    if result is not None:
        state = "judged"
    elif generation.get("error"):
        state = "generation_failed"
    else:
        state = "pending"
    expected, expected_from = judged.get("expected_request"), "run"
    if expected is None:
        expected, expected_from = (task.config, "dataset") if task is not None else (None, None)
    captured = judged.get("request")
    exchanges = judged.get("exchanges")
    if exchanges is None:
        exchanges = [{"request": captured}] if captured is not None else []
    timings = {**(generation.get("timings") or {}), **(judged.get("timings") or {})}
    return {
        "run": run, "sample": sample_id, "draw": draw,
        "api": judged.get("api") or (task.api if task is not None else sample_id.rsplit("/", 1)[0]),
        "task": task.task if task is not None else None, "state": state,
        "prompt": generation.get("prompt"), "program": generation.get("code"), "raw_output": generation.get("raw"),
        "finish_reason": generation.get("finish_reason"), "generation_error": generation.get("error"),
        "expected": expected, "expected_from": expected_from, "captured": captured, "call": judged.get("call"),
        "exchanges": exchanges,
        **{key: judged.get(key) for key in ("verdict", "error", "error_detail", "mode", "url", "method", "endpoint",
                                            "resolved_endpoint", "arguments", "reasons")},
        "timings": {key: timings.get(key) for key in TIMING_KEYS},
    }


def export_text(directory: Path, fmt: str = "jsonl") -> str:
    """The export of ``directory`` in ``fmt`` (``jsonl``: one JSON object a line)."""
    if fmt not in FORMATS:
        raise WapiiError(f"unknown export format {fmt!r} (known: {', '.join(FORMATS)})")
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in export_records(directory))
