"""No core module compares a plugin's name: the core asks what a plugin declares (a backend's
``kind``, a dataset's ``default_adapter``, a metric provider's ``top_level``), so that a third-party
backend that replays or renders, or a dataset written for another adapter, is treated as the built-in
ones are. Only the built-in plugin registration (``wapii_core/builtin.py``) spells a built-in name.

The scan reads every module's syntax tree: a comparison (``==``, ``!=``, ``in``, ``not in``, ``match``
case) one of whose sides is a string literal (or a literal tuple, list or set of them) that is the name
of a registered backend, adapter, metric provider or dataset is reported with its file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

from wapii_core.base import plugins

CORE = Path(__file__).resolve().parent.parent / "wapii_core"
ALLOWED = {Path("builtin.py")}
"""The built-in plugin registration, relative to the package scanned."""


def _registered() -> set[str]:
    return {name for registry in (plugins.backends, plugins.adapters, plugins.metrics, plugins.datasets)
            for name in registry.names()}


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [value for element in node.elts for value in _literals(element)]
    if isinstance(node, ast.MatchValue):
        return _literals(node.value)
    if isinstance(node, ast.MatchOr):
        return [value for pattern in node.patterns for value in _literals(pattern)]
    return []


def name_comparisons(root: Path, names: set[str]) -> list[str]:
    """``file:line: 'name'`` for every comparison with one of ``names`` in the modules under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root) in ALLOWED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            sides: list[ast.AST] = []
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
            elif isinstance(node, ast.match_case):
                sides = [node.pattern]
            for side in sides:
                for value in _literals(side):
                    if value in names:
                        found.append(f"{path.relative_to(root.parent)}:{node.lineno if hasattr(node, 'lineno') else node.pattern.lineno}: {value!r}")
    return sorted(found, key=lambda line: (line.split(":")[0], int(line.split(":")[1])))


def test_no_core_module_compares_a_plugin_name() -> None:
    names = _registered()
    assert {"oracle", "replay", "wapii"} <= names  # the scan knows the built-in names it looks for
    found = name_comparisons(CORE, names)
    assert not found, "core modules compare plugin names (ask what the plugin declares instead):\n" + "\n".join(found)


def test_the_scan_finds_a_comparison(tmp_path: Path) -> None:
    module = tmp_path / "pkg" / "m.py"
    module.parent.mkdir()
    module.write_text('def f(backend, name):\n    if backend != "replay":\n        return name in ("wapii", "x")\n'
                      '    match name:\n        case "oracle" | "y":\n            return 1\n', encoding="utf-8")
    assert name_comparisons(module.parent, {"replay", "wapii", "oracle"}) == [
        "pkg/m.py:2: 'replay'", "pkg/m.py:3: 'wapii'", "pkg/m.py:5: 'oracle'"]
