"""Write the viewer as static files: ``index.html``, its assets and the data, in chunks.

Every data file is a script, ``wapii.put(KEY, VALUE);``, that the page loads with a ``<script>`` tag
when it needs it, so that the bundle works from disk (``file://`` pages cannot ``fetch``) and from any
static host, with no network at view time. Layout of ``DIR/``:

- ``index.html``, ``assets/`` (the page and the vendored libraries, with their licences);
- ``data/meta.js``: the runs (names, labels, the report's rows), the tasks (id, API, text), the
  vocabularies the index codes and which file holds which spec excerpt;
- ``data/r<N>/index.js``: run N's filter index, one integer column per facet (task, draw, verdict,
  error kind, URL / method / endpoint verdict, field-verdict bit mask, captured endpoint), a few
  bytes a sample, what the list, the filters and the front page's counts are computed from;
- ``data/r<N>/c<K>.js``: the whole records of run N's samples ``K*CHUNK`` to ``(K+1)*CHUNK - 1``,
  loaded when one of them is opened;
- ``data/x/<M>.js``: one spec excerpt (an endpoint's operation), loaded with the sample that names it.
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

VERDICTS = ["correct", "wrong", "illegal", "nonexecutable"]

ROW_FILTERS: dict[str, dict[str, str]] = {
    "Executable implementations": {"verdict": "!nonexecutable"},
    "Correct implementations": {"verdict": "correct"},
    "Illegal implementations": {"verdict": "illegal"},
    "Correct URLs": {"url": "correct"},
    "Illegal URLs": {"url": "illegal"},
    "Correct methods": {"method": "correct"},
    "Illegal methods": {"method": "illegal"},
    "Missing arguments": {"field": "*:missing"},
    "Unnecessary arguments": {"field": "*:unnecessary"},
    "Illegal arguments": {"field": "*:illegal"},
    "Correct argument values": {"field": "*:correct"},
    "Total errors": {"verdict": "nonexecutable"},
    "Incomplete implementations": {"error": "incomplete_request"},
    "Runtime errors": {"error": "runtime_error"},
}
"""The filter behind a report row (its name without the ``(t)``/``(e)`` suffix): the samples it counts."""


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
    """The report's rows (summary.json ``overall``) with one formatted value per run and the filter behind them."""
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
        base = name.rsplit(" (", 1)[0]
        rows.append({"name": name, "values": [format_value(name, v) if not isinstance(v, (dict, list)) else ""
                                              for v in values],
                     "filter": ROW_FILTERS.get(base)})
    return rows


def _index(run: ViewRun, vocab: dict[str, _Vocab]) -> dict[str, list[int]]:
    columns: dict[str, list[int]] = {c: [] for c in ("t", "d", "v", "e", "u", "m", "p", "f", "r")}
    fields = vocab["field"]
    for record in run.samples:
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
        columns["r"].append(vocab["endpoint"].code(record.get("resolved_endpoint")))
    return columns


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
    try:
        _write_all(runs, tasks, staging, progress("write", len(runs)))
        if out.exists():
            for name in ("index.html", "assets", "data"):
                target = out / name
                if target.is_symlink():
                    target.unlink()
                elif target.is_dir():
                    shutil.rmtree(target)
                elif target.exists():
                    target.unlink()
        out.mkdir(parents=True, exist_ok=True)
        for child in staging.iterdir():
            child.replace(out / child.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out / "index.html"


def copy_page(out: Path) -> None:
    """Write the page itself into ``out``: ``index.html`` and ``assets/`` (the data is written apart)."""
    shutil.rmtree(out / "assets", ignore_errors=True)
    shutil.copytree(ASSETS, out / "assets", ignore=shutil.ignore_patterns("index.html"))
    shutil.copy(ASSETS / "index.html", out / "index.html")


def _write_all(runs: list[ViewRun], tasks: Tasks, out: Path, advance: Callable[[int], None]) -> None:
    copy_page(out)
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
                                                                "setting", "mode", "draws", "created"})}
                 for r in runs],
        "tasks": {"ids": tasks.ids, "apis": tasks.apis, "texts": tasks.texts},
        "vocab": {name: v.values for name, v in vocab.items()},
        "rows": _report_rows(runs),
        "excerpts": excerpts,
    }
    _write(data / "meta.js", "meta", meta)
