"""The plugin host: discovery through entry points, failures reported (the example third-party plugin:
test_example_plugin.py; the declared API and its checks: test_plugin_api.py)."""

from __future__ import annotations

import ast
import inspect
import json
import re

import pluggy
import pytest

from wapii_core.base import hookspecs
from wapii_core.base import plugins

from support import REPO, run_cli

HOOKS = ["register_adapters", "register_backends", "register_commands", "register_datasets", "register_metrics"]


def documented_hooks() -> dict[str, list[str]]:
    """``{hook: [parameter, ...]}`` from the table of docs/plugins.md's section "The hooks"."""
    text = (REPO / "docs" / "plugins.md").read_text()
    section = text.split("## 2. The hooks", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): [p.strip() for p in m.group(2).split(",") if p.strip()]
            for m in re.finditer(r"^\| `(\w+)\(([^)]*)\)` \|", section, re.M)}


def hooks_implemented_by_tests() -> dict[str, list[str]]:
    """``{hook: [test module, ...]}``: the hooks that a test module (a ``test_*.py`` file pytest
    collects, core or plugin) implements with ``@hookimpl``, in its own code or in the source of a
    plugin it installs (a string constant that parses as Python), read from syntax trees."""

    def implemented(tree: ast.AST) -> set[str]:
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any("hookimpl" in ast.unparse(d) for d in node.decorator_list):
                names.add(node.name)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "@hookimpl" in node.value:
                try:
                    names |= implemented(ast.parse(node.value))
                except SyntaxError:
                    pass
        return names

    found: dict[str, list[str]] = {}
    for path in sorted([*(REPO / "tests").glob("test_*.py"), *(REPO / "plugins").glob("*/tests/test_*.py")]):
        tree = ast.parse(path.read_text(), str(path))
        if not any(isinstance(n, ast.FunctionDef) and n.name.startswith("test_") for n in tree.body):
            continue
        for name in implemented(tree):
            found.setdefault(name, []).append(path.name)
    return found


def test_every_hookspec_is_documented_and_tested():
    """Each hook the host declares is in docs/plugins.md's table with its parameters, and some
    test module implements it (a plugin the test registers); a documented hook exists."""
    names = sorted(n for n in dir(hookspecs) if n.startswith("register_"))
    assert names == HOOKS
    documented, tested = documented_hooks(), hooks_implemented_by_tests()
    assert sorted(documented) == names, "docs/plugins.md's hook table differs from the hookspecs"
    for name in names:
        spec = getattr(hookspecs, name)
        assert spec.__doc__.strip()
        assert documented[name] == list(inspect.signature(spec).parameters), name
        assert tested.get(name), f"no test module implements the hook {name}"


@pytest.mark.slow
def test_builtin_plugins_are_discovered_like_third_party_ones():
    listed = {p["name"]: p for p in json.loads(run_cli("plugins", "--json").stdout)}
    assert listed["core"]["distribution"] == "wapii"
    assert set(listed["core"]["backends"]) >= {"oracle", "replay"}
    assert set(listed["core"]["datasets"]) == {"demo", "wapiibench", "wapiibench-context", "workflows"}
    assert listed["core"]["metrics"] == ["pass_at_k", "spec_validation", "wapii", "workflows"]
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_unknown_names_are_one_line_errors():
    done = run_cli("run", "--backend", "no-such-backend", "--quiet")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "unknown backend 'no-such-backend'" in done.stderr
    assert "Traceback" not in done.stderr
