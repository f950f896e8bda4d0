"""Should the official ``openai`` SDK replace the ``openai`` backend's own client? Start-up and concurrency.

Measures, each in a fresh process:

- import time: ``import openai; openai.OpenAI`` against the backend's client modules (urllib3);
- a burst of ``--requests`` streamed completions, all in flight at once (``--concurrency``
  threads), against the tests' fake server (``tests/fake_openai``, in this process) answering after
  ``--latency`` seconds: the SDK (``client.completions.create(stream=True)`` from a thread pool) and
  the backend's client (``-O adaptive=false``, so both start with every request in flight). Prints
  seconds, requests/s and the most requests the server had in flight.

    python benchmarks/bench_openai_sdk.py [--requests 256] [--concurrency 256] [--latency 1.0]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

IMPORTS = {
    "openai SDK": "import openai; openai.OpenAI",
    "wapii client (urllib3)": "import wapii_openai_models.client",
}


def import_seconds(code: str, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        best = min(best, time.perf_counter() - began)
    return best


def burst(kind: str, requests: int, concurrency: int, latency: float) -> dict:
    sys.path.insert(0, str(REPO / "tests"))
    from concurrent.futures import ThreadPoolExecutor

    from fake_openai import OpenAIServer

    with OpenAIServer(latency=latency, models=["m"]) as server:
        began = time.perf_counter()
        if kind == "sdk":
            import openai

            client = openai.OpenAI(base_url=server.base_url, api_key="none", max_retries=0, timeout=120)

            def one(i: int) -> str:
                stream = client.completions.create(model="m", prompt=f"task {i}\naxios.", max_tokens=250,
                                                   temperature=0, stream=True)
                return "".join(chunk.choices[0].text for chunk in stream if chunk.choices)

            with ThreadPoolExecutor(max_workers=concurrency) as pool:
                texts = list(pool.map(one, range(requests)))
        else:
            from wapii_core.base.model import GenerationRequest, Prompt, Sample
            from wapii_core.base.protocols import BackendOptions
            from wapii_openai_models.backend import OpenAIBackend

            backend = OpenAIBackend(BackendOptions(model="m", extra={
                "base_url": server.base_url, "concurrency": str(concurrency), "adaptive": "false", "no_cache": "true",
                "stop": "", "preflight": "false"}))
            sample = Sample(api="demo", index=0, task="t", config={})
            reqs = [GenerationRequest(sample=sample.model_copy(update={"index": i}),
                                      prompt=Prompt(text=f"task {i}\naxios.", starter="axios.")) for i in range(requests)]
            try:
                texts = [g.raw for g in backend.generate(reqs)]
            finally:
                backend.close()
        elapsed = time.perf_counter() - began
        return {"seconds": elapsed, "answered": sum(bool(t) for t in texts), "peak": server.peak_in_flight}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=256)
    parser.add_argument("--concurrency", type=int, default=256)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--worker", choices=["sdk", "wapii"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(burst(args.worker, args.requests, args.concurrency, args.latency)))
        return
    print("| client | import s | requests | seconds | requests/s | peak in flight (server) |")
    print("|---|---:|---:|---:|---:|---:|")
    for (name, code), kind in zip(IMPORTS.items(), ["sdk", "wapii"]):
        done = subprocess.run([sys.executable, __file__, "--worker", kind, "--requests", str(args.requests),
                               "--concurrency", str(args.concurrency), "--latency", str(args.latency)],
                              check=True, capture_output=True, text=True, cwd=REPO)
        row = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"| {name} | {import_seconds(code):.2f} | {row['answered']} | {row['seconds']:.2f} | "
              f"{row['answered'] / row['seconds']:.1f} | {row['peak']} |")


if __name__ == "__main__":
    main()
