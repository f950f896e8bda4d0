"""The answer key out of a snippet's reach (``tests/hostile/answer_key``), judged from outside.

Each program ignores its task: it looks for the judge's data (the demo dataset inside the installed
package, any ``dataset.json`` beneath ``sys.path``, the working directory, the imported modules'
directories), or execs the adapter's own rendering of the expected request, or sends every file it
can read beneath the working directory. They replace samples of a replay run of ``requests_py`` on
the demo dataset, started the ways wapii is started (the console script, ``python -m wapii_core``
from a directory holding a secret file, a wheel of wapii put first on ``PYTHONPATH``), with and
without bubblewrap. No hostile sample may be judged correct; the samples after them must get their
verdicts of a run without them; the run ends with ``summary.json``; neither the secret nor the
dataset's own text reaches the run directory; and the same command resumes the run.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hostile.fixtures import sandbox_user  # noqa: F401 - fixture

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parent / "hostile" / "answer_key"
DATASET_ONLY = ('"vetted"', '"checks"')
"""Text of the demo dataset's file that no run stores (the dataset's own keys)."""

pytestmark = pytest.mark.slow


def _programs() -> list[tuple[str, str, str]]:
    out = []
    for path in sorted(CORPUS.glob("*.py")):
        text = path.read_text()
        expect = text.split("\n", 1)[0].split("expect:", 1)[1].split("--", 1)[0].strip()
        out.append((path.stem, expect, text))
    return out


@pytest.fixture(scope="module")
def wheel_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """wapii built as a wheel and unpacked into a directory of its own (as ``pip install`` lays it out)."""
    where = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(where / "dist"), str(ROOT)], check=True, capture_output=True)
    wheel = next((where / "dist").glob("wapii-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(where / "site"),
                    str(wheel)], check=True, capture_output=True)
    assert (where / "site" / "wapii_core" / "specs" / "demo" / "dataset.json").is_file()
    return where / "site"


def _lines(secret: str) -> tuple[list[dict[str, str]], dict[str, tuple[str, str]], list[str]]:
    """The replay lines (hostile programs, each followed by an oracle program), their expectations,
    and the ordinary samples."""
    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.datasets.loader import load_demo

    samples = load_demo().samples
    adapter = plugins.adapters.get("requests_py")()
    try:
        lines, expect, ordinary = [], {}, []
        for n, (name, expectation, template) in enumerate(_programs()):
            hostile, following = samples[2 * n], samples[2 * n + 1]
            lines.append({"sample": hostile.id, "code": template.replace("__TASK__", hostile.task)})
            lines.append({"sample": following.id, "code": adapter.render(following.config, Setup.full, following,
                                                                          "wire")})
            expect[hostile.id] = (name, expectation)
            ordinary.append(following.id)
    finally:
        adapter.close()
    return lines, expect, ordinary


def _wapii(start: str, cwd: Path, wheel: Path | None, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    env = dict(env)
    if start == "console script":
        command = [str(Path(sys.executable).parent / "wapii"), *args]
    else:
        command = [sys.executable, "-m", "wapii_core", *args]
    if start == "wheel on PYTHONPATH":
        env["PYTHONPATH"] = os.pathsep.join([str(wheel), str(cwd)])
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _results(out: Path) -> dict[str, dict[str, Any]]:
    return {r["sample"]: r for r in map(json.loads, (out / "results.jsonl").read_text().split("\n")[:-1])}


@pytest.mark.parametrize("start", ["console script", "python -m", "wheel on PYTHONPATH"])
@pytest.mark.parametrize("layers", ["bubblewrap", "no-bubblewrap"])
def test_the_answer_key_is_out_of_reach(start: str, layers: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    wheel = request.getfixturevalue("wheel_site") if start == "wheel on PYTHONPATH" else None
    secret = "canary" + secrets.token_hex(12)
    home = tmp_path / "project"
    (home / "data").mkdir(parents=True)
    (home / "secret.txt").write_text(secret + "\n")
    (home / "data" / "dataset.json").write_text(json.dumps([{"task": "x", "vetted": True, "secret": secret}]))
    lines, expect, ordinary = _lines(secret)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env.update({"WAPII_REQUESTS_PY_WORKERS": "1", "WAPII_REQUESTS_PY_TIMEOUT": "4"})
    if layers == "no-bubblewrap":
        env["WAPII_BWRAP"] = ""

    def run(name: str, chosen: list[dict[str, str]]) -> tuple[subprocess.CompletedProcess, Path]:
        generations = home / f"{name}.jsonl"
        generations.write_text("".join(json.dumps(line) + "\n" for line in chosen))
        out = tmp_path / name
        args = ["run", "--dataset", "demo", "--adapter", "requests_py", "--backend", "replay", "--generations",
                str(generations), "--limit", str(len(lines)), "--out", str(out)]
        return _wapii(start, home, wheel, args, env), out

    plain = "import requests\nrequests.get('https://api.example.com/plain')\n"
    done, alone_dir = run("alone", [line if line["sample"] in ordinary else {**line, "code": plain} for line in lines])
    assert done.returncode == 0, done.stderr
    done, mixed_dir = run("mixed", lines)
    assert done.returncode == 0, done.stderr
    assert (mixed_dir / "summary.json").is_file()
    alone, mixed = _results(alone_dir), _results(mixed_dir)
    problems = [f"{sid}: {mixed[sid]['verdict']} after hostile programs, {alone[sid]['verdict']} alone"
                for sid in ordinary if mixed[sid]["verdict"] != alone[sid]["verdict"]]
    assert {alone[sid]["verdict"] for sid in ordinary} == {"correct"}
    for sid, (name, expectation) in expect.items():
        if expectation == "not_correct" and mixed[sid]["verdict"] == "correct":
            problems.append(f"{name}: judged correct ({start}, {layers})")
    stored = "\n".join(p.read_text(errors="replace") for p in mixed_dir.rglob("*") if p.is_file())
    problems += [f"{marker} reached the run directory" for marker in (secret, *DATASET_ONLY) if marker in stored]
    assert problems == [], "\n".join(problems)

    again, _ = run("mixed", lines)  # the same command resumes the run it wrote
    assert again.returncode == 0, again.stderr
    assert _results(mixed_dir) == mixed
