"""No import circle between the modules of ``wapii_core`` or of a plugin, deferred imports included.

The graph is read from the source, not from what a run happens to import:

- a node is a module; a package's ``__init__`` is its own node (``wapii_core.store``);
- every ``import x`` / ``from x import y`` anywhere in a file is an edge: at module level, inside
  functions, inside ``if TYPE_CHECKING:``;
- ``from a.b import c`` points at ``a.b.c`` when ``c`` is a submodule, else at ``a.b``; ``import a.b.c``
  points at ``a.b.c`` only (no implicit edge to a parent package);
- a lazy facade counts as imports: ``lazy_exports(package, where)`` (:mod:`wapii_core.base.lazy`) is an
  edge from its module to every module ``where`` names.

A circle that a deferred import keeps from failing at run time is still a circle: it means two modules
are one, or a type shared by both lives in the wrong one (move it to a leaf module).
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def package_dirs(root: Path = ROOT) -> list[Path]:
    """The core's package and every plugin's package (``plugins/NAME/wapii_NAME``)."""
    return [root / "wapii_core", *sorted(p.parent for p in root.glob("plugins/*/*/__init__.py"))]


def modules_of(package: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package's ``__init__``), for every ``.py`` file under ``package``."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def _anchor(module: str, is_package: bool, level: int) -> str:
    """The package a relative import of ``level`` dots in ``module`` starts from."""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    return ".".join(parts[: len(parts) - (level - 1)])


def _module_dict(tree: ast.Module, node: ast.expr) -> dict[str, str] | None:
    """The string -> string map ``node`` spells: a dict literal, a module-level name bound to one, or a
    comprehension ``{k: f"<prefix>{v}" for k, v in NAME.items()}`` over one (values get the prefix)."""
    if isinstance(node, ast.Dict):
        return {k.value: v.value for k, v in zip(node.keys, node.values)
                if isinstance(k, ast.Constant) and isinstance(v, ast.Constant) and isinstance(v.value, str)}
    if isinstance(node, ast.Name):
        for stmt in tree.body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
            if any(isinstance(t, ast.Name) and t.id == node.id for t in targets) and stmt.value is not None:
                return _module_dict(tree, stmt.value)
        return None
    if isinstance(node, ast.DictComp) and len(node.generators) == 1:
        gen = node.generators[0]
        call = gen.iter
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "items"
                and isinstance(gen.target, ast.Tuple) and len(gen.target.elts) == 2):
            inner = _module_dict(tree, call.func.value)
            value_name = gen.target.elts[1]
            prefix = ""
            if isinstance(node.value, ast.JoinedStr):
                pieces = node.value.values
                if (len(pieces) == 2 and isinstance(pieces[0], ast.Constant)
                        and isinstance(pieces[1], ast.FormattedValue) and isinstance(pieces[1].value, ast.Name)
                        and isinstance(value_name, ast.Name) and pieces[1].value.id == value_name.id):
                    prefix = pieces[0].value
                else:
                    return None
            elif not (isinstance(node.value, ast.Name) and isinstance(value_name, ast.Name) and node.value.id == value_name.id):
                return None
            return None if inner is None else {k: prefix + v for k, v in inner.items()}
    return None


def imports_of(module: str, path: Path, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports anywhere in its source, lazy facades included."""
    tree = ast.parse(path.read_text(), str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = _anchor(module, is_package, node.level)
                base = f"{anchor}.{node.module}" if node.module else anchor
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else base)
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and (
                getattr(node.func, "id", None) == "lazy_exports" or getattr(node.func, "attr", None) == "lazy_exports"):
            where = _module_dict(tree, node.args[1])
            assert where is not None, f"{path}:{node.lineno}: lazy_exports(...) with a map this test cannot read"
            out.update(importlib.util.resolve_name(target, module) for target in where.values())
    return {target for target in out if target in known and target != module}


def import_graph(packages: list[Path]) -> dict[str, set[str]]:
    """Module -> the modules it imports, over every module of ``packages``."""
    modules: dict[str, tuple[Path, bool]] = {}
    for package in packages:
        modules.update(modules_of(package))
    known = set(modules)
    return {name: imports_of(name, path, is_package, known) for name, (path, is_package) in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` (iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(sorted(component))
    return out


def _shortest_cycle(graph: dict[str, set[str]], start: str, within: set[str]) -> list[str]:
    """The shortest cycle through ``start`` staying inside ``within`` (breadth first)."""
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & within):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return path[::-1]
                if child not in parent:
                    parent[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"{start} is on no cycle")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One shortest cycle through each module that is on any, each once, starting at its smallest name."""
    found: set[tuple[str, ...]] = set()
    for component in strongly_connected(graph):
        if len(component) < 2:
            continue
        for node in component:
            cycle = _shortest_cycle(graph, node, set(component))
            first = cycle.index(min(cycle))
            found.add(tuple(cycle[first:] + cycle[:first]))
    return [list(c) for c in sorted(found)]


def _describe(found: list[list[str]]) -> str:
    return "\n".join(" -> ".join([*cycle, cycle[0]]) for cycle in found)


def test_no_import_circle() -> None:
    found = cycles(import_graph(package_dirs()))
    assert not found, f"{len(found)} import circles (deferred imports count too):\n{_describe(found)}"


def test_graph_covers_core_and_every_plugin() -> None:
    graph = import_graph(package_dirs())
    assert "wapii_core.store" in graph and "wapii_core.store.lock" in graph
    assert "wapii_openai_models.backend" in graph
    assert {p.name for p in package_dirs()[1:]} >= {"wapii_openai_models", "wapii_axios_js", "wapii_requests_py"}
    # the facades count: the sandbox's lazy names point at their modules
    assert "wapii_core.sandbox.launch" in graph["wapii_core.sandbox"]
    assert "wapii_core.base.model" in graph["wapii_core.api"]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_finds_a_deferred_circle(tmp_path: Path) -> None:
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import thing\n",
        "pkg/b.py": "def f():\n    from . import a\n    return a\n",
        "pkg/c.py": "import pkg.a\n",
    })
    assert cycles(import_graph([package])) == [["pkg.a", "pkg.b"]]


def test_type_checking_and_package_nodes(tmp_path: Path) -> None:
    package = _write(tmp_path, {
        "pkg/__init__.py": "from pkg.sub import view\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/view.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import helper\n",
        "pkg/helper.py": "X = 1\n",
        "pkg/leaf.py": "from pkg import X\n",
    })
    graph = import_graph([package])
    # `from pkg.sub import view` is the submodule; `from pkg import X` is the package (no parent edges)
    assert graph["pkg"] == {"pkg.sub.view"}
    assert graph["pkg.sub.view"] == {"pkg.helper"}
    assert graph["pkg.leaf"] == {"pkg"}
    assert cycles(graph) == []
    (package / "helper.py").write_text("import pkg\n")
    assert cycles(import_graph([package])) == [["pkg", "pkg.sub.view", "pkg.helper"]]


def test_lazy_facade_is_an_edge(tmp_path: Path) -> None:
    package = _write(tmp_path, {
        "pkg/__init__.py": ("from wapii_core.base.lazy import lazy_exports\n_WHERE = {'Thing': 'impl'}\n"
                            "__getattr__ = lazy_exports(__name__, {n: f'.{m}' for n, m in _WHERE.items()})[0]\n"),
        "pkg/impl.py": "import pkg\n",
    })
    assert cycles(import_graph([package])) == [["pkg", "pkg.impl"]]
