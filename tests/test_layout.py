"""The core's layout shows the pipeline: every module belongs to one stage, and stages only look back.

``STAGES`` is the one declaration of the stage order. A module of a stage may import modules of its
own stage and of earlier stages, never of a later one; so the import graph between the stage
subpackages has no cycles. The import graph is read from the source (every ``import`` statement,
including those deferred into functions), not from what happens to be imported at run time.

A new core module goes into its stage's subpackage; only ``ENTRY`` modules sit at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "wapii_core"

STAGES = ("base", "openapi", "datasets", "grammar", "generation", "mock", "sandbox", "judge", "workflows", "pyhttp", "jvm", "store", "report", "run",
          "view", "cli")
"""The pipeline, earliest first: records and plugin machinery, reading specs, datasets, grammars for
constrained decoding, generation (prompts, the core's backends), the mock that answers programs, execution in the sandbox, judging
and scoring, multi-step tasks (their expected runs and judging), the Python HTTP adapters' machinery, the run directory, reports, the run itself (which
drives every stage), the viewer (which reads runs and reopens their datasets), the command line."""

ENTRY = ("api", "kits", "testing", "builtin", "__main__")
"""Top-level modules (and the ``kits`` package) after the last stage: the plugin API's face, its kits
and testing module, the core's built-in plugin and ``python -m``. They may import any stage; no stage
imports them. (``wapii_core`` itself only holds the version.)"""

FACES = ("api", "kits", "testing")
"""What plugins import (``docs/plugins.md``): no other core module imports them, not even an ENTRY one."""


def _modules() -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package's ``__init__``), for every module of the core."""
    out = {}
    for path in sorted(CORE.rglob("*.py")):
        parts = list(path.relative_to(CORE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


def _stage(module: str) -> str | None:
    """The stage of a core module, ``"entry"`` for ENTRY, ``"root"`` for ``wapii_core``; None if unplaced."""
    parts = module.split(".")[1:]
    if not parts:
        return "root"
    if parts[0] in STAGES:
        return parts[0]
    if (len(parts) == 1 or parts[0] == "kits") and parts[0] in ENTRY:
        return "entry"
    return None


def _rank(stage: str) -> int:
    return {"root": -1, "entry": len(STAGES)}.get(stage, STAGES.index(stage) if stage in STAGES else -2)


def _imports(module: str, path: Path, package: bool, modules: dict) -> set[str]:
    """The core modules ``module`` imports anywhere in its source (``from x import y``: ``x.y`` if a module)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: len(module.split(".")) - (0 if package else 1) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != module:
                out.add(target)
    return out


def _arrows() -> list[tuple[str, str]]:
    modules = _modules()
    return sorted((m, t) for m, (path, package) in modules.items() for t in _imports(m, path, package, modules))


def test_every_core_module_has_a_stage() -> None:
    unplaced = [m for m in _modules() if _stage(m) is None]
    assert not unplaced, (f"core modules without a stage: {unplaced}; move each into a subpackage of "
                          f"tests/test_layout.py's STAGES")


def test_no_arrow_from_an_earlier_stage_to_a_later_one() -> None:
    backward = [f"{m} ({_stage(m)}) -> {t} ({_stage(t)})" for m, t in _arrows()
                if None not in (_stage(m), _stage(t)) and _rank(_stage(m)) < _rank(_stage(t))]
    assert not backward, "imports from an earlier stage into a later one:\n" + "\n".join(backward)


def test_no_core_module_imports_the_plugin_face_the_kits_or_testing() -> None:
    """They are faces for plugins: the core imports the modules they re-export, never them (so that a
    face can shrink or a kit be versioned without the core noticing)."""
    def face(module: str) -> bool:
        return module.split(".")[1:2] != [] and module.split(".")[1] in FACES

    found = [f"{m} -> {t}" for m, t in _arrows() if face(t) and not face(m)]
    assert not found, "core modules importing wapii_core.api, a kit or wapii_core.testing:\n" + "\n".join(found)


def test_no_cycle_between_stages() -> None:
    graph: dict[str, set[str]] = {}
    for m, t in _arrows():
        a, b = _stage(m), _stage(t)
        if a and b and a != b:
            graph.setdefault(a, set()).add(b)
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                pytest.fail("import cycle between stages: " + " -> ".join(path[path.index(nxt):] + [nxt]))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
