"""docs/plugins.md cannot drift: its code blocks that start with a file name are written into those
files, the plugin they make is installed into a target directory as a user would install it, and
run (its dataset and metric provider under the oracle, its adapter scored by the oracle, its backend,
its command)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import REPO, run_cli

GUIDE = REPO / "docs" / "plugins.md"
BLOCK = re.compile(r"```(?:toml|python)\n# ([\w./-]+\.(?:toml|py))\n(.*?)```", re.S)


def guide_files() -> dict[str, str]:
    """File name -> the guide's blocks for it, in the order they appear."""
    files: dict[str, str] = {}
    for name, body in BLOCK.findall(GUIDE.read_text(encoding="utf-8")):
        files[name] = files.get(name, "") + ("\n\n" if name in files else "") + body
    return files


def test_the_guide_names_its_files_and_every_builtin_plugin():
    files = guide_files()
    assert set(files) == {"pyproject.toml", "wapii_example/__init__.py", "wapii_example/adapter.py",
                          "wapii_example/backend.py", "wapii_example/harness.py", "wapii_example/metrics.py"}
    text = GUIDE.read_text(encoding="utf-8")
    assert "../shared" not in text
    from wapii_core.base import plugins

    for name in [*plugins.adapters.names(), *plugins.backends.names(), *plugins.metrics.names(),
                 *plugins.datasets.names()]:
        assert f"`{name}`" in text, name
    assert "percent-decoded" in text and "`sent_url`" in text


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The plugin made of the guide's blocks, installed into a target directory as a user would: the
    environment that puts it on the path."""
    base = tmp_path_factory.mktemp("guide")
    source = base / "plugin"
    for name, body in guide_files().items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(body, encoding="utf-8")
    target = base / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--disable-pip-version-check", "--target", str(target), str(source)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return {"PYTHONPATH": os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")])}


@pytest.mark.slow
def test_the_adapter_written_from_the_guide_scores_100_percent_under_the_oracle(installed, tmp_path):
    out = tmp_path / "urllib3"
    done = run_cli("run", "--backend", "oracle", "--adapter", "urllib3_py", "--setup", "full", "--setup", "argument",
                   "--setup", "import", "--out", str(out), "--quiet", env=installed)
    assert done.returncode == 0, done.stderr  # the oracle exits 1 below 100 %
    results = []
    for setup in ("full", "argument", "import"):  # one run directory per setup
        run = json.loads((out / setup / "run.json").read_text())
        assert (run["adapter"], run["mode"], run["dataset"], run["setup"]) == ("urllib3_py", "wire", "demo", setup)
        results += [json.loads(line) for line in (out / setup / "results.jsonl").read_text().splitlines()]
    assert len(results) == 26 * 3 and all(r["verdict"] == "correct" for r in results), \
        [(r["sample"], r["reasons"], r["error_detail"]) for r in results if r["verdict"] != "correct"]
    posted = next(r for r in results if r["request"]["method"] == "post" and "data" in r["request"])
    assert posted["request"]["data"] == posted["expected_request"]["data"]  # the body as urllib3 wrote it


@pytest.mark.slow
def test_the_plugin_written_from_the_guide_installs_and_runs(installed, tmp_path):
    env = installed
    listed = {p["name"]: p for p in json.loads(run_cli("plugins", "--json", env=env).stdout)}
    assert listed["example"]["distribution"] == "wapii-example-plugin" and listed["example"]["version"] == "0.1.0"
    assert (listed["example"]["backends"], listed["example"]["metrics"], listed["example"]["datasets"],
            listed["example"]["adapters"]) == (["fixed"], ["verdict_histogram"], ["mine"], ["urllib3_py"])

    out = tmp_path / "oracle"
    done = run_cli("run", "--dataset", "mine", "--data-dir", str(REPO / "specs" / "demo"), "--metric",
                   "verdict_histogram", "--out", str(out), "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"]["Correct implementations (t)"] == 1.0
    assert summary["metrics"]["verdict_histogram"] == {"verdicts": {"correct": summary["samples"]},
                                                       "share_correct": 1.0}

    fixed = tmp_path / "fixed"
    done = run_cli("run", "--dataset", "mine", "--data-dir", str(REPO / "specs" / "demo"), "--backend", "fixed",
                   "-O", "completion=get('{url}');\n", "--out", str(fixed), "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads((fixed / "summary.json").read_text())["overall"]["Executable implementations (t)"] > 0

    hello = run_cli("hello", "Ada", env=env)
    assert hello.returncode == 0 and hello.stdout == "hello Ada\n", hello.stderr
