#!/usr/bin/env python3
"""Rename modules and functions whose names do not say what they hold, and rewrite every reference.

Run from anywhere inside a clean work tree (``python scripts/rename_modules.py [REPO]``): it moves
files with ``git mv`` and rewrites the references in every tracked text file by pattern, so a tree
that has moved on (new modules, new importers) is rewritten too. Nothing is committed: review the
result with ``git status`` / ``git diff --stat`` and commit it. Running it again changes nothing.

Module renames (``MODULES``), references rewritten:

- dotted paths anywhere (imports, ``python -m``, ``importlib``, monkeypatch targets, mkdocstrings
  ``::: x.y``, ``:mod:`` roles, the plugin API's lazy table) and file paths (``wapii_core/x/y.py``,
  ``x/y.py``);
- relative imports (``from .y import``, ``from ..x.y import``) and relative roles (``:mod:`.y```) in
  the package's own files;
- a module imported by its bare name (``from wapii_core.x import y``): the import and the code's
  uses of the name (found with :mod:`ast`, so prose and strings that say the same word are left);
- the stage tuple of ``tests/test_layout.py`` and the layout table of ``docs/architecture.md``.

Function renames (``FUNCTIONS``): where one name does different jobs, each definition is found by
its parameters wherever it now lives, and every reference bound to it (its module, importers of it,
re-exporters such as the plugin API, dotted paths) is renamed; a same-named function that the table
keeps is left alone with everything bound to it.

``wapii_core/specs/`` (the demo specs), the word "spec" in prose, ``.git`` and this file are
never touched.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

OLD_PACKAGE, NEW_PACKAGE = "wapii_core.spec", "wapii_core.openapi"
"""The package whose name is the test folder's in other ecosystems, and what it holds."""

MODULES: dict[str, str] = {
    # inside the moved package: which document reader is which, and no redundant openapi_ prefix
    "wapii_core.spec.document": "wapii_core.openapi.indexed_document",  # an indexed spec's document
    "wapii_core.spec.documents": "wapii_core.openapi.parsing",  # JSON/YAML parsed once, memoised
    "wapii_core.spec.file": "wapii_core.openapi.spec_file",  # read_spec: one file, shape checked
    "wapii_core.spec.reader": "wapii_core.openapi.operations",  # a document reduced to what judging needs
    "wapii_core.spec.openapi_validate": "wapii_core.openapi.request_validation",
    "wapii_core.spec.openapi_compiled": "wapii_core.openapi.compiled_engine",
    "wapii_core.spec.openapi_reference": "wapii_core.openapi.openapi_core_engine",
    "wapii_core.spec.openapi_finder": "wapii_core.openapi.path_finder",
    "wapii_core.spec.openapi_decoding": "wapii_core.openapi.request_decoding",
    # elsewhere
    "wapii_core.report.row_terms": "wapii_core.report.rate_terms",  # each rate row's per-task sums
    "wapii_core.pyhttp.written": "wapii_core.pyhttp.source_query",  # the query as the source wrote it
    "wapii_core.grammar.per_request": "wapii_core.grammar.run_constraints",  # RunConstraints
}
"""Old dotted module -> new; a module of OLD_PACKAGE not named here keeps its name under NEW_PACKAGE."""


@dataclass(frozen=True)
class FunctionRename:
    """One definition of ``old`` (told apart by its parameters) and its new name (``old``: kept)."""

    old: str
    new: str
    matches: Callable[[list[str]], bool]  # the definition's parameter names -> is it this one?


FUNCTIONS: tuple[FunctionRename, ...] = (
    # run/runner.py: builds the run's record (run.json); report/tables.py: a run in one report line
    FunctionRename("describe_run", "new_run_record", lambda p: "dataset" in p and "backend" in p),
    FunctionRename("describe_run", "run_description_line", lambda p: p[:1] == ["run"] and "dataset" not in p),
    # the command line's -O KEY=VALUE strings as a mapping; generation/options.py's, which validates
    # that mapping into a backend's options model, keeps its name: it is a plugin API name
    # (wapii_core.api, API 1.0), and renaming one is a major API version (docs/changelog.md)
    FunctionRename("parse_options", "parse_option_pairs", lambda p: "model" not in p),
    FunctionRename("parse_options", "parse_options", lambda p: "model" in p and "backend" in p),
    # the default run directory of `wapii run` and of `wapii compare`
    FunctionRename("default_out", "default_run_dir", lambda p: "adapter" in p and "setup" in p),
    FunctionRename("default_out", "default_compare_dir", lambda p: "adapter" not in p and "backend" in p),
)

SELF = "scripts/rename_modules.py"
"""This script's place in the repository: never rewritten, whichever copy runs."""

SKIPPED_DIRS = ("wapii_core/specs/", "specs/", "shared/")
"""Never rewritten: the embedded demo specs, the top-level spec files, the shared reference data."""

def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def module_file(repo: Path, dotted: str) -> Path:
    return repo / (dotted.replace(".", "/") + ".py")


def package_of(path: str, repo: Path) -> str | None:
    """The dotted package a Python file is in (walking up while there is an ``__init__.py``)."""
    parts = path.split("/")[:-1]
    start = len(parts)
    while start > 0 and (repo.joinpath(*parts[:start]) / "__init__.py").exists():
        start -= 1
    inside = parts[start:]
    return ".".join(inside) if inside else None


def module_name_of(path: str, repo: Path) -> str | None:
    package = package_of(path, repo)
    stem = Path(path).stem
    if package is None:
        return None
    return package if stem == "__init__" else f"{package}.{stem}"


def resolve_from(node: ast.ImportFrom, path: str, repo: Path) -> str | None:
    """The absolute module of ``from X import ...`` in the file at ``path``."""
    if not node.level:
        return node.module
    package = package_of(path, repo)
    if package is None:
        return None
    parts = package.split(".")
    if node.level - 1 > len(parts) - 1:
        return None
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


# ------------------------------------------------------------------------------------------- plan


def holds_work(path: Path) -> bool:
    """A file, or a directory with a file in it other than bytecode caches."""
    if path.is_dir():
        return any(f.is_file() and "__pycache__" not in f.parts for f in path.rglob("*"))
    return path.exists()


def drop_caches(directory: Path) -> None:
    """Remove the bytecode caches under ``directory`` and the directories left empty (it too)."""
    if not directory.is_dir():
        return
    for cache in sorted(directory.rglob("__pycache__"), reverse=True):
        for f in cache.iterdir():
            f.unlink()
        cache.rmdir()
    for d in sorted((p for p in directory.rglob("*") if p.is_dir()), reverse=True):
        if not any(d.iterdir()):
            d.rmdir()
    if not any(directory.iterdir()):
        directory.rmdir()


def conflicts(repo: Path) -> list[str]:
    """Old and new both present: the tree holds work under both names, which a person must merge."""
    pairs = [(OLD_PACKAGE, NEW_PACKAGE, module_file(repo, OLD_PACKAGE).with_suffix(""),
              module_file(repo, NEW_PACKAGE).with_suffix(""))]
    for old, new in MODULES.items():
        here = NEW_PACKAGE + old[len(OLD_PACKAGE):] if old.startswith(OLD_PACKAGE + ".") else old
        pairs += [(old, new, module_file(repo, o), module_file(repo, new)) for o in {old, here}]
    return [f"{n} exists beside {o}" for o, n, old_path, new_path in pairs
            if holds_work(old_path) and holds_work(new_path) and old_path != new_path]


def module_plan(repo: Path) -> dict[str, str]:
    """Old dotted module -> new, for what exists in this tree (the whole old package, and the others)."""
    plan: dict[str, str] = {}
    old_dir = module_file(repo, OLD_PACKAGE).with_suffix("")
    if holds_work(old_dir) and not holds_work(module_file(repo, NEW_PACKAGE).with_suffix("")):
        plan[OLD_PACKAGE] = NEW_PACKAGE
        for path in sorted(old_dir.glob("*.py")):
            if path.stem != "__init__":
                old = f"{OLD_PACKAGE}.{path.stem}"
                plan[old] = MODULES.get(old, f"{NEW_PACKAGE}.{path.stem}")
    for old, new in MODULES.items():
        if not old.startswith(OLD_PACKAGE + ".") and module_file(repo, old).is_file() \
                and not module_file(repo, new).exists():
            plan[old] = new
    return plan


def tracked_text_files(repo: Path, script: Path) -> dict[str, str]:
    """Every tracked text file (path relative to the repository -> its text), bar the skipped ones."""
    out = {}
    own = script.resolve()
    for rel in git(repo, "ls-files", "-z").split("\0"):
        if not rel or rel.startswith(SKIPPED_DIRS) or "/specs/" in f"/{rel}":
            continue
        path = repo / rel
        if not path.is_file() or path.is_symlink() or path.resolve() == own or rel == SELF:
            continue
        raw = path.read_bytes()
        if b"\0" in raw:
            continue
        try:
            out[rel] = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return out


# ------------------------------------------------------------------------------------ rewriting


@dataclass
class Edits:
    """What was rewritten, per file and kind."""

    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, rel: str, kind: str, n: int) -> None:
        if n:
            per = self.counts.setdefault(rel, {})
            per[kind] = per.get(kind, 0) + n


def sub(pattern: str, repl, text: str, flags: int = 0) -> tuple[str, int]:
    return re.subn(pattern, repl, text, flags=flags)


def source_lines(text: str) -> list[str]:
    """The lines as :mod:`ast` numbers them (ended by ``\\n`` only, unlike ``str.splitlines``)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def offsets(text: str) -> list[int]:
    """Character offset of each line's start (1-based line numbers index it from 1)."""
    starts = [0, 0]
    for line in source_lines(text):
        starts.append(starts[-1] + len(line))
    return starts


def char_col(text_line: str, byte_col: int) -> int:
    return len(text_line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def replace_spans(text: str, spans: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(set(spans), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def name_spans(text: str, tree: ast.AST, names: dict[str, str]) -> tuple[list[tuple[int, int, str]], set[str]]:
    """Spans of the code's uses of each name in ``names`` (loads of a bare name) and the names the
    file also binds otherwise (assigned, a parameter, a def or class, imported from elsewhere)."""
    starts, lines = offsets(text), source_lines(text)
    spans, rebound = [], set()

    def at(node: ast.AST, name: str) -> None:
        line = lines[node.lineno - 1]
        col = char_col(line, node.col_offset)
        if line[col:col + len(name)] == name:
            spans.append((starts[node.lineno] + col, starts[node.lineno] + col + len(name), names[name]))

    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            if isinstance(node.ctx, ast.Load):
                at(node, node.id)
            else:
                rebound.add(node.id)
        elif isinstance(node, ast.arg) and node.arg in names:
            rebound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in names:
            rebound.add(node.name)
    return spans, rebound


def alias_span(text: str, alias: ast.alias, new: str) -> tuple[int, int, str] | None:
    line_starts, lines = offsets(text), source_lines(text)
    line = lines[alias.lineno - 1]
    col = char_col(line, alias.col_offset)
    if line[col:col + len(alias.name)] != alias.name:
        return None
    return line_starts[alias.lineno] + col, line_starts[alias.lineno] + col + len(alias.name), new


def rewrite_bare_module_imports(rel: str, text: str, tree: ast.AST, plan: dict[str, str], repo: Path,
                                edits: Edits) -> str:
    """``from P import old`` where ``P.old`` is a renamed module: the imported name and its uses."""
    renamed: dict[str, str] = {}  # bare old name -> bare new name (imported without ``as``)
    spans: list[tuple[int, int, str]] = []
    aliased: list[ast.alias] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = resolve_from(node, rel, repo)
        for alias in node.names:
            target = f"{base}.{alias.name}" if base else None
            if target not in plan:
                continue
            old, new = alias.name, plan[target].rsplit(".", 1)[1]
            if old == new:
                continue
            if alias.asname:
                span = alias_span(text, alias, new)
                spans += [span] if span else []
            else:
                renamed[old] = new
                aliased.append(alias)
    if not renamed:
        if spans:
            edits.add(rel, "module imported by name", len(spans))
        return replace_spans(text, spans)
    uses, rebound = name_spans(text, tree, renamed)
    for alias in aliased:
        old, new = alias.name, renamed[alias.name]
        span = alias_span(text, alias, new)
        if span is None:
            continue
        if old in rebound:  # the name means something else too: keep it as the import's alias
            spans.append((span[0], span[1], f"{new} as {old}"))
            edits.notes.append(f"{rel}: `{old}` is also a local name there; imported as `{new} as {old}`")
        else:
            spans.append(span)
    spans += [s for s in uses if text[s[0]:s[1]] not in rebound]
    edits.add(rel, "module imported by name", len(spans))
    return replace_spans(text, spans)


def rewrite_module_paths(rel: str, text: str, plan: dict[str, str], repo: Path, edits: Edits) -> str:
    """Dotted paths, file paths, relative imports and roles, the stage tuple, the layout table."""
    if not plan:
        return text
    old_pkg_path = OLD_PACKAGE.replace(".", "/")
    new_pkg_path = NEW_PACKAGE.replace(".", "/")

    def dotted(match: re.Match) -> str:
        old, gap = match.group(1), match.group(2) or ""
        new = plan.get(old, old)
        if len(gap) >= 2:  # a column in preformatted text: keep the next one where it was
            gap = " " * max(2, len(gap) - (len(new) - len(old)))
        return new + gap

    # dotted: the longest old name that is a whole dotted path here (module before its package)
    olds = sorted(plan, key=len, reverse=True)
    pattern = r"(?<![\w.])(" + "|".join(re.escape(o) for o in olds) + r")(?![\w])( {2,}(?=\S))?"
    text, n = sub(pattern, dotted, text)
    edits.add(rel, "dotted path", n)

    # file paths: from the repository root (``wapii_core/spec/file.py``, the ``.py`` optional) or from
    # the stage down (``spec/file.py``, ``pyhttp/written.py``)
    def slashed(match: re.Match) -> str:
        path = match.group(0)
        suffix = ".py" if path.endswith(".py") else ""
        module = path[: len(path) - len(suffix)]
        if module.startswith("wapii_core/"):
            return plan[module.replace("/", ".")].replace(".", "/") + suffix
        return plan["wapii_core." + module.replace("/", ".")].replace(".", "/")[len("wapii_core/"):] + suffix

    modules = [o for o in plan if o != OLD_PACKAGE]
    full = sorted((o.replace(".", "/") for o in modules), key=len, reverse=True)
    short = sorted((o.replace(".", "/")[len("wapii_core/"):] for o in modules), key=len, reverse=True)
    if modules:
        text, n = sub(r"(?<![\w.-])(?:" + "|".join(map(re.escape, full)) + r")(?:\.py)?(?![\w])(?!/\w)", slashed, text)
        edits.add(rel, "file path", n)
        text, n = sub(r"(?<![\w/.-])(?:" + "|".join(map(re.escape, short)) + r")\.py(?![\w])", slashed, text)
        edits.add(rel, "file path", n)
    # the package directory itself (``wapii_core/spec/``)
    if OLD_PACKAGE in plan:
        text, n = sub(r"(?<![\w.-])" + re.escape(old_pkg_path) + r"(?![\w])", new_pkg_path, text)
        edits.add(rel, "file path", n)

    # relative imports and roles: ``from .old`` and ``:mod:`.old``` in the module's own package,
    # ``from ..package.old`` / ``from ..package import`` in a sibling package
    package = package_of(rel, repo) if rel.endswith(".py") else None
    # (the package's own rule last: ``from ..x.y`` first, as a module of the old package)
    for old, new in sorted(plan.items(), key=lambda kv: kv[0] == OLD_PACKAGE) if package else ():
        old_parent, old_leaf = old.rsplit(".", 1)
        new_parent, new_leaf = new.rsplit(".", 1)
        if package == old_parent and old_leaf != new_leaf:
            text, n = sub(r"(?m)^(\s*from\s+\.)" + old_leaf + r"\b", r"\g<1>" + new_leaf, text)
            edits.add(rel, "relative import", n)
            text, n = sub(r"(:\w+:`~?\.)" + old_leaf + r"(?=[`.])", r"\g<1>" + new_leaf, text)
            edits.add(rel, "relative role", n)
            if "_" in old_leaf:  # ``openapi_reference``: an identifier, not a word of prose
                text, n = sub(r"(?<=`)" + old_leaf + r"(?=`)", new_leaf, text)
                edits.add(rel, "module name", n)
        if "." in package and "." in old_parent and package != old_parent \
                and package.rsplit(".", 1)[0] == old_parent.rsplit(".", 1)[0]:
            parent_leaf, new_parent_leaf = old_parent.rsplit(".", 1)[1], new_parent.rsplit(".", 1)[1]
            text, n = sub(r"(?m)^(\s*from\s+\.\.)" + parent_leaf + r"\." + old_leaf + r"\b",
                          r"\g<1>" + new_parent_leaf + "." + new_leaf, text)
            edits.add(rel, "relative import", n)
        if old == OLD_PACKAGE and "." in package and package.rsplit(".", 1)[0] == old_parent:
            text, n = sub(r"(?m)^(\s*from\s+\.\.)" + old_leaf + r"(?![\w])", r"\g<1>" + new_leaf, text)
            edits.add(rel, "relative import", n)

    # the stage tuple (tests/test_layout.py) and the layout table's rows (docs/architecture.md)
    old_stage, new_stage = OLD_PACKAGE.rsplit(".", 1)[1], NEW_PACKAGE.rsplit(".", 1)[1]
    if OLD_PACKAGE in plan:
        def stages(match: re.Match) -> str:
            out, n = re.subn(r"([\"'])" + old_stage + r"\1", r"\g<1>" + new_stage + r"\g<1>", match.group(0))
            edits.add(rel, "stage tuple", n)
            return out
        text = re.sub(r"(?ms)^STAGES\s*=\s*\(.*?\)", stages, text)
    if rel.endswith(".md"):
        text = rewrite_layout_rows(rel, text, plan, old_stage, new_stage, edits)
        if OLD_PACKAGE in plan:  # the folder named in code style elsewhere in a page
            text, n = sub(r"`" + old_stage + r"/`", f"`{new_stage}/`", text)
            edits.add(rel, "file path", n)
    return text


def rewrite_layout_rows(rel: str, text: str, plan: dict[str, str], old_stage: str, new_stage: str,
                        edits: Edits) -> str:
    """``| `stage/` | what | a, b, c |``: the stage's folder and its module names."""
    def row(match: re.Match) -> str:
        stage, middle, modules = match.group(1), match.group(2), match.group(3)
        package = f"wapii_core.{stage}"
        names = [m.strip() for m in modules.split(",")]
        renamed = [plan[f"{package}.{m}"].rsplit(".", 1)[1] if f"{package}.{m}" in plan else m for m in names]
        if names == sorted(names):
            renamed = sorted(renamed)
        new_stage_cell = new_stage if stage == old_stage and OLD_PACKAGE in plan else stage
        out = f"| `{new_stage_cell}/` |{middle}| {', '.join(renamed)} |"
        if out != match.group(0):
            edits.add(rel, "layout table", 1)
        return out

    return re.sub(r"(?m)^\| `(\w+)/` \|(.*)\| ([\w/]+(?:, [\w/]+)*) \|$", row, text)


# ------------------------------------------------------------------------------------- functions


@dataclass
class Definition:
    rename: FunctionRename | None  # None: a definition the table keeps
    module: str
    rel: str


def find_definitions(repo: Path, files: dict[str, str], trees: dict[str, ast.AST]) -> dict[str, list[Definition]]:
    """Every module-level definition of a name in FUNCTIONS, and which rename (if any) it is."""
    wanted = {f.old for f in FUNCTIONS}
    found: dict[str, list[Definition]] = {}
    for rel, tree in trees.items():
        module = module_name_of(rel, repo)
        if module is None:
            continue
        for node in getattr(tree, "body", []):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in wanted:
                params = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
                match = [f for f in FUNCTIONS if f.old == node.name and f.matches(params)]
                if len(match) != 1:
                    print(f"note: {rel}: `{node.name}` matches {len(match)} entries of FUNCTIONS by its parameters "
                          f"({', '.join(params)}); left as it is")
                rename = match[0] if len(match) == 1 and match[0].new != node.name else None
                found.setdefault(node.name, []).append(Definition(rename, module, rel))
    return found


@dataclass
class Links:
    """What each Python file imports by name (``from M import a, b``) and its lazy tables' entries."""

    modules: dict[str, str]  # file -> its dotted module (files in a package)
    imports: dict[str, list[tuple[str, frozenset[str]]]]  # file -> (resolved module, names)
    tables: dict[str, set[tuple[str, str]]]  # file -> ("name", "module") string pairs of dict displays


def links_of(trees: dict[str, ast.AST], repo: Path) -> Links:
    links = Links({}, {}, {})
    for rel, tree in trees.items():
        module = module_name_of(rel, repo)
        if module is not None:
            links.modules[rel] = module
        imports, tables = [], set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = resolve_from(node, rel, repo)
                if base:
                    imports.append((base, frozenset(a.name for a in node.names)))
            elif isinstance(node, ast.Dict):
                tables |= {(k.value, v.value) for k, v in zip(node.keys, node.values)
                           if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
                           and isinstance(k.value, str) and isinstance(v.value, str)}
        links.imports[rel], links.tables[rel] = imports, tables
    return links


def providers(definition: Definition, name: str, links: Links) -> dict[str, str]:
    """Module -> file of every module through which ``name`` means this definition: its own, the
    modules that import it from one of these, and lazy tables (``"name": "module"``) naming one."""
    found = {definition.module: definition.rel}
    changed = True
    while changed:
        changed = False
        for rel, module in links.modules.items():
            if module in found:
                continue
            if any(name in names and base in found for base, names in links.imports[rel]) \
                    or any(key == name and value in found for key, value in links.tables[rel]):
                found[module] = rel
                changed = True
    return found


def importers(name: str, modules: set[str], links: Links) -> set[str]:
    """Files (modules or not: tests, benchmarks) that import ``name`` from one of ``modules``."""
    return {rel for rel, imports in links.imports.items()
            if any(name in names and base in modules for base, names in imports)}


def rename_functions(repo: Path, files: dict[str, str], edits: Edits) -> dict[str, str]:
    trees = parse_all(files, edits)
    definitions = find_definitions(repo, files, trees)
    links = links_of(trees, repo)
    changed = dict(files)
    for name, defs in definitions.items():
        bound: dict[str, list[tuple[Definition, dict[str, str]]]] = {}
        for d in defs:
            provided = providers(d, name, links)
            for rel in set(provided.values()) | importers(name, set(provided), links):
                bound.setdefault(rel, []).append((d, provided))
        renamed = [d for d in defs if d.rename is not None]
        if not renamed:
            continue
        for d in renamed:
            print(f"rename function {d.module}.{name} -> {d.rename.new}")
        for rel, pairs in bound.items():
            targets = {p[0].rename.new if p[0].rename else None for p in pairs}
            if len(targets) != 1:
                edits.notes.append(f"{rel}: `{name}` is bound to two definitions; left as it is, rename by hand")
                continue
            new = targets.pop()
            if new is None:
                continue
            changed[rel], n = sub(r"(?<![\w.])" + name + r"\b", new, changed[rel])
            edits.add(rel, f"function {name}", n)
        # qualified paths anywhere (``wapii_core.run.runner.describe_run``, ``api.parse_options``)
        for d in renamed:
            provided = providers(d, name, links)
            for rel in changed:
                for module in provided:
                    changed[rel], n = sub(r"(?<![\w.])" + re.escape(module) + r"\." + name + r"\b",
                                          f"{module}.{d.rename.new}", changed[rel])
                    edits.add(rel, f"function {name}", n)
                    short = module.rsplit(".", 1)[1]
                    if rel.endswith(".py") and re.search(r"(?m)^\s*(?:from\s+\S+\s+import\s+.*\b" + short
                                                         + r"\b|import\s+" + re.escape(module) + r"\s+as\s+"
                                                         + short + r"\b)", files[rel]):
                        changed[rel], n = sub(r"(?<![\w.])" + short + r"\." + name + r"\b",
                                              f"{short}.{d.rename.new}", changed[rel])
                        edits.add(rel, f"function {name}", n)
    return changed


def parse_all(files: dict[str, str], edits: Edits) -> dict[str, ast.AST]:
    trees = {}
    for rel, text in files.items():
        if rel.endswith(".py"):
            try:
                trees[rel] = ast.parse(text, rel)
            except SyntaxError as exc:
                edits.notes.append(f"{rel}: not Python that parses ({exc.msg}, line {exc.lineno}); "
                                   "only its paths were rewritten")
    return trees


# ------------------------------------------------------------------------------------------ main


def move(repo: Path, plan: dict[str, str]) -> None:
    """``git mv`` the package, then the renamed modules (inside the moved package: at their new place)."""
    if OLD_PACKAGE in plan:
        src, dst = OLD_PACKAGE.replace(".", "/"), NEW_PACKAGE.replace(".", "/")
        drop_caches(repo / dst)  # caches left by an earlier run that was reset: git mv would move into it
        git(repo, "mv", src, dst)
        print(f"git mv {src} {dst}")
        drop_caches(repo / src)  # what git does not track there (bytecode caches) goes too
    for old, new in plan.items():
        if old == OLD_PACKAGE:
            continue
        here = (NEW_PACKAGE + old[len(OLD_PACKAGE):]) if old.startswith(OLD_PACKAGE + ".") else old
        if here == new:
            continue
        src, dst = here.replace(".", "/") + ".py", new.replace(".", "/") + ".py"
        git(repo, "mv", src, dst)
        print(f"git mv {src} {dst}")


def main(argv: list[str]) -> int:
    script = Path(__file__)
    start = Path(argv[1]) if len(argv) > 1 else Path.cwd()
    try:
        repo = Path(git(start, "rev-parse", "--show-toplevel").strip())
    except (subprocess.CalledProcessError, OSError):
        print(f"rename_modules: {start} is not inside a git work tree", file=sys.stderr)
        return 2
    if git(repo, "status", "--porcelain"):
        print(f"rename_modules: {repo} has uncommitted changes; commit or stash them first", file=sys.stderr)
        return 2

    clash = conflicts(repo)
    if clash:
        print(f"rename_modules: {'; '.join(clash)}: merge them by hand, then run this again", file=sys.stderr)
        return 2

    edits = Edits()
    plan = module_plan(repo)
    for old, new in plan.items():
        print(f"rename module {old} -> {new}")
    files = tracked_text_files(repo, script)

    # references (on the old layout, where relative imports still resolve), then the moves
    trees = parse_all(files, Edits()) if plan else {}
    rewritten = {}
    for rel, text in files.items():
        new = text
        if rel in trees:
            new = rewrite_bare_module_imports(rel, new, trees[rel], plan, repo, edits)
        new = rewrite_module_paths(rel, new, plan, repo, edits)
        rewritten[rel] = new
    rewritten = rename_functions(repo, rewritten, edits)
    for rel, text in rewritten.items():
        if text != files[rel]:
            (repo / rel).write_text(text, encoding="utf-8")
    move(repo, plan)

    def now_at(rel: str) -> str:  # where a rewritten file lies after the moves
        for old, new in sorted(plan.items(), key=lambda kv: -len(kv[0])):
            old_path, new_path = old.replace(".", "/"), new.replace(".", "/")
            if rel == old_path + ".py":
                return new_path + ".py"
            if rel.startswith(old_path + "/"):
                return new_path + rel[len(old_path):]
        return rel

    for rel in sorted(edits.counts, key=now_at):
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(edits.counts[rel].items()))
        print(f"rewrote {now_at(rel)}: {kinds}")
    for note in edits.notes:
        print(f"note: {note}")
    touched = len(edits.counts)
    if not plan and not touched:
        print("rename_modules: nothing to do (already renamed)")
    else:
        print(f"rename_modules: {len(plan)} module(s) moved, {touched} file(s) rewritten; "
              "review with `git status` and commit")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
