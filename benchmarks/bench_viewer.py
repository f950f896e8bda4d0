"""The viewer at scale: synthetic runs of WAPIIBench's tasks, bundled, opened in headless Chromium.

Usage::

    python benchmarks/bench_viewer.py [--runs 30] [--draws 10] [--data-dir ../shared/wapiibench]
                                      [--work /tmp/wapii-bench-viewer] [--repeat 3]

Makes ``--runs`` run directories of every WAPIIBench task x ``--draws`` draws (30 x 395 x 10 = 118,500
samples by default) with the full per-sample story (prompt, program, expected and captured request,
verdicts with reasons, endpoints, timings) and a random mix of verdicts, writes the bundle with
``wapii view --bundle`` (timed), then opens it in Debian's Chromium (Playwright) from disk
(``file://``) and served by ``wapii view``'s server (``http://127.0.0.1``), side by side, and
measures, ``--repeat`` times each in a fresh browser page:

- first page: from navigation until the front page (report tables, counts, the first rows of the
  list of every sample) is drawn;
- each filter (alone, from the whole list): from changing the control until the list is redrawn (the
  next animation frame);
- a sample: from a click on a row until the sample's page (with the same task in every run) is drawn.

The run directories are kept in ``--work`` and reused when their shape matches.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

VERDICTS = ("correct", "wrong", "illegal", "nonexecutable")
WEIGHTS = (0.45, 0.25, 0.15, 0.15)
ERRORS = ("runtime_error", "timeout", "no_request", "incomplete_request")
FILTERS = [  # (label, control, value)
    ("verdict = illegal", "verdict", "illegal"),
    ("API = slack", "api", "slack"),
    ("field verdicts = any: missing", "field", "*:missing"),
    ("run = the 6th", "run", "5"),
    ("search 'calendar event'", "q", "calendar event"),
    ("clear (back to every sample)", None, None),
]


def _program(task: str, request: dict) -> tuple[str, str, list[int]]:
    call = (f"axios.{request['method']}('{request['url']}', {json.dumps({k: v for k, v in request.items() if k not in ('url', 'method')})});\n")
    head = f"// {task}\nconst axios = require('axios');\n\n"
    return head + call, call, [len(head), len(head) + len(call)]


def make_runs(work: Path, data_dir: Path, runs: int, draws: int) -> list[Path]:
    """``runs`` synthetic run directories (reused when ``work`` already holds them at this shape)."""
    from wapii_core.run.runner import load_dataset
    from wapii_core.store.record import RECORD_VERSION

    dataset = load_dataset("wapiibench", data_dir)
    shape = {"runs": runs, "draws": draws, "tasks": len(dataset.samples), "record_version": RECORD_VERSION}
    marker = work / "shape.json"
    directories = [work / "runs" / f"model{n:02d}" for n in range(runs)]
    if marker.exists() and json.loads(marker.read_text()) == shape:
        return directories
    shutil.rmtree(work, ignore_errors=True)
    rng = random.Random(7)
    prompt_head = "Below is a JavaScript program that uses the Axios HTTP client. Complete it.\n\n" + "x" * 600
    for n, directory in enumerate(directories):
        directory.mkdir(parents=True)
        run = {"record_version": RECORD_VERSION, "dataset": "wapiibench", "dataset_sha256": dataset.sha256,
               "dataset_source": str(dataset.source), "adapter": "axios_js", "backend": "synthetic",
               "model": f"model-{n:02d}", "setup": "full", "setting": "unconstrained", "mode": "reference",
               "draws": draws, "created": "2026-01-01T00:00:00+00:00"}
        (directory / "run.json").write_text(json.dumps(run, indent=2))
        counts = dict.fromkeys(VERDICTS, 0)
        with open(directory / "generations.jsonl", "w") as gens, open(directory / "results.jsonl", "w") as res:
            for sample in dataset.samples:
                expected = sample.config
                for draw in range(draws):
                    verdict = rng.choices(VERDICTS, WEIGHTS)[0]
                    counts[verdict] += 1
                    request = json.loads(json.dumps(expected))
                    arguments = {field: {name: "correct" for name in values}
                                 for field, values in expected.items() if isinstance(values, dict)}
                    reasons = {}
                    error = None
                    if verdict == "wrong" and expected.get("params"):
                        name = next(iter(expected["params"]))
                        del request["params"][name]
                        arguments["params"][name] = "missing"
                        reasons[f"params.{name}"] = f"params.{name} missing"
                    elif verdict == "illegal":
                        request.setdefault("params", {})["colour"] = "red"
                        arguments.setdefault("params", {})["colour"] = "illegal"
                        reasons["params.colour"] = "params.colour illegal"
                    elif verdict == "nonexecutable":
                        error = rng.choice(ERRORS)
                        request, arguments = None, {}
                    code, call, span = _program(sample.task, request or expected)
                    gens.write(json.dumps({"sample": sample.id, "draw": draw, "code": code, "finish_reason": "stop",
                                           "error": None, "raw": None, "prompt": prompt_head + sample.task,
                                           "timings": {"latency_s": rng.random(), "tokens_in": 900,
                                                       "tokens_out": 80}}) + "\n")
                    part = None if error else "correct"
                    res.write(json.dumps({
                        "sample": sample.id, "draw": draw, "api": sample.api, "error": error,
                        "error_detail": f"{error}: synthetic" if error else None, "verdict": verdict,
                        "url": part, "method": part, "endpoint": part, "arguments": arguments,
                        "expected_arguments": {f: len(v) for f, v in expected.items() if isinstance(v, dict)},
                        "call": call, "request": request, "mode": "reference", "expected_request": expected,
                        "reasons": reasons, "resolved_endpoint": None, "call_span": span,
                        "timings": {"execution_s": rng.random() / 10}}) + "\n")
        total = sum(counts.values())
        executable = total - counts["nonexecutable"]
        overall = {"Executable implementations (t)": executable / total,
                   "Correct implementations (t)": counts["correct"] / total,
                   "Correct implementations (e)": counts["correct"] / executable,
                   "Illegal implementations (t)": counts["illegal"] / total,
                   "Illegal implementations (e)": counts["illegal"] / executable,
                   "Total errors": counts["nonexecutable"]}
        summary = {"record_version": RECORD_VERSION, "complete": True, "samples": total, "judged": total,
                   "failed_generations": [], "mode": "reference", "setup": "full", "overall": overall, "per_api": {}}
        (directory / "summary.json").write_text(json.dumps(summary, indent=2))
    marker.write_text(json.dumps(shape))
    return directories


def _frame_after(page, script: str) -> float:
    """Milliseconds from running ``script`` in the page until the next frame is drawn."""
    return page.evaluate("""async (script) => {
        const t0 = performance.now();
        (new Function(script))();
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        return performance.now() - t0;
    }""", script)


def measure(browser, url: str) -> dict[str, float]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body[data-listed]", timeout=120_000)
    page.evaluate("new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))")
    out["first page"] = (time.perf_counter() - t0) * 1000
    marks = page.evaluate("""() => Object.fromEntries(performance.getEntriesByType('mark')
        .map((m) => [m.name, m.startTime]))""")
    out["  of which: meta.js loaded (since navigation)"] = marks["wapii:meta"]
    out["  of which: every run's index loaded"] = marks["wapii:index"]
    out["  of which: tables and list drawn"] = marks["wapii:listed"]
    for label, control, value in FILTERS:
        if control is not None:  # each filter alone, from the whole list
            page.evaluate("document.getElementById('clear').click()")
        if control is None:
            script = "document.getElementById('clear').click()"
        elif control == "q":
            script = (f"const q = document.querySelector('input[name=q]'); q.value = {json.dumps(value)};"
                      "q.closest('.filters').dispatchEvent(new Event('change'))")
        else:
            script = (f"const s = document.querySelector('select[name={control}]'); s.value = {json.dumps(value)};"
                      "s.dispatchEvent(new Event('change', {bubbles: true}))")
        out[label] = _frame_after(page, script)
        out[label + " (rows)"] = float(page.evaluate("+document.body.dataset.listed"))
    t0 = time.perf_counter()
    page.locator("#contentArea .srow").nth(3).click()
    page.wait_for_selector("body[data-sample]")
    out["open a sample (all runs side by side)"] = (time.perf_counter() - t0) * 1000
    page.close()
    if errors:
        raise SystemExit(f"page errors: {errors}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--data-dir", type=Path, default=REPO.parent / "shared" / "wapiibench")
    parser.add_argument("--work", type=Path, default=Path("/tmp/wapii-bench-viewer"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reuse-data", action="store_true",
                        help="keep the bundle's data from an earlier run of this script (only the page's assets are "
                             "copied again)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from wapii_core.view.bundle import write_bundle
    from wapii_core.view.serve import bind

    t0 = time.perf_counter()
    directories = make_runs(args.work, args.data_dir, args.runs, args.draws)
    print(f"runs: {len(directories)} in {time.perf_counter() - t0:.1f} s")
    site = args.work / "bundle"
    t0 = time.perf_counter()
    if args.reuse_data and (site / "data" / "meta.js").exists():
        from wapii_core.view.bundle import copy_page

        copy_page(site)
    else:
        write_bundle(directories, site)
    built = time.perf_counter() - t0
    data = site / "data"
    first = (data / "meta.js").stat().st_size + sum(p.stat().st_size for p in data.glob("r*/index.js"))
    total = sum(p.stat().st_size for p in data.rglob("*.js"))
    samples = sum(1 for d in directories for _ in open(d / "results.jsonl"))
    print(f"bundle: {samples} samples written in {built:.1f} s; data {total / 2**20:.0f} MiB in "
          f"{sum(1 for _ in data.rglob('*.js'))} files, of which the first page loads {first / 2**20:.2f} MiB")

    server = bind(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    variants = {"file://": (site / "index.html").as_uri(), "http (wapii view)": f"http://127.0.0.1:{server.server_address[1]}/"}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                         args=["--no-sandbox"])
        for _ in range(args.repeat):
            for name, url in variants.items():
                results[name].append(measure(browser, url))
        browser.close()
    server.shutdown()
    names = list(variants)
    print(f"\n| step (ms, median of {args.repeat}; max) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for key in results[names[0]][0]:
        if key.endswith("(rows)"):
            continue
        rows = results[names[0]][0].get(key + " (rows)")
        label = f"{key} → {int(rows)} rows" if rows is not None else key
        cells = []
        for name in names:
            values = [r[key] for r in results[name]]
            cells.append(f"{statistics.median(values):.0f} (max {max(values):.0f})")
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
