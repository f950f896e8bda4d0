"""The plugin host: discovery through entry points, failures reported, a third-party plugin used by `wapii run`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pluggy
import pytest

from wapii_core import hookspecs, plugins

from support import REPO, run_cli

HOOKS = ["register_adapters", "register_backends", "register_commands", "register_datasets", "register_metrics"]


def test_every_hookspec_is_documented_and_tested_here():
    names = sorted(n for n in dir(hookspecs) if n.startswith("register_"))
    assert names == HOOKS
    for name in names:
        assert getattr(hookspecs, name).__doc__.strip()


def test_builtin_plugins_are_discovered_like_third_party_ones():
    listed = {p["name"]: p for p in json.loads(run_cli("plugins").stdout)}
    assert listed["core"]["distribution"] == "wapii"
    assert set(listed["core"]["backends"]) >= {"oracle", "replay"}
    assert set(listed["core"]["datasets"]) == {"demo", "wapiibench"}
    assert listed["core"]["metrics"] == ["pass_at_k", "spec_validation", "wapii"]
    assert listed["axios_js"]["distribution"] == "wapii-axios-js"
    assert listed["axios_js"]["adapters"] == ["axios_js"]
    assert "register_adapters" in listed["axios_js"]["hooks"]


def test_a_misspelled_hook_fails_loudly():
    manager = pluggy.PluginManager("wapii")
    manager.add_hookspecs(hookspecs)

    class Typo:
        @hookspecs.hookimpl
        def register_backend(self, register):  # missing "s"
            pass

    manager.register(Typo())
    with pytest.raises(pluggy.PluginValidationError):
        manager.check_pending()


@pytest.fixture(scope="module")
def example_plugin_path(tmp_path_factory) -> Path:
    """The example third-party plugin, installed (not just put on a path) into a target directory."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "--target", str(target), str(REPO / "tests" / "example_plugin")],
                   check=True, capture_output=True)
    return target


def test_a_third_party_plugin_adds_a_backend_and_a_metric(example_plugin_path, tmp_path):
    env = {"PYTHONPATH": str(example_plugin_path)}
    listed = {p["name"]: p for p in json.loads(run_cli("plugins", env=env).stdout)}
    assert listed["example"]["distribution"] == "wapii-example-plugin"
    assert listed["example"]["backends"] == ["fixed"] and listed["example"]["metrics"] == ["verdict_histogram"]

    out = tmp_path / "run"
    done = run_cli("run", "--backend", "fixed", "-O", "completion={method}('{url}', {});\n", "--setup", "full",
                   "--out", str(out), "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    histogram = summary["metrics"]["verdict_histogram"]
    assert sum(histogram.values()) == summary["samples"] > 0
    # the completion hits the right endpoint every time but sends no arguments
    assert summary["overall"]["Correct URLs (t)"] == 1.0 and summary["overall"]["Correct methods (t)"] == 1.0


def test_a_plugin_that_fails_to_import_is_reported_not_fatal(tmp_path):
    dist = tmp_path / "broken_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[wapii]\nbroken = wapii_broken_module_that_does_not_exist\n")
    done = run_cli("plugins", env={"PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0
    listed = {p["name"]: p for p in json.loads(done.stdout)}
    assert "ModuleNotFoundError" in listed["broken"]["error"]
    assert "core" in listed  # everything else still loads


def test_unknown_names_are_one_line_errors():
    done = run_cli("run", "--backend", "no-such-backend", "--quiet")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "unknown backend 'no-such-backend'" in done.stderr
    assert "Traceback" not in done.stderr
