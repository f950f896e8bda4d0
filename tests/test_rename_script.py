"""scripts/rename_modules.py: moves with ``git mv``, rewrites every kind of reference by pattern,
leaves the demo specs and prose alone, refuses a dirty tree and changes nothing the second time.

Old names are taken from the script's own tables, so that the script run on this repository finds
nothing to rewrite here.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "rename_modules.py"


def _script():
    spec = importlib.util.spec_from_file_location("rename_modules", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


rm = _script()
OLD_OF = {new: old for old, new in rm.MODULES.items()}
OLD_PKG, NEW_PKG = rm.OLD_PACKAGE, rm.NEW_PACKAGE
OLD_STAGE = OLD_PKG.rsplit(".", 1)[1]
PARSING = OLD_OF[f"{NEW_PKG}.parsing"]  # the shared document reader, under its old dotted name
PARSING_LEAF = PARSING.rsplit(".", 1)[1]
VALIDATION_LEAF = OLD_OF[f"{NEW_PKG}.request_validation"].rsplit(".", 1)[1]
CONSTRAINTS = OLD_OF["wapii_core.grammar.run_constraints"]
API_OPTIONS = next(f.old for f in rm.FUNCTIONS if f.new == "parse_option_pairs")  # the plugin API's too
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


def slash(dotted: str) -> str:
    return dotted.replace(".", "/")


FIXTURE = {
    ".gitignore": "__pycache__/\n",
    "wapii_core/__init__.py": "",
    f"{slash(OLD_PKG)}/__init__.py": '"""Reading OpenAPI specs."""\n',
    f"{slash(PARSING)}.py": "def read_document(path):\n    return path\n\nFORMAT = 1\n",
    f"{slash(OLD_PKG)}/index.py": (
        f'"""The index (:mod:`.{PARSING_LEAF}` parses; see ``{VALIDATION_LEAF}``)."""\n'
        f"from .{PARSING_LEAF} import read_document\n\nclass SpecIndex:\n    pass\n"),
    f"{slash(OLD_PKG)}/{VALIDATION_LEAF}.py": "OK = True\n",
    "wapii_core/specs/demo.yaml": f"# a spec file that says {OLD_PKG}.index: left as it is\nopenapi: 3.0.0\n",
    "wapii_core/grammar/__init__.py": "",
    f"{slash(CONSTRAINTS)}.py": "class RunConstraints:\n    pass\n",
    "wapii_core/judge/__init__.py": "",
    # a module added on another branch: a relative import from a sibling stage
    "wapii_core/judge/added.py": f"from ..{OLD_STAGE}.{PARSING_LEAF} import read_document\n",
    "wapii_core/report/__init__.py": "",
    "wapii_core/report/tables.py": "def <describe>(run):\n    return str(run)\n",
    "wapii_core/report/html.py": ("from wapii_core.report.tables import <describe>\n\n"
                                  'def page(run):\n    """Uses :func:`<describe>`."""\n'
                                  "    return <describe>(run)\n"),
    "wapii_core/run/__init__.py": "",
    "wapii_core/run/runner.py": ('__all__ = ["<describe>"]\n\n'
                                "def <describe>(config, dataset, backend, task_set=None):\n    return config\n\n"
                                "def run(config):\n    return <describe>(config, None, None)\n"),
    "wapii_core/generation/__init__.py": "",
    "wapii_core/generation/options.py": "def <options>(model, options, backend):\n    return model\n",
    "wapii_core/cli/__init__.py": "",
    "wapii_core/cli/common.py": "def <options>(pairs):\n    return dict(p.split('=') for p in pairs)\n",
    "wapii_core/cli/run.py": ("from wapii_core.cli.common import <options>\n\n"
                              "def <out>(dataset, adapter, backend, model, setup):\n    return dataset\n\n"
                              "def go(o):\n    return <options>(o), <out>('d', 'a', 'b', None, 's')\n"),
    "wapii_core/api.py": ('_LAZY = {"<options>": "wapii_core.generation.options",\n'
                          f'         "RunConstraints": "{CONSTRAINTS}", "SpecIndex": "{OLD_PKG}.index"}}\n'),
    "plugins/p/pp/__init__.py": "",
    "plugins/p/pp/options.py": ('from wapii_core.api import <options>\n\n__all__ = ["<options>"]\n'),
    "plugins/p/pp/backend.py": "from .options import <options>\n\nOPTIONS = <options>\n",
    "tests/test_x.py": (f"import {OLD_PKG}.index as spec_module\n"
                        f"from {OLD_PKG} import {PARSING_LEAF}\n\n"
                        f'def test_it(monkeypatch):\n    """Spec {PARSING_LEAF} are read once."""\n'
                        f'    monkeypatch.setattr("{OLD_PKG}.index.SpecIndex", None)\n'
                        f"    assert {PARSING_LEAF}.FORMAT == 1\n"
                        f'    assert "{slash(OLD_PKG)}/index.py"\n'),
    "tests/test_layout.py": f'STAGES = ("base", "{OLD_STAGE}", "grammar",\n          "cli")\n',
    "docs/architecture.md": (f"A spec is read once (the word spec stays; `{OLD_STAGE}/` reads it).\n\n"
                             "| stage | what | modules |\n|---|---|---|\n"
                             f"| `{OLD_STAGE}/` | reading specs | index, {PARSING_LEAF}, {VALIDATION_LEAF} |\n"
                             "| `cli/` | the command line | common, run |\n"
                             f"Call `{API_OPTIONS}(MyOptions, options, name)`;\n"
                             f"[the index](../{slash(OLD_PKG)}/index.py).\n"),
    "mkdocs.yml": f"nav:\n  - x.md\n# ::: {OLD_PKG}.index\n",
}

OLD_FUNCTIONS = {"<describe>": next(f.old for f in rm.FUNCTIONS if f.new == "new_run_record"),
                 "<out>": next(f.old for f in rm.FUNCTIONS if f.new == "default_run_dir"), "<options>": API_OPTIONS}
FIXTURE = {rel: re.sub("|".join(OLD_FUNCTIONS), lambda m: OLD_FUNCTIONS[m.group(0)], text)
           for rel, text in FIXTURE.items()}


def make_repo(root: Path) -> Path:
    for rel, text in FIXTURE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "scripts").mkdir()
    (root / "scripts" / "rename_modules.py").write_text(SCRIPT.read_text())
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(GIT + ["-C", str(root), "add", "-A"], check=True)
    subprocess.run(GIT + ["-C", str(root), "commit", "-qm", "fixture"], check=True)
    return root


def run_script(root: Path, script: Path | None = None) -> subprocess.CompletedProcess:
    """The script (the copy in ``root`` unless told) run in ``root``."""
    script = script or root / "scripts" / "rename_modules.py"
    return subprocess.run([sys.executable, str(script)], cwd=root, capture_output=True, text=True, timeout=120)


def test_renames_rewrite_every_reference_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    stale = root / slash(NEW_PKG) / "__pycache__"  # what an earlier run, reset since, leaves behind
    stale.mkdir(parents=True)
    (stale / "index.cpython-311.pyc").write_bytes(b"\0")
    done = run_script(root)
    assert done.returncode == 0, done.stderr
    assert f"git mv {slash(OLD_PKG)} {slash(NEW_PKG)}" in done.stdout

    read = lambda rel: (root / rel).read_text()  # noqa: E731
    assert not (root / slash(OLD_PKG)).exists()
    assert read(f"{slash(NEW_PKG)}/parsing.py").startswith("def read_document")
    assert (root / f"{slash(NEW_PKG)}/request_validation.py").is_file()
    assert (root / "wapii_core/grammar/run_constraints.py").is_file()
    index = read(f"{slash(NEW_PKG)}/index.py")
    assert "from .parsing import read_document" in index and ":mod:`.parsing`" in index
    assert "``request_validation``" in index
    assert read("wapii_core/judge/added.py") == "from ..openapi.parsing import read_document\n"
    assert read("wapii_core/specs/demo.yaml") == FIXTURE["wapii_core/specs/demo.yaml"]

    test = read("tests/test_x.py")
    assert "import wapii_core.openapi.index as spec_module\nfrom wapii_core.openapi import parsing\n" in test
    assert f'"""Spec {PARSING_LEAF} are read once."""' in test  # prose keeps its word
    assert '"wapii_core.openapi.index.SpecIndex"' in test and "parsing.FORMAT" in test
    assert '"wapii_core/openapi/index.py"' in test
    assert read("tests/test_layout.py").startswith('STAGES = ("base", "openapi", "grammar",')
    docs = read("docs/architecture.md")
    assert "| `openapi/` | reading specs | index, parsing, request_validation |" in docs
    assert "(../wapii_core/openapi/index.py)" in docs and "the word spec stays; `openapi/` reads it" in docs
    assert f"`{API_OPTIONS}(MyOptions" in docs  # the plugin API's: kept
    assert "::: wapii_core.openapi.index" in read("mkdocs.yml")

    # one name, two jobs: each definition renamed with what is bound to it; the plugin API's kept
    assert read("wapii_core/report/html.py").count("run_description_line") == 3
    runner = read("wapii_core/run/runner.py")
    assert '__all__ = ["new_run_record"]' in runner and "return new_run_record(config" in runner
    assert read("wapii_core/generation/options.py") == FIXTURE["wapii_core/generation/options.py"]
    api = read("wapii_core/api.py")
    assert f'"{API_OPTIONS}": "wapii_core.generation.options"' in api
    assert '"wapii_core.grammar.run_constraints"' in api and '"wapii_core.openapi.index"' in api
    assert read("plugins/p/pp/backend.py") == FIXTURE["plugins/p/pp/backend.py"]
    cli = read("wapii_core/cli/run.py")
    assert "import parse_option_pairs\n" in cli and "return parse_option_pairs(o), default_run_dir(" in cli
    assert read("wapii_core/cli/common.py").startswith("def parse_option_pairs(pairs):")

    for path in root.rglob("*.py"):
        compile(path.read_text(), str(path), "exec")
    imported = subprocess.run([sys.executable, "-c", "import wapii_core.openapi.index, wapii_core.judge.added"],
                              cwd=root, capture_output=True, text=True)
    assert imported.returncode == 0, imported.stderr

    # idempotent: committed, a second run moves and rewrites nothing
    subprocess.run(GIT + ["-C", str(root), "add", "-A"], check=True)
    subprocess.run(GIT + ["-C", str(root), "commit", "-qm", "renamed"], check=True)
    again = run_script(root)
    assert again.returncode == 0 and "nothing to do" in again.stdout, again.stdout + again.stderr
    assert subprocess.run(["git", "-C", str(root), "status", "--porcelain"], capture_output=True,
                          text=True).stdout == ""


def test_a_dirty_tree_is_refused_in_one_line(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    (root / "wapii_core" / "report" / "tables.py").write_text("changed = True\n")
    done = run_script(root)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "uncommitted changes" in done.stderr
    assert (root / slash(OLD_PKG)).is_dir()


@pytest.mark.slow
def test_on_a_clone_of_this_repository_no_old_path_is_left(tmp_path: Path) -> None:
    """Run on this commit (before or after the renames were applied): afterwards nothing names an old
    module outside the script, every Python file compiles, and a second run changes nothing."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)], check=True)
    first = run_script(clone, SCRIPT)  # this checkout's script, on the committed tree
    assert first.returncode == 0, first.stderr
    olds = [*rm.MODULES, OLD_PKG, slash(OLD_PKG), *{f.old for f in rm.FUNCTIONS} - {API_OPTIONS}]
    grep = subprocess.run(["git", "-C", str(clone), "grep", "-n", "-w", "-F", *sum((["-e", o] for o in olds), []),
                           "--", ".", ":!scripts/rename_modules.py"], capture_output=True, text=True)
    assert grep.stdout == ""
    for path in (clone / "wapii_core").rglob("*.py"):
        compile(path.read_text(), str(path), "exec")
    subprocess.run(GIT + ["-C", str(clone), "add", "-A"], check=True)
    subprocess.run(GIT + ["-C", str(clone), "commit", "-qm", "renamed", "--allow-empty"], check=True)
    second = run_script(clone, SCRIPT)
    assert second.returncode == 0 and "nothing to do" in second.stdout
