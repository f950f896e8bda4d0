"""A large real API beside WAPIIBench: GitHub's OpenAPI description (1,223 operations, 13 MB of JSON).

    python benchmarks/bench_large_spec.py [--data-dir ../shared/wapiibench] [--repeat 3] [--every 6]
                                          [--skip grammar,mask,...] [--legality]

The spec is ``generated/api.github.com.json`` of the npm package ``@octokit/openapi`` at a pinned
version, fetched once with ``npm pack`` into ``<wapii cache>/bench/`` (the tarball's and the
file's sha256 are checked; nothing else of the package is unpacked). Its task set is built by
``wapii datasets scaffold --every N`` (every N-th operation in spec order: 204 tasks with the
default 6; every path parameter and required argument filled from the schema), once with the
spec as JSON and once, the same document, as YAML (how most vendors publish). Reported side by
side with WAPIIBench (395 tasks, 4 specs):

- **index**: ``SpecIndex.load`` of every spec in a fresh process, cold (empty spec cache) and
  warm (the cache the cold run wrote), import included;
- **datasets check**: ``wapii datasets check --dataset-dir D``, a fresh process with a warm cache;
- **oracle**: ``wapii run --backend oracle --dataset-dir D`` (axios_js, sandboxed), a warm cache,
  and the share of tasks judged correct (must be 1.0);
- **grammar**: the full-completion axios grammar of each spec written (spec → grammar, uncached)
  and compiled by llguidance for wapii-tiny's tokenizer;
- **mask**: the time to fill one token mask, per step, along every expected call of the task set
  (``benchmarks/bench_constraints.py``'s measurement);
- **retrieval**: BM25 recall@1 / @5 of the expected endpoint for every task, and the time to build
  the retrievers (first, then again from the disk cache) and to search (in process). The scaffold's task text names its path and
  the operation's summary, so GitHub's figure is optimistic; ``summary only`` queries with the
  summary alone (what a user's natural task resembles more).

``--legality`` adds a constrained wapii-tiny run over the GitHub tasks (literal values, compact
whitespace; ``bench_constraints.py --legality``'s table: illegal URLs and methods must be 0).
Process timings are the median of ``--repeat`` runs, the runs of the compared datasets interleaved
so that both see the same machine; on a shared machine read the ratios, not the absolute figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

PACKAGE = "@octokit/openapi"
VERSION = "23.0.2"
TARBALL_SHA256 = "71a18407dd5e8464f4e0525daf03deabbe65abd9287d6adc7b5d98f516cd0d0c"
MEMBER = "package/generated/api.github.com.json"
SPEC_SHA256 = "829b4bebb19a53133289f7b0bc819f4f1118115821db2ca9f25e9ee995a7da2a"
STEPS = ("index", "check", "oracle", "grammar", "mask", "retrieval")

_INDEX_CHILD = """
import json, sys, time
start = time.perf_counter()
from wapii_core.openapi.index import SpecIndex
for path in sys.argv[1:]:
    SpecIndex.load(path)
print(json.dumps(time.perf_counter() - start))
"""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_github_spec() -> Path:
    """The pinned GitHub description, fetched with npm into the cache once (sha256 checked)."""
    from wapii_core.base.paths import cache_dir

    home = cache_dir() / "bench" / f"octokit-openapi-{VERSION}"
    spec = home / "api.github.com.json"
    if spec.is_file() and sha256(spec) == SPEC_SHA256:
        return spec
    home.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=home) as scratch:
        done = subprocess.run(["npm", "pack", f"{PACKAGE}@{VERSION}", "--silent", "--pack-destination", scratch],
                              capture_output=True, text=True, timeout=600)
        if done.returncode:
            sys.exit(f"error: npm pack {PACKAGE}@{VERSION} failed: {done.stderr.strip()[-300:]}")
        tarball = Path(scratch) / done.stdout.strip().splitlines()[-1]
        if sha256(tarball) != TARBALL_SHA256:
            sys.exit(f"error: {tarball.name}: sha256 differs from the pinned {TARBALL_SHA256}")
        with tarfile.open(tarball) as archive:
            member = archive.getmember(MEMBER)
            if not member.isfile():
                sys.exit(f"error: {tarball.name}: {MEMBER} is not a regular file")
            source = archive.extractfile(member)
            assert source is not None
            staged = Path(scratch) / "spec.json"
            with open(staged, "wb") as out:
                shutil.copyfileobj(source, out)
        if sha256(staged) != SPEC_SHA256:
            sys.exit(f"error: {MEMBER}: sha256 differs from the pinned {SPEC_SHA256}")
        os.replace(staged, spec)
    return spec


def build_datasets(spec: Path, every: int, work: Path) -> dict[str, Path]:
    """The scaffolded GitHub task set with the spec as JSON and as YAML."""
    import yaml

    from wapii_core.datasets.scaffold import scaffold_dataset

    as_json = work / "github-json"
    report = scaffold_dataset(spec, as_json, "github", every)
    print(f"github task set: {' '.join(report.lines())}")
    as_yaml = work / "github-yaml"
    shutil.copytree(as_json, as_yaml)
    (as_yaml / "specs" / "github.json").unlink()
    document = json.loads(spec.read_bytes())
    (as_yaml / "specs" / "github.yaml").write_text(
        yaml.dump(document, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False, allow_unicode=True),
        encoding="utf-8")
    return {"github (JSON)": as_json, "github (YAML)": as_yaml}


def specs_of(directory: Path) -> list[Path]:
    return sorted(p for p in (directory / "specs").iterdir() if p.suffix in (".yaml", ".yml", ".json"))


def timed(command: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True)
    return time.perf_counter() - started, done


def bench_index(datasets: dict[str, Path], repeat: int) -> dict[str, dict[str, float]]:
    times: dict[str, dict[str, list[float]]] = {name: {"cold": [], "warm": []} for name in datasets}
    for _ in range(repeat):
        for name, directory in datasets.items():
            with tempfile.TemporaryDirectory(prefix="wapii-bench-") as cache:
                env = {**os.environ, "WAPII_CACHE_DIR": cache}
                for kind in ("cold", "warm"):
                    out = subprocess.run([sys.executable, "-c", _INDEX_CHILD, *map(str, specs_of(directory))],
                                         env=env, cwd=REPO, capture_output=True, text=True, check=True)
                    times[name][kind].append(json.loads(out.stdout))
    return {name: {kind: statistics.median(values) for kind, values in kinds.items()} for name, kinds in times.items()}


def bench_cli(datasets: dict[str, Path], repeat: int, oracle: bool, work: Path) -> dict[str, dict[str, Any]]:
    """``datasets check`` (or an oracle run) per dataset, warm cache, interleaved, median wall time."""
    env = dict(os.environ)
    runs: dict[str, list[float]] = {name: [] for name in datasets}
    correct: dict[str, float] = {}
    for round_ in range(repeat + 1):  # round 0 warms the caches (specs, npm packages, bytecode) untimed
        for name, directory in datasets.items():
            if oracle:
                out = work / "runs" / f"{name.split()[0]}-{round_}"
                command = [sys.executable, "-m", "wapii_core", "run", "--backend", "oracle", "--dataset-dir",
                           str(directory), "--out", str(out), "--quiet"]
            else:
                command = [sys.executable, "-m", "wapii_core", "datasets", "check", "--dataset-dir", str(directory)]
            seconds, done = timed(command, env)
            if done.returncode not in (0, 1) or (oracle and done.returncode):
                sys.exit(f"error: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
            if round_:
                runs[name].append(seconds)
            if oracle:
                from wapii_core.store.record import load_summary

                correct[name] = load_summary(out).overall["Correct implementations (t)"]
                shutil.rmtree(out)
    return {name: {"wall": statistics.median(values), "correct": correct.get(name)} for name, values in runs.items()}


def bench_grammar(datasets: dict[str, Any], mask: bool) -> dict[str, dict[str, float]]:
    """Grammar build + compile per spec (summed over a dataset's specs) and, with ``mask``, mask times."""
    import contextlib
    import io

    import bench_constraints as bc

    tokenizer = bc.tiny_tokenizer()
    out: dict[str, dict[str, float]] = {}
    for name, dataset in datasets.items():
        with contextlib.redirect_stdout(io.StringIO()):
            rows = bc.bench_compile(dataset, tokenizer)
            masks = bc.bench_mask(dataset, tokenizer) if mask else {}
        out[name] = {"build": sum(r["build"] for r in rows), "compile": sum(r["compile"] for r in rows),
                     "slowest": max(r["build"] + r["compile"] for r in rows),
                     "endpoints": sum(r["endpoints"] for r in rows), **masks}
    return out


def bench_retrieval(datasets: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Recall@1 / @5 of the expected endpoint; the time to build the retrievers (first: what this
    process's spec cache held; cached: built again from the disk cache) and to search for every task."""
    from wapii_core.generation import rag
    from wapii_core.openapi.index import SpecIndex

    out: dict[str, dict[str, float]] = {}
    for name, dataset in datasets.items():
        indexes = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}
        builds = []
        for _ in range(2):
            rag._retrievers.clear()  # the in-process memo: build again (from the disk cache the second time)
            started = time.perf_counter()
            retrievers = {api: rag.Retriever.for_spec(index) for api, index in indexes.items()}
            builds.append(time.perf_counter() - started)
        variants = [("", lambda s: s.task)]
        if name.startswith("github"):
            variants.append((" summary only", lambda s: s.task.split(": send ")[0]))
        for suffix, query in variants:
            started = time.perf_counter()
            first = top = 0
            for api, index in indexes.items():
                samples = [s for s in dataset.samples if s.api == api]
                found = retrievers[api].search_many([query(s) for s in samples], 5)
                for sample, docs in zip(samples, found):
                    expected = (index.candidates(sample.config["url"])[0], sample.config["method"])
                    got = [(d.template, d.method) for d in docs]
                    first += got[0] == expected
                    top += expected in got
            n = len(dataset.samples)
            out[name + suffix] = {"search": time.perf_counter() - started, "build": builds[0], "cached": builds[1],
                                  "at1": first / n, "at5": top / n, "tasks": n}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = Path(os.environ.get("WAPII_SHARED", REPO.parent / "shared"))
    parser.add_argument("--data-dir", type=Path, default=shared / "wapiibench", help="WAPIIBench's files")
    parser.add_argument("--repeat", type=int, default=3, help="timed processes per measurement (median)")
    parser.add_argument("--every", type=int, default=6, help="task set: every N-th GitHub operation")
    parser.add_argument("--skip", default="", help=f"comma-separated steps to leave out: {', '.join(STEPS)}")
    parser.add_argument("--legality", action="store_true", help="also a constrained wapii-tiny run (minutes)")
    args = parser.parse_args()
    skip = {s for s in args.skip.split(",") if s}
    if not (args.data_dir / "dataset.json").is_file():
        sys.exit(f"error: {args.data_dir}: WAPIIBench not found (pass --data-dir)")
    from wapii_core.datasets.loader import load_dataset_dir

    spec = fetch_github_spec()
    with tempfile.TemporaryDirectory(prefix="wapii-large-") as scratch:
        work = Path(scratch)
        github = build_datasets(spec, args.every, work)
        dirs = {**github, "WAPIIBench": args.data_dir}
        loaded = {name: load_dataset_dir(directory, name.split()[0]) for name, directory in dirs.items()}
        counts = {name: f"{len(ds.samples)} tasks, "
                        f"{sum(p.stat().st_size for p in ds.specs.values()) / 2**20:.1f} MB of spec"
                  for name, ds in loaded.items()}
        print("\n" + "\n".join(f"- {name}: {text}" for name, text in counts.items()))
        print(f"\nload {os.getloadavg()[0]:.1f}; median of {args.repeat} fresh processes each, interleaved\n")
        print("| measurement | " + " | ".join(dirs) + " |\n|---|" + "---:|" * len(dirs))

        def row(label: str, values: dict[str, str]) -> None:
            print(f"| {label} | " + " | ".join(values.get(name, "") for name in dirs) + " |", flush=True)

        if "index" not in skip:
            index = bench_index(dirs, args.repeat)
            row("index, cold (s)", {n: f"{v['cold']:.3f}" for n, v in index.items()})
            row("index, warm (s)", {n: f"{v['warm']:.3f}" for n, v in index.items()})
        if "check" not in skip:
            check = bench_cli(dirs, args.repeat, False, work)
            row("datasets check (s)", {n: f"{v['wall']:.2f}" for n, v in check.items()})
        if "oracle" not in skip:
            oracle = bench_cli({k: v for k, v in dirs.items() if "YAML" not in k}, args.repeat, True, work)
            row("oracle run, axios_js (s)", {n: f"{v['wall']:.2f}" for n, v in oracle.items()})
            row("oracle: correct (t)", {n: f"{v['correct']:.3f}" for n, v in oracle.items()})
        if "grammar" not in skip or "mask" not in skip:
            picked = {k: v for k, v in loaded.items() if "YAML" not in k}
            grammar = bench_grammar(picked, "mask" not in skip)
            row("grammar: endpoints", {n: str(v["endpoints"]) for n, v in grammar.items()})
            row("grammar: spec → grammar + compile (s)",
                {n: f"{v['build']:.2f} + {v['compile']:.2f}" for n, v in grammar.items()})
            if "mask" not in skip:
                row("mask per token: median / p95 / max (ms)",
                    {n: f"{v['median_ms']:.3f} / {v['p95_ms']:.3f} / {v['max_ms']:.1f}" for n, v in grammar.items()})
        if "retrieval" not in skip:
            retrieval = bench_retrieval({k: v for k, v in loaded.items() if "YAML" not in k})
            for name, v in retrieval.items():
                column = "github (JSON)" if name.startswith("github") else name
                label = "retrieval" + (" (summary only)" if "summary" in name else "")
                row(f"{label}: recall@1 / @5", {column: f"{v['at1']:.3f} / {v['at5']:.3f}"})
                if not label.endswith(")"):
                    row("retrieval: build first / from cache, search all tasks (s)",
                        {column: f"{v['build']:.2f} / {v['cached']:.2f}, {v['search']:.2f}"})
        if args.legality:
            import bench_constraints as bc
            from wapii_core.base import plugins

            bc.bench_legality(loaded["github (JSON)"], plugins.adapters.get("axios_js")(), 96, 8, ["literal"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
