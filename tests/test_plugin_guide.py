"""docs/plugins.md cannot drift: its code blocks that start with a file name are written into those
files, the plugin they make is installed into a target directory as a user would install it, and
run (its dataset and metric provider under the oracle, its backend, its command)."""

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
    assert set(files) == {"pyproject.toml", "wapii_example/__init__.py", "wapii_example/backend.py",
                          "wapii_example/metrics.py"}
    text = GUIDE.read_text(encoding="utf-8")
    assert "../shared" not in text
    from wapii_core.base import plugins

    for name in [*plugins.adapters.names(), *plugins.backends.names(), *plugins.metrics.names(),
                 *plugins.datasets.names()]:
        assert f"`{name}`" in text, name
    assert "percent-decoded" in text and "`sent_url`" in text


@pytest.mark.slow
def test_the_plugin_written_from_the_guide_installs_and_runs(tmp_path):
    source = tmp_path / "plugin"
    for name, body in guide_files().items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(body, encoding="utf-8")
    target = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--disable-pip-version-check", "--target", str(target), str(source)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    env = {"PYTHONPATH": os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")])}
    listed = {p["name"]: p for p in json.loads(run_cli("plugins", "--json", env=env).stdout)}
    assert listed["example"]["distribution"] == "wapii-example-plugin" and listed["example"]["version"] == "0.1.0"
    assert (listed["example"]["backends"], listed["example"]["metrics"], listed["example"]["datasets"]) == (
        ["fixed"], ["verdict_histogram"], ["mine"])

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
