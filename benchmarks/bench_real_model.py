"""The paper's experiment on a real model: SmolLM2-135M-Instruct on WAPIIBench tasks, on the CPU.

Runs ``wapii run --backend hf --model smollm2-135m`` (through :func:`wapii_core.run.runner.run`) for
every combination of

- mode: ``completion`` (``-O chat=false``: the prompt continued as plain text) and ``chat`` (the
  chat template, the assistant's answer prefilled with the starter code),
- setup: ``full`` and ``argument``,
- setting: ``unconstrained``, ``constrained``, ``rag``, ``constrained-rag``,

on the same tasks (``--tasks`` spread over the four APIs: every Google Sheets task, the rest shared
evenly), greedy, response cache off. Prints one Markdown table per setup: executable and correct
calls, correct and illegal URLs, methods and arguments (counted among executable calls), errors,
and wall-clock seconds per sample (generation and judging; one process, one torch thread unless
``--threads``).

``--speed`` instead measures generation speed on the demo dataset's prompts (chat template,
prefilled): answer tokens per second at several batch sizes with the static and the dynamic KV
cache (every row generating ``--speed-tokens`` tokens, stop strings off), the prefill of one batch
with and without prefix caching, and float32 against torch's dynamic int8 quantisation of the
linear layers (whose output differs: reported, not used). Variants alternate in one process.

``--no-stop-at-call`` runs with ``-O stop_at_call=false`` (every completion goes on to the stop
string or the token limit) and then checks, for every unconstrained generation, each point at
which the complete-call rule would have stopped it (each prefix of its raw output ending in ``;``
or a newline where the rule holds): the adapter must cut the same call there as from the whole
program, so stopping there changes no verdict. Greedy decoding makes a stopped completion a
prefix of the full one.

    python benchmarks/bench_real_model.py --data-dir ../shared/wapiibench [--tasks 100] \\
        [--max-new-tokens 96] [--settings unconstrained,constrained] [--out runs/bench-real-model]
    python benchmarks/bench_real_model.py --tasks 40 --settings unconstrained --no-stop-at-call
    python benchmarks/bench_real_model.py --speed
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = Path(os.environ.get("WAPII_SHARED", REPO.parent / "shared")) / "wapiibench"
MODES = {"completion": {"chat": "false"}, "chat": {"chat": "true"}}
SETTINGS = ("unconstrained", "constrained", "rag", "constrained-rag")
SETUPS = ("full", "argument")
ROWS = ("executable", "correct", "correct URL", "correct method", "correct arguments", "illegal URL",
        "illegal method", "illegal arguments", "incomplete", "runtime error", "other errors", "s / sample")


def subset(data_dir: Path, tasks: int, out: Path) -> Path:
    """A dataset directory with ``tasks`` WAPIIBench samples spread over the APIs (specs and prompts linked)."""
    samples = json.loads((data_dir / "dataset.json").read_text(encoding="utf-8"))
    by_api: dict[str, list[dict[str, Any]]] = {}
    for sample in samples:
        by_api.setdefault(sample["api"], []).append(sample)
    chosen: list[dict[str, Any]] = []
    left, apis = tasks, sorted(by_api, key=lambda a: len(by_api[a]))
    for position, api in enumerate(apis):  # smallest first: each API gets its share or all it has
        share = min(len(by_api[api]), -(-left // (len(apis) - position)))
        chosen += by_api[api][:share]
        left -= share
    directory = out / "dataset"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "dataset.json").write_text(json.dumps(chosen), encoding="utf-8")
    for name in ("specs", "prompts"):
        link = directory / name
        if not link.exists():
            link.symlink_to((data_dir / name).resolve(), target_is_directory=True)
    return directory


def counts(run_dir: Path, seconds: float) -> dict[str, Any]:
    """The table's rows for one run, from its results."""
    from wapii_core.store.record import read_results

    results = read_results(run_dir)
    executable = [r for r in results if r.verdict != "nonexecutable"]
    arguments = Counter(v for r in executable for field in r.arguments.values() for v in field.values())
    errors = Counter(r.error for r in results if r.verdict == "nonexecutable")
    return {
        "samples": len(results),
        "executable": len(executable),
        "correct": sum(r.verdict == "correct" for r in results),
        "correct URL": sum(r.url == "correct" for r in executable),
        "correct method": sum(r.method == "correct" for r in executable),
        "correct arguments": arguments["correct"],
        "illegal URL": sum(r.url == "illegal" for r in executable),
        "illegal method": sum(r.method == "illegal" for r in executable),
        "illegal arguments": arguments["illegal"],
        "incomplete": errors["incomplete_request"],
        "runtime error": errors["runtime_error"],
        "other errors": sum(errors.values()) - errors["incomplete_request"] - errors["runtime_error"],
        "s / sample": round(seconds / max(1, len(results)), 2),
    }


def one_run(dataset_dir: Path, out: Path, mode: str, setup: str, setting: str, options: dict[str, str]) -> dict[str, Any]:
    """One ``wapii run --dataset-dir`` in this process; its rows."""
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import RunConfig, run

    run_dir = out / f"{mode}-{setup}-{setting}"
    config = RunConfig(dataset=dataset_dir.name, dataset_dir=dataset_dir, backend="hf", model="smollm2-135m",
                       setup=Setup(setup),
                       setting=setting, backend_options={**options, **MODES[mode]})
    began = time.perf_counter()
    run(config, run_dir)
    return counts(run_dir, time.perf_counter() - began)


def check_stop_at_call(run_dir: Path, dataset_dir: Path, setup: str) -> tuple[int, int, list[str], float]:
    """(generations, stop points checked, samples where a stop point cuts another call, share of raw
    characters after the first stop point) for a run made with ``stop_at_call=false``."""
    from wapii_axios_js.adapter import AxiosAdapter
    from wapii_axios_js.prompt import starter_code
    from wapii_core.datasets.loader import load_dataset_dir
    from wapii_core.base.model import Setup
    from wapii_core.kits.models import call_complete_predicate

    starters = {s.id: starter_code(s, Setup(setup)) for s in load_dataset_dir(dataset_dir, "subset").samples}
    adapter = AxiosAdapter()
    from wapii_core.store.record import read_generations

    generations = read_generations(run_dir)
    points, differ, saved, total = 0, [], 0, 0
    for gen in generations:
        raw, code, starter = gen.raw or "", gen.code or "", starters[gen.sample]
        complete = call_complete_predicate(adapter, starter)
        expected = adapter.extract(code)
        first = None
        for end in range(1, len(raw) + 1):
            if raw[end - 1] not in ";\n" or not complete(raw[:end]):
                continue
            points += 1
            first = end if first is None else first
            cut = adapter.extract(starter + raw[:end])
            if (cut.call, cut.error) != (expected.call, expected.error):
                differ.append(gen.sample)
                break
        total += len(raw)
        saved += len(raw) - first if first is not None else 0
    adapter.close()
    return len(generations), points, differ, saved / max(1, total)


def speed(threads: int, tokens: int, batches: list[int], rounds: int) -> None:
    """The ``--speed`` measurements (see the module docstring)."""
    import torch

    torch.set_num_threads(threads)
    from wapii_axios_js.prompt import build_prompt
    from wapii_core.datasets.loader import load_demo
    from wapii_core.base.model import Setup
    from wapii_hf_models.decoding import BatchDecoder, DecodingParams
    from wapii_hf_models.loading import load_model, resolve_source
    from wapii_core.generation.programs import prefill_messages

    loaded = load_model(resolve_source("smollm2-135m"), dtype="float32", device="cpu")
    demo = load_demo()
    texts = []
    for sample in demo.samples:
        prompt = build_prompt(sample, Setup.full, demo)
        texts.append(loaded.tokenizer.apply_chat_template(prefill_messages(prompt.text, prompt.starter),
                                                          tokenize=False, continue_final_message=True))

    def timed(params: DecodingParams, rows: list[str]) -> tuple[float, list[str]]:
        decoder = BatchDecoder(loaded, params)
        decoder.eos_ids, decoder.config.eos_token_id = set(), None  # every row runs to the limit
        began = time.perf_counter()
        out = decoder.complete(rows, add_special_tokens=False)
        return time.perf_counter() - began, [c.text for c in out]

    print(f"speed: SmolLM2-135M float32, {threads} thread(s), demo prompts (chat template, prefilled), "
          f"best of {rounds} rounds")
    for batch in batches:
        rows = (texts * (1 + batch // len(texts)))[:batch]
        for cache in ("static", None):
            best = float("inf")
            for _ in range(rounds):
                # the answer tokens alone: (prefill + N tokens) - (prefill + 1 token)
                full, _ = timed(DecodingParams(max_new_tokens=tokens, stop=None, cache_implementation=cache), rows)
                one, _ = timed(DecodingParams(max_new_tokens=1, stop=None, cache_implementation=cache), rows)
                best = min(best, max(full - one, 1e-9))
            print(f"  batch {batch:2d}, {cache or 'dynamic'} cache: {batch * (tokens - 1) / best:6.1f} answer tokens/s",
                  flush=True)
    rows = texts[:min(len(texts), max(batches))]
    for prefix in (True, False):
        seconds, _ = timed(DecodingParams(max_new_tokens=1, stop=None, prefix_cache=prefix), rows)
        print(f"  prefill of {len(rows)} prompts, prefix caching {'on ' if prefix else 'off'}: {seconds:5.1f} s", flush=True)
    rows = texts[:min(len(texts), max(batches))]
    base_time, base = timed(DecodingParams(max_new_tokens=tokens, stop=None), rows)
    loaded.model = torch.ao.quantization.quantize_dynamic(loaded.model, {torch.nn.Linear}, dtype=torch.qint8)
    int8_time, int8 = timed(DecodingParams(max_new_tokens=tokens, stop=None), rows)
    same = sum(a == b for a, b in zip(base, int8))
    print(f"  {len(rows)} prompts x {tokens} tokens: float32 {base_time:.1f} s, dynamic int8 {int8_time:.1f} s "
          f"(same output {same}/{len(rows)})", flush=True)


def table(results: dict[tuple[str, str, str], dict[str, Any]], setup: str) -> str:
    columns = [(m, s) for m in MODES for s in SETTINGS if (m, setup, s) in results]
    head = "| " + setup + " | " + " | ".join(f"{m} {s}" for m, s in columns) + " |"
    lines = [head, "|---|" + "---:|" * len(columns)]
    for row in ROWS:
        lines.append(f"| {row} | " + " | ".join(str(results[(m, setup, s)][row]) for m, s in columns) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--tasks", type=int, default=100)
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--batch-size", type=int, default=34)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--setups", default=",".join(SETUPS))
    parser.add_argument("--settings", default=",".join(SETTINGS))
    parser.add_argument("--out", type=Path, default=REPO / "runs" / "bench-real-model")
    parser.add_argument("--no-stop-at-call", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--speed-tokens", type=int, default=33)
    parser.add_argument("--speed-batches", default="1,8,16,26")
    parser.add_argument("--speed-rounds", type=int, default=2)
    args = parser.parse_args()
    if args.speed:
        speed(args.threads, args.speed_tokens, [int(b) for b in args.speed_batches.split(",")], args.speed_rounds)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    dataset_dir = subset(args.data_dir, args.tasks, args.out)
    options = {"max_new_tokens": str(args.max_new_tokens), "batch_size": str(args.batch_size),
               "threads": str(args.threads), "no_cache": "true",
               "constraint_references": "false"}  # literal values: a constrained call that finishes runs
    if args.no_stop_at_call:
        options["stop_at_call"] = "false"
    results: dict[tuple[str, str, str], dict[str, Any]] = {}
    began = time.perf_counter()
    for mode in args.modes.split(","):
        for setup in args.setups.split(","):
            for setting in args.settings.split(","):
                results[(mode, setup, setting)] = one_run(dataset_dir, args.out, mode, setup, setting, options)
                print(f"{mode} {setup} {setting}: {json.dumps(results[(mode, setup, setting)])}", file=sys.stderr,
                      flush=True)
    print(f"{args.tasks} tasks, max_new_tokens {args.max_new_tokens}, batch {args.batch_size}, "
          f"{args.threads} thread(s); {time.perf_counter() - began:.0f} s in all\n")
    for setup in args.setups.split(","):
        print(table(results, setup) + "\n")
    if args.no_stop_at_call:
        for (mode, setup, setting) in results:
            if setting in ("unconstrained", "rag"):
                count, points, differ, saved = check_stop_at_call(args.out / f"{mode}-{setup}-{setting}",
                                                                  dataset_dir, setup)
                print(f"stop at the complete call, {mode} {setup} {setting}: {count} generations, {points} stop "
                      f"points, {len(differ)} cutting another call{' (' + ', '.join(differ) + ')' if differ else ''}; "
                      f"{saved:.0%} of the raw characters come after the first one", flush=True)

if __name__ == "__main__":
    main()
