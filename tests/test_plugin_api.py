"""The declared plugin API: plugins import only ``wapii_core.api``; registrations are checked against
the protocols, with one-line errors naming the plugin; commands, datasets and metric selection."""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
from pathlib import Path

import pytest

from wapii_core import api
from wapii_core.base import hookspecs
from wapii_core.base.capabilities import AdapterCapabilities
from wapii_core.base.metric_kinds import Metric
from wapii_core.base.plugin_checks import PluginClash, PluginError, conform, provider_problem, registration_problem
from wapii_core.kits import KITS

from support import REPO, run_cli

PUBLIC = "wapii_core.api"
FACES = {PUBLIC, "wapii_core.testing", *(f"wapii_core.kits.{kit}" for kit in KITS)}
"""What a plugin (its code and its tests) may import of the core: the face, the kits, the testing module."""


def plugin_packages(root: Path = REPO) -> dict[Path, str]:
    """Every plugin's package directory (the built-in plugins and the example) -> its import name."""
    roots = [*root.glob("plugins/*/wapii_*"), *root.glob("tests/example_plugin/wapii_*")]
    return {path: path.name for path in roots if (path / "__init__.py").exists()}


def imported_modules(node: ast.AST) -> list[str]:
    """The modules an import statement names (``from wapii_core import api``: ``wapii_core.api``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        if node.module in ("wapii_core", "wapii_core.kits"):  # from wapii_core import api / kits import node
            return [f"{node.module}.{alias.name}" for alias in node.names]
        return [node.module]
    return []


def forbidden_imports(source: str, own: str, plugins: set[str]) -> list[str]:
    """``line: module`` of each import in ``source`` of a core module other than the face, a kit or
    the testing module, or of another plugin's package (at any depth: function-level imports count too)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        for module in imported_modules(node):
            top = module.split(".")[0]
            if (top == "wapii_core" and module not in FACES) or (top in plugins and top != own):
                found.append(f"{node.lineno}: {module}")
    return found


def plugin_import_problems(root: Path = REPO) -> list[str]:
    """``file:line: module`` for every import of the core around the face, the kits and testing, in
    every ``.py`` under ``plugins/`` (code and tests) and in the example plugin; and for a plugin's
    package importing another plugin's."""
    packages = plugin_packages(root)
    names = set(packages.values())
    files = {path: "" for path in sorted(root.glob("plugins/**/*.py"))}
    for package, own in packages.items():
        files.update({path: own for path in sorted(package.rglob("*.py"))})
    problems = []
    for path, own in files.items():
        others = names if own else set()  # a plugin's tests may import any plugin (the registry's own tests do)
        problems += [f"{path.relative_to(root)}:{hit}" for hit in forbidden_imports(path.read_text(), own, others)]
    return problems


def test_plugins_import_only_the_face_the_kits_and_testing_and_no_other_plugin():
    packages = plugin_packages()
    assert {"wapii_axios_js", "wapii_requests_py", "wapii_hf_models", "wapii_openai_models",
            "wapii_example"} <= set(packages.values())
    problems = plugin_import_problems()
    assert not problems, ("plugins (code and tests) must import the core only through wapii_core.api, "
                          "wapii_core.kits.* and wapii_core.testing:\n" + "\n".join(problems))


def test_the_plugin_scan_reads_tests_and_deferred_imports(tmp_path):
    """(On a tree with today's main's plugin tests, the scan names each file and import.)"""
    package = tmp_path / "plugins" / "p" / "wapii_p"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from wapii_core.kits.node import NodeRunner\n")
    (tmp_path / "plugins" / "p" / "tests").mkdir()
    (tmp_path / "plugins" / "p" / "tests" / "test_x.py").write_text(
        "from wapii_core.testing import Judge\ndef test():\n    from wapii_core.run.runner import run\n")
    assert plugin_import_problems(tmp_path) == ["plugins/p/tests/test_x.py:3: wapii_core.run.runner"]


def support_modules() -> set[str]:
    """The importable names of the tests' own support code (``support``, ``fake_openai``, ``hostile``, ...)."""
    tests = REPO / "tests"
    modules = {p.stem for p in tests.glob("*.py") if not p.stem.startswith(("test_", "conftest"))}
    packages = {d.name for d in tests.iterdir() if d.is_dir() and d.name != "example_plugin" and any(d.glob("*.py"))}
    return modules | packages


def test_no_plugin_imports_the_tests_support_code():
    """Test doubles (the fake OpenAI server among them) live under ``tests/``: an installed plugin that
    imported one would fail where the repository's tests are not on the path."""
    support = support_modules()
    assert {"support", "fake_openai", "hostile"} <= support
    found = []
    for root in plugin_packages():
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                found += [f"{path.relative_to(REPO)}:{node.lineno}: {m}" for m in modules
                          if m.split(".")[0] in support | {"tests"}]
    assert not found, "\n".join(found)


def test_every_relative_import_of_a_plugin_names_one_of_its_own_modules():
    """(A module moved out of a plugin must not stay importable through an older installed copy.)"""
    missing = []
    for root in plugin_packages():
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    names = [node.module] if node.module else [alias.name for alias in node.names]
                    for name in names:
                        target = path.parent.joinpath(*name.split("."))
                        if not (target.with_suffix(".py").exists() or (target / "__init__.py").exists()):
                            missing.append(f"{path.relative_to(REPO)}:{node.lineno}: .{name}")
    assert not missing, "\n".join(missing)


def test_the_import_scan_catches_each_way_around_the_api():
    plugins = {"wapii_a", "wapii_b"}
    source = ("import wapii_core.run.runner\nfrom wapii_core.base.model import Sample\nfrom wapii_core import cli\n"
              "def f():\n    from wapii_b.x import y\n"
              "from wapii_core.api import Sample\nfrom wapii_core import api\nfrom wapii_a.z import w\nimport json\n"
              "from wapii_core.kits.node import NodeRunner\nfrom wapii_core.kits import jvm\nimport wapii_core.testing\n"
              "from wapii_core.kits import KITS\nimport wapii_core.kits\n")
    assert forbidden_imports(source, "wapii_a", plugins) == [
        "1: wapii_core.run.runner", "2: wapii_core.base.model", "3: wapii_core.cli", "13: wapii_core.kits.KITS",
        "14: wapii_core.kits", "5: wapii_b.x"]


def test_every_public_name_resolves_and_nothing_else_does():
    for name in api.__all__:
        assert getattr(api, name) is not None, name
    with pytest.raises(AttributeError, match="not part of the plugin API"):
        api.load_plugins  # noqa: B018 - internal


def names_plugins_use() -> dict[str, dict[str, set[str]]]:
    """Each face module (the API, a kit, testing) -> each of its names a plugin uses, in its code or its
    tests (``from M import X``, or ``api.X`` after ``from wapii_core import api``) -> the files using it."""
    used: dict[str, dict[str, set[str]]] = {module: {} for module in FACES}
    files = sorted({*REPO.glob("plugins/**/*.py"), *REPO.glob("tests/example_plugin/**/*.py")})
    for path in files:
        tree = ast.parse(path.read_text())
        aliases = {alias.asname or "api" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                   and node.module == "wapii_core" for alias in node.names if alias.name == "api"}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in FACES:
                module, names = node.module, [alias.name for alias in node.names]
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                  and not node.attr.startswith("__")):  # api.__file__ is the module's, not a name of the API
                module, names = PUBLIC, [node.attr]
            else:
                continue
            for name in names:
                used[module].setdefault(name, set()).add(str(path.relative_to(REPO)))
    return used


def names_documented(*pages: str) -> set[str]:
    """The names the plugin guide (``docs/plugins.md``) and ``pages`` (under ``docs/``) write as code."""
    text = "".join((REPO / "docs" / page).read_text(encoding="utf-8") for page in ("plugins.md", *pages))
    return set(re.findall(r"`([A-Za-z_]\w*)", text))


def face_pages() -> dict[str, str]:
    """Each face module -> its reference page under ``docs/``."""
    return {PUBLIC: "reference/plugin-api.md", "wapii_core.testing": "reference/testing.md",
            **{f"wapii_core.kits.{kit}": f"reference/kits/{kit}.md" for kit in KITS}}


def test_every_public_name_is_used_by_a_plugin_or_documented_for_plugin_authors():
    """The face's names are used by a built-in plugin or documented in the guide; a kit's or the testing
    module's by a plugin (code or tests) or in the guide or the module's own reference page (whose
    tables of every name are generated at build time and do not count)."""
    used = names_plugins_use()
    idle = []
    for module, page in face_pages().items():
        documented = names_documented() if module == PUBLIC else names_documented(page)
        exported = importlib.import_module(module).__all__
        idle += [f"{module}.{name}" for name in exported
                 if name not in used[module] and name not in documented and not name.endswith("_VERSION")]
        assert not set(used[module]) - set(exported), module  # (the import scan's twin)
    assert not idle, ("names that no plugin uses and no page documents for plugin authors: "
                      f"{', '.join(idle)} (remove them, with a changelog entry, or document them)")
    assert {"hookimpl", "Generation", "WapiiError"} <= set(used[PUBLIC]) and "API_VERSION" in names_documented()


def test_the_face_is_small_and_a_name_in_two_kits_is_one_object():
    """A kit may re-export what its kind of plugin needs from another (``kits.python``'s ``wire_text``
    is ``kits.wire``'s): the same object, never a variant; nothing of the face is in a kit."""
    assert len(api.__all__) <= 25 and api.API_VERSION == "2.0"
    homes: dict[str, tuple[str, object]] = {}
    for module in sorted(FACES):
        exported = importlib.import_module(module)
        assert exported.__all__ == sorted(exported.__all__)
        for name in exported.__all__:
            if name.endswith("_VERSION"):
                continue
            if name in homes:
                assert getattr(exported, name) is homes[name][1] and PUBLIC not in (module, homes[name][0]), \
                    f"{name}: {homes[name][0]} and {module} differ"
            homes[name] = (module, getattr(exported, name))
    for kit in KITS:
        assert re.fullmatch(r"\d+\.\d+", importlib.import_module(f"wapii_core.kits.{kit}").KIT_VERSION)


def test_a_name_that_left_the_face_says_where_it_went():
    with pytest.raises(AttributeError, match=r"'NodeRunner' since plugin API 2.0: import it from wapii_core.kits.node"):
        api.NodeRunner  # noqa: B018
    with pytest.raises(AttributeError, match="not part of the plugin API"):
        api.no_such_name  # noqa: B018


def test_the_api_version_is_the_changelogs_newest():
    changelog = (REPO / "docs" / "changelog.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+)\b", changelog, flags=re.M)
    assert re.fullmatch(r"\d+\.\d+", api.API_VERSION) and versions and versions[0] == api.API_VERSION


def test_the_register_metrics_docstring_states_the_real_signatures():
    doc = hookspecs.register_metrics.__doc__
    assert "aggregate(results: Iterable[SampleResult], dataset: Dataset)" in doc and "values" in doc


# --- the checks themselves ---------------------------------------------------------------------------

class GoodAdapter:
    name = "good"

    def prompt(self, sample, setup, dataset): ...
    def extract(self, code): ...
    def execute(self, calls): return []
    def normalise(self, request): return request
    def render(self, config, setup, sample): return f"{config}"
    def setup(self): ...


def test_an_adapter_gets_the_defaults_of_the_optional_members_it_lacks():
    plain = GoodAdapter()
    adapter = conform("adapter", plain)
    # the defaults are the core's wrapper's, never set on the plugin's instance
    assert vars(plain) == {} and not hasattr(plain, "close") and plain.render("c", None, None) == "c"
    assert isinstance(adapter, GoodAdapter) and conform("adapter", adapter).render("c", None, None, mode="wire") == "c"
    adapter.seen = 1  # an attribute set by the core reaches the plugin
    assert plain.seen == 1
    assert adapter.default_mode == "reference" and adapter.isolation() is None and adapter.close() is None
    assert adapter.capabilities == AdapterCapabilities(language="unknown", constrained=False)
    assert adapter.render("c", None, None, mode="wire") == "c"  # ``mode`` taken, and ignored
    with pytest.raises(Exception, match="adapter 'good' cannot constrain generation"):
        adapter.constraint("spec.yaml", None)


@pytest.mark.parametrize("change, problem", [
    ({"render": None}, "lacks method render(config, setup, sample)"),
    ({"extract": lambda self: None}, "method extract cannot be called as extract(code)"),
    ({"name": 3}, "attribute name is int, not str"),
    ({"default_mode": "loose"}, "default_mode 'loose' is not one of reference, strict, wire, journal"),
    ({"close": "no"}, "close is str, not a method close()"),
    ({"capabilities": {"language": "go"}}, "attribute capabilities is dict, not an AdapterCapabilities "
                                           "(from wapii_core.api)"),
    ({"capabilities": AdapterCapabilities(language="go", constrained=True)}, "capabilities.constrained is true but it lacks method constraint(spec, setup)"),
    ({"capabilities": AdapterCapabilities(language="go", modes=("wire",))}, "default_mode 'reference' is not one of its capabilities.modes (wire)"),
])
def test_an_adapter_that_breaks_its_protocol_is_named(change, problem):
    members = {k: v for k, v in vars(GoodAdapter).items() if not k.startswith("__")}
    members.update(change)
    broken = type("Broken", (), {k: v for k, v in members.items() if v is not None})
    with pytest.raises(PluginError) as raised:
        conform("adapter", broken())
    assert str(raised.value) == problem


def test_each_registration_is_the_plugin_whose_hook_made_it_and_a_clash_is_its_own_error(monkeypatch):
    import pluggy

    from wapii_core.base import plugins

    manager = pluggy.PluginManager("wapii")
    manager.add_hookspecs(hookspecs)

    class One:
        @hookspecs.hookimpl
        def register_backends(self, register):
            register("twin", lambda *a: None)
            register("solo", lambda *a: None, description="only one")

    class Two:
        @hookspecs.hookimpl
        def register_backends(self, register):
            register("twin", lambda *a: None)

    manager.register(One(), name="one")
    manager.register(Two(), name="two")
    monkeypatch.setattr(plugins, "load_plugins", lambda: manager)
    registry = plugins.Registry("register_backends", "backend")
    entries = registry.entries()
    assert (entries["solo"].plugin, entries["solo"].description, entries["twin"].plugin) == ("one", "only one", "two")
    assert registry.entry("solo").problem is None
    with pytest.raises(PluginClash) as raised:
        registry.entry("twin")
    assert str(raised.value) == ("backend 'twin' is registered by both plugin one and plugin two; "
                                 "uninstall one of them")


def test_registrations_are_checked_before_anything_is_created():
    assert registration_problem("adapter", GoodAdapter) is None
    assert registration_problem("adapter", object) == "lacks method prompt(sample, setup, dataset)"
    assert registration_problem("backend", "hf") == "is str, not a callable factory"

    class Provider:
        values = {"share": Metric("rate", "a share")}

        def aggregate(self, results, dataset):
            return {}

    assert registration_problem("metric provider", Provider()) is None and provider_problem(Provider()) is None
    Provider.values = {"share": "a share"}
    assert registration_problem("metric provider", Provider()) is None  # values are checked when used
    assert provider_problem(Provider()) == "values['share'] is str, not a Metric(kind, description) (from wapii_core.api)"
    del Provider.values
    assert registration_problem("metric provider", Provider()) == "lacks attribute values"
    with pytest.raises(ValueError, match="metric kind 'percent'"):
        Metric("percent")


# --- through the CLI, as installed plugins ---------------------------------------------------------

PLUGIN_A = '''
from pathlib import Path

import typer

from wapii_core.api import Metric, WapiiError, hookimpl, load_dataset_dir


class NoRender:
    name = "no_render"

    def prompt(self, sample, setup, dataset): ...
    def extract(self, code): ...
    def execute(self, calls): return []
    def normalise(self, request): return request
    def setup(self): ...


class Count:
    values = {"results": Metric("count", "how many results there were")}

    def aggregate(self, results, dataset):
        return {"results": len(list(results))}


@hookimpl
def register_adapters(register):
    register("no_render", NoRender)


@hookimpl
def register_backends(register):
    register("twin", lambda options, context: None)


@hookimpl
def register_metrics(register):
    register("result_count", Count(), description="results counted", default=False)


@hookimpl
def register_datasets(register):
    demo = Path(__file__).parent / "demo_copy"
    register("demo_copy", lambda data_dir: load_dataset_dir(demo, "demo_copy"), description="the demo, again")


@hookimpl
def register_commands(app):
    @app.command("hello")
    def hello(name: str = typer.Argument(..., help="Who to greet.")) -> None:
        """Greet someone (a plugin's command)."""
        if name == "nobody":
            raise WapiiError("hello: nobody to greet")
        typer.echo(f"hello {name}")
'''

PLUGIN_B = '''
from wapii_core.api import hookimpl


@hookimpl
def register_backends(register):
    register("twin", lambda options, context: None)
'''


def install(site: Path, module: str, dist: str, source: str) -> None:
    (site / f"{module}.py").write_text(source)
    info = site / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[wapii]\n{module.removeprefix('wapii_')} = {module}\n")


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory) -> dict[str, str]:
    """A wapii with three more plugins installed: one with problems, one clashing, one that does not import."""
    import shutil

    site = tmp_path_factory.mktemp("site")
    install(site, "wapii_checked", "wapii-checked", PLUGIN_A)
    install(site, "wapii_clash", "wapii-clash", PLUGIN_B)
    install(site, "wapii_broken", "wapii-broken", "import wapii_no_such_dependency\n")
    shutil.copytree(REPO / "wapii_core" / "specs" / "demo", site / "demo_copy")
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def one_line_error(done, expected: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stderr == f"error: {expected}\n", done.stderr


@pytest.mark.slow
def test_an_adapter_missing_a_member_is_a_one_line_error_naming_the_plugin(plugin_env, tmp_path):
    done = run_cli("run", "--adapter", "no_render", "--out", str(tmp_path / "r"), "--quiet", env=plugin_env)
    one_line_error(done, "plugin wapii-checked (checked): adapter 'no_render' lacks method "
                         "render(config, setup, sample)")
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
def test_a_name_two_plugins_register_is_an_error_naming_both(plugin_env):
    done = run_cli("run", "--backend", "twin", "--quiet", env=plugin_env)
    one_line_error(done, "backend 'twin' is registered by both plugin wapii-checked (checked) and plugin "
                         "wapii-clash (clash); uninstall one of them")
    listed = {p["name"]: p for p in json.loads(run_cli("plugins", "--json", env=plugin_env).stdout)}
    problems = {**listed["clash"].get("problems", {}), **listed["checked"].get("problems", {})}
    assert "registered by both" in problems["backend twin"]


@pytest.mark.slow
def test_a_plugin_that_failed_to_load_is_named_in_the_error_that_follows(plugin_env):
    done = run_cli("run", "--backend", "from_broken", "--quiet", env=plugin_env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: unknown backend 'from_broken' (known: ")
    assert ("(plugin wapii-broken failed to load: ModuleNotFoundError: No module named "
            "'wapii_no_such_dependency')") in done.stderr


@pytest.mark.slow
def test_a_plugin_adds_a_command(plugin_env):
    done = run_cli("hello", "world", env=plugin_env)
    assert done.returncode == 0 and done.stdout == "hello world\n"
    assert "hello" in run_cli("--help", env=plugin_env).stdout
    one_line_error(run_cli("hello", "nobody", env=plugin_env), "hello: nobody to greet")


@pytest.mark.slow
def test_a_plugin_dataset_is_listed_and_runs_with_an_opt_in_metric(plugin_env, tmp_path):
    listed = run_cli("datasets", "list", env=plugin_env)
    assert listed.returncode == 0 and "demo_copy" in listed.stdout
    out = tmp_path / "run"
    done = run_cli("run", "--dataset", "demo_copy", "--limit", "4", "--metric", "result_count", "--out", str(out),
                   "--quiet", env=plugin_env)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    # --metric adds to the defaults: the paper's table and the built-in providers stay
    assert summary["overall"]["Correct implementations (t)"] == 1.0
    assert set(summary["metrics"]) == {"spec_validation", "pass_at_k", "result_count"}
    assert summary["metrics"]["result_count"] == {"results": 4}
    assert summary["metric_kinds"]["result_count"] == {"results": {"kind": "count",
                                                                   "description": "how many results there were"}}
    report = (out / "report.md").read_text()
    assert "| results | 4 |" in report and "- results (count): how many results there were" in report


@pytest.mark.slow
def test_no_default_metrics_applies_only_the_named_providers(plugin_env, tmp_path):
    out = tmp_path / "run"
    done = run_cli("run", "--limit", "3", "--no-default-metrics", "--metric", "result_count", "--out", str(out),
                   "--quiet", env=plugin_env)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert "overall" not in summary and set(summary["metrics"]) == {"result_count"}
    report = (out / "report.md").read_text()
    assert "## result_count metrics" in report and "## Full completion" not in report  # no table of n/a
    done = run_cli("run", "--limit", "3", "--no-default-metrics", "--out", str(tmp_path / "none"), "--quiet")
    one_line_error(done, "no metric provider to apply: --no-default-metrics needs at least one --metric NAME")


def test_the_changelogs_migration_table_names_every_1x_name_and_its_home():
    """Every name of plugin API 1.7 has a row in 2.0's migration table, whose module exports that very
    name (the table is generated: ``scripts/api_migration.py``)."""
    import importlib.util
    import subprocess
    import sys

    spec = importlib.util.spec_from_file_location("api_migration", REPO / "scripts" / "api_migration.py")
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    text = (REPO / "docs" / "changelog.md").read_text(encoding="utf-8")
    table = text.split(migration.START, 1)[1].split(migration.END, 1)[0]
    rows = dict(re.findall(r"^\| `(\w+)` \| `([\w.]+)` \|$", table, flags=re.M))
    assert set(rows) == set(migration.API_1_NAMES) and len(rows) == 176
    for name, home in rows.items():
        assert name in importlib.import_module(home).__all__, (name, home)
    assert rows["NodeRunner"] == "wapii_core.kits.node" and rows["Sample"] == PUBLIC
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "api_migration.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
