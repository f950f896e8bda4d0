"""What one hostile program costs its batch's compilation: the search that leaves it alone, measured.

Usage: ``python benchmarks/bench_compile_isolation.py [--data-dir ../shared/wapiibench] [--batch 64]
[--memory-mb 384] [--base-s 6] [--per-program-s 0.1] [--languages go,java]``

For each language, a batch of ``--batch`` WAPIIBench oracle programs (made unique by a nonce, so no
build cache serves them) is compiled alone, then again with one hostile program of each compile-time
class in place of its first program (the ones of ``tests/hostile/go_run`` and
``tests/hostile/java_run``): the wall time, the compiler runs the search took (Go), and whether every
ordinary program still compiled and only the hostile one failed, with its detail. The budget is the
one the hostile tests use (a small one, so that each attack meets its limit in seconds); the default
budget (1 GiB, 30 s + 0.5 s per program) makes each step of the search proportionally longer.
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HOSTILE = REPO / "tests" / "hostile"
GO = ("21_build_constraint_drops_the_file", "22_constant_doubling_exhausts_the_compiler",
      "23_flat_expression_stalls_the_preparation", "24_read_the_batch_sources")
JAVA = ("17_constant_folding_exhausts_javac", "18_deep_nesting_overflows_javac", "19_error_recovery_runs_javac_for_minutes")


def _go(programs: list[str], url: str, budget) -> None:
    from wapii_nethttp_go.build import build_batch

    def measure(label: str, sources: list[str]) -> None:
        began = time.perf_counter()
        batch = build_batch(sources, budget)
        elapsed = time.perf_counter() - began
        failed = [(i, built.error) for i, built in enumerate(batch.programs) if built.error]
        batch.remove()
        print(f"go   {label:<45} {elapsed:6.2f} s  compiler runs {batch.timings['compiler_runs']:.0f}  "
              f"failed {[(i, (e or '')[:70]) for i, e in failed]}", flush=True)

    measure("clean", [p + f"\n// {secrets.token_hex(8)}\n" for p in programs])
    for name in GO:
        hostile = (HOSTILE / "go_run" / f"{name}.go").read_text().replace("__EXPECTED_URL__", url)
        measure(name, [hostile] + [p + f"\n// {secrets.token_hex(8)}\n" for p in programs[1:]])


def _java(programs: list[str], url: str, budget, extract) -> None:
    from wapii_core.jvm.compile import Javac, compile_units
    from wapii_core.jvm.javasource import program_source
    from wapii_core.jvm.support import JavaLibrary, support_jar
    from wapii_core.jvm.toolchain import find_jdk, find_runtime

    jdk = find_jdk()
    javac = Javac(jdk, support_jar(jdk, find_runtime(), JavaLibrary("bench-compile")), budget)

    def measure(label: str, calls: list[str]) -> None:
        with tempfile.TemporaryDirectory() as work:
            sources = {f"p{i}": program_source(extract(call).call or "", f"p{i}") for i, call in enumerate(calls)}
            began = time.perf_counter()
            failed = compile_units(javac, sources, Path(work) / "src", Path(work) / "classes", release=17)
            elapsed = time.perf_counter() - began
        print(f"java {label:<45} {elapsed:6.2f} s  failed {[(k, v[:70]) for k, v in failed.items()]}", flush=True)

    try:
        measure("warm-up (the compiler JVM's start)", programs[:2])
        measure("clean", programs)
        for name in JAVA:
            hostile = (HOSTILE / "java_run" / f"{name}.java").read_text().replace("__EXPECTED_URL__", url)
            measure(name, [hostile] + programs[1:])
    finally:
        javac.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=REPO.parent / "shared" / "wapiibench")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--memory-mb", type=int, default=384)
    parser.add_argument("--base-s", type=float, default=6.0)
    parser.add_argument("--per-program-s", type=float, default=0.1)
    parser.add_argument("--languages", default="go,java")
    args = parser.parse_args()

    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset
    from wapii_core.sandbox.compile_budget import CompileBudget

    budget = CompileBudget(memory=args.memory_mb << 20, base_s=args.base_s, per_program_s=args.per_program_s)
    print(f"budget: {budget.describe()}; batch of {args.batch}", flush=True)
    samples = load_dataset("wapiibench", args.data_dir).samples[: args.batch]
    for language in args.languages.split(","):
        adapter = plugins.adapters.get({"go": "nethttp_go", "java": "httpclient_java"}[language])()
        try:
            programs = [adapter.render(s.config, Setup.full, s) for s in samples]
            if language == "go":
                adapter.setup()
                _go(programs, samples[0].config["url"], budget)
            else:
                _java(programs, samples[0].config["url"], budget, adapter.extract)
        finally:
            adapter.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
