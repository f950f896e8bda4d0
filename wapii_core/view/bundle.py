"""Write the viewer as static files: ``index.html``, its assets and the data, in chunks.

Every data file is a script, ``wapii.put(KEY, VALUE);``, that the page loads with a ``<script>`` tag
when it needs it, so that the bundle works from disk (``file://`` pages cannot ``fetch``) and from any
static host, with no network at view time. Layout of ``DIR/``:

- ``index.html``, ``assets/`` (the page and the vendored libraries, with their licences);
- ``data/meta.js``: the runs (names, labels, the report's rows), the tasks (id, API, text), the
  vocabularies the index codes and which file holds which spec excerpt;
- ``data/r<N>/index.js``: run N's filter index, one integer column per facet (task, draw, verdict,
  error kind, URL / method / endpoint verdict, field-verdict bit mask, argument-bucket bit mask (what the
  argument rows count), captured endpoint, and the
  sort keys latency and execution in ms and tokens generated, -1 where not recorded), a few
  bytes a sample, what the list, the filters and the front page's counts are computed from;
- ``data/r<N>/c<K>.js``: the whole records of run N's samples ``K*CHUNK`` to ``(K+1)*CHUNK - 1``,
  loaded when one of them is opened;
- ``data/x/<M>.js``: one spec excerpt (an endpoint's operation), loaded with the sample that names it;
- ``data/stamp.js``: what the runs hold (see :func:`stamp`), polled by the page while a run is written.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable, Iterable

from wapii_core.base.errors import WapiiError
from wapii_core.view.runs import Tasks, ViewRun, open_runs

Progress = Callable[[str, int], Callable[[int], None]]

CHUNK = 16
"""Samples per detail file: a sample's page loads one such file per open run (the same task side by side)."""

ASSETS = Path(__file__).parent / "assets"

VERDICTS = ["correct", "wrong", "illegal", "nonexecutable", "pending"]
"""Verdicts as the index codes them (``pending``: generated, not judged yet, in a run still written)."""

HEADLINE = {"correct": "Correct implementations (t)", "executable": "Executable implementations (t)",
            "illegal": "Illegal implementations (t)"}
"""The headline numbers the run list shows (summary rows, in %)."""



class _Vocab:
    """Strings coded as small integers (0 = none)."""

    def __init__(self, values: Iterable[str] = ()) -> None:
        self.values: list[str | None] = [None]
        self._code: dict[str, int] = {}
        for value in values:
            self.code(value)

    def code(self, value: Any) -> int:
        if value is None or value == "":
            return 0
        value = str(value)
        if value not in self._code:
            self._code[value] = len(self.values)
            self.values.append(value)
        return self._code[value]


def _write(path: Path, key: str, value: Any) -> None:
    """One data file: ``wapii.put(KEY,VALUE);`` (pydantic-core's serialiser: 118,500 records are 300 MB)."""
    from pydantic_core import to_json

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"wapii.put(" + to_json(key) + b"," + to_json(value, fallback=str) + b");\n")


def _report_rows(runs: list[ViewRun]) -> list[dict[str, Any]]:
    """The report's rows (summary.json ``overall``) with one formatted value per run, and for a paper row
    its sentence and the filter behind it (the samples it counts; :mod:`wapii_core.judge.rows`)."""
    from wapii_core.judge.rows import DESCRIPTIONS, ROWS_BY_NAME
    from wapii_core.report.tables import format_value, row_names

    names = list(row_names())
    for run in runs:
        for name, value in run.summary.values().items():
            if name not in names and isinstance(value, (int, float)) and not isinstance(value, bool):
                names.append(name)
    rows = []
    for name in names:
        values = [run.summary.values().get(name) for run in runs]
        if all(v is None or isinstance(v, (dict, list)) for v in values):
            continue
        row, scope = ROWS_BY_NAME.get(name, (None, None))
        shown = row.viewer_filter(scope) if row is not None else None
        rows.append({"name": name, "values": [format_value(name, v) if not isinstance(v, (dict, list)) else ""
                                              for v in values],
                     "filter": {k: list(v) for k, v in shown.items()} if shown else None,
                     "description": DESCRIPTIONS.get(name)})
    return rows


def _state(run: ViewRun) -> dict[str, Any]:
    """What the run list shows of a run beside run.json: its state (``complete``, ``incomplete``,
    ``running``, ``interrupted``), the sentence saying what a partial run holds, its headline numbers."""
    summary, live = run.summary, run.summary.live
    if live is not None:
        state, note = live.state, live.line()
    else:
        state = "complete" if summary.complete and summary.judged >= summary.samples else "incomplete"
        note = f"{summary.judged} of {summary.samples} samples judged"
    values = summary.values()
    headline = {key: values.get(row) for key, row in HEADLINE.items()}
    return {"state": state, "note": note, "headline": {k: round(100 * v, 1) for k, v in headline.items()
                                                       if isinstance(v, (int, float)) and not isinstance(v, bool)}}


def _index(run: ViewRun, vocab: dict[str, _Vocab]) -> dict[str, list[int]]:
    columns: dict[str, list[int]] = {c: [] for c in ("t", "d", "v", "e", "u", "m", "p", "f", "a", "r", "l", "k",
                                                     "x")}
    fields = vocab["field"]
    for record in run.samples:
        generated, executed = record.get("generation_timings") or {}, record.get("timings") or {}
        columns["l"].append(_number(generated.get("latency_s"), 1000))
        columns["k"].append(_number(generated.get("tokens_out"), 1))
        columns["x"].append(_number(executed.get("execution_s"), 1000))
        columns["t"].append(record["task_index"])
        columns["d"].append(int(record.get("draw") or 0))
        columns["v"].append(vocab["verdict"].code(record.get("verdict")))
        columns["e"].append(vocab["error"].code(record.get("error")))
        columns["u"].append(vocab["part"].code(record.get("url")))
        columns["m"].append(vocab["part"].code(record.get("method")))
        columns["p"].append(vocab["part"].code(record.get("endpoint")))
        mask = 0
        for group, verdicts in (record.get("arguments") or {}).items():
            for verdict in set((verdicts or {}).values()):
                code = fields.code(f"{group}:{verdict}")
                if code <= 31:
                    mask |= 1 << (code - 1)
        columns["f"].append(mask)
        columns["a"].append(_argument_bits(record))
        columns["r"].append(vocab["endpoint"].code(record.get("resolved_endpoint")))
    return columns


def _argument_bits(record: dict[str, Any]) -> int:
    """Bit ``k`` set where the sample has arguments in bucket ``ARGUMENT_BUCKETS[k]`` (the record's
    ``argument_buckets``: :func:`wapii_core.view.runs.read_run`)."""
    from wapii_core.judge.rows import ARGUMENT_BUCKETS

    return sum(1 << ARGUMENT_BUCKETS.index(b) for b in record.get("argument_buckets") or () if b in ARGUMENT_BUCKETS)


def _number(value: Any, scale: int) -> int:
    """A timing or count as the index holds it (milliseconds for seconds), -1 when not recorded."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value or value < 0:
        return -1
    return int(round(value * scale))


def _no_progress(stage: str, total: int) -> Callable[[int], None]:
    return lambda n=1: None


def write_bundle(directories: list[Path], out: Path, progress: Progress = _no_progress) -> Path:
    """Write the viewer of the run ``directories`` into ``out`` (created; files of an earlier bundle
    replaced); return ``out/index.html``. ``progress(stage, total) -> advance(n)`` is told of each run
    read and written."""
    from wapii_core.store.out_guard import check_bundle_out

    out = out.resolve()  # "." has no name to put the staging directory beside
    check_bundle_out(out)  # a user's directory is never written over
    runs, tasks = open_runs(directories, progress("read runs", len(directories)))
    if not runs:
        raise WapiiError("wapii view: name at least one run directory")
    staging = out.with_name(f".{out.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    old = out.with_name(f".{out.name}.previous")
    shutil.rmtree(old, ignore_errors=True)
    try:
        _write_all(runs, tasks, staging, progress("write", len(runs)))
        out.mkdir(parents=True, exist_ok=True)
        old.mkdir()
        for name in ("index.html", "assets", "data"):  # the page served meanwhile misses each for an instant only
            if (out / name).exists() or (out / name).is_symlink():
                (out / name).replace(old / name)
            if (staging / name).exists():
                (staging / name).replace(out / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)
    return out / "index.html"


def copy_page(out: Path) -> None:
    """Write the page itself into ``out``: ``index.html`` and ``assets/`` (the data is written apart)."""
    shutil.rmtree(out / "assets", ignore_errors=True)
    shutil.copytree(ASSETS, out / "assets", ignore=shutil.ignore_patterns("index.html"))
    shutil.copy(ASSETS / "index.html", out / "index.html")


def _write_all(runs: list[ViewRun], tasks: Tasks, out: Path, advance: Callable[[int], None]) -> None:
    copy_page(out)
    from wapii_core.judge.rows import ARGUMENT_BUCKETS

    vocab = {"verdict": _Vocab(VERDICTS), "error": _Vocab(), "part": _Vocab(["correct"]), "field": _Vocab(),
             "endpoint": _Vocab()}
    data = out / "data"
    for number, run in enumerate(runs):
        _write(data / f"r{number}" / "index.js", f"index/{number}", _index(run, vocab))
        for start in range(0, len(run.samples), CHUNK):
            chunk = start // CHUNK
            records = [{k: v for k, v in r.items() if k != "task_index"} for r in run.samples[start:start + CHUNK]]
            _write(data / f"r{number}" / f"c{chunk}.js", f"chunk/{number}/{chunk}", records)
        advance(1)
    excerpts = {}
    for number, (key, text) in enumerate(sorted(tasks.excerpts.items())):
        excerpts[key] = number
        _write(data / "x" / f"{number}.js", f"excerpt/{number}", text)
    meta = {
        "chunk": CHUNK,
        "runs": [{"name": r.name, "label": r.label, "directory": str(r.directory), "samples": len(r.samples),
                  "run": r.run.model_dump(mode="json", include={"dataset", "adapter", "backend", "model", "setup",
                                                                "setting", "mode", "draws", "created"}),
                  **_state(r)}
                 for r in runs],
        "tasks": {"ids": tasks.ids, "apis": tasks.apis, "texts": tasks.texts},
        "vocab": {name: v.values for name, v in vocab.items()},
        "arguments": list(ARGUMENT_BUCKETS),  # bit k of the index's "a" column
        "rows": _report_rows(runs),
        "excerpts": excerpts,
        "stamp": stamp(runs),
    }
    _write(data / "meta.js", "meta", meta)
    _write(data / "stamp.js", "stamp", meta["stamp"])


def stamp(runs: list[ViewRun]) -> str:
    """What changes when a run still being written holds more: the page of a served viewer polls
    ``data/stamp.js`` and reloads when it differs from the one it was built with."""
    return ";".join(f"{r.summary.live.line() if r.summary.live else 'done'}/{len(r.samples)}" for r in runs)
