"""The documentation cannot drift from the program: the command-line reference page is what
``scripts/cli_reference.py`` generates from the ``wapii`` command, every member of every plugin
protocol is in the plugin guide's tables, every hook and protocol is in the plugin API reference,
and the site builds with ``--strict`` (a broken link or anchor fails it)."""

from __future__ import annotations

import importlib.util
import inspect
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from wapii_core.base import hookspecs, protocols

from support import REPO

GUIDE = REPO / "docs" / "plugins.md"
API_PAGE = REPO / "docs" / "reference" / "plugin-api.md"
PROTOCOLS = [protocols.Backend, protocols.Adapter, protocols.MetricProvider]
HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("register_"))


def cli_reference():
    spec = importlib.util.spec_from_file_location("cli_reference", REPO / "scripts" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cli_reference_page_is_the_one_generated_from_the_program():
    module = cli_reference()
    assert module.PAGE.read_text(encoding="utf-8") == module.render(), (
        "docs/reference/cli.md differs from `wapii --help`: run .venv/bin/python scripts/cli_reference.py")
    assert module.main(["--check"]) == 0


def test_the_cli_reference_shows_every_command_and_option():
    from wapii_core.cli import build_command

    page = (REPO / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^#+ `(wapii[^`]*)`\n(.*?)(?=^#+ `wapii|\Z)", page, re.M | re.S))

    def walk(command: click.Command, path: list[str]) -> None:
        name = " ".join(path)
        assert name in sections, f"{name} has no section"
        for param in command.params:
            for opt in [*param.opts, *param.secondary_opts] if param.param_type_name == "option" else []:
                assert f"`{opt}`" in sections[name], f"{name}: {opt} is not documented"
            if getattr(param, "help", None):
                assert " ".join(param.help.split()).replace("|", "\\|") in sections[name]
        for sub in getattr(command, "commands", {}):
            walk(command.commands[sub], [*path, sub])

    walk(build_command(), ["wapii"])
    assert {"wapii run", "wapii report", "wapii datasets check", "wapii view"} <= set(sections)


def test_the_drift_check_fails_on_a_stale_page(tmp_path, monkeypatch):
    module = cli_reference()
    stale = tmp_path / "cli.md"
    stale.write_text(module.render().replace("`--draws`", "`--samples`"), encoding="utf-8")
    monkeypatch.setattr(module, "PAGE", stale)
    assert module.main(["--check"]) == 1


def protocol_rows(protocol: type) -> str:
    """The first column of the table under ``**`Name`**`` in the guide's section "3. The protocols"."""
    section = GUIDE.read_text(encoding="utf-8").split("## 3. The protocols", 1)[1].split("\n## ", 1)[0]
    table = section.split(f"**`{protocol.__name__}`**", 1)[1].split("\n\n**`", 1)[0]
    return "\n".join(line.split(" | ")[0] for line in table.splitlines() if line.startswith("| `"))


def protocol_members(protocol: type) -> list[str]:
    """The members a protocol declares itself: attributes and methods, not ``typing.Protocol``'s."""
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {name for name, value in vars(protocol).items() if inspect.isfunction(value) and not name.startswith("_")}
    return sorted(names)


@pytest.mark.parametrize("protocol, member", [(p, m) for p in PROTOCOLS for m in protocol_members(p)],
                         ids=lambda value: getattr(value, "__name__", value))
def test_every_protocol_member_is_in_the_plugin_guide(protocol, member):
    assert re.search(rf"`{member}\b", protocol_rows(protocol)), (
        f"{protocol.__name__}.{member} is not in docs/plugins.md's table of {protocol.__name__}")


def test_the_protocol_tables_are_read():
    assert protocol_members(protocols.Backend) == ["close", "describe", "generate", "kind", "name", "preflight",
                                                   "supports_constraints", "tasks"]
    assert "`render(config, setup, sample[, mode]) -> str`" in protocol_rows(protocols.Adapter)
    assert "`generate(" not in protocol_rows(protocols.MetricProvider)


@pytest.mark.parametrize("name", HOOKS + [p.__name__ for p in PROTOCOLS])
def test_every_hook_and_protocol_is_in_the_plugin_api_reference(name):
    """The reference page lists its members by name: a new hook or protocol must be added there."""
    assert re.search(rf"^\s+- {name}$", API_PAGE.read_text(encoding="utf-8"), re.M)


def build(config: Path, site: Path) -> subprocess.CompletedProcess:
    mkdocs = Path(sys.executable).with_name("mkdocs")
    return subprocess.run([str(mkdocs), "build", "--strict", "-f", str(config), "--site-dir", str(site)],
                          capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})


@pytest.mark.slow
def test_the_site_builds_strict_and_a_broken_link_fails_it(tmp_path):
    done = build(REPO / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "reference" / "cli.html").is_file()
    api_page = (tmp_path / "site" / "reference" / "plugin-api.html").read_text()
    assert "register_adapters" in api_page
    from wapii_core import api

    assert [name for name in api._WHERE if f"<code>{name}</code>" not in api_page] == []
    assert "Bringing a large API" in (tmp_path / "site" / "large-apis.html").read_text()

    copy = tmp_path / "copy"
    shutil.copytree(REPO / "docs", copy / "docs")
    shutil.copy(REPO / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "plugins").symlink_to(REPO / "plugins")  # the built-in plugins' pages (docs/hooks.py)
    page = copy / "docs" / "tutorial.md"
    page.write_text(page.read_text() + "\nSee [the rules](metrics.md#no-such-section).\n")
    broken = build(copy / "mkdocs.yml", tmp_path / "broken")
    assert broken.returncode != 0 and "no-such-section" in broken.stderr


def test_the_readme_is_short_and_its_links_lead_somewhere():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    assert "docs/reference/cli.md" in targets and "docs/tutorial.md" in targets
    missing = [t for t in targets if not t.startswith("http") and not (REPO / t).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"
    for command in ("make run", "make test", "make check", "make docs"):
        assert command in readme
