"""The plugin host: discovery through entry points, failures reported (the example third-party plugin:
test_example_plugin.py; the declared API and its checks: test_plugin_api.py)."""

from __future__ import annotations

import json

import pluggy
import pytest

from wapii_core.base import hookspecs
from wapii_core.base import plugins

from support import run_cli

HOOKS = ["register_adapters", "register_backends", "register_commands", "register_datasets", "register_metrics"]


def test_every_hookspec_is_documented_and_tested():
    names = sorted(n for n in dir(hookspecs) if n.startswith("register_"))
    assert names == HOOKS
    for name in names:
        assert getattr(hookspecs, name).__doc__.strip()


def test_builtin_plugins_are_discovered_like_third_party_ones():
    listed = {p["name"]: p for p in json.loads(run_cli("plugins", "--json").stdout)}
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


def test_a_plugin_that_fails_to_import_is_reported_not_fatal(tmp_path):
    dist = tmp_path / "broken_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[wapii]\nbroken = wapii_broken_module_that_does_not_exist\n")
    done = run_cli("plugins", "--json", env={"PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0
    listed = {p["name"]: p for p in json.loads(done.stdout)}
    assert "ModuleNotFoundError" in listed["broken"]["error"]
    assert "core" in listed  # everything else still loads


def test_unknown_names_are_one_line_errors():
    done = run_cli("run", "--backend", "no-such-backend", "--quiet")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "unknown backend 'no-such-backend'" in done.stderr
    assert "Traceback" not in done.stderr
