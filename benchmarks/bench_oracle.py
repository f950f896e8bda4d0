"""The conformance kit's oracle over the whole of WAPIIBench: every task, every setup, every adapter.

    python benchmarks/bench_oracle.py [--data-dir ../shared/wapiibench] [--adapters nethttp_go,okhttp_java]
        [--setups full,argument,...]

The sweep that ``tests/test_adapter_conformance.py`` runs on a stratified subset
(``tests/stratified.py``): each adapter renders every task's expected request as its oracle program
(:func:`wapii_core.run.conformance.oracle_checks`), the program is extracted, run in the sandbox,
normalised and judged in each mode the adapter declares; every one must be ``correct``. Prints one row
per adapter and setup (judged, correct, programs per second, seconds) and exits 1 when any task is not
correct (the first failures are printed). Default: every installed adapter.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO.parent / "shared" / "wapiibench"


def main() -> int:
    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.base.setups import CALL_SETUPS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--adapters", default=",".join(plugins.adapters.names()))
    parser.add_argument("--setups", default=",".join(s.value for s in CALL_SETUPS))
    args = parser.parse_args()

    from wapii_core.run.conformance import oracle_checks
    from wapii_core.run.runner import load_dataset

    if not (args.data_dir / "dataset.json").is_file():
        print(f"{args.data_dir}: no WAPIIBench dataset.json there (use --data-dir)", file=sys.stderr)
        return 2
    dataset = load_dataset("wapiibench", args.data_dir)
    setups = [Setup(name) for name in args.setups.split(",")]
    print(f"\n{len(dataset.samples)} WAPIIBench tasks, oracle programs, every mode each adapter declares\n")
    print("| adapter | setup | modes | correct | programs/s | seconds |")
    print("|---|---|---|---:|---:|---:|")
    failed = []
    for name in args.adapters.split(","):
        adapter = plugins.adapters.get(name)()
        try:
            for setup in setups:
                start = time.perf_counter()
                outcomes = oracle_checks(adapter, dataset, [setup])
                seconds = time.perf_counter() - start
                correct = " ".join(f"{o.passed}/{o.total}" for o in outcomes)
                modes = " ".join(o.subject.rsplit(" ", 1)[1] for o in outcomes)
                print(f"| {name} | {setup.value} | {modes} | {correct} | {len(dataset.samples) / seconds:.1f} "
                      f"| {seconds:.0f} |", flush=True)
                failed += [f"{name} {o.subject}: {failure}" for o in outcomes if not o.ok for failure in o.failures]
        finally:
            adapter.close()
    if failed:
        print("\nnot correct (first of each check):", *failed, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
